//! Browser tests of the page's components, run in headless Chromium by
//! `cargo test --target wasm32-unknown-unknown` (wasm-bindgen-test-runner + chromedriver).
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use squillion::ui::{DocumentSizer, LimitGauge};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts `view` into a fresh container, with no autosaved work from another test, and
/// returns the container.
fn mount<V: IntoView + 'static>(view: impl FnOnce() -> V + 'static) -> HtmlElement {
    let window = web_sys::window().unwrap();
    window.local_storage().unwrap().unwrap().clear().unwrap();
    let document = window.document().unwrap();
    let container: HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&container).unwrap();
    let handle = leptos::mount::mount_to(container.clone(), view);
    std::mem::forget(handle);
    container
}

fn text_of(root: &HtmlElement, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
        .text_content()
        .unwrap_or_default()
}

/// Waits until the browser has run Leptos's scheduled updates (a macrotask later).
async fn tick() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// Types `text` into the sizer's textarea as a user would (value + input event), and waits
/// for the page to update.
async fn type_into(root: &HtmlElement, text: &str) {
    let area: HtmlTextAreaElement = root
        .query_selector("textarea")
        .unwrap()
        .unwrap()
        .unchecked_into();
    area.set_value(text);
    let event = web_sys::Event::new_with_event_init_dict("input", &{
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        init
    })
    .unwrap();
    area.dispatch_event(&event).unwrap();
    tick().await;
}

#[wasm_bindgen_test]
async fn sizer_starts_with_the_first_example_sized() {
    let root = mount(|| view! { <DocumentSizer/> });
    tick().await;
    // The social-graph example (data/examples/social-graph-user.js): pymongo's
    // len(bson.encode(doc)) of the same document is 135.
    assert_eq!(text_of(&root, "[data-testid=size-bytes]"), "135");
    assert!(root
        .query_selector(".breakdown tr[data-path=\"followers.2\"]")
        .unwrap()
        .is_some());
}

#[wasm_bindgen_test]
fn gauge_reports_share_and_headroom() {
    let root = mount(|| view! { <LimitGauge size=Signal::derive(|| 8_388_608u64)/> });
    assert_eq!(text_of(&root, ".gauge-share"), "50% of 16 MiB");
    assert_eq!(
        text_of(&root, ".gauge-headroom"),
        "8,388,608 bytes to the limit"
    );
    let gauge = root.query_selector(".gauge").unwrap().unwrap();
    assert_eq!(gauge.get_attribute("data-level").as_deref(), Some("ok"));
}

#[wasm_bindgen_test]
fn gauge_marks_a_document_over_the_limit() {
    let root = mount(|| view! { <LimitGauge size=Signal::derive(|| 16_777_217u64)/> });
    assert_eq!(text_of(&root, ".gauge-headroom"), "1 bytes over the limit");
    let gauge = root.query_selector(".gauge").unwrap().unwrap();
    assert_eq!(gauge.get_attribute("data-level").as_deref(), Some("over"));
}

#[wasm_bindgen_test]
async fn sizer_updates_as_you_type() {
    let root = mount(|| view! { <DocumentSizer/> });
    // {"a": 1}: 4 (length) + 1 (type) + 2 ("a\0") + 4 (int32) + 1 (trailing 0) = 12 bytes.
    type_into(&root, r#"{"a": 1}"#).await;
    assert_eq!(text_of(&root, "[data-testid=size-bytes]"), "12");
    // One row per field in the table.
    assert_eq!(
        root.query_selector_all(".breakdown tbody tr")
            .unwrap()
            .length(),
        1
    );
    type_into(&root, r#"{"a": 1, "bb": "xyz"}"#).await;
    // + 1 + 3 ("bb\0") + 4 (length) + 4 ("xyz\0") = 12 + 12 = 24.
    assert_eq!(text_of(&root, "[data-testid=size-bytes]"), "24");
}

#[wasm_bindgen_test]
async fn sizer_keeps_the_last_good_result_on_a_bad_edit() {
    let root = mount(|| view! { <DocumentSizer/> });
    type_into(&root, r#"{"a": 1}"#).await;
    type_into(&root, "{\"a\": 1,\n  \"b\": }").await;
    let error = text_of(&root, ".error");
    assert!(error.starts_with("Line 2, column"), "error was {error:?}");
    assert_eq!(text_of(&root, "[data-testid=size-bytes]"), "12");
    assert!(root.query_selector(".result-card.stale").unwrap().is_some());
}

#[wasm_bindgen_test]
async fn sizer_autosaves_what_is_typed() {
    let root = mount(|| view! { <DocumentSizer/> });
    type_into(&root, "{ n: NumberLong(7) }").await;
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    assert_eq!(
        storage.get_item("squillion.document").unwrap().as_deref(),
        Some("{ n: NumberLong(7) }")
    );
    // A sizer mounted later (a reload) starts from the saved text: 4 + 1 + 2 + 8 + 1 = 16.
    let document = web_sys::window().unwrap().document().unwrap();
    let again: HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&again).unwrap();
    std::mem::forget(leptos::mount::mount_to(
        again.clone(),
        || view! { <DocumentSizer/> },
    ));
    tick().await;
    assert_eq!(text_of(&again, "[data-testid=size-bytes]"), "16");
}
