//! What the user sees if the page ever panics: a banner that says their work is saved and
//! offers a reload, instead of a page that silently stops responding. Built with plain DOM
//! calls because after a panic the reactive runtime cannot be trusted.

use wasm_bindgen::JsCast;

/// Installs the panic hook: log to the console, then show the banner.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_banner();
    }));
}

fn show_banner() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(body) = document.body() else { return };
    if document.get_element_by_id("panic-banner").is_some() {
        return;
    }
    let Ok(banner) = document.create_element("div") else {
        return;
    };
    banner.set_id("panic-banner");
    let _ = banner.set_attribute("role", "alert");
    banner.set_text_content(Some(
        "Squillion hit an internal error and stopped. Your work is autosaved in this browser. ",
    ));
    if let Ok(link) = document.create_element("a") {
        let _ = link.set_attribute("href", "");
        link.set_text_content(Some("Reload to continue"));
        let _ = banner.append_child(&link);
    }
    if let Ok(element) = banner.dyn_into::<web_sys::HtmlElement>() {
        let _ = body.prepend_with_node_1(&element);
    }
}
