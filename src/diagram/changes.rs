//! What moved between two designs' drawings: the boxes one design has and the other has not,
//! the boxes both have with other contents, and the boxes that went.
//!
//! Two boxes are the same box when they have the same title (a collection's name, or
//! `post.comments` for the comments embedded in a post). They hold the same when their
//! [`Node::structure`](super::drawing::Node::structure) is equal: the same fields, sub-documents, indexes and kinds of
//! documents. Figures (counts and sizes) are left out on purpose: every design moves them, so
//! marking them would mark every box.
//!
//! [`mark`] writes the difference onto the newer drawing, so that every format draws it: a box
//! the other design does not have says `✚ not in D0` under its title, a box that holds other
//! things says `± changed from D0`; the boxes that went are only listed (they are not in the
//! picture).

use serde::{Deserialize, Serialize};

use super::drawing::{Change, Drawing, Marking};
use crate::lang::{Lang, Text};

/// What moved from the design a drawing is compared with to the drawing's own design, by box
/// title, each list in the order its drawing has the boxes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Changes {
    /// The design compared with.
    pub since: String,
    /// Boxes the other design does not have.
    pub added: Vec<String>,
    /// Boxes both designs have, holding other fields, indexes or kinds of documents.
    pub changed: Vec<String>,
    /// Boxes of the other design this one does not have.
    pub gone: Vec<String>,
}

impl Changes {
    /// True when the two designs draw the same boxes with the same contents.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.gone.is_empty()
    }

    /// Returns the changes as one line (`since normalized: not there: post.comments; changed:
    /// post; gone: comment`), `–` for an empty list.
    pub fn line(&self, lang: Lang) -> String {
        Text::new("cli-diagram-changes")
            .arg("design", &self.since)
            .arg("added", listed(&self.added))
            .arg("changed", listed(&self.changed))
            .arg("gone", listed(&self.gone))
            .render(lang)
    }
}

/// Returns box titles as a list of changes says them: `post, comment`, or `–` for none.
pub fn listed(names: &[String]) -> String {
    if names.is_empty() {
        "–".to_string()
    } else {
        names.join(", ")
    }
}

/// Marks on `drawing` what differs from `before` (the drawing of design `before.title`), in
/// `lang`, and returns the whole difference. Boxes not marked keep `change` as `None`.
pub fn mark(drawing: &mut Drawing, before: &Drawing, lang: Lang) -> Changes {
    let since = before.title.clone();
    let mut changes = Changes {
        since: since.clone(),
        ..Changes::default()
    };
    for n in &mut drawing.nodes {
        let change = match before.nodes.iter().find(|b| b.title == n.title) {
            None => Change::Added,
            Some(b) if b.structure != n.structure => Change::Changed,
            Some(_) => {
                n.change = None;
                continue;
            }
        };
        let (list, id) = match change {
            Change::Added => (&mut changes.added, "diagram-added-since"),
            Change::Changed => (&mut changes.changed, "diagram-changed-since"),
        };
        list.push(n.title.clone());
        n.change = Some(Marking {
            change,
            text: Text::new(id).arg("design", &since).render(lang),
        });
    }
    changes.gone = before
        .nodes
        .iter()
        .filter(|b| !drawing.nodes.iter().any(|n| n.title == b.title))
        .map(|b| b.title.clone())
        .collect();
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::drawing::Node;

    fn node(title: &str, structure: &[&str], lines: &[&str]) -> Node {
        Node {
            id: title.replace('.', "_"),
            title: title.to_string(),
            tag: "collection".to_string(),
            lines: lines.iter().map(|l| l.to_string()).collect(),
            warned: false,
            structure: structure.iter().map(|l| l.to_string()).collect(),
            change: None,
        }
    }

    fn drawing(title: &str, nodes: Vec<Node>) -> Drawing {
        Drawing {
            title: title.to_string(),
            nodes,
            links: Vec::new(),
        }
    }

    #[test]
    fn boxes_are_matched_by_title_and_compared_without_their_figures() {
        let before = drawing(
            "normalized",
            vec![
                node(
                    "post",
                    &["_id: objectId"],
                    &["10 documents", "_id: objectId"],
                ),
                node("comment", &["postId: objectId"], &["30 documents"]),
                node("user", &["_id: objectId"], &["5 documents"]),
            ],
        );
        let mut after = drawing(
            "embedded",
            vec![
                node(
                    "post",
                    &["_id: objectId", "comments: [{…}]"],
                    &["10 documents"],
                ),
                node("post.comments", &["text: string"], &[]),
                // Other figures, same contents: not marked.
                node("user", &["_id: objectId"], &["7 documents"]),
            ],
        );
        let changes = mark(&mut after, &before, Lang::En);
        assert_eq!(changes.added, ["post.comments"]);
        assert_eq!(changes.changed, ["post"]);
        assert_eq!(changes.gone, ["comment"]);
        assert_eq!(
            after.nodes[0].change.as_ref().map(|m| m.change),
            Some(Change::Changed)
        );
        assert_eq!(
            after.nodes[1].change.as_ref().map(|m| m.text.as_str()),
            Some("✚ not in normalized")
        );
        assert_eq!(after.nodes[2].change, None);
        assert_eq!(
            changes.line(Lang::En),
            "since normalized: not there: post.comments; changed: post; gone: comment"
        );
        // A design compared with itself: nothing moved.
        let mut same = before.clone();
        assert!(mark(&mut same, &before, Lang::En).is_empty());
        assert!(same.nodes.iter().all(|n| n.change.is_none()));
    }
}
