//! Structure-aware engine fuzzing: a sequence of commands (insert, find, count, update,
//! replace, delete, findOneAndUpdate, aggregate, createIndex, dropIndex) with random filters,
//! updates, projections, sorts, pipelines and collations (case- and accent-insensitive finds and
//! indexes) — operators on arrays, dotted and positional
//! paths, `$`-operators in wrong places, NaN, infinities and 64-bit edges, strings of 1 MiB —
//! run against a small database of two collections.
//!
//! No command may panic, and after every command:
//! - every stored document is at most 16 MiB and 100 levels deep (the engine's limits);
//! - every non-sparse, non-partial index has a key for every document and no other;
//! - a failed single-document write (insertOne, updateOne, replaceOne, findOneAndUpdate,
//!   deleteOne, createIndex, dropIndex) left the collection and its indexes unchanged, and a
//!   failed ordered insertMany inserted exactly the `n_inserted` it reports;
//! - a find planned with the indexes returns the same documents as a forced collection scan;
//! - an order-free pipeline returns the same documents with and without secondary indexes.
#![no_main]

use bson::{Bson, Document};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use squillion::engine::collation::Collation;
use squillion::engine::write::{depth, MAX_DEPTH};
use squillion::engine::{
    Command, Database, FindCommand, Hint, IndexOptions, Returned, UpdateCommand,
};
use squillion::size::document_size;
use std::collections::BTreeSet;

const COLLECTIONS: &[&str] = &["c", "d"];

/// Field names and paths: plain, dotted, numeric, positional, `$`-prefixed, empty.
const PATHS: &[&str] = &[
    "_id", "a", "b", "c", "a.b", "a.0", "a.1", "b.c", "a.b.c", "a.0.b", "a.$", "a.$[]", "a.$[x]",
    "a.$[]", "$a", "", "a..b", "a.", "x", "_id.a", "a.b.0.c",
];

/// Field names for stored documents.
const KEYS: &[&str] = &["_id", "a", "b", "c", "x", "a.b", "$a", ""];

const STRINGS: &[&str] = &[
    "", "a", "b", "ab", "$a", "$$ROOT", "a.b", "\u{0}", "é", "^a", "(?=a)", "A", "É", "e", "AB",
];

const QUERY_OPS: &[&str] = &[
    "$eq",
    "$ne",
    "$gt",
    "$gte",
    "$lt",
    "$lte",
    "$in",
    "$nin",
    "$exists",
    "$type",
    "$size",
    "$all",
    "$elemMatch",
    "$not",
    "$regex",
    "$mod",
    "$options",
    "$where",
    "$foo",
    "$and",
    "$text",
];

const LOGICAL: &[&str] = &[
    "$and",
    "$or",
    "$nor",
    "$expr",
    "$where",
    "$comment",
    "$jsonSchema",
];

const UPDATE_OPS: &[&str] = &[
    "$set",
    "$unset",
    "$inc",
    "$mul",
    "$min",
    "$max",
    "$rename",
    "$setOnInsert",
    "$currentDate",
    "$push",
    "$addToSet",
    "$pop",
    "$pull",
    "$pullAll",
    "$bit",
    "$foo",
];

const EXPR_OPS: &[&str] = &[
    "$add",
    "$subtract",
    "$multiply",
    "$divide",
    "$mod",
    "$abs",
    "$floor",
    "$ceil",
    "$round",
    "$sum",
    "$avg",
    "$min",
    "$max",
    "$toInt",
    "$toLong",
    "$toDouble",
    "$eq",
    "$ne",
    "$gt",
    "$lt",
    "$cmp",
    "$and",
    "$or",
    "$not",
    "$cond",
    "$ifNull",
    "$concat",
    "$toString",
    "$toLower",
    "$strLenBytes",
    "$size",
    "$arrayElemAt",
    "$slice",
    "$concatArrays",
    "$in",
    "$isArray",
    "$first",
    "$last",
    "$type",
    "$literal",
    "$function",
    "$accumulator",
    "$where",
    "$nope",
];

const ACCUMULATORS: &[&str] = &[
    "$sum",
    "$avg",
    "$min",
    "$max",
    "$push",
    "$addToSet",
    "$first",
    "$last",
    "$count",
    "$accumulator",
    "$function",
    "$stdDevPop",
];

fn pick<'a, T: Copy>(u: &mut Unstructured<'a>, list: &[T]) -> Result<T> {
    Ok(*u.choose(list)?)
}

