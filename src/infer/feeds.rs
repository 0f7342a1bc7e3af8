//! Feeds laid out as fan-out on read: a collection whose documents each hold one reference
//! to their author and an array of recipients, both `_id`s of the same collection
//! (`activity {author, to: [user ids]}`), is a feed of that collection's documents to itself,
//! not two relationships (user → activity by `author`, activity → user by `to`).

use super::build::Found;
use super::fit::Observed;
use super::refs::Created;
use super::EntityReport;
use crate::lang::Text;

/// A collection found to be the items of a feed laid out as fan-out on read.
#[derive(Debug, Clone, PartialEq)]
pub struct Feed {
    /// The items' collection (the feed's `feed` entity).
    pub collection: String,
    /// The collection both references name: the authors and the recipients (the feed's parent
    /// and child).
    pub users: String,
    /// The reference to the author, one per item.
    pub author: String,
    /// The array of recipients' ids.
    pub recipients: String,
    /// Recipients per item (an item without the array counted as 0): the feed's cardinality.
    pub per_item: Observed,
    /// Recipients read (ids resolved in the arrays).
    pub recipients_read: u64,
    /// Values checked and resolved, both references together.
    pub resolved: [u64; 2],
    /// Either reference was counted on a sample of its values.
    pub sampled: bool,
    /// The items' creation times, when they have them.
    pub created: Option<Created>,
}

impl Feed {
    /// Returns whether reference `f` is one of the two this feed is made of.
    pub fn holds(&self, f: &Found) -> bool {
        f.holder == self.collection && (f.field == self.author || f.field == self.recipients)
    }
}

/// Returns the fan-out-on-read feeds among the references `found`: a collection (not holding
/// arrays moved out, `with_children`, and whose own `_id`s no reference names) that holds
/// exactly one single reference to another collection, in every document, and exactly one
/// array of ids to that same collection. A collection holding an array of ids to another
/// collection than its single reference's is no feed (its references stay relationships of
/// their own).
pub fn fan_out_on_read(found: &[Found], with_children: &[String]) -> Vec<Feed> {
    let mut out: Vec<Feed> = Vec::new();
    for f in found {
        let holder = &f.holder;
        let target = &f.reference.target;
        if f.in_array
            || target == holder
            || out.iter().any(|d| &d.collection == holder)
            || with_children.contains(holder)
            || found.iter().any(|g| &g.reference.target == holder)
        {
            continue;
        }
        let to_target = |in_array: bool| {
            found
                .iter()
                .filter(|g| &g.holder == holder && g.in_array == in_array)
                .filter(|g| &g.reference.target == target)
                .collect::<Vec<_>>()
        };
        let (singles, arrays) = (to_target(false), to_target(true));
        let ([author], [recipients]) = (singles.as_slice(), arrays.as_slice()) else {
            continue;
        };
        if author.reference.values != author.holders {
            continue;
        }
        let Some(per_item) = recipients.array_counts.clone() else {
            continue;
        };
        out.push(Feed {
            collection: holder.clone(),
            users: target.clone(),
            author: author.field.clone(),
            recipients: recipients.field.clone(),
            per_item,
            recipients_read: recipients.reference.resolved,
            resolved: [
                author.reference.values + recipients.reference.values,
                author.reference.resolved + recipients.reference.resolved,
            ],
            sampled: author.reference.sampled || recipients.reference.sampled,
            created: author.created.clone(),
        });
    }
    out
}

