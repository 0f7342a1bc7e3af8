//! The designs a model offers, as one list addressed by id: the design bar shows them (label,
//! keys 1–9), the page's worker evaluates one by its id, `squillion eval --design ID` and
//! `squillion compare` run the same ones, and the export writes one. Nothing addresses a design
//! by its position in some other list.
//!
//! A preset offers its own `designs` (named designs, or mixes from its `custom_designs`, each
//! with its `design_sharding`); any other model the three named designs. Custom (the model's
//! own design, id `custom`) comes last.

use std::borrow::Cow;

use crate::design::{DesignError, DesignName, DesignSpec, Layout};
use crate::model::Model;

/// The id of the model's own design: the design bar's Custom, `squillion eval` without
/// `--design`.
pub const CUSTOM: &str = "custom";

/// One design a model offers.
#[derive(Debug, Clone, PartialEq)]
pub struct Offer {
    /// Its id, as the CLI, the worker and the golden files name it (`fan-out_on_write`,
    /// `normalized`, `custom`).
    pub id: String,
    /// As the design bar shows it (`Fan-out on write`, `Custom`).
    pub label: String,
    /// The model as evaluated under this design: a preset's design is the model's own design
    /// here, with that design's sharding.
    pub model: Model,
    /// The design laid out (for a named design: its base, with the model's field patterns and
    /// joins and no overrides).
    pub design: DesignSpec,
    /// Where the offer comes from.
    pub source: Source,
}

/// Where an offered design comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// One of a preset's `designs`.
    Preset,
    /// `normalized`, `denormalized` or `bucketed` of a model without a preset (or asked for by
    /// name).
    Named,
    /// The model's own design (Custom).
    Custom,
}

impl Offer {
    /// Returns the offer's model laid out under its design: what is analysed, evaluated and
    /// exported.
    pub fn layout(&self) -> Result<Layout, DesignError> {
        Layout::build(&self.model, &self.design)
    }

    /// Returns the design's name as reports give it (an evaluation's `design`): a preset's
    /// design under its id, the others as laid out (`normalized`, `normalized + overrides`).
    pub fn report_name(&self, layout: &Layout) -> String {
        match self.source {
            Source::Preset => self.id.clone(),
            Source::Named | Source::Custom => layout.design.clone(),
        }
    }

    /// Returns true for Custom, the model's own design.
    pub fn is_custom(&self) -> bool {
        self.source == Source::Custom
    }

    /// Returns `model` under the named design `name`.
    fn named(model: &Model, name: DesignName) -> Offer {
        let (model, design) = lowered(model, &DesignSpec::named(name, &model.design));
        Offer {
            id: name.as_str().to_string(),
            label: label(name.as_str()),
            model,
            design,
            source: Source::Named,
        }
    }

    /// Returns `model`'s own design.
    fn custom(model: &Model) -> Offer {
        let (model, design) = lowered(model, &model.design);
        Offer {
            id: CUSTOM.to_string(),
            label: "Custom".to_string(),
            model,
            design,
            source: Source::Custom,
        }
    }
}

/// Returns `model` under `design` with the design's lifecycle patterns applied
/// ([`crate::model::lifecycle::lower`]), the model's own design set to it; a design without
/// them leaves the model as it is.
pub fn lowered(model: &Model, design: &DesignSpec) -> (Model, DesignSpec) {
    let (m, s) = lowered_ref(model, design);
    (m.into_owned(), s.into_owned())
}

/// [`lowered`], borrowing `model` and `design` when the design has no lifecycle pattern and
/// the model's own field patterns (the advisor screens thousands of designs).
pub fn lowered_ref<'a>(
    model: &'a Model,
    design: &'a DesignSpec,
) -> (Cow<'a, Model>, Cow<'a, DesignSpec>) {
    if !crate::model::lifecycle::has_lifecycle(design) {
        // The plan reads some field patterns from the model's own design (an attribute's
        // form, a case-insensitive index's collation, GridFS fields, computed totals): a
        // design whose patterns differ from the model's must be planned with its own, or its
        // queries ask for a layout it does not have (a flattened attribute queried as an
        // array returns nothing).
        if model.design.fields == design.fields {
            return (Cow::Borrowed(model), Cow::Borrowed(design));
        }
        let mut m = model.clone();
        m.design = design.clone();
        return (Cow::Owned(m), Cow::Borrowed(design));
    }
    let (mut m, s) = crate::model::lifecycle::lower(model, design);
    m.design = s.clone();
    (Cow::Owned(m), Cow::Owned(s))
}

/// The named designs a model without a preset offers, in the design bar's order.
const NAMED: [DesignName; 3] = [
    DesignName::Normalized,
    DesignName::Denormalized,
    DesignName::Bucketed,
];

/// Returns a design id as a label: `fan-out_on_write` → `Fan-out on write`.
pub fn label(id: &str) -> String {
    crate::human::capitalize(&id.replace('_', " "))
}