fn number(u: &mut Unstructured) -> Result<Bson> {
    Ok(match u.int_in_range(0..=15)? {
        0 => Bson::Int32(0),
        1 => Bson::Int32(1),
        2 => Bson::Int32(-1),
        3 => Bson::Int32(i32::MAX),
        4 => Bson::Int32(i32::MIN),
        5 => Bson::Int64(i64::MAX),
        6 => Bson::Int64(i64::MIN),
        7 => Bson::Double(f64::NAN),
        8 => Bson::Double(f64::INFINITY),
        9 => Bson::Double(f64::NEG_INFINITY),
        10 => Bson::Double(-0.0),
        11 => Bson::Double(0.5),
        12 => Bson::Double(1e308),
        13 => Bson::Int64(2_000_000),
        14 => Bson::Double(5e-324),
        _ => Bson::Int32(u.int_in_range(-3..=3)?),
    })
}

fn value(u: &mut Unstructured, depth: u32) -> Result<Bson> {
    let top = if depth == 0 { 9 } else { 13 };
    Ok(match u.int_in_range(0..=top)? {
        0..=3 => number(u)?,
        4 | 5 => Bson::String(pick(u, STRINGS)?.to_string()),
        6 => Bson::Null,
        7 => Bson::Boolean(u.arbitrary()?),
        8 => match u.int_in_range(0..=5)? {
            0 => Bson::MinKey,
            1 => Bson::MaxKey,
            2 => Bson::Undefined,
            3 => Bson::DateTime(bson::DateTime::from_millis(i64::MAX)),
            4 => match (
                pick(u, STRINGS)?.to_string().try_into(),
                "i".to_string().try_into(),
            ) {
                (Ok(pattern), Ok(options)) => {
                    Bson::RegularExpression(bson::Regex { pattern, options })
                }
                _ => Bson::Null,
            },
            // A big string: a few of them reach the 16 MiB limit.
            _ => Bson::String("x".repeat(1 << 20)),
        },
        9 => Bson::Array(Vec::new()),
        10 | 11 => {
            let n = u.int_in_range(0..=4)?;
            let mut a = Vec::new();
            for _ in 0..n {
                a.push(value(u, depth - 1)?);
            }
            Bson::Array(a)
        }
        _ => Bson::Document(document(u, depth - 1)?),
    })
}

fn document(u: &mut Unstructured, depth: u32) -> Result<Document> {
    let n = u.int_in_range(0..=4)?;
    let mut d = Document::new();
    for _ in 0..n {
        d.insert(pick(u, KEYS)?, value(u, depth)?);
    }
    Ok(d)
}

/// A stored document: usually an `_id` and a few fields; sometimes deeply nested.
fn stored(u: &mut Unstructured) -> Result<Document> {
    let mut d = Document::new();
    if u.ratio(3, 4)? {
        d.insert("_id", number(u)?);
    }
    for (k, v) in document(u, 2)? {
        d.insert(k, v);
    }
    if u.ratio(1, 30)? {
        // 99 to 102 levels: around the nesting limit.
        let levels = u.int_in_range(97..=101)?;
        let mut v = Bson::Int32(1);
        for _ in 0..levels {
            v = Bson::Document(bson::doc! {"n": v});
        }
        d.insert("deep", v);
    }
    Ok(d)
}

fn expr(u: &mut Unstructured, depth: u32) -> Result<Bson> {
    if depth == 0 || u.ratio(1, 3)? {
        return Ok(match u.int_in_range(0..=4)? {
            0 => Bson::String(format!("${}", pick(u, PATHS)?)),
            1 => Bson::String(pick(u, &["$$ROOT", "$$CURRENT", "$$REMOVE", "$$nope", "$"])?.into()),
            _ => value(u, 1)?,
        });
    }
    let op = pick(u, EXPR_OPS)?;
    let n = u.int_in_range(0..=3)?;
    let mut args = Vec::new();
    for _ in 0..n {
        args.push(expr(u, depth - 1)?);
    }
    let arg = if u.ratio(1, 4)? {
        args.pop().unwrap_or(Bson::Null)
    } else {
        Bson::Array(args)
    };
    Ok(Bson::Document(bson::doc! { op: arg }))
}

