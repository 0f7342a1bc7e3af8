//! The diagram of every preset's every design against the layout it draws: its boxes are the
//! layout's collections, its nested entries the layout's sub-documents and arrays (with their
//! element counts), its copies the layout's copied fields, its figures the evaluation's, and
//! its references the fields the layout fills with ids. Then what a few designs must show, and
//! `squillion diagram` itself: Mermaid, DOT (read back by a DOT parser) and SVG.

use std::collections::BTreeSet;
use std::process::Command;

use squillion::design::{DocShape, Layout};
use squillion::diagram::drawing;
use squillion::diagram::{CollectionKind, Counts, Diagram, Entry, ModelDiagram};
use squillion::eval::offer::{offer, offers};
use squillion::model::distribution::round_count;
use squillion::model::field::{BsonType, Field, Fields};
use squillion::model::Model;
use squillion::stats::collection_stats;

/// Every preset's model with each design it offers: (preset, design id, model, layout).
fn every_design() -> Vec<(String, String, Model, Layout)> {
    let mut out = Vec::new();
    for p in squillion::presets::all() {
        let m = p.model().expect("preset model");
        for o in offers(&m) {
            let layout = o.layout().expect("layout");
            out.push((p.name.to_string(), o.id.clone(), o.model.clone(), layout));
        }
    }
    assert!(out.len() > 40, "{} designs", out.len());
    out
}

/// What a nested field is in a layout: (path, type, items, element counts) of every field,
/// walked from the layout's own fields.
type Nested = BTreeSet<(
    String,
    &'static str,
    Option<&'static str>,
    Option<(u64, u64, u64)>,
)>;

/// Returns every field of `fields` under `prefix`, sub-documents' fields included.
fn layout_fields(prefix: &str, fields: &Fields, out: &mut Nested) {
    for (name, f) in fields.iter() {
        let path = format!("{prefix}{name}");
        let counts = f.count.as_ref().map(|c| (c.p50(), c.p99(), c.max_count()));
        let items = (f.ty == BsonType::Array).then(|| f.items.unwrap_or(BsonType::Null));
        out.insert((
            path.clone(),
            f.ty.alias(),
            items.map(BsonType::alias),
            counts,
        ));
        if f.ty == BsonType::Object || f.items == Some(BsonType::Object) {
            layout_fields(&format!("{path}."), &f.fields, out);
        }
    }
}

/// Returns every entry of `entries`, nested ones included, as [`layout_fields`] lists them.
fn diagram_entries(entries: &[Entry], out: &mut Nested) {
    for e in entries {
        let counts = e.counts.map(|c| (c.p50, c.p99, c.max));
        out.insert((
            e.path.clone(),
            e.ty.alias(),
            e.items.map(BsonType::alias),
            counts,
        ));
        diagram_entries(&e.entries, out);
    }
}

/// Returns the entry at dotted `path` among `entries`.
fn entry_at<'a>(entries: &'a [Entry], path: &str) -> Option<&'a Entry> {
    for e in entries {
        if e.path == path {
            return Some(e);
        }
        if let Some(found) = entry_at(&e.entries, path) {
            return Some(found);
        }
    }
    None
}

/// Returns the field at dotted `path` of `fields` (through sub-documents and arrays of them).
fn field_at<'a>(fields: &'a Fields, path: &str) -> Option<&'a Field> {
    let (first, rest) = match path.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (path, None),
    };
    let f = fields.get(first)?;
    match rest {
        None => Some(f),
        Some(rest) => field_at(&f.fields, rest),
    }
}

/// True when a field holds ids (ObjectIds, or an array of them): what a reference is stored as.
fn holds_ids(f: &Field) -> bool {
    f.ty == BsonType::ObjectId || (f.ty == BsonType::Array && f.items == Some(BsonType::ObjectId))
}