/// Adds to the report rows of `feed`'s author and recipients fields (in `reports`) why they
/// were read as one feed, relationship `name`, and not as two relationships.
pub fn note(reports: &mut [EntityReport], feed: &Feed, name: &str) {
    let Some(e) = reports.iter_mut().find(|e| e.name == feed.collection) else {
        return;
    };
    for (field, other) in [
        (&feed.author, &feed.recipients),
        (&feed.recipients, &feed.author),
    ] {
        if let Some(row) = e.fields.iter_mut().find(|r| &r.path == field) {
            row.assumed.push(
                Text::new("infer-assumed-feed")
                    .arg("other", other)
                    .arg("relationship", name)
                    .arg("author", &feed.author)
                    .arg("recipients", &feed.recipients)
                    .arg("target", &feed.users),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::io::Cursor;

    use crate::infer::{Inference, Inferred};
    use crate::model::design::Strategy;
    use crate::model::Distribution;

    fn infer_all(inputs: &[(&str, String)]) -> Inferred {
        let mut inference = Inference::new();
        for (name, text) in inputs {
            let file = format!("{name}.json");
            inference
                .read(name, &file, Cursor::new(text.as_bytes().to_vec()))
                .unwrap();
        }
        inference.finish(&BTreeMap::new()).unwrap()
    }

    fn oid(tag: u8, n: u8) -> String {
        format!(
            "{{\"$oid\": \"{}\"}}",
            format!("{tag:02x}{n:02x}").repeat(6)
        )
    }

    /// Four users; each activity by user `i % 4` to the three others.
    fn users_and_activities(recipients: impl Fn(u8) -> Vec<String>) -> [(&'static str, String); 2] {
        let users: String = (0..4)
            .map(|i| format!("{{\"_id\": {}, \"username\": \"u{i}\"}}\n", oid(1, i)))
            .collect();
        let activities: String = (0..8)
            .map(|i| {
                format!(
                    "{{\"_id\": {}, \"author\": {}, \"content\": \"hello\", \"to\": [{}]}}\n",
                    oid(2, i),
                    oid(1, i % 4),
                    recipients(i).join(", ")
                )
            })
            .collect();
        [("activity", activities), ("user", users)]
    }

    #[test]
    fn an_author_and_recipients_of_one_collection_are_a_fan_out_on_read_feed() {
        let inputs =
            users_and_activities(|i| (0..4).filter(|u| *u != i % 4).map(|u| oid(1, u)).collect());
        let inferred = infer_all(&inputs);
        let m = &inferred.model;
        let [r] = m.relationships.as_slice() else {
            panic!("{:?}", m.relationships)
        };
        assert_eq!(
            (r.name.as_str(), r.parent.as_str(), r.child.as_str()),
            ("feed", "user", "user")
        );
        assert!(r.many_to_many);
        assert_eq!(r.feed.as_deref(), Some("activity"));
        assert_eq!(r.cardinality, Distribution::fixed(3.0));
        assert_eq!(
            m.design.relationships.get("feed"),
            Some(&Strategy::FanOutOnRead)
        );
        // The activity keeps its own fields; the references are the feed's.
        let activity = m.entities.iter().find(|e| e.name == "activity").unwrap();
        let names: Vec<&str> = activity.fields.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["_id", "content"]);
        let rep = &inferred.report.relationships[0];
        assert_eq!(
            (rep.layout, rep.field.as_str()),
            ("fan_out_on_read", "activity")
        );
        // 8 authors and 24 recipients, all resolved.
        assert_eq!(rep.resolved, Some([32, 32]));
        assert_eq!(rep.children_read, 24);
        // The summary says why, in both languages.
        let how = crate::infer::how(rep.layout, &rep.field, rep.map.is_some());
        let en = how.render(crate::lang::Lang::En);
        assert!(en.contains("fan-out-on-read feed activity"), "{en}");
        assert!(en.contains("one author reference"), "{en}");
        let note = inferred
            .report
            .entities
            .iter()
            .find(|e| e.name == "activity")
            .and_then(|e| e.fields.iter().find(|f| f.path == "to"))
            .map(|f| f.assumed.iter().map(|a| a.render(crate::lang::Lang::En)))
            .unwrap()
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            note.contains("with author, a fan-out-on-read feed"),
            "{note}"
        );
        // Laid out in its own design, the activity holds `author` and `to` again.
        let layout = crate::design::layout_model(m).unwrap();
        let c = layout.collection("activity").unwrap();
        let fields = &c.shapes[0].fields;
        assert!(fields.get("author").is_some() && fields.get("to").is_some());
        assert!(layout.collection("user").is_some());
    }

    #[test]
    fn recipients_of_another_collection_than_the_author_are_no_feed() {
        let groups: String = (0..4)
            .map(|i| format!("{{\"_id\": {}, \"title\": \"g{i}\"}}\n", oid(3, i)))
            .collect();
        let [activities, users] = users_and_activities(|i| vec![oid(3, i % 4), oid(3, 3)]);
        let inferred = infer_all(&[activities, users, ("group", groups)]);
        let m = &inferred.model;
        assert!(m.relationships.iter().all(|r| r.feed.is_none()));
        let ends: Vec<(&str, &str, bool)> = m
            .relationships
            .iter()
            .map(|r| (r.parent.as_str(), r.child.as_str(), r.many_to_many))
            .collect();
        assert_eq!(
            ends,
            [("user", "activity", false), ("activity", "group", true)]
        );
        assert!(m
            .design
            .relationships
            .values()
            .all(|s| !matches!(s, Strategy::FanOutOnRead)));
    }
}
