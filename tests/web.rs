//! Browser tests of the page's components, run in headless Chromium by
//! `cargo test --target wasm32-unknown-unknown` (wasm-bindgen-test-runner + chromedriver).
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use squillion::ui::{Console, DocumentSizer, LimitGauge};
use wasm_bindgen::{JsCast, JsValue};
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

/// Types `command` into the console's input and presses Enter, as a user would.
async fn run_in_console(root: &HtmlElement, command: &str) {
    let area: HtmlTextAreaElement = root
        .query_selector("#console-input")
        .unwrap()
        .unwrap()
        .unchecked_into();
    area.set_value(command);
    let input = web_sys::Event::new_with_event_init_dict("input", &{
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        init
    })
    .unwrap();
    area.dispatch_event(&input).unwrap();
    // new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true })
    let init = js_sys::Object::new();
    for (key, value) in [
        ("key", JsValue::from_str("Enter")),
        ("bubbles", JsValue::TRUE),
        ("cancelable", JsValue::TRUE),
    ] {
        js_sys::Reflect::set(&init, &key.into(), &value).unwrap();
    }
    let window = web_sys::window().unwrap();
    let class = js_sys::Reflect::get(&window, &"KeyboardEvent".into()).unwrap();
    let enter = js_sys::Reflect::construct(
        class.unchecked_ref::<js_sys::Function>(),
        &js_sys::Array::of2(&"keydown".into(), &init),
    )
    .unwrap();
    area.dispatch_event(enter.unchecked_ref()).unwrap();
    tick().await;
}

fn last_entry(root: &HtmlElement) -> HtmlElement {
    let entries = root.query_selector_all(".entry").unwrap();
    entries
        .item(entries.length() - 1)
        .expect("an entry")
        .unchecked_into()
}

#[wasm_bindgen_test]
async fn console_runs_a_find_and_shows_count_and_stats() {
    let root = mount(|| view! { <Console/> });
    tick().await;
    // data/console/users.ndjson: alice, carol, frank and celebrity-1 have 3 followers; the
    // filter cannot use an index, so all 12 users are examined.
    run_in_console(&root, "db.users.find({ followers: { $size: 3 } })").await;
    let entry = last_entry(&root);
    assert_eq!(text_of(&entry, "[data-testid=count]"), "4 documents");
    assert_eq!(
        text_of(&entry, "[data-testid=stats]"),
        "nReturned: 4, keysExamined: 0, docsExamined: 12, COLLSCAN"
    );
    assert_eq!(entry.query_selector_all(".docs li").unwrap().length(), 4);
    // The input is cleared for the next command.
    let area: HtmlTextAreaElement = root
        .query_selector("#console-input")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(area.value(), "");
}

#[wasm_bindgen_test]
async fn console_explain_shows_the_winning_plan_and_errors_inline() {
    let root = mount(|| view! { <Console/> });
    tick().await;
    run_in_console(&root, "db.users.find({ followers: 'grace' }).explain()").await;
    let entry = last_entry(&root);
    let plan = text_of(&entry, "[data-testid=winning-plan]");
    assert!(
        plan.contains("IXSCAN") && plan.contains("followers_1"),
        "{plan}"
    );
    assert_eq!(
        text_of(&entry, "[data-testid=stats]"),
        "nReturned: 3, keysExamined: 3, docsExamined: 3, IXSCAN { followers: 1 }"
    );
    run_in_console(&root, "db.users.find({ a: })").await;
    let error = text_of(&last_entry(&root), ".error");
    assert!(
        error.starts_with("Line 1, column 20: SyntaxError"),
        "{error}"
    );
}

#[wasm_bindgen_test]
async fn console_writes_update_the_collection_counts() {
    let root = mount(|| view! { <Console/> });
    tick().await;
    let count = || text_of(&root, ".coll[data-collection=users] .coll-count");
    assert_eq!(count(), "12 docs");
    run_in_console(&root, "db.users.insertMany([{ _id: 'x' }, { _id: 'y' }])").await;
    assert_eq!(count(), "14 docs");
    let value = text_of(&last_entry(&root), ".value-doc");
    assert!(value.contains("insertedIds"), "{value}");
}