/// A filter: field conditions, operators (also in wrong places), logical clauses.
fn filter(u: &mut Unstructured, depth: u32) -> Result<Document> {
    let n = u.int_in_range(0..=3)?;
    let mut d = Document::new();
    for _ in 0..n {
        if depth > 0 && u.ratio(1, 5)? {
            let op = pick(u, LOGICAL)?;
            let arg = match op {
                "$expr" => expr(u, 2)?,
                "$where" => Bson::String("this.a > 1".into()),
                _ => {
                    let k = u.int_in_range(0..=3)?;
                    let mut clauses = Vec::new();
                    for _ in 0..k {
                        clauses.push(Bson::Document(filter(u, depth - 1)?));
                    }
                    Bson::Array(clauses)
                }
            };
            d.insert(op, arg);
            continue;
        }
        let path = pick(u, PATHS)?;
        let cond = if u.ratio(1, 2)? {
            value(u, 1)?
        } else {
            let k = u.int_in_range(1..=2)?;
            let mut ops = Document::new();
            for _ in 0..k {
                let op = pick(u, QUERY_OPS)?;
                let arg = match op {
                    "$in" | "$nin" | "$all" => {
                        let m = u.int_in_range(0..=3)?;
                        let mut a = Vec::new();
                        for _ in 0..m {
                            a.push(value(u, 1)?);
                        }
                        if u.ratio(1, 6)? {
                            value(u, 1)?
                        } else {
                            Bson::Array(a)
                        }
                    }
                    "$elemMatch" | "$not" if depth > 0 => {
                        if u.ratio(1, 2)? {
                            Bson::Document(filter(u, depth - 1)?)
                        } else {
                            let mut inner = Document::new();
                            inner.insert(pick(u, QUERY_OPS)?, value(u, 1)?);
                            Bson::Document(inner)
                        }
                    }
                    "$mod" => Bson::Array(vec![number(u)?, number(u)?]),
                    "$type" => match u.int_in_range(0..=2)? {
                        0 => Bson::String(
                            pick(u, &["number", "array", "string", "double", "nope"])?.into(),
                        ),
                        _ => number(u)?,
                    },
                    "$regex" => Bson::String(pick(u, STRINGS)?.into()),
                    _ => value(u, 1)?,
                };
                ops.insert(op, arg);
            }
            Bson::Document(ops)
        };
        d.insert(path, cond);
    }
    Ok(d)
}

/// An update: operator document (with `$each`, `$slice`, … and wrong operators) or a
/// replacement.
fn update(u: &mut Unstructured) -> Result<Document> {
    if u.ratio(1, 6)? {
        return stored(u);
    }
    let n = u.int_in_range(1..=3)?;
    let mut d = Document::new();
    for _ in 0..n {
        let op = pick(u, UPDATE_OPS)?;
        let m = u.int_in_range(0..=2)?;
        let mut fields = Document::new();
        for _ in 0..m {
            let path = pick(u, PATHS)?;
            let arg = match op {
                "$rename" => Bson::String(pick(u, PATHS)?.into()),
                "$push" | "$addToSet" if u.ratio(1, 2)? => {
                    let mut each =
                        bson::doc! {"$each": Bson::Array(vec![value(u, 1)?, value(u, 1)?])};
                    if u.ratio(1, 2)? {
                        each.insert("$slice", number(u)?);
                    }
                    if u.ratio(1, 3)? {
                        each.insert("$position", number(u)?);
                    }
                    if u.ratio(1, 3)? {
                        each.insert("$sort", value(u, 1)?);
                    }
                    Bson::Document(each)
                }
                "$pull" if u.ratio(1, 2)? => Bson::Document(filter(u, 1)?),
                "$currentDate" => Bson::Boolean(true),
                "$inc" | "$mul" | "$pop" => number(u)?,
                _ => value(u, 1)?,
            };
            fields.insert(path, arg);
        }
        d.insert(
            op,
            if u.ratio(1, 12)? {
                value(u, 0)?
            } else {
                Bson::Document(fields)
            },
        );
    }
    Ok(d)
}

fn projection(u: &mut Unstructured) -> Result<Option<Document>> {
    if u.ratio(1, 2)? {
        return Ok(None);
    }
    let n = u.int_in_range(0..=3)?;
    let mut d = Document::new();
    for _ in 0..n {
        let v = match u.int_in_range(0..=5)? {
            0 => Bson::Int32(0),
            1 | 2 => Bson::Int32(1),
            3 => Bson::Document(bson::doc! {"$slice": number(u)?}),
            4 => Bson::Document(bson::doc! {"$elemMatch": filter(u, 0)?}),
            _ => expr(u, 1)?,
        };
        d.insert(pick(u, PATHS)?, v);
    }
    Ok(Some(d))
}

