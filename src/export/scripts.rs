//! The mongosh scripts and the README of an export: `setup.js` creates the collections with
//! their validators, the indexes and the sharding; `workload.js` runs every operation of the
//! workload once, as the evaluation ran it (parameters bound to exported documents).

use std::fmt::Write as _;

use bson::Bson;

use super::{generators, Manifest, Scale};
use crate::design::{CommandKind, Layout};
use crate::eval::Evaluation;
use crate::generate::GenOptions;
use crate::model::Model;

/// Returns `s` as a JavaScript string literal.
fn js_string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// Returns the body of a `//` comment: one line, no line terminators.
fn comment(s: &str) -> String {
    s.replace(['\n', '\r', '\u{2028}', '\u{2029}'], " ")
}

/// Returns the options argument of an index's `createIndex` in `setup.js` (`, { unique: true }`;
/// a case-insensitive index's name and collation; a partial index's
/// `partialFilterExpression`), its documents written as JSON like the keys before them; empty
/// when it has none.
fn index_options(ix: &crate::design::Index) -> String {
    let json = |d: &bson::Document| {
        serde_json::to_string(&crate::design::plan::doc_to_json(d)).unwrap_or_default()
    };
    let mut opts = Vec::new();
    if ix.unique() {
        opts.push("unique: true".to_string());
    }
    if let (Some(c), Some(name)) = (&ix.collation, ix.name()) {
        opts.push(format!("name: {}", js_string(&name)));
        opts.push(format!("collation: {}", json(c)));
    }
    if let Some(p) = &ix.partial {
        opts.push(format!("partialFilterExpression: {}", json(p)));
    }
    if opts.is_empty() {
        String::new()
    } else {
        format!(", {{ {} }}", opts.join(", "))
    }
}

/// Returns `setup.js`: `createCollection` with `$jsonSchema` validators, `createIndex` for
/// every index of the layout, then (on a mongos) `sh.enableSharding` and
/// `sh.shardCollection` for every sharded collection.
pub fn setup_js(model: &Model, layout: &Layout, manifest: &Manifest) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Squillion export of {} under design {}: collections, validators, indexes, sharding.",
        comment(&manifest.model),
        comment(&manifest.design)
    );
    let _ = writeln!(
        s,
        "// Run before mongoimport: mongosh \"mongodb://HOST:27017/squillion\" setup.js\n"
    );
    for c in &layout.collections {
        if let Some(create) = super::timeseries::create_collection(model, layout, &c.name) {
            let _ = writeln!(
                s,
                "// {}: the server's buckets of a time-series collection, made by createCollection (with their index).\n{create}\n",
                comment(&c.name)
            );
            continue;
        }
        let validator = manifest
            .collections
            .iter()
            .find(|x| x.name == c.name)
            .map(|x| x.validator.clone())
            .unwrap_or_else(|| super::schema::validator(c));
        let v = serde_json::to_string_pretty(&serde_json::json!({ "$jsonSchema": validator }))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "db.createCollection({}, {{ validator: {v}, validationLevel: \"strict\", validationAction: \"error\" }});",
            js_string(&c.name)
        );
        for ix in &c.indexes {
            let _ = writeln!(
                s,
                "db.getCollection({}).createIndex({}{});",
                js_string(&c.name),
                serde_json::to_string(&crate::design::plan::doc_to_json(&ix.keys))
                    .unwrap_or_default(),
                index_options(ix)
            );
        }
        s.push('\n');
    }
    let sharded: Vec<_> = layout
        .collections
        .iter()
        .filter_map(|c| c.shard_key.as_ref().map(|k| (c, k)))
        .collect();
    let shards = model.sharding.as_ref().map_or(1, |s| s.shards);
    if !sharded.is_empty() {
        let _ = writeln!(
            s,
            "// Sharding ({shards} shards in the model): only on a mongos; a replica set skips it."
        );
        s.push_str("let isMongos = false;\ntry { isMongos = db.adminCommand({ isdbgrid: 1 }).isdbgrid === 1; } catch (e) { isMongos = false; }\n");
        s.push_str("if (isMongos) {\n  sh.enableSharding(db.getName());\n");
        for (c, k) in sharded {
            let _ = writeln!(
                s,
                "  sh.shardCollection(db.getName() + \".\" + {}, {});",
                js_string(&c.name),
                serde_json::to_string(&crate::design::plan::doc_to_json(k)).unwrap_or_default()
            );
        }
        s.push_str("} else {\n  print(\"not a mongos: sharding skipped\");\n}\n");
    }
    s
}

