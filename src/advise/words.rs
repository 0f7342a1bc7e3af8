//! The advice in words: each choice of a design as a clause a MongoDB user reads ("keep the
//! newest 20 followers in the user document"), built from the model's own names (the
//! relationship, its parent and child entities, the fields) and the strategy's parameters,
//! as a [`Text`] any language renders (`locales/*/messages.ftl`'s `advisor-words-*`). The
//! strategy ids (`embed_subset`) stay in the JSON's `label` and `design`; every sentence the
//! report and the page show is these words.

use super::space::{Candidate, Dimension, Space};
use crate::human::thousands;
use crate::lang::{Lang, Text};
use crate::model::design::{AttributeForm, FieldPattern, Granularity, Joins, Strategy};
use crate::model::{Model, Relationship};

/// Returns what strategy `s` does with relationship `r`, as a clause.
pub fn strategy_words(r: &Relationship, s: &Strategy) -> Text {
    let copy = s.copy().filter(|c| !c.is_empty());
    let id = match s {
        Strategy::Embed => "advisor-words-embed",
        Strategy::EmbedSubset { .. } => "advisor-words-embed-subset",
        Strategy::ExtendedReference { .. } if copy.is_some() => {
            "advisor-words-extended-reference-copy"
        }
        Strategy::ExtendedReference { .. } => "advisor-words-extended-reference",
        Strategy::ReferenceInParent => "advisor-words-reference-in-parent",
        Strategy::ReferenceInChild { .. } => match (r.many_to_many, copy.is_some()) {
            (false, false) => "advisor-words-reference-in-child",
            (false, true) => "advisor-words-reference-in-child-copy",
            (true, false) => "advisor-words-reference-in-child-many",
            (true, true) => "advisor-words-reference-in-child-many-copy",
        },
        Strategy::TwoWay => "advisor-words-two-way",
        Strategy::LinkCollection => "advisor-words-link-collection",
        Strategy::Bucket { .. } => "advisor-words-bucket",
        Strategy::Continuation { .. } => "advisor-words-continuation",
        Strategy::FanOutOnRead => "advisor-words-fan-out-on-read",
        Strategy::FanOutOnWrite => "advisor-words-fan-out-on-write",
        Strategy::BucketedFanOut { .. } => "advisor-words-bucketed-fan-out",
        Strategy::TimeSeries { .. } => "advisor-words-time-series",
        Strategy::ParentReferences => "advisor-words-parent-references",
        Strategy::ChildReferences => "advisor-words-child-references",
        Strategy::ArrayOfAncestors => "advisor-words-array-of-ancestors",
        Strategy::MaterializedPaths => "advisor-words-materialized-paths",
        Strategy::NestedSets => "advisor-words-nested-sets",
        Strategy::SingleCollection => "advisor-words-single-collection",
    };
    let mut t = Text::new(id)
        .arg("rel", &r.name)
        .arg("parent", &r.parent)
        .arg("child", &r.child);
    if let Some((_, n)) = s.parameter() {
        t = t.arg("n", thousands(n));
    }
    if let Some(c) = copy {
        t = t.list("fields", c);
    }
    if s.is_feed() {
        // A feed's items (another relationship never takes a feed strategy).
        t = t.arg("item", r.feed.as_deref().unwrap_or(&r.child));
    }
    if let Strategy::TimeSeries { granularity } = s {
        t = t.nested(
            "span",
            Text::new(match granularity {
                Granularity::Seconds => "advisor-words-span-hour",
                Granularity::Minutes => "advisor-words-span-day",
                Granularity::Hours => "advisor-words-span-month",
            }),
        );
    }
    t
}

/// Returns how reads join, as a clause.
pub fn joins_words(j: Joins) -> Text {
    Text::new(match j {
        Joins::Application => "advisor-words-joins-application",
        Joins::Lookup => "advisor-words-joins-lookup",
    })
}