/// Returns how design `id` of the model called `model` is named in `lang` (`english`: the
/// offer's own label): a shipped preset's label in that language, Custom and the three named
/// designs from the page's catalogue, and `english` otherwise. The design bar, the console and
/// the comparison's verdict name designs by it.
pub fn label_in(model: Option<&str>, id: &str, english: &str, lang: crate::lang::Lang) -> String {
    use crate::lang::{Lang, Msg};
    if lang == Lang::En {
        return english.to_string();
    }
    let named = match id {
        CUSTOM => Some(Msg::DesignCustom),
        "normalized" => Some(Msg::DesignNormalized),
        "denormalized" => Some(Msg::DesignDenormalized),
        "bucketed" => Some(Msg::DesignBucketed),
        _ => None,
    };
    let preset = model.and_then(crate::presets::get);
    match (preset, named) {
        (Some(p), _) if p.text(lang).design_labels.contains_key(id) => p.design_label(id, lang),
        (_, Some(m)) => m.text(lang),
        _ => english.to_string(),
    }
}

/// Returns the designs a preset offers (its `designs`, in order, each with its sharding); none
/// for a model without a preset.
fn preset_offers(model: &Model) -> Vec<Offer> {
    let Some(p) = &model.preset else {
        return Vec::new();
    };
    p.designs
        .iter()
        .filter_map(|id| {
            let design = p.design(id, &model.design)?;
            let (mut m, design) = lowered(model, &design);
            m.design = design.clone();
            if let Some(sh) = p.design_sharding.get(id) {
                m.sharding = Some(sh.clone());
            }
            Some(Offer {
                id: id.clone(),
                label: p
                    .design_labels
                    .get(id)
                    .cloned()
                    .unwrap_or_else(|| label(id)),
                model: m,
                design,
                source: Source::Preset,
            })
        })
        .collect()
}

/// Returns every design the design bar offers for `model`, in its order: a preset's own
/// designs, else the three named designs; then Custom, last.
pub fn offers(model: &Model) -> Vec<Offer> {
    let mut out = if model.preset.is_some() {
        preset_offers(model)
    } else {
        NAMED.iter().map(|&n| Offer::named(model, n)).collect()
    };
    out.push(Offer::custom(model));
    out
}

/// Returns the design `id` of `model`: one of [`offers`], or a named design the model does not
/// list (`squillion eval --preset P --design normalized`), or its own design under the CLI's
/// older name `model`. `None`: no such design.
pub fn offer(model: &Model, id: &str) -> Option<Offer> {
    if let Some(o) = preset_offers(model).into_iter().find(|o| o.id == id) {
        return Some(o);
    }
    match id {
        CUSTOM | "model" => Some(Offer::custom(model)),
        other => DesignName::from_name(other).map(|n| Offer::named(model, n)),
    }
}

/// Returns the designs `squillion compare` (and the `presets` table) sets side by side: a
/// preset's own designs; else the three named designs, then the model's own design when it
/// overrides some relationship.
pub fn compared(model: &Model) -> Vec<Offer> {
    if model.preset.is_some() {
        return preset_offers(model);
    }
    offers(model)
        .into_iter()
        .filter(|o| !o.is_custom() || !model.design.relationships.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset(name: &str) -> Model {
        crate::presets::find(name).unwrap().model().unwrap()
    }

    #[test]
    fn a_preset_offers_its_designs_then_custom() {
        let m = preset("social-graph");
        let ids: Vec<String> = offers(&m).into_iter().map(|o| o.id).collect();
        let mut expected = m.preset.as_ref().unwrap().designs.clone();
        expected.push(CUSTOM.to_string());
        assert_eq!(ids, expected);
        assert_eq!(compared(&m).len(), expected.len() - 1);
        let last = offers(&m).pop().unwrap();
        assert_eq!((last.label.as_str(), last.is_custom()), ("Custom", true));
    }

    #[test]
    fn every_offer_is_found_by_its_id() {
        for p in crate::presets::all() {
            let m = p.model().unwrap();
            for o in offers(&m) {
                assert_eq!(offer(&m, &o.id).as_ref(), Some(&o), "{} {}", p.name, o.id);
            }
        }
        assert!(offer(&preset("blog"), "no-such-design").is_none());
    }

    #[test]
    fn a_model_without_a_preset_offers_the_named_designs() {
        let mut m = preset("blog");
        m.preset = None;
        let ids: Vec<String> = offers(&m).into_iter().map(|o| o.id).collect();
        assert_eq!(ids, ["normalized", "denormalized", "bucketed", "custom"]);
        let labels: Vec<String> = offers(&m).into_iter().map(|o| o.label).collect();
        assert_eq!(labels, ["Normalized", "Denormalized", "Bucketed", "Custom"]);
        // A named design keeps the model's field patterns, as `layout_named` does.
        let n = offer(&m, "normalized").unwrap();
        assert_eq!(
            n.layout().unwrap(),
            crate::design::layout_named(&m, DesignName::Normalized).unwrap()
        );
    }
}
