//! The mongosh of a migration: each step's command, and the whole plan as one script that
//! runs its backfills in resumable batches.
//!
//! A backfill runs over the parents' `_id` in ascending order, `BATCH` at a time; after each
//! batch the script prints the last `_id` done (`EJSON.stringify`), and setting `AFTER` to it
//! resumes there. `FROM_STEP` and `TO_STEP` run a part of the plan (the switch waits for the
//! application; the clean-up for the last reader of the old layout).

use bson::{doc, Bson, Document};

use crate::design::command::shell;

use super::{Action, Migration, Phase, Step};

/// Returns how mongosh names collection `name`: `db.name`, or `db.getCollection("name")`
/// where the name is not an identifier (`system.buckets.x`, `order-items`).
pub fn collection(name: &str) -> String {
    let ident = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    if ident {
        format!("db.{name}")
    } else {
        format!(
            "db.getCollection({})",
            shell(&Bson::String(name.to_string()))
        )
    }
}

/// Returns a backfill's pipeline for the parents `batch` (a mongosh expression: a variable's
/// name, or an array literal).
fn pipeline(field: &str, stages: &[Document], batch: Bson) -> Bson {
    let mut all = vec![Bson::Document(
        doc! { "$match": { field: { "$in": batch } } },
    )];
    all.extend(stages.iter().cloned().map(Bson::Document));
    Bson::Array(all)
}

/// Returns a backfill's `aggregate` call over `c` for the parents `batch`.
fn backfill_command(c: &str, field: &str, stages: &[Document], batch: Bson) -> String {
    format!(
        "{}.aggregate({})",
        collection(c),
        shell(&pipeline(field, stages, batch))
    )
}

/// Returns a step's command as the plan prints it (a backfill's for the parent ids `batch`).
pub fn command(action: &Action) -> String {
    match action {
        Action::Backfill {
            collection: c,
            field,
            pipeline: stages,
            ..
        } => backfill_command(c, field, stages, Bson::Document(doc! { "$param": "batch" })),
        Action::CreateIndex { mongosh, .. } => mongosh.clone(),
        Action::Update {
            collection: c,
            filter,
            update,
        } => format!(
            "{}.updateMany({}, {})",
            collection(c),
            shell(&Bson::Document(filter.clone())),
            shell(&Bson::Document(update.clone()))
        ),
        Action::Drop(c) => format!("{}.drop()", collection(c)),
        Action::DropIndex {
            collection: c,
            keys,
        } => format!(
            "{}.dropIndex({})",
            collection(c),
            shell(&Bson::Document(keys.clone()))
        ),
        Action::Application => "// the application's change: no command".to_string(),
    }
}

/// Returns a backfill's command for one batch of parent ids (what the engine check runs).
pub fn batch_command(action: &Action, ids: &[Bson]) -> Option<String> {
    match action {
        Action::Backfill {
            collection: c,
            field,
            pipeline: stages,
            ..
        } => Some(backfill_command(
            c,
            field,
            stages,
            Bson::Array(ids.to_vec()),
        )),
        _ => None,
    }
}

/// Returns the body of one step in the script: a backfill's batch loop, or its command.
fn step_body(s: &Step) -> String {
    match &s.action {
        Action::Backfill { parents, .. } => format!(
            "  let after = AFTER;\n  for (;;) {{\n    const batch = {p}.find(after === null ? {{}} : {{ _id: {{ $gt: after }} }}, {{ _id: 1 }}).sort({{ _id: 1 }}).limit(BATCH).toArray().map((d) => d._id);\n    if (batch.length === 0) break;\n    {cmd};\n    after = batch[batch.length - 1];\n    print(`step {n}: done through _id ${{EJSON.stringify(after)}}`);\n  }}\n  AFTER = null;\n",
            p = collection(parents),
            cmd = s.command,
            n = s.number
        ),
        Action::Application => format!(
            "  print(\"step {}: deploy the application's reads and writes of the target design, then run the next steps\");\n",
            s.number
        ),
        _ => format!("  {};\n", s.command),
    }
}

/// Returns one step as a script of its own (what `--out` writes per step).
pub fn step_script(m: &Migration, s: &Step) -> String {
    let mut out = header(m);
    out.push_str(&format!(
        "const BATCH = {};\nlet AFTER = null; // to resume a backfill: the last _id it printed\n\n",
        m.options.batch
    ));
    out.push_str(&format!(
        "// Step {} ({}): {}\n{{\n",
        s.number,
        s.phase.name(),
        s.title
    ));
    out.push_str(&step_body(s));
    out.push_str("}\n");
    out
}

fn header(m: &Migration) -> String {
    format!(
        "// Squillion migration of {} from {} to {}.\n// Run with mongosh against the database holding the collections.\n",
        m.model.as_deref().unwrap_or("the model"),
        m.from,
        m.to
    )
}

/// Returns the whole plan as one mongosh script.
pub fn script(m: &Migration) -> String {
    let mut out = header(m);
    for w in &m.dual_writes {
        out.push_str(&format!("// Dual writes until the switch: {w}\n"));
    }
    out.push_str(&format!(
        "\nconst FROM_STEP = 1;\nconst TO_STEP = {};\nconst BATCH = {};\nlet AFTER = null; // to resume a backfill: the last _id it printed\n",
        m.steps.len(),
        m.options.batch
    ));
    let mut phase: Option<Phase> = None;
    for s in &m.steps {
        if phase != Some(s.phase) {
            out.push_str(&format!("\n// ---- {} ----\n", s.phase.name()));
            phase = Some(s.phase);
        }
        out.push_str(&format!(
            "\n// Step {}: {}\nif (FROM_STEP <= {n} && {n} <= TO_STEP) {{\n",
            s.number,
            s.title,
            n = s.number
        ));
        out.push_str(&step_body(s));
        out.push_str("}\n");
    }
    out
}