/// Returns what field pattern `p` does, as a clause; `None` is the field without the pattern
/// `like` (the dimension's first pattern), said as what that leaves.
pub fn field_words(p: Option<&FieldPattern>, like: Option<&FieldPattern>) -> Text {
    let Some(p) = p else {
        return without(like);
    };
    let (entity, field) = super::space::target(p);
    let t = |id: &'static str| Text::new(id).arg("entity", entity).arg("field", field);
    match p {
        FieldPattern::Attribute {
            form, key, value, ..
        } => t(match form {
            AttributeForm::Keyed => "advisor-words-attribute-keyed",
            AttributeForm::KeyValue => "advisor-words-attribute-key-value",
            AttributeForm::Flattened => "advisor-words-attribute-flattened",
        })
        .arg("key", key)
        .arg("value", value),
        FieldPattern::Computed {
            relationship, sum, ..
        } => match sum {
            Some(s) => t("advisor-words-computed-sum").arg("sum", s),
            None => t("advisor-words-computed-count"),
        }
        .arg("rel", relationship),
        FieldPattern::Preallocated { slots, .. } => {
            t("advisor-words-preallocated").arg("n", thousands(*slots))
        }
        FieldPattern::Gridfs { .. } => t("advisor-words-gridfs"),
        FieldPattern::ObjectStorage { .. } => t("advisor-words-object-storage"),
        FieldPattern::Approximate { every, .. } => {
            t("advisor-words-approximate").arg("n", thousands(*every))
        }
        FieldPattern::Archive { after_days, .. } => {
            t("advisor-words-archive").arg("n", thousands(*after_days))
        }
        FieldPattern::DocumentVersioning { .. } => t("advisor-words-document-versioning"),
        FieldPattern::SchemaVersioning { from, to, .. } => t("advisor-words-schema-versioning")
            .arg("from", from)
            .arg("to", to),
        FieldPattern::CaseInsensitiveIndex { .. } => t("advisor-words-case-insensitive-index"),
        FieldPattern::Measurements { .. } => t("advisor-words-measurements"),
        FieldPattern::Map { key, .. } => t("advisor-words-map").arg("key", key),
    }
}

/// Returns the field of pattern `like` without it, as a clause.
fn without(like: Option<&FieldPattern>) -> Text {
    let Some(p) = like else {
        return Text::new("advisor-words-no-pattern");
    };
    let (entity, field) = super::space::target(p);
    let id = match p {
        FieldPattern::Attribute { .. } => "advisor-words-no-pattern",
        FieldPattern::Computed { .. } => "advisor-words-no-computed",
        FieldPattern::Preallocated { .. } => "advisor-words-no-preallocated",
        FieldPattern::Gridfs { .. } | FieldPattern::ObjectStorage { .. } => "advisor-words-inline",
        FieldPattern::Approximate { .. } => "advisor-words-no-approximate",
        FieldPattern::Archive { .. } => "advisor-words-no-archive",
        FieldPattern::DocumentVersioning { .. } => "advisor-words-no-document-versioning",
        FieldPattern::SchemaVersioning { .. } => "advisor-words-no-schema-versioning",
        FieldPattern::CaseInsensitiveIndex { .. } => "advisor-words-no-case-insensitive-index",
        FieldPattern::Measurements { .. } => "advisor-words-no-measurements",
        FieldPattern::Map { .. } => "advisor-words-no-map",
    };
    Text::new(id).arg("entity", entity).arg("field", field)
}

/// Returns option `i` of dimension `d` as a clause.
pub fn option_words(model: &Model, d: &Dimension, i: usize) -> Text {
    match d {
        Dimension::Relationship { name, options } => {
            match (model.relationship(name), options.get(i)) {
                (Some(r), Some(s)) => strategy_words(r, s),
                _ => Text::new("advisor-words-no-pattern"),
            }
        }
        Dimension::Joins(j) => joins_words(j.get(i).copied().unwrap_or_default()),
        Dimension::Field { options, .. } => {
            let like = options.iter().flatten().next();
            field_words(options.get(i).and_then(Option::as_ref), like)
        }
    }
}

/// Returns a candidate's choices (every dimension with more than one option) as one text:
/// its clauses joined ("keep the newest 20 followers in the user document; store each
/// activity with a reference to its user; join in the application"), or "the only design".
pub fn design_words(model: &Model, space: &Space, c: &Candidate) -> Text {
    let clauses: Vec<Text> = space
        .dimensions
        .iter()
        .zip(c)
        .filter(|(d, _)| d.len() > 1)
        .map(|(d, &i)| option_words(model, d, i))
        .collect();
    if clauses.is_empty() {
        Text::new("advisor-words-only-design")
    } else {
        Text::new("advisor-words-design").clauses("choices", clauses)
    }
}

/// Returns words as they start a sentence in `lang` (capitalized in English).
pub fn sentence(t: &Text, lang: Lang) -> String {
    crate::human::capitalize(&t.render(lang))
}

/// The words of a design read from JSON written before designs had words: "the only design".
pub fn unnamed() -> Text {
    Text::new("advisor-words-only-design")
}