fn sort(u: &mut Unstructured) -> Result<Option<Document>> {
    if u.ratio(1, 2)? {
        return Ok(None);
    }
    let n = u.int_in_range(0..=2)?;
    let mut d = Document::new();
    for _ in 0..n {
        let dir = match u.int_in_range(0..=4)? {
            0 => Bson::Int32(-1),
            1 => Bson::Int32(0),
            2 => Bson::String("asc".into()),
            _ => Bson::Int32(1),
        };
        d.insert(pick(u, PATHS)?, dir);
    }
    Ok(Some(d))
}

/// A pipeline and whether its output is independent of document order (no `$sort`,
/// `$limit`, `$skip`, `$group`, `$lookup`), so that it can be compared without indexes.
fn pipeline(u: &mut Unstructured) -> Result<(Vec<Document>, bool)> {
    let n = u.int_in_range(0..=4)?;
    let mut stages = Vec::new();
    let mut order_free = true;
    for _ in 0..n {
        let stage = match u.int_in_range(0..=15)? {
            0..=2 => bson::doc! {"$match": filter(u, 2)?},
            3 => bson::doc! {"$project": projection(u)?.unwrap_or_default()},
            4 => bson::doc! {"$addFields": {pick(u, PATHS)?: expr(u, 2)?}},
            5 => bson::doc! {"$unset": pick(u, PATHS)?},
            6 => {
                order_free = false;
                bson::doc! {"$sort": sort(u)?.unwrap_or_default()}
            }
            7 => {
                order_free = false;
                bson::doc! {pick(u, &["$limit", "$skip"])?: number(u)?}
            }
            8 => {
                let path = format!("${}", pick(u, PATHS)?);
                if u.ratio(1, 2)? {
                    bson::doc! {"$unwind": path}
                } else {
                    bson::doc! {"$unwind": {"path": path, "includeArrayIndex": "i",
                    "preserveNullAndEmptyArrays": u.arbitrary::<bool>()?}}
                }
            }
            9 | 10 => {
                order_free = false;
                let mut g = bson::doc! {"_id": expr(u, 1)?};
                let k = u.int_in_range(0..=2)?;
                for i in 0..k {
                    g.insert(
                        format!("f{i}"),
                        bson::doc! {pick(u, ACCUMULATORS)?: expr(u, 1)?},
                    );
                }
                bson::doc! {"$group": g}
            }
            11 => {
                order_free = false;
                bson::doc! {"$lookup": {"from": pick(u, COLLECTIONS)?, "localField": pick(u, PATHS)?,
                "foreignField": pick(u, PATHS)?, "as": pick(u, PATHS)?}}
            }
            12 => bson::doc! {"$count": pick(u, PATHS)?},
            13 => bson::doc! {pick(u, &["$replaceRoot", "$replaceWith"])?: expr(u, 1)?},
            14 => bson::doc! {pick(u, &["$facet", "$out", "$where", "$nope"])?: {}},
            _ => bson::doc! {"$set": {pick(u, PATHS)?: expr(u, 2)?}},
        };
        stages.push(stage);
    }
    Ok((stages, order_free))
}

fn index_keys(u: &mut Unstructured) -> Result<(Document, IndexOptions)> {
    let n = u.int_in_range(1..=2)?;
    let mut keys = Document::new();
    for _ in 0..n {
        let dir = match u.int_in_range(0..=5)? {
            0 => Bson::Int32(-1),
            1 => Bson::Int32(0),
            2 => Bson::String("text".into()),
            3 => Bson::Double(f64::NAN),
            _ => Bson::Int32(1),
        };
        keys.insert(
            pick(
                u,
                &["a", "b", "c", "a.b", "a.0", "b.c", "_id", "$a", "", "a.$"],
            )?,
            dir,
        );
    }
    let options = IndexOptions {
        name: if u.ratio(1, 8)? {
            Some(pick(u, STRINGS)?.into())
        } else {
            None
        },
        unique: u.ratio(1, 4)?,
        sparse: u.ratio(1, 5)?,
        partial_filter_expression: if u.ratio(1, 6)? {
            Some(filter(u, 0)?)
        } else {
            None
        },
        collation: collation(u)?,
    };
    Ok((keys, options))
}

fn find_command(u: &mut Unstructured) -> Result<FindCommand> {
    Ok(FindCommand {
        filter: filter(u, 2)?,
        projection: projection(u)?,
        sort: sort(u)?,
        skip: if u.ratio(1, 5)? {
            u.int_in_range(0..=3)?
        } else {
            0
        },
        limit: if u.ratio(1, 4)? {
            Some(u.int_in_range(0..=3)?)
        } else {
            None
        },
        hint: Hint::Auto,
        collation: collation_document(u)?,
    })
}

