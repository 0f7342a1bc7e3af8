//! Turns a chart's [`Node`] tree into SVG elements under a parent element: every attribute set
//! with `setAttribute` and every text with `textContent`, so names from the model are never
//! parsed as markup (no `innerHTML` anywhere in the page).

use crate::chart::svg::Node;

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// Replaces the children of `parent` with `nodes`.
pub fn fill(parent: &web_sys::Element, nodes: &[Node]) {
    parent.set_text_content(None);
    let Some(doc) = parent.owner_document() else {
        return;
    };
    for node in nodes {
        append(&doc, parent, node);
    }
}

/// Appends `node` (and its children) to `parent`.
fn append(doc: &web_sys::Document, parent: &web_sys::Element, node: &Node) {
    let Ok(el) = doc.create_element_ns(Some(SVG_NS), node.tag) else {
        return;
    };
    for (name, value) in &node.attrs {
        let _ = el.set_attribute(name, value);
    }
    if let Some(text) = &node.text {
        el.set_text_content(Some(text));
    }
    for child in &node.children {
        append(doc, &el, child);
    }
    let _ = parent.append_child(&el);
}
