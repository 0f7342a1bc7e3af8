//! A drawing as Graphviz DOT: one `record` node per box (its title and tag, then its lines,
//! left-aligned), an edge per line between boxes: a sub-document hangs from its document by a
//! diamond, a reference or a relationship is an arrow with its counts at both ends
//! (`taillabel`, `headlabel`).

use super::drawing::{Drawing, LinkKind};

/// Returns `drawing` as a DOT `digraph`.
pub fn render(drawing: &Drawing) -> String {
    let mut out = format!("digraph {} {{\n", quoted(&drawing.title));
    out.push_str("  graph [rankdir=LR, fontname=\"Helvetica\"];\n");
    out.push_str("  node [shape=record, fontname=\"Helvetica\", fontsize=11];\n");
    out.push_str("  edge [fontname=\"Helvetica\", fontsize=10];\n");
    for n in &drawing.nodes {
        let body: String = n
            .lines
            .iter()
            .map(|l| format!("{}\\l", record_text(l)))
            .collect();
        let mut head = format!("{}\\n«{}»", record_text(&n.title), record_text(&n.tag));
        if let Some(m) = &n.change {
            head.push_str("\\n");
            head.push_str(&record_text(&m.text));
        }
        let label = if body.is_empty() {
            format!("{{{head}}}")
        } else {
            format!("{{{head}|{body}}}")
        };
        let color = match (n.warned, &n.change) {
            (true, _) => ", color=\"red\"",
            (false, Some(_)) => ", color=\"blue\", penwidth=2",
            (false, None) => "",
        };
        out.push_str(&format!("  {} [label=\"{label}\"{color}];\n", n.id));
    }
    for l in &drawing.links {
        let mut attrs = vec![format!("label={}", quoted(&l.label))];
        if !l.from_end.is_empty() {
            attrs.push(format!("taillabel={}", quoted(&l.from_end)));
        }
        if !l.to_end.is_empty() {
            attrs.push(format!("headlabel={}", quoted(&l.to_end)));
        }
        match l.kind {
            LinkKind::Nests => {
                attrs.push("dir=back".to_string());
                attrs.push("arrowtail=diamond".to_string());
            }
            LinkKind::Refers => attrs.push("style=dashed".to_string()),
            LinkKind::Relates => {}
        }
        out.push_str(&format!(
            "  {} -> {} [{}];\n",
            l.from,
            l.to,
            attrs.join(", ")
        ));
    }
    out.push_str("}\n");
    out
}

/// Returns `text` as a DOT quoted string (its quotes and backslashes escaped, line breaks
/// as `\n`).
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Returns `text` fit for a field of a record label inside a quoted string: the characters a
/// record reads as structure (`{ } | < >`), spaces at the ends, quotes and backslashes
/// escaped.
fn record_text(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '{' | '}' | '|' | '<' | '>' | '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}
