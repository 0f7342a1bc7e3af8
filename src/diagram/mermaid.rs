//! A drawing as Mermaid source: a `classDiagram`, whose classes hold one line per field,
//! whose composition (`*--`) nests a sub-document in its document and whose associations
//! (`-->`) carry a reference's or a relationship's counts at both ends. (An `erDiagram` has
//! cardinality only as crow's feet of four kinds, with no place for "p50 3, p99 40", and no
//! nesting.)
//!
//! Boxes are named by their ids (`n0`) and labelled with their names (`class n0["fs.files"]`),
//! so that no collection or field name has to be a Mermaid identifier; text is kept clear of
//! what Mermaid reads as syntax.

use super::drawing::{Drawing, LinkKind};

/// Returns `drawing` as a Mermaid `classDiagram`.
pub fn render(drawing: &Drawing) -> String {
    let mut out = String::from("classDiagram\n");
    out.push_str("  direction LR\n");
    for n in &drawing.nodes {
        out.push_str(&format!("  class {}[\"{}\"]\n", n.id, label(&n.title)));
        // The tag as the first member: an annotation (`<<…>>`) takes no spaces and no
        // Chinese.
        out.push_str(&format!("  {} : «{}»\n", n.id, member(&n.tag)));
        // What moved since the design compared with, as the second member.
        if let Some(m) = &n.change {
            out.push_str(&format!("  {} : {}\n", n.id, member(&m.text)));
        }
        for line in &n.lines {
            out.push_str(&format!("  {} : {}\n", n.id, member(line)));
        }
    }
    for l in &drawing.links {
        let arrow = match l.kind {
            LinkKind::Nests => "*--",
            LinkKind::Refers | LinkKind::Relates => "-->",
        };
        let end = |text: &str| {
            if text.is_empty() {
                String::new()
            } else {
                format!(" \"{}\"", label(text))
            }
        };
        out.push_str(&format!(
            "  {}{} {}{} {} : {}\n",
            l.from,
            end(&l.from_end),
            arrow,
            end(&l.to_end),
            l.to,
            member(&l.label)
        ));
    }
    out
}

/// Returns `text` fit for a quoted label: its double quotes as Mermaid's `#quot;`.
fn label(text: &str) -> String {
    text.replace('"', "#quot;")
}

/// Returns `text` fit for a class member or a relation label: parentheses (which make a
/// member a method), `~` (generics), `$` and `*` at the end (static, abstract), braces, angle
/// brackets, quotes, `#` and colons (which end a member) become look-alikes Mermaid does not read.
fn member(text: &str) -> String {
    let mut out: String = text
        .chars()
        .map(|c| match c {
            '(' => '⟮',
            ')' => '⟯',
            '{' => '❴',
            '}' => '❵',
            '<' => '‹',
            '>' => '›',
            '~' => '∼',
            '"' => '\'',
            '#' => '♯',
            ':' => '∶',
            ';' => ',',
            c => c,
        })
        .collect();
    while out.ends_with(['$', '*']) {
        out.pop();
    }
    out
}