/// True when `name` of `shape` is a field its entity declares itself (not one the layout
/// added to refer to something).
fn declared(model: &Model, shape: &DocShape, name: &str) -> bool {
    shape
        .entity
        .as_deref()
        .and_then(|e| model.entity(e))
        .is_some_and(|e| e.fields.get(name).is_some())
}

#[test]
fn every_design_is_drawn_from_its_layout() {
    for (preset, design, model, layout) in every_design() {
        let at = format!("{preset} {design}");
        let d = Diagram::of_layout(&model, &layout);
        let boxes: Vec<&str> = d.collections.iter().map(|c| c.name.as_str()).collect();
        let collections: Vec<&str> = layout.collections.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(boxes, collections, "{at}: one box per collection");
        for (b, c) in d.collections.iter().zip(&layout.collections) {
            assert_eq!(b.shapes.len(), c.shapes.len(), "{at} {}", c.name);
            let stats = collection_stats(c, &model.start_date);
            for ((sb, s), st) in b.shapes.iter().zip(&c.shapes).zip(&stats.shapes) {
                let at = format!("{at} {} {}", c.name, s.label);
                assert_eq!(sb.label, s.label, "{at}");
                let (mut want, mut got) = (Nested::new(), Nested::new());
                layout_fields("", &s.fields, &mut want);
                diagram_entries(&sb.entries, &mut got);
                assert_eq!(
                    got, want,
                    "{at}: the fields, nested as the layout nests them"
                );
                for cf in &s.copied {
                    let e = entry_at(&sb.entries, &cf.path)
                        .unwrap_or_else(|| panic!("{at}: copied {} is drawn", cf.path));
                    assert_eq!(
                        e.copy_of.as_deref(),
                        Some(format!("{}.{}", cf.entity, cf.source).as_str()),
                        "{at} {}",
                        cf.path
                    );
                }
                let copies = sb
                    .entries
                    .iter()
                    .flat_map(|e| std::iter::once(e).chain(e.entries.iter()))
                    .filter(|e| e.copy_of.is_some())
                    .count();
                assert!(copies <= s.copied.len(), "{at}: no copy the layout lacks");
                assert_eq!(sb.figures.documents, round_count(st.count), "{at}");
                assert_eq!(sb.figures.p99, st.p99, "{at}");
                assert_eq!(sb.figures.largest, st.largest().0, "{at}");
            }
        }
        // Every reference is a field of ids of its collection, towards a collection of the
        // layout; every field of ids the layout added is a reference.
        for r in &d.references {
            let from = layout
                .collection(&r.from)
                .unwrap_or_else(|| panic!("{at}: {} is a collection", r.from));
            assert!(layout.collection(&r.to).is_some(), "{at}: {} exists", r.to);
            let f = from
                .shapes
                .iter()
                .find_map(|s| field_at(&s.fields, &r.field))
                .unwrap_or_else(|| panic!("{at}: {}.{} is a field", r.from, r.field));
            // Ids, an array of `{_id, …}` (an extended reference), or a value of the type of
            // the named collection's `_id` (a time series' `meta`, a key).
            let id_type = layout
                .collection(&r.to)
                .and_then(|c| c.shapes.first())
                .and_then(|s| s.fields.get("_id"))
                .map(|f| f.ty);
            let ids = holds_ids(f)
                || f.fields.get("_id").is_some()
                || Some(f.ty) == id_type
                || f.items == id_type;
            let keyed = model.relationships.iter().any(|m| {
                Some(&m.name) == r.relationship.as_ref()
                    && (m.parent_key.is_some() || m.child_key.is_some())
            });
            assert!(ids || keyed, "{at}: {}.{} holds ids", r.from, r.field);
        }
        for c in &layout.collections {
            for s in &c.shapes {
                for (name, f) in s.fields.iter() {
                    if name == "_id" || !holds_ids(f) || declared(&model, s, name) {
                        continue;
                    }
                    assert!(
                        d.references
                            .iter()
                            .any(|r| r.from == c.name && r.field == *name),
                        "{at}: {}.{name} holds ids: a reference",
                        c.name
                    );
                }
            }
        }
    }
}

