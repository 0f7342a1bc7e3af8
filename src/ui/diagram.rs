//! The Diagram view on the worker's side: a design's diagram drawn as SVG in the tools module
//! (`src/bin/squillion-tools.rs`), which alone holds the layout crate (`layout-rs`, docs/size.md).
//! The view itself (`playground/diagram.rs`) lives in the page's module and asks a tools worker
//! (`public/worker.js`, `kind: 'diagram'`) for the picture.
//!
//! The picture is what `squillion diagram MODEL --design ID --format svg --lang LANG` writes:
//! the same offer laid out ([`crate::eval::offered_layout`]), drawn
//! ([`crate::diagram::drawing::of_design`]) and laid out ([`crate::diagram::svg`]).

use wasm_bindgen::prelude::*;

use crate::diagram::{drawing, svg, Diagram};
use crate::lang::Lang;
use crate::model::parse_model;

/// Returns the diagram of the design `design` (an offer id, as the design bar names it) of the
/// model in `model_text` as an SVG document, its words in `lang` (`en`, `zh-CN`); or why it
/// cannot be drawn.
pub fn diagram_svg(model_text: &str, design: &str, lang: &str) -> Result<String, String> {
    let model = parse_model(model_text).map_err(|e| {
        let first = e.errors.first().map(|x| x.to_string()).unwrap_or_default();
        format!("the model has {} problem(s): {first}", e.errors.len())
    })?;
    let offered = crate::eval::offered_layout(&model, design).map_err(|e| e.to_string())?;
    let mut diagram = Diagram::of_layout(&offered.model, &offered.layout);
    diagram.design = offered.name();
    let lang = Lang::from_tag(lang);
    svg::render_checked(&drawing::of_design(&diagram, lang))
}

/// Registers `squillionDiagram(modelText, designId, lang)` on the worker's global scope: it
/// returns the SVG document's text, or throws why the design cannot be drawn, as a string. A
/// failed assertion of the layout traps instead, which the worker reports as fatal.
pub fn register() {
    type DiagramFn = dyn Fn(String, String, String) -> Result<String, JsValue>;
    let draw = Closure::<DiagramFn>::new(|model: String, design: String, lang: String| {
        diagram_svg(&model, &design, &lang).map_err(|e| JsValue::from_str(&e))
    });
    let _ = js_sys::Reflect::set(&js_sys::global(), &"squillionDiagram".into(), draw.as_ref());
    // The function lives as long as the worker.
    draw.forget();
}
