//! Unit tests of the mongosh command parser.

use bson::{doc, Bson};

use super::*;

fn command(text: &str) -> ShellCommand {
    parse_command(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn error(text: &str) -> ParseError {
    match parse_command(text) {
        Ok(c) => panic!("{text}: expected an error, got {c:?}"),
        Err(e) => e,
    }
}

#[test]
fn find_with_projection_and_cursor_chain() {
    let c = command(
        "db.posts.find({ tag: 'mongodb' }, { title: 1, _id: 0 })\n  .sort({ date: -1 })\n  .skip(20).limit(10);",
    );
    assert_eq!(c.collection, "posts");
    assert_eq!(c.method, "find");
    assert_eq!(
        c.args,
        vec![
            Bson::Document(doc! {"tag": "mongodb"}),
            Bson::Document(doc! {"title": 1, "_id": 0})
        ]
    );
    assert_eq!(
        c.chain,
        vec![
            ("sort".to_string(), vec![Bson::Document(doc! {"date": -1})]),
            ("skip".to_string(), vec![Bson::Int32(20)]),
            ("limit".to_string(), vec![Bson::Int32(10)]),
        ]
    );
}

#[test]
fn collection_forms() {
    assert_eq!(
        command("db.getCollection('odd-name').countDocuments({})").collection,
        "odd-name"
    );
    assert_eq!(command("db['odd name'].find()").collection, "odd name");
    let c = command("db.system.profile.find().explain('executionStats')");
    assert_eq!(
        (c.collection.as_str(), c.method.as_str()),
        ("system.profile", "find")
    );
    assert_eq!(
        c.chain,
        vec![(
            "explain".to_string(),
            vec![Bson::String("executionStats".into())]
        )]
    );
    let c =
        command("db . users . insertOne ( { _id: ObjectId('5f0c3c0b9d1e8a3f2c4b6a10') } ) // done");
    assert_eq!(
        (c.collection.as_str(), c.method.as_str(), c.args.len()),
        ("users", "insertOne", 1)
    );
    let c = command("db.logmsg.find({host: ObjectId('5f0c3c0b9d1e8a3f2c4b6a10')}).sort({time: -1}).limit(5000).toArray()");
    assert_eq!(c.chain.len(), 3);
    let c = command("db.c.find().count()");
    assert_eq!(c.chain, vec![("count".to_string(), vec![])]);
}

#[test]
fn update_and_aggregate_arguments() {
    let c = command(
        "db.hosts.updateOne({_id: 1}, {$push: {logmsgs: {$each: [{time: ISODate('2014-03-28T09:42:41.382Z')}], $sort: {time: 1}, $slice: -1000}}})",
    );
    assert_eq!(c.method, "updateOne");
    assert_eq!(c.args.len(), 2);
    let c = command("db.orders.aggregate([{ $match: { total: { $gt: NumberDecimal('10') } } }, { $group: { _id: '$customer' } }])");
    assert!(matches!(&c.args[0], Bson::Array(stages) if stages.len() == 2));
}

#[test]
fn errors_say_where_and_why() {
    let cases: &[(&str, usize, usize, &str)] = &[
        (
            "users.find()",
            1,
            1,
            "expected a command starting with 'db.'",
        ),
        ("db", 1, 3, "expected '.' after 'db'"),
        ("db.", 1, 4, "expected a collection name after 'db.'"),
        (
            "db.users",
            1,
            9,
            "expected '.<method>(…)' after the collection",
        ),
        ("db.users.find", 1, 14, "expected '(' after .find"),
        (
            "db.users.find({a: 1)",
            1,
            20,
            "expected ',' or '}' after a field value",
        ),
        (
            "db.users.find().sortt({a: 1})",
            1,
            17,
            "unknown cursor method .sortt(…)",
        ),
        (
            "db.users.find()\n.limit(1) x",
            2,
            11,
            "unexpected text after the command",
        ),
        ("db.getCollectionNames()", 1, 4, "is a database method"),
        (
            "db.getCollection(5).find()",
            1,
            4,
            "getCollection expects one collection name",
        ),
        ("db['a$b'].find()", 1, 4, "not a valid collection name"),
        (
            "db.users.find().",
            1,
            17,
            "expected a method name after '.'",
        ),
    ];
    for (text, line, column, message) in cases {
        let e = error(text);
        assert!(e.message.contains(message), "{text}: {e}");
        assert_eq!((e.line, e.column), (*line, *column), "{text}: {e}");
    }
}

#[test]
fn display_round_trips() {
    for text in [
        "db.posts.find({ tag: 'mongodb' }, { title: 1 }).sort({ date: -1 }).limit(10)",
        "db.getCollection('odd-name').insertOne({ n: NumberLong(5) })",
        "db.system.profile.find().explain('executionStats')",
        "db.c.aggregate([ { $match: { a: /x/i } } ])",
    ] {
        let c = command(text);
        assert_eq!(c.to_string(), text);
        assert_eq!(command(&c.to_string()), c);
    }
}

#[test]
fn commands_can_be_read_one_by_one_from_a_script() {
    let script = "db.a.find();\ndb.b.insertOne({x: 1})";
    let mut parser = Parser::new(script);
    let first = read_command(&mut parser).unwrap();
    assert!(parser.eat(';').unwrap());
    let second = read_command(&mut parser).unwrap();
    assert_eq!(
        (first.collection.as_str(), second.collection.as_str()),
        ("a", "b")
    );
    assert!(parser.is_at_end().unwrap());
}