/// Returns the diagram of `design` of preset `name`.
fn diagram_of(name: &str, design: &str) -> (Model, Diagram) {
    let m = squillion::presets::find(name).unwrap().model().unwrap();
    let o = offer(&m, design).unwrap_or_else(|| panic!("{name} offers {design}"));
    let d = Diagram::of_layout(&o.model, &o.layout().unwrap());
    (o.model, d)
}

#[test]
fn blog_one_query_holds_the_comments_inside_the_post() {
    let (m, d) = diagram_of("blog", "one-query");
    assert!(
        d.collection("comment").is_none(),
        "comments live in their post"
    );
    let post = d.collection("post").unwrap();
    let comments = entry_at(&post.shapes[0].entries, "comments").unwrap();
    assert_eq!(
        (comments.ty, comments.items),
        (BsonType::Array, Some(BsonType::Object))
    );
    let cardinality = &m.relationship("comments").unwrap().cardinality;
    assert_eq!(comments.counts, Some(Counts::of(cardinality)));
    assert_eq!(comments.counts.map(|c| c.max), Some(20_000));
    assert!(entry_at(&comments.entries, "comments.text").is_some());
    assert!(post
        .warnings
        .iter()
        .any(|w| w.code == "UNBOUNDED_ARRAY" && w.path == "comments"));
    let copy = entry_at(&post.shapes[0].entries, "author_name").unwrap();
    assert_eq!(copy.copy_of.as_deref(), Some("author.name"));
    assert!(!d.references.iter().any(|r| r.to == "comment"));
}

#[test]
fn blog_normalized_refers_from_comment_to_post() {
    let (m, d) = diagram_of("blog", "normalized");
    assert!(d.collection("comment").is_some());
    let post = d.collection("post").unwrap();
    assert!(entry_at(&post.shapes[0].entries, "comments").is_none());
    let r = d
        .references
        .iter()
        .find(|r| r.from == "comment" && r.to == "post")
        .expect("comment → post");
    assert_eq!(r.field, "postId");
    assert_eq!(r.relationship.as_deref(), Some("comments"));
    let cardinality = &m.relationship("comments").unwrap().cardinality;
    assert_eq!(r.from_side, Some(Counts::of(cardinality)));
    assert_eq!(r.to_side, Some(Counts::one()));
}

#[test]
fn gridfs_and_time_series_are_marked_as_what_they_are() {
    let (_, d) = diagram_of("message-attachments", "gridfs");
    assert_eq!(
        d.collection("fs.files").map(|c| c.kind),
        Some(CollectionKind::GridfsFiles)
    );
    assert_eq!(
        d.collection("fs.chunks").map(|c| c.kind),
        Some(CollectionKind::GridfsChunks)
    );
    assert!(d
        .references
        .iter()
        .any(|r| r.from == "fs.chunks" && r.field == "files_id" && r.to == "fs.files"));
    assert!(d
        .references
        .iter()
        .any(|r| r.to == "fs.files" && r.field.ends_with("FileId")));
    let (_, d) = diagram_of("host-logs", "time-series");
    let ts = d
        .collections
        .iter()
        .find(|c| c.kind == CollectionKind::TimeSeries)
        .expect("a time-series collection");
    assert_eq!(ts.name, "system.buckets.logmsg");
    assert!(d
        .references
        .iter()
        .any(|r| r.from == ts.name && r.field == "meta" && r.to == "host"));
    let (_, d) = diagram_of("blog", "normalized");
    assert!(d
        .collections
        .iter()
        .all(|c| c.kind == CollectionKind::Documents));
}

#[test]
fn a_document_that_can_pass_16_mib_is_flagged() {
    let (_, d) = diagram_of("social-graph", "followers");
    assert!(
        d.collections.iter().any(|c| c
            .warnings
            .iter()
            .any(|w| w.code == "DOC_OVER_LIMIT" || w.code == "DOC_CAN_EXCEED_LIMIT")),
        "{:#?}",
        d.collections
            .iter()
            .map(|c| &c.warnings)
            .collect::<Vec<_>>()
    );
}