/// Returns `workload.js`: one function per operation with the commands the evaluation ran
/// for a typical subject; new documents are made by the same generator as the export.
pub fn workload_js(
    model: &Model,
    layout: &Layout,
    eval: &Evaluation,
    scale: &Scale,
    manifest: &Manifest,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Squillion workload of {} under design {}: every operation once, as squillion eval ran it",
        comment(&manifest.model),
        comment(&manifest.design)
    );
    s.push_str("// for a typical subject (parameters bound to exported documents).\n");
    s.push_str("// Writes change the data. Run after setup.js and mongoimport:\n");
    s.push_str("//   mongosh \"mongodb://HOST:27017/squillion\" workload.js\n\n");
    s.push_str("const operations = {};\n\n");
    for (o, unit) in eval.operations.iter().zip(&layout.plan.units) {
        let _ = writeln!(
            s,
            "// {}: {}/s, {} round trip(s) per run",
            comment(&o.unit),
            o.rate_per_sec,
            o.queries
        );
        let _ = writeln!(s, "operations[{}] = () => {{", js_string(&o.unit));
        for (c, planned) in o.typical.commands.iter().zip(&unit.commands) {
            if let Some(why) = &c.not_sent {
                // As the application: nothing to fetch, no round trip.
                let _ = writeln!(
                    s,
                    "  // {} — not sent: {}\n  // {}",
                    comment(&c.note),
                    comment(why),
                    comment(&c.mongosh)
                );
                continue;
            }
            let _ = writeln!(
                s,
                "  // {} — shards: {:?}, {} of {}",
                comment(&c.note),
                c.shards.routing,
                c.shards.touched,
                c.shards.shards
            );
            if c.kind == CommandKind::Insert {
                let doc = new_document(model, layout, scale, planned);
                let _ = writeln!(s, "  {{\n    const doc = {doc};");
                if planned.fan_out.is_some() {
                    s.push_str("    // The application writes one per follower; here, one.\n    const docs = [doc];\n");
                }
                let _ = writeln!(s, "    printjson({});\n  }}", c.mongosh.replace('\n', " "));
            } else {
                let _ = writeln!(s, "  {{\n    const r = {};", c.mongosh.replace('\n', " "));
                s.push_str("    printjson(r && typeof r.toArray === \"function\" ? r.toArray().length + \" document(s)\" : r);\n  }\n");
            }
        }
        s.push_str("};\n\n");
    }
    s.push_str("for (const [name, run] of Object.entries(operations)) {\n  print(\"== \" + name);\n  run();\n}\n");
    s
}

/// Returns a new document of the shape an insert creates, in mongosh syntax: the document
/// right after the exported ones, so its `_id` is new.
fn new_document(
    model: &Model,
    layout: &Layout,
    scale: &Scale,
    cmd: &crate::design::Command,
) -> String {
    let Some(c) = layout.collection(&cmd.collection) else {
        return "{}".into();
    };
    let gens = generators(model, layout, c, scale);
    let g = gens
        .iter()
        .find(|g| Some(g.label()) == cmd.insert_shape.as_deref())
        .or(gens.first());
    match g {
        Some(g) => {
            let d = g.document(g.count, &GenOptions::default()).document;
            crate::ejson::to_shell_string(&Bson::Document(d), false)
        }
        None => "{}".into(),
    }
}

/// Returns the README of the export folder.
pub fn readme(manifest: &Manifest) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Squillion export: {} ({} design)\n",
        manifest.model, manifest.design
    );
    let scale = match manifest.scale.roots {
        Some(n) => format!(
            "{n} {} documents (the root entity); each child collection its sampled parents' children (the cardinality at each parent's quantile), every other collection scaled by the same factor ({:.3e}), at most {} documents per collection",
            manifest.scale.root,
            manifest.scale.factor.unwrap_or(0.0),
            manifest.scale.max_documents
        ),
        None => "the model's sample".to_string(),
    };
    let _ = writeln!(
        s,
        "Generated by `squillion export` with seed {}: {scale}.\n",
        manifest.seed
    );
    s.push_str("| collection | file | documents | at this scale | BSON bytes | on disk (snappy, estimate) | arrays cut short |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
    for c in &manifest.collections {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} |",
            c.name,
            c.file,
            c.documents,
            c.uncapped_documents,
            c.bson_bytes,
            c.compressed_bytes,
            c.truncated_arrays
        );
    }
    s.push_str("\n\"at this scale\" counts the documents before the per-collection cap (`--max-documents`); arrays longer than 10,000 elements are cut short (a longer one would not import anyway past 16 MiB).\n\n");
    s.push_str("## Load it\n\n```sh\nURI=\"mongodb://localhost:27017/squillion\"\n");
    s.push_str("mongosh \"$URI\" setup.js      # collections, validators, indexes, sharding (on a mongos)\n");
    for c in &manifest.collections {
        let _ = writeln!(
            s,
            "mongoimport --uri \"$URI\" --collection '{}' --file '{}'",
            c.name, c.file
        );
    }
    s.push_str(
        "mongosh \"$URI\" workload.js   # every operation once (writes change the data)\n```\n\n",
    );
    s.push_str("The files are canonical Extended JSON, one document per line: mongoimport reads them as they are (no `--jsonArray`, no `--legacy`). `manifest.json` lists every collection's counts, byte sizes and `$jsonSchema` validator.\n");
    s
}