/// A find's `collation` document, one time in five: mostly one the engine accepts (as
/// [`collation`]), sometimes one it must refuse with an error (a locale that is not a string,
/// a strength out of 1–5, an option it does not support).
fn collation_document(u: &mut Unstructured) -> Result<Option<Document>> {
    let Some(c) = collation(u)? else {
        return Ok(None);
    };
    Ok(Some(match u.int_in_range(0..=7)? {
        0 => bson::doc! { "locale": 1, "strength": i32::from(c.strength) },
        1 => bson::doc! { "locale": c.locale, "strength": 6 },
        2 => bson::doc! { "locale": c.locale, "caseLevel": true },
        3 => bson::doc! { "locale": c.locale },
        _ => bson::doc! { "locale": c.locale, "strength": i32::from(c.strength) },
    }))
}

/// A collation for a find or an index, one time in five: strength 1 (base letters), 2 (also
/// accents) or 3 (also case, the default), so that the planner's choice between a collated
/// index and a scan is checked against the forced scan.
fn collation(u: &mut Unstructured) -> Result<Option<Collation>> {
    if !u.ratio(1, 5)? {
        return Ok(None);
    }
    Ok(Some(Collation {
        locale: pick(u, &["en", "fr"])?.into(),
        strength: u.int_in_range(1..=3)?,
    }))
}

fn update_command(u: &mut Unstructured, multi: bool, replace: bool) -> Result<UpdateCommand> {
    let mut array_filters = Vec::new();
    if u.ratio(1, 4)? {
        array_filters.push(bson::doc! {pick(u, &["x", "x.a", "y", "x.$"])?: value(u, 1)?});
    }
    Ok(UpdateCommand {
        filter: filter(u, 1)?,
        update: update(u)?,
        multi,
        upsert: u.ratio(1, 3)?,
        array_filters,
        replace,
        hint: Hint::Auto,
    })
}

/// What a collection holds, byte for byte: documents in natural order and every index's
/// name and entry count.
fn snapshot(db: &Database, name: &str) -> (Vec<Vec<u8>>, Vec<(String, usize)>) {
    match db.collection(name) {
        None => (Vec::new(), Vec::new()),
        Some(c) => (
            c.documents().map(|d| d.as_bytes().to_vec()).collect(),
            c.indexes()
                .iter()
                .map(|i| (i.spec.name.clone(), i.entries.len()))
                .collect(),
        ),
    }
}

fn sorted_bytes(docs: &[Returned]) -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = docs
        .iter()
        .map(|d| d.to_vec().unwrap_or_default())
        .collect();
    v.sort();
    v
}

fn check_collections(db: &Database) {
    for name in db.collection_names() {
        let Some(c) = db.collection(&name) else {
            continue;
        };
        for raw in c.documents() {
            let Ok(d) = Document::try_from(raw) else {
                panic!("a stored document of {name} does not decode");
            };
            let d = &d;
            let size = document_size(d);
            assert_eq!(size, raw.as_bytes().len() as u64, "stored size in {name}");
            assert!(
                size <= 16 * 1024 * 1024,
                "stored document of {size} bytes in {name}"
            );
            let dep = depth(d);
            assert!(
                dep <= MAX_DEPTH,
                "stored document {dep} levels deep in {name}"
            );
        }
        for i in c.indexes() {
            if i.spec.sparse || i.partial.is_some() || i.spec.partial_filter_expression.is_some() {
                continue;
            }
            let rids: BTreeSet<u64> = i.entries.iter().map(|(_, r)| *r).collect();
            assert_eq!(
                rids.len(),
                c.len(),
                "index {} of {name} does not key every document",
                i.spec.name
            );
        }
    }
}

/// The same database without its secondary indexes.
fn without_indexes(db: &Database) -> Database {
    let mut bare = db.clone();
    for name in db.collection_names() {
        for spec in db.list_indexes(&name) {
            if spec.name != "_id_" {
                let _ = bare.drop_index(&name, &spec.name);
            }
        }
    }
    bare
}

