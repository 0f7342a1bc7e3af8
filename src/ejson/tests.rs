//! Unit tests of the reader and the writers: one per form, round trips, every error kind.

use bson::{
    doc, oid::ObjectId, spec::BinarySubtype, Binary, Bson, DateTime, Decimal128, Document, Regex,
    Timestamp,
};

use super::*;

fn value(text: &str) -> Bson {
    match parse_value(text) {
        Ok(v) => v,
        Err(e) => panic!("{text}: {e}"),
    }
}

fn error(text: &str) -> ParseError {
    match parse_value(text) {
        Ok(v) => panic!("{text}: expected an error, got {v:?}"),
        Err(e) => e,
    }
}

fn oid(hex: &str) -> ObjectId {
    ObjectId::parse_str(hex).unwrap()
}

fn regex(pattern: &str, options: &str) -> Bson {
    Bson::RegularExpression(Regex {
        pattern: pattern.to_string().try_into().unwrap(),
        options: options.to_string().try_into().unwrap(),
    })
}

#[test]
fn one_key_wrappers_read_as_the_general_path_reads_them() {
    // Whitespace and comments around a one-key wrapper, and wrappers that are not one key.
    assert_eq!(
        value("{ \"$numberInt\" /* n */ : \"5\" // five\n }"),
        Bson::Int32(5)
    );
    assert_eq!(
        value(r#"{"$date" : { "$numberLong" : "1" } }"#),
        Bson::DateTime(DateTime::from_millis(1))
    );
    assert_eq!(
        value(r#"{"$binary": {"base64": "AQ==", "subType": "00"}}"#),
        Bson::Binary(Binary {
            subtype: BinarySubtype::Generic,
            bytes: vec![1]
        })
    );
    assert_eq!(
        value(r#"{"$code": "f()"}"#),
        Bson::JavaScriptCode("f()".into())
    );
    // `$`-keys that are no wrapper stay a document.
    assert_eq!(
        value(r#"{"$ref": "c", "$id": 1}"#),
        Bson::Document(doc! { "$ref": "c", "$id": 1 })
    );
    assert!(error("{'$oid': 'x'}").message.contains("not an ObjectId"));
}

#[test]
fn plain_json_numbers_follow_the_extended_json_rules() {
    assert_eq!(value("0"), Bson::Int32(0));
    assert_eq!(value("-2147483648"), Bson::Int32(i32::MIN));
    assert_eq!(value("2147483647"), Bson::Int32(i32::MAX));
    assert_eq!(value("2147483648"), Bson::Int64(2_147_483_648));
    assert_eq!(value("-9223372036854775808"), Bson::Int64(i64::MIN));
    assert_eq!(
        value("9223372036854775808"),
        Bson::Double(9_223_372_036_854_775_808.0)
    );
    assert_eq!(value("1.0"), Bson::Double(1.0));
    assert_eq!(value("1e3"), Bson::Double(1000.0));
    assert_eq!(value("-1.5E-3"), Bson::Double(-0.0015));
    assert_eq!(value(".5"), Bson::Double(0.5));
    assert_eq!(value("+7"), Bson::Int32(7));
    assert!(matches!(value("-0.0"), Bson::Double(v) if v == 0.0 && v.is_sign_negative()));
    assert_eq!(value("Infinity"), Bson::Double(f64::INFINITY));
    assert_eq!(value("-Infinity"), Bson::Double(f64::NEG_INFINITY));
    assert!(matches!(value("NaN"), Bson::Double(v) if v.is_nan()));
}

#[test]
fn canonical_number_wrappers() {
    assert_eq!(value(r#"{"$numberInt": "-5"}"#), Bson::Int32(-5));
    assert_eq!(value(r#"{"$numberLong": "5"}"#), Bson::Int64(5));
    assert_eq!(value(r#"{"$numberDouble": "1.5"}"#), Bson::Double(1.5));
    assert_eq!(
        value(r#"{"$numberDouble": "Infinity"}"#),
        Bson::Double(f64::INFINITY)
    );
    assert_eq!(
        value(r#"{"$numberDouble": "-Infinity"}"#),
        Bson::Double(f64::NEG_INFINITY)
    );
    assert!(matches!(value(r#"{"$numberDouble": "NaN"}"#), Bson::Double(v) if v.is_nan()));
    assert!(
        matches!(value(r#"{"$numberDouble": "-0.0"}"#), Bson::Double(v) if v == 0.0 && v.is_sign_negative())
    );
    assert_eq!(
        value(r#"{"$numberDecimal": "9.99"}"#),
        Bson::Decimal128("9.99".parse::<Decimal128>().unwrap())
    );
}

#[test]
fn extended_json_type_wrappers() {
    let id = oid("5f0c3c0b9d1e8a3f2c4b6a10");
    assert_eq!(
        value(r#"{"$oid": "5f0c3c0b9d1e8a3f2c4b6a10"}"#),
        Bson::ObjectId(id)
    );
    assert_eq!(
        value(r#"{"$date": {"$numberLong": "-1"}}"#),
        Bson::DateTime(DateTime::from_millis(-1))
    );
    assert_eq!(
        value(r#"{"$date": "1970-01-01T00:00:01.5Z"}"#),
        Bson::DateTime(DateTime::from_millis(1500))
    );
    assert_eq!(
        value(r#"{"$date": 86400000}"#),
        Bson::DateTime(DateTime::from_millis(86_400_000))
    );
    assert_eq!(
        value(r#"{"$binary": {"base64": "AQID", "subType": "80"}}"#),
        Bson::Binary(Binary {
            subtype: BinarySubtype::UserDefined(0x80),
            bytes: vec![1, 2, 3]
        })
    );
    assert_eq!(
        value(r#"{"$binary": "AQID", "$type": "2"}"#),
        Bson::Binary(Binary {
            subtype: BinarySubtype::BinaryOld,
            bytes: vec![1, 2, 3]
        })
    );
    let uuid = Bson::Binary(Binary {
        subtype: BinarySubtype::Uuid,
        bytes: vec![
            0x3b, 0x24, 0x11, 0x01, 0xe2, 0xbb, 0x42, 0x55, 0x8c, 0xaf, 0x41, 0x36, 0xc5, 0x66,
            0xa9, 0x62,
        ],
    });
    assert_eq!(
        value(r#"{"$uuid": "3b241101-e2bb-4255-8caf-4136c566a962"}"#),
        uuid
    );
    assert_eq!(
        value(r#"{"$regularExpression": {"pattern": "^a", "options": "mi"}}"#),
        regex("^a", "im")
    );
    assert_eq!(
        value(r#"{"$timestamp": {"t": 4294967295, "i": 1}}"#),
        Bson::Timestamp(Timestamp {
            time: u32::MAX,
            increment: 1
        })
    );
    assert_eq!(value(r#"{"$minKey": 1}"#), Bson::MinKey);
    assert_eq!(value(r#"{"$maxKey": 1}"#), Bson::MaxKey);
    assert_eq!(value(r#"{"$undefined": true}"#), Bson::Undefined);
    assert_eq!(value(r#"{"$symbol": "s"}"#), Bson::Symbol("s".into()));
    assert_eq!(
        value(r#"{"$code": "f()"}"#),
        Bson::JavaScriptCode("f()".into())
    );
    assert_eq!(
        value(r#"{"$code": "f(x)", "$scope": {"x": 1}}"#),
        Bson::JavaScriptCodeWithScope(bson::JavaScriptCodeWithScope {
            code: "f(x)".into(),
            scope: doc! {"x": 1}
        })
    );
    let pointer =
        value(r#"{"$dbPointer": {"$ref": "db.c", "$id": {"$oid": "5f0c3c0b9d1e8a3f2c4b6a10"}}}"#);
    match &pointer {
        Bson::DbPointer(p) => assert_eq!(db_pointer_parts(p), Some(("db.c".to_string(), id))),
        other => panic!("{other:?}"),
    }
}

#[test]
fn query_operators_and_dbrefs_stay_documents() {
    assert_eq!(value(r#"{"$gt": 5}"#), Bson::Document(doc! {"$gt": 5}));
    assert_eq!(
        value(r#"{"$regex": "a", "$options": "i"}"#),
        Bson::Document(doc! {"$regex": "a", "$options": "i"})
    );
    assert_eq!(
        value(r#"{"$ref": "c", "$id": 1}"#),
        Bson::Document(doc! {"$ref": "c", "$id": 1})
    );
}

#[test]
fn shell_syntax() {
    let doc = parse_document(
        "// a comment\n{ _id: 1, 'single': 'it\\'s', $set: { a: true }, b: [1, 2,], /* c */ c: null, d: undefined, }",
    )
    .unwrap();
    assert_eq!(
        doc,
        doc! { "_id": 1, "single": "it's", "$set": { "a": true }, "b": [1, 2], "c": Bson::Null, "d": Bson::Undefined }
    );
    assert_eq!(value("{ 1: 'x' }"), Bson::Document(doc! {"1": "x"}));
    assert_eq!(value("{ café: 1 }"), Bson::Document(doc! {"café": 1}));
    assert_eq!(
        value(r#""\u00e9\x41\u{1F600}\ud83d\ude00\n""#),
        Bson::String("éA😀😀\n".into())
    );
}

#[test]
fn shell_constructors() {
    let id = oid("5f0c3c0b9d1e8a3f2c4b6a10");
    assert_eq!(
        value("ObjectId('5f0c3c0b9d1e8a3f2c4b6a10')"),
        Bson::ObjectId(id)
    );
    assert_eq!(
        value("ObjectID(\"5f0c3c0b9d1e8a3f2c4b6a10\")"),
        Bson::ObjectId(id)
    );
    assert_eq!(
        value("new ObjectId('5f0c3c0b9d1e8a3f2c4b6a10')"),
        Bson::ObjectId(id)
    );
    let day = Bson::DateTime(DateTime::from_millis(1_704_067_200_000));
    assert_eq!(value("ISODate('2024-01-01T00:00:00Z')"), day);
    assert_eq!(value("ISODate('2024-01-01')"), day);
    assert_eq!(value("new Date('2024-01-01T02:00:00+02:00')"), day);
    assert_eq!(value("new Date(1704067200000)"), day);
    assert_eq!(value("NumberLong(5)"), Bson::Int64(5));
    assert_eq!(
        value("NumberLong('9223372036854775807')"),
        Bson::Int64(i64::MAX)
    );
    assert_eq!(value("NumberInt('7')"), Bson::Int32(7));
    assert_eq!(value("NumberInt(7)"), Bson::Int32(7));
    assert_eq!(value("Double(7)"), Bson::Double(7.0));
    assert_eq!(
        value("NumberDecimal('1.10')"),
        Bson::Decimal128("1.10".parse().unwrap())
    );
    assert_eq!(
        value("Decimal128('1.10')"),
        Bson::Decimal128("1.10".parse().unwrap())
    );
    assert_eq!(
        value("UUID('3b241101e2bb42558caf4136c566a962')"),
        value(r#"{"$uuid": "3b241101-e2bb-4255-8caf-4136c566a962"}"#)
    );
    assert_eq!(
        value("BinData(0, 'AQID')"),
        Bson::Binary(Binary {
            subtype: BinarySubtype::Generic,
            bytes: vec![1, 2, 3]
        })
    );
    assert_eq!(value("HexData(0, '010203')"), value("BinData(0, 'AQID')"));
    assert_eq!(
        value("Timestamp(1, 2)"),
        Bson::Timestamp(Timestamp {
            time: 1,
            increment: 2
        })
    );
    assert_eq!(
        value("Timestamp({ t: 1, i: 2 })"),
        Bson::Timestamp(Timestamp {
            time: 1,
            increment: 2
        })
    );
    assert_eq!(value("MinKey()"), Bson::MinKey);
    assert_eq!(value("MaxKey"), Bson::MaxKey);
    assert_eq!(value("/ab+c/i"), regex("ab+c", "i"));
    assert_eq!(value("/a[/]b\\/c/smi"), regex("a[/]b\\/c", "ims"));
    assert_eq!(value("BSONRegExp('a/b', 'x')"), regex("a/b", "x"));
    assert_eq!(value("Code('f()')"), Bson::JavaScriptCode("f()".into()));
    assert_eq!(value("BSONSymbol('s')"), Bson::Symbol("s".into()));
    assert_eq!(
        value("DBRef('c', 1)"),
        Bson::Document(doc! {"$ref": "c", "$id": 1})
    );
    assert!(matches!(
        value("DBPointer('db.c', ObjectId('5f0c3c0b9d1e8a3f2c4b6a10'))"),
        Bson::DbPointer(_)
    ));
}

#[test]
fn errors_say_where_and_why() {
    let cases: &[(&str, usize, usize, &str)] = &[
        (
            "{a: 1 b: 2}",
            1,
            7,
            "expected ',' or '}' after a field value",
        ),
        ("{a: 1,\n  a: 2}", 2, 3, "duplicate field name 'a'"),
        ("{a 1}", 1, 4, "expected ':' after the field name"),
        ("{,}", 1, 2, "expected a field name or '}'"),
        ("[1 2]", 1, 4, "expected ',' or ']' after an array element"),
        ("[1,,2]", 1, 4, "empty array slots are not allowed"),
        ("{a: Foo(1)}", 1, 5, "unknown function Foo(…)"),
        ("{a: hello}", 1, 5, "unexpected word 'hello'"),
        ("{a: 'x}", 1, 5, "unterminated string"),
        ("{a: /* x }", 1, 5, "unterminated comment"),
        ("{a: 01}", 1, 5, "numbers cannot start with 0"),
        ("{a: 1x}", 1, 6, "unexpected character after a number"),
        ("{a: 1e}", 1, 5, "expected digits after the exponent"),
        ("{a: #}", 1, 5, "unexpected character '#'"),
        ("{a: ", 1, 5, "expected a value, found the end of the text"),
        ("{a: 1} x", 1, 8, "unexpected text after the value"),
        ("{a: /x/g}", 1, 8, "unsupported regular expression flag 'g'"),
        ("{a: /x/ii}", 1, 8, "given twice"),
        ("{a: /x}", 1, 5, "unterminated regular expression"),
        ("{a: '\\uD800'}", 1, 6, "lone surrogate"),
        ("{a: '\\xZZ'}", 1, 6, "invalid escape"),
        ("{'a\\0': 1}", 1, 2, "NUL"),
        ("{a: ObjectId()}", 1, 5, "would make a new id"),
        ("{a: ObjectId('xyz')}", 1, 14, "not an ObjectId"),
        (
            "{a: ObjectId(1)}",
            1,
            14,
            "expects a string of 24 hex digits, found int",
        ),
        ("{a: Date()}", 1, 5, "without new returns a string"),
        ("{a: new Date()}", 1, 9, "current time"),
        ("{a: ISODate('2024-02-30')}", 1, 13, "not an ISO-8601 date"),
        ("{a: NumberLong('x')}", 1, 16, "expects an integer"),
        (
            "{a: NumberInt(2147483648)}",
            1,
            15,
            "does not fit in 32 bits",
        ),
        (
            "{a: NumberLong(1, 2)}",
            1,
            5,
            "NumberLong expects one integer",
        ),
        (
            "{a: NumberDecimal('abc')}",
            1,
            19,
            "is not a decimal number",
        ),
        ("{a: UUID('12')}", 1, 10, "expected a UUID string"),
        (
            "{a: BinData(300, 'AA==')}",
            1,
            13,
            "subtype between 0 and 255",
        ),
        ("{a: BinData(0, '!!')}", 1, 16, "invalid base64"),
        ("{a: Timestamp(-1, 0)}", 1, 15, "between 0 and 4294967295"),
        (
            "{a: new 5}",
            1,
            9,
            "expected a constructor name after 'new'",
        ),
        ("{a: new Foo}", 1, 12, "expected '(' after new Foo"),
        (
            "{a: NumberInt(1 2)}",
            1,
            17,
            "expected ',' or ')' after an argument",
        ),
        (r#"{"a": {"$oid": "nope"}}"#, 1, 16, "not an ObjectId"),
        (r#"{"a": {"$oid": 5}}"#, 1, 16, "$oid expects a string"),
        (
            r#"{"a": {"$numberLong": "5", "x": 1}}"#,
            1,
            28,
            "unexpected field 'x'",
        ),
        (
            r#"{"a": {"$numberInt": "2147483648"}}"#,
            1,
            22,
            "does not fit in 32 bits",
        ),
        (
            r#"{"a": {"$numberLong": 5}}"#,
            1,
            23,
            "expects a string of decimal digits",
        ),
        (
            r#"{"a": {"$numberDouble": "inf"}}"#,
            1,
            25,
            "is not a number",
        ),
        (
            r#"{"a": {"$binary": {"base64": "AA==", "subType": "100"}}}"#,
            1,
            19,
            "not one or two hex digits",
        ),
        (
            r#"{"a": {"$timestamp": {"t": 1}}}"#,
            1,
            22,
            "$timestamp expects {t, i}",
        ),
        (
            r#"{"a": {"$minKey": 2}}"#,
            1,
            19,
            "$minKey expects the number 1",
        ),
        (
            r#"{"a": {"$undefined": false}}"#,
            1,
            22,
            "$undefined expects true",
        ),
        (r#"{"a": {"$scope": {}}}"#, 1, 7, "missing $code"),
        (
            r#"{"a": {"$code": "x", "$scope": 1}}"#,
            1,
            32,
            "$scope expects a document",
        ),
        (r#"{"a": {"$date": true}}"#, 1, 17, "$date expects"),
        // A one-key wrapper with more keys leaves the fast path for the general one.
        (
            r#"{"a": {"$oid": "5f0c3c0b9d1e8a3f2c4b6a10", "x": 1}}"#,
            1,
            44,
            "unexpected field 'x' in an Extended JSON $oid value",
        ),
        (
            r#"{"a": {"$numberInt": "1" "b": 2}}"#,
            1,
            26,
            "expected ',' or '}' after a field value",
        ),
        (
            r#"{"a": {"$numberInt" 1}}"#,
            1,
            21,
            "expected ':' after the field name",
        ),
        (
            r#"{"a": {"$numberLong": [1,}}"#,
            1,
            26,
            "unexpected character '}'",
        ),
        (
            r#"{"a": {"x": 1, "$oid": "5f0c3c0b9d1e8a3f2c4b6a10"}}"#,
            1,
            8,
            "unexpected field 'x' in an Extended JSON $oid value",
        ),
        (
            r#"{"a": {"$regularExpression": {"pattern": "a", "options": "q"}}}"#,
            1,
            30,
            "unsupported regular expression flag",
        ),
    ];
    for (text, line, column, message) in cases {
        let e = error(text);
        assert!(e.message.contains(message), "{text}: {e}");
        assert_eq!((e.line, e.column), (*line, *column), "{text}: {e}");
    }
}

#[test]
fn columns_count_characters_not_bytes() {
    let e = error("{é: 'ü', x 1}");
    assert_eq!((e.line, e.column), (1, 12));
    assert_eq!(
        e.to_string(),
        "line 1, column 12: expected ':' after the field name"
    );
}

#[test]
fn nesting_is_bounded() {
    let deep = format!(
        "{}{}",
        "[".repeat(MAX_PARSE_DEPTH + 1),
        "]".repeat(MAX_PARSE_DEPTH + 1)
    );
    assert!(error(&deep).message.contains("nested more than"));
    let ok = format!(
        "{}{}",
        "[".repeat(MAX_PARSE_DEPTH),
        "]".repeat(MAX_PARSE_DEPTH)
    );
    assert!(parse_value(&ok).is_ok());
}

#[test]
fn parse_document_wants_a_document() {
    assert!(parse_document("[1]")
        .unwrap_err()
        .message
        .contains("expected a document, found array"));
    assert!(parse_document(r#"{"$oid": "5f0c3c0b9d1e8a3f2c4b6a10"}"#)
        .unwrap_err()
        .message
        .contains("found objectId"));
}

#[test]
fn parser_reads_from_an_offset_and_reports_where_it_stopped() {
    let text = "db.c.find({a: 1}, {b: 0}).limit(2)";
    let mut parser = Parser::at(text, 10);
    assert_eq!(parser.parse_value().unwrap(), Bson::Document(doc! {"a": 1}));
    assert_eq!(parser.offset(), 16);
    assert!(parser.eat(',').unwrap());
    assert_eq!(parser.parse_document().unwrap(), doc! {"b": 0});
    assert_eq!(line_column("ab\ncdé\nf", 7), (2, 4));
    assert_eq!(line_column("ab", 99), (1, 3));
}

#[test]
fn stream_of_lines_arrays_and_pretty_documents() {
    let items = parse_stream("{a: 1}\n{b: 2}\n\n{\n  c: 3\n}\n");
    let lines: Vec<usize> = items.iter().map(|i| i.line).collect();
    assert_eq!(lines, vec![1, 2, 4]);
    assert!(items.iter().all(|i| i.result.is_ok()));

    let items = parse_stream("[\n  {a: 1},\n  {b: 2}\n]\n");
    assert_eq!(items.len(), 2);
    assert_eq!(items.iter().map(|i| i.line).collect::<Vec<_>>(), vec![2, 3]);
}

#[test]
fn stream_recovers_after_an_error() {
    let items = parse_stream("{a: 1}\n{b: 2,, c: 3}\n{c: 3}\n42\n{d: 4\n{e: 5}\n");
    let summary: Vec<(usize, bool)> = items.iter().map(|i| (i.line, i.result.is_ok())).collect();
    assert_eq!(
        summary,
        vec![
            (1, true),
            (2, false),
            (3, true),
            (4, false),
            (5, false),
            (6, true)
        ]
    );
    let Err(e) = &items[1].result else { panic!() };
    assert_eq!((e.line, e.column), (2, 7));
    let Err(e) = &items[3].result else { panic!() };
    assert_eq!(e.message, "expected a document, found int");
    let Err(e) = &items[4].result else { panic!() };
    assert_eq!((e.line, e.column), (6, 1));

    let items = parse_stream("[\n  {a: 1},\n  {b: },\n  {c: {\n    d: 1}}\n]");
    let summary: Vec<(usize, bool)> = items.iter().map(|i| (i.line, i.result.is_ok())).collect();
    assert_eq!(summary, vec![(2, true), (3, false), (4, true)]);

    let items = parse_stream("[{a: 1}");
    assert!(items[1]
        .result
        .as_ref()
        .unwrap_err()
        .message
        .contains("expected ']'"));
}

#[test]
fn shell_writer_matches_mongosh_style() {
    let d = doc! {
        "_id": Bson::ObjectId(oid("5f0c3c0b9d1e8a3f2c4b6a10")),
        "at": Bson::DateTime(DateTime::from_millis(1_704_067_200_000)),
        "n": Bson::Int64(5),
        "odd key": "it's",
        "x": 1.0,
        "r": regex("a/b", "i"),
    };
    assert_eq!(
        to_shell_string(&Bson::Document(d.clone()), false),
        "{ _id: ObjectId('5f0c3c0b9d1e8a3f2c4b6a10'), at: ISODate('2024-01-01T00:00:00.000Z'), \
         n: NumberLong(5), 'odd key': 'it\\'s', x: 1.0, r: BSONRegExp('a/b', 'i') }"
    );
    let pretty = to_shell_string(&Bson::Document(doc! {"a": [1, {"b": 2}], "e": {}}), true);
    assert_eq!(
        pretty,
        "{\n  a: [\n    1,\n    {\n      b: 2\n    }\n  ],\n  e: {}\n}"
    );
    assert_eq!(
        parse_document(&to_shell_string(&Bson::Document(d.clone()), true)).unwrap(),
        d
    );
}

#[test]
fn extended_json_writers() {
    let d =
        doc! {"i": 1, "l": Bson::Int64(2), "d": 1.0, "t": Bson::DateTime(DateTime::from_millis(0))};
    assert_eq!(
        to_canonical_ejson(&d),
        r#"{"i":{"$numberInt":"1"},"l":{"$numberLong":"2"},"d":{"$numberDouble":"1.0"},"t":{"$date":{"$numberLong":"0"}}}"#
    );
    assert_eq!(
        to_relaxed_ejson(&d),
        r#"{"i":1,"l":2,"d":1.0,"t":{"$date":"1970-01-01T00:00:00.000Z"}}"#
    );
    assert_eq!(parse_document(&to_canonical_ejson(&d)).unwrap(), d);
}

#[test]
fn iso_dates() {
    assert_eq!(parse_iso_date("1970-01-01T00:00:00Z"), Ok(0));
    assert_eq!(parse_iso_date("1969-12-31T23:59:59.999Z"), Ok(-1));
    assert_eq!(
        parse_iso_date("2000-02-29T12:30:00.1234+0130"),
        Ok(951_822_000_123)
    );
    assert_eq!(
        parse_iso_date("0000-01-01T00:00:00Z"),
        Ok(-62_167_219_200_000)
    );
    assert!(parse_iso_date("2001-02-29").is_err());
    assert!(parse_iso_date("2001-01-01T24:00").is_err());
    assert_eq!(
        format_iso_date(951_822_000_123).as_deref(),
        Some("2000-02-29T11:00:00.123Z")
    );
    assert_eq!(
        format_iso_date(-1).as_deref(),
        Some("1969-12-31T23:59:59.999Z")
    );
    assert_eq!(format_iso_date(253_402_300_800_000), None);
    for ms in [
        -62_167_219_200_000i64,
        -1,
        0,
        1,
        951_822_000_123,
        253_402_300_799_999,
    ] {
        assert_eq!(parse_iso_date(&format_iso_date(ms).unwrap()), Ok(ms));
    }
}

#[test]
fn documents_from_the_shell_equal_their_canonical_form() {
    let shell = parse_document("{ _id: ObjectId('5f0c3c0b9d1e8a3f2c4b6a10'), qty: NumberLong(3) }")
        .unwrap();
    let canonical: Document = parse_document(
        r#"{"_id": {"$oid": "5f0c3c0b9d1e8a3f2c4b6a10"}, "qty": {"$numberLong": "3"}}"#,
    )
    .unwrap();
    assert_eq!(shell, canonical);
}

/// `to_relaxed_json` writes what bson's `into_relaxed_extjson` writes, for every type and
/// the cases where the two Extended JSON writers could differ (date fractions, NaN signs,
/// regex option order, dates outside 1970–9999, scopes).
#[test]
fn relaxed_json_is_what_bson_writes() {
    let dates = [
        0,
        1,
        10,
        100,
        120,
        500,
        999,
        1_704_164_645_000,
        1_704_164_645_500,
        1_704_164_645_050,
        -1,
        -86_400_000,
        253_402_300_799_999,
        253_402_300_800_000,
        i64::MAX,
        i64::MIN,
    ];
    let mut values: Vec<Bson> = dates
        .iter()
        .map(|&ms| Bson::DateTime(DateTime::from_millis(ms)))
        .collect();
    values.extend([
        Bson::Double(1.5),
        Bson::Double(-0.0),
        Bson::Double(1e300),
        Bson::Double(f64::NAN),
        Bson::Double(-f64::NAN),
        Bson::Double(f64::INFINITY),
        Bson::Double(f64::NEG_INFINITY),
        Bson::Int32(-7),
        Bson::Int64(1 << 40),
        Bson::String("é\"\n".into()),
        Bson::Boolean(true),
        Bson::Null,
        Bson::Undefined,
        Bson::MinKey,
        Bson::MaxKey,
        Bson::ObjectId(oid("5f0c3ac9a1d3b8a1c2d4e6f8")),
        Bson::Decimal128("12.50".parse::<Decimal128>().unwrap()),
        Bson::Symbol("s".into()),
        Bson::JavaScriptCode("f()".into()),
        Bson::Timestamp(Timestamp {
            time: 7,
            increment: 9,
        }),
        regex("a.b", "xmi"),
        Bson::Binary(Binary {
            subtype: BinarySubtype::Uuid,
            bytes: vec![0, 1, 2, 250, 251],
        }),
        Bson::JavaScriptCodeWithScope(bson::JavaScriptCodeWithScope {
            code: "x".into(),
            scope: doc! { "at": DateTime::from_millis(1500), "n": f64::NAN },
        }),
        crate::ejson::db_pointer("db.c", oid("5f0c3ac9a1d3b8a1c2d4e6f8")).unwrap(),
    ]);
    let nested = Bson::Document(doc! {
        "all": Bson::Array(values.clone()),
        "inner": { "at": DateTime::from_millis(42), "list": [1, 2.5, "x"] },
    });
    values.push(nested);
    // The console's explain() reads this JSON back with our reader: dates come back whole.
    for &ms in dates
        .iter()
        .filter(|&&ms| (0..=253_402_300_799_999).contains(&ms))
    {
        let at = Bson::DateTime(DateTime::from_millis(ms));
        assert_eq!(value(&to_relaxed_json(&at).to_string()), at);
    }
    for v in values {
        assert_eq!(
            to_relaxed_json(&v),
            v.clone().into_relaxed_extjson(),
            "{v:?}"
        );
    }
}