#[test]
fn the_model_diagram_is_its_entities_and_relationships() {
    for p in squillion::presets::all() {
        let m = p.model().unwrap();
        let d = ModelDiagram::of(&m);
        let names: Vec<&str> = d.entities.iter().map(|e| e.name.as_str()).collect();
        let want: Vec<&str> = m.entities.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, want, "{}", p.name);
        assert_eq!(d.relationships.len(), m.relationships.len(), "{}", p.name);
        for (line, r) in d.relationships.iter().zip(&m.relationships) {
            assert_eq!(
                (line.parent.as_str(), line.child.as_str()),
                (r.parent.as_str(), r.child.as_str())
            );
            assert_eq!(line.children, Counts::of(&r.cardinality), "{}", p.name);
            assert_eq!(line.growth_per_day.is_some(), r.growth_per_day.is_some());
        }
    }
    let m = squillion::presets::find("blog").unwrap().model().unwrap();
    let picture = drawing::of_model(&ModelDiagram::of(&m), "blog", squillion::lang::Lang::En);
    let comments = picture
        .links
        .iter()
        .find(|l| l.label.starts_with("comments"))
        .unwrap();
    assert_eq!(comments.to_end, "0..20,000 (p50 5, p99 300) zipf");
    assert_eq!(comments.from_end, "1");
}

/// Runs this build's `squillion diagram ARGS`: exit code and standard output.
fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .arg("diagram")
        .args(args)
        .env("LANG", "C")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_cli_writes_mermaid_by_default() {
    let (code, text, err) = cli(&["presets/blog.json", "--design", "one-query"]);
    assert_eq!(code, 0, "{err}");
    assert!(text.starts_with("classDiagram\n"), "{text}");
    assert!(text.contains("[\"post.comments\"]"), "{text}");
    assert!(
        text.contains("*-- \"p50 5 · p99 300 · max 20,000\""),
        "{text}"
    );
    // Every line but the first is a class, a member or a relation between declared classes.
    let classes: BTreeSet<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("class "))
        .filter_map(|l| l.split('[').next())
        .collect();
    for l in text.lines().skip(2) {
        let first = l.split_whitespace().next().unwrap();
        assert!(
            first == "class" || classes.contains(first),
            "{l}: names a declared class"
        );
    }
    let (code, text, _) = cli(&["--preset", "blog"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("[\"comment\"]") && text.contains(": comments"),
        "{text}"
    );
}

#[test]
fn the_cli_writes_dot_that_a_dot_parser_reads() {
    for (preset, design) in [
        ("blog", "one-query"),
        ("message-attachments", "gridfs"),
        ("social-graph", "tbc"),
        ("category-tree", "array-of-ancestors"),
    ] {
        let (code, text, err) = cli(&["--preset", preset, "--design", design, "--format", "dot"]);
        assert_eq!(code, 0, "{err}");
        assert!(text.starts_with("digraph \""), "{text}");
        let mut parser = layout::gv::DotParser::new(&text);
        let graph = parser
            .process()
            .unwrap_or_else(|e| panic!("{preset} {design}: {e}\n{text}"));
        let mut builder = layout::gv::GraphBuilder::new();
        builder.visit_graph(&graph);
        let mut vg = builder.get();
        assert!(vg.num_nodes() >= 1, "{preset} {design}");
        let mut svg = layout::backends::svg::SVGWriter::new();
        vg.do_it(false, false, false, &mut svg);
    }
}

