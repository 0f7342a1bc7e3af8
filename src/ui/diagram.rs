//! The Diagram view on the worker's side: a design's diagram drawn as SVG in the tools module
//! (`src/bin/squillion-tools.rs`), which alone holds the layout crate (`layout-rs`, docs/size.md).
//! The view itself (`playground/diagram.rs`) lives in the page's module and asks a tools worker
//! (`public/worker.js`, `kind: 'diagram'`) for the picture.
//!
//! The picture is what `squillion diagram MODEL --design ID [--since ID0] --format svg --lang LANG`
//! writes (without a design, what `squillion diagram MODEL --format svg` writes):
//! the same offer laid out ([`crate::eval::offered_layout`]), drawn
//! ([`crate::diagram::drawing::of_design`]) and laid out ([`crate::diagram::svg`]).

use wasm_bindgen::prelude::*;

use crate::diagram::changes::{self, Changes};
use crate::diagram::drawing::{self, Drawing};
use crate::diagram::svg;
use crate::lang::Lang;
use crate::model::Model;

/// A picture the worker drew, and what moved since the design it was compared with.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawn {
    /// The SVG document.
    pub svg: String,
    /// What moved, when a design to compare with was given.
    pub changes: Option<Changes>,
}

/// Returns the drawing of the design `design` (an offer id) of `model`.
fn design_drawing(model: &Model, design: &str, lang: Lang) -> Result<Drawing, String> {
    let offered = crate::eval::offered_layout(model, design).map_err(|e| e.to_string())?;
    Ok(drawing::of_layout(
        &offered.model,
        &offered.layout,
        offered.name(),
        lang,
    ))
}

/// Returns the diagram of the design `design` (an offer id, as the design bar names it) of the
/// model in `model_text` as an SVG document, its words in `lang` (`en`, `zh-CN`), marked with
/// what moved since the design `since` when it is not empty; an empty `design` draws the
/// model's entities and relationships, as `squillion diagram MODEL` does. Or why it cannot be
/// drawn.
pub fn diagram_svg(
    model_text: &str,
    design: &str,
    since: &str,
    lang: &str,
) -> Result<Drawn, String> {
    let model = crate::ui::worker::read_model(model_text)?;
    let lang = Lang::from_tag(lang);
    if design.is_empty() {
        return Ok(Drawn {
            svg: svg::render_checked(&drawing::of_entities(&model, lang))?,
            changes: None,
        });
    }
    let mut picture = design_drawing(&model, design, lang)?;
    let changes = if since.is_empty() || since == design {
        None
    } else {
        let before = design_drawing(&model, since, lang)?;
        Some(changes::mark(&mut picture, &before, lang))
    };
    Ok(Drawn {
        svg: svg::render_checked(&picture)?,
        changes,
    })
}

/// Registers `squillionDiagram(modelText, designId, sinceId, lang)` on the worker's global
/// scope: it returns `{ svg, changes }` (the SVG document's text, and what moved since
/// `sinceId` as JSON, or null), or throws why the design cannot be drawn, as a string. A
/// failed assertion of the layout traps instead, which the worker reports as fatal.
pub fn register() {
    type DiagramFn = dyn Fn(String, String, String, String) -> Result<JsValue, JsValue>;
    let draw = Closure::<DiagramFn>::new(
        |model: String, design: String, since: String, lang: String| {
            let drawn =
                diagram_svg(&model, &design, &since, &lang).map_err(|e| JsValue::from_str(&e))?;
            let out = js_sys::Object::new();
            let changes = drawn
                .changes
                .and_then(|c| serde_json::to_string(&c).ok())
                .map_or(JsValue::NULL, |c| JsValue::from_str(&c));
            let _ = js_sys::Reflect::set(&out, &"svg".into(), &JsValue::from_str(&drawn.svg));
            let _ = js_sys::Reflect::set(&out, &"changes".into(), &changes);
            Ok(out.into())
        },
    );
    let _ = js_sys::Reflect::set(&js_sys::global(), &"squillionDiagram".into(), draw.as_ref());
    // The function lives as long as the worker.
    draw.forget();
}