fn run(u: &mut Unstructured) -> Result<()> {
    let mut db = Database::new();
    let steps = u.int_in_range(1..=12)?;
    for _ in 0..steps {
        let coll = pick(u, COLLECTIONS)?;
        let before = snapshot(&db, coll);
        let kind = u.int_in_range(0..=13)?;
        // Whether a failure must leave the collection as it was.
        let atomic = matches!(kind, 0 | 5 | 7 | 8 | 10 | 12 | 13);
        let command = match kind {
            0 => Command::Insert {
                documents: vec![stored(u)?],
                ordered: true,
            },
            1 | 2 => {
                let n = u.int_in_range(0..=6)?;
                let mut docs = Vec::new();
                for _ in 0..n {
                    docs.push(stored(u)?);
                }
                Command::Insert {
                    documents: docs,
                    ordered: kind == 1,
                }
            }
            3 => Command::Find(find_command(u)?),
            4 => Command::Count(find_command(u)?),
            5 => Command::Update(update_command(u, false, false)?),
            6 => Command::Update(update_command(u, true, false)?),
            7 => Command::Update(update_command(u, false, true)?),
            8 => Command::FindOneAndUpdate {
                find: Box::new(find_command(u)?),
                update: Box::new(update_command(u, false, false)?),
                return_new: u.arbitrary()?,
            },
            9 => Command::Delete {
                filter: filter(u, 2)?,
                multi: u.arbitrary()?,
            },
            10 => {
                let (keys, options) = index_keys(u)?;
                Command::CreateIndex { keys, options }
            }
            11 => {
                let (pipeline, _) = pipeline(u)?;
                Command::Aggregate { pipeline }
            }
            12 => Command::DropIndex {
                name: pick(
                    u,
                    &["a_1", "b_1", "a_1_b_1", "a.b_1", "_id_", "nope", "a_-1"],
                )?
                .into(),
            },
            _ => Command::Delete {
                filter: filter(u, 1)?,
                multi: false,
            },
        };
        let ordered_insert = match &command {
            Command::Insert { ordered: true, .. } => true,
            _ => false,
        };
        let result = db.run(coll, command.clone());
        let after = snapshot(&db, coll);
        match &result {
            Err(e) if atomic => {
                // Creating the collection on the way (an insert, an upsert) is allowed.
                let created = before.0.is_empty() && before.1.is_empty();
                if !created || !after.0.is_empty() {
                    assert_eq!(before, after, "{command:?} failed ({e}) but changed {coll}");
                }
            }
            Err(e) if ordered_insert => {
                assert_eq!(
                    after.0.len(),
                    before.0.len() + e.n_inserted.unwrap_or(0) as usize,
                    "an ordered insert that failed ({e}) after {:?} documents",
                    e.n_inserted
                );
            }
            Ok(r) => {
                if let Command::Find(f) = &command {
                    if let Some(l) = f.limit.filter(|l| *l > 0) {
                        assert!(r.documents.len() as u64 <= l);
                    }
                }
            }
            Err(_) => {}
        }
        check_collections(&db);

        // The planner must not change what a query returns.
        if u.ratio(1, 2)? {
            let mut f = find_command(u)?;
            f.limit = None;
            f.skip = 0;
            let planned = db.find(coll, &f);
            let scanned = db.find(
                coll,
                &FindCommand {
                    hint: Hint::Collscan,
                    ..f.clone()
                },
            );
            match (&planned, &scanned) {
                (Ok(p), Ok(s)) => assert_eq!(
                    sorted_bytes(&p.documents),
                    sorted_bytes(&s.documents),
                    "{f:?}: the plan ({}) and a collection scan disagree",
                    p.plan.as_ref().map(|p| p.to_string()).unwrap_or_default()
                ),
                (Err(_), Err(_)) => {}
                _ => panic!(
                    "{f:?}: planned {:?}, scanned {:?}",
                    planned.as_ref().map(|r| r.documents.len()),
                    scanned.as_ref().map(|r| r.documents.len())
                ),
            }
        }
        if u.ratio(1, 3)? {
            let (p, order_free) = pipeline(u)?;
            let with = db.aggregate(coll, &p);
            if order_free {
                let bare = without_indexes(&db);
                let without = bare.aggregate(coll, &p);
                match (&with, &without) {
                    (Ok(a), Ok(b)) => assert_eq!(
                        sorted_bytes(&a.documents),
                        sorted_bytes(&b.documents),
                        "{p:?}: indexes change the result"
                    ),
                    (Err(_), Err(_)) => {}
                    _ => panic!(
                        "{p:?}: with indexes {:?}, without {:?}",
                        with.is_ok(),
                        without.is_ok()
                    ),
                }
            }
        }
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let _ = run(&mut u);
});