#[test]
fn the_cli_writes_a_standalone_svg() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("blog.svg");
    let (code, text, err) = cli(&[
        "--preset",
        "blog",
        "--design",
        "one-query",
        "--format",
        "svg",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(text.is_empty());
    assert!(err.contains("wrote"), "{err}");
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<?xml"));
    assert!(svg.contains("<svg") && svg.contains("xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.contains("post.comments") && svg.ends_with("</svg>"));
    // Every design of every preset lays out without failing.
    for (preset, design, model, layout) in every_design() {
        let picture = drawing::of_design(
            &Diagram::of_layout(&model, &layout),
            squillion::lang::Lang::ZhCn,
        );
        let svg = squillion::diagram::svg::render(&picture);
        assert!(svg.contains("</svg>"), "{preset} {design}");
    }
}

#[test]
fn the_cli_refuses_what_it_cannot_draw() {
    let (code, _, err) = cli(&["--preset", "blog", "--design", "no-such-design"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = cli(&["--preset", "blog", "--format", "png"]);
    assert_eq!(code, 2);
    let (code, _, _) = cli(&["--preset", "no-such-preset"]);
    assert_eq!(code, 2);
}

#[test]
fn the_docs_example_is_what_the_cli_prints() {
    let text = include_str!("../../docs/cli.md");
    let start = text.find("```mermaid\n").expect("a Mermaid example") + "```mermaid\n".len();
    let end = start + text[start..].find("```").unwrap();
    let (code, out, err) = cli(&["--preset", "person-addresses", "--design", "normalized"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        &text[start..end],
        out,
        "docs/cli.md's example is the CLI's output"
    );
}

#[test]
fn since_marks_what_moved_between_two_designs_in_every_format() {
    // blog's one-query design drawn in `format`, marked since design `d0`.
    let since = |d0: &str, format: &str| {
        cli(&[
            "--preset",
            "blog",
            "--design",
            "one-query",
            "--since",
            d0,
            "--format",
            format,
        ])
    };
    let args = |format: &str| since("normalized", format);
    let (code, mermaid, err) = args("mermaid");
    assert_eq!(code, 0, "{err}");
    // The comments moved into the post; the comment collection went.
    assert_eq!(
        err.trim_end(),
        "since normalized: not there: post.comments; changed: post; gone: comment"
    );
    // The mark is the box's second member, right after its tag.
    let members: Vec<&str> = mermaid
        .lines()
        .filter(|l| l.trim_start().starts_with("n1_") || l.trim_start().starts_with("n1 :"))
        .collect();
    assert!(
        mermaid.contains(
            "class n1[\"post\"]\n  n1 : «collection»\n  n1 : ± changed from normalized\n"
        ),
        "{members:?}"
    );
    assert!(
        mermaid.contains("«embedded»\n  n1_7 : ✚ not in normalized\n"),
        "{mermaid}"
    );
    // The author's box holds the same in both designs: not marked.
    assert!(!mermaid.contains("n0 : ✚") && !mermaid.contains("n0 : ±"));
    let (_, dot, _) = args("dot");
    let line = |name: &str| {
        dot.lines()
            .find(|l| l.contains(&format!("{{{name}\\n")))
            .unwrap_or_else(|| panic!("{name} in {dot}"))
            .to_string()
    };
    // A warned box stays red; a moved box without a warning is blue.
    assert!(line("post").contains("color=\"red\""), "{}", line("post"));
    assert!(line("post.comments").contains("color=\"blue\", penwidth=2"));
    assert!(!line("author").contains("color="));
    let (_, svg, _) = args("svg");
    assert!(svg.contains("✚ not in normalized") && svg.contains("± changed from normalized"));
    // Compared with itself, nothing moves.
    let (code, same, err) = since("one-query", "mermaid");
    assert_eq!(code, 0);
    assert_eq!(
        err.trim_end(),
        "since one-query: not there: –; changed: –; gone: –"
    );
    assert!(!same.contains("✚") && !same.contains("±"));
    // Without --design, or with an unknown design to compare with: a usage error.
    assert_eq!(cli(&["--preset", "blog", "--since", "normalized"]).0, 2);
    assert_eq!(since("nope", "mermaid").0, 2);
}
