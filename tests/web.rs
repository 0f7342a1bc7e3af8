//! Browser tests of the page's components, run in headless Chromium by
//! `cargo test --target wasm32-unknown-unknown` (wasm-bindgen-test-runner + chromedriver).
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use squillion::ui::{Console, DocumentSizer, LimitGauge, Playground, WithDocLinks};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

thread_local! {
    /// What the tests mounted, still live: unmounted before the next mount, as a page
    /// replaces its view. A playground left mounted would go on evaluating in the background
    /// and slow every later test.
    static MOUNTED: std::cell::RefCell<Vec<(Box<dyn std::any::Any>, HtmlElement)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Unmounts everything mounted so far (its cleanups run) and removes its containers.
fn unmount_all() {
    for (handle, container) in MOUNTED.take() {
        drop(handle);
        container.remove();
    }
}

/// Mounts `view` into a new container and returns the container.
fn attach<V: IntoView + 'static>(view: impl FnOnce() -> V + 'static) -> HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let container: HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&container).unwrap();
    let handle = leptos::mount::mount_to(container.clone(), view);
    MOUNTED.with_borrow_mut(|m| m.push((Box::new(handle), container.clone())));
    container
}

/// Mounts `view` into a fresh container, alone and with no autosaved work from another test,
/// and returns the container.
fn mount<V: IntoView + 'static>(view: impl FnOnce() -> V + 'static) -> HtmlElement {
    unmount_all();
    let window = web_sys::window().unwrap();
    window.local_storage().unwrap().unwrap().clear().unwrap();
    attach(view)
}

/// A reload: what is mounted goes, `view` is mounted again, the autosaved work stays.
fn reload<V: IntoView + 'static>(view: impl FnOnce() -> V + 'static) -> HtmlElement {
    unmount_all();
    attach(view)
}

fn text_of(root: &HtmlElement, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
        .text_content()
        .unwrap_or_default()
}

/// Waits until the browser has run Leptos's scheduled updates and the playground has taken in
/// the text they leave (the model is read a task after the text changes, each offered design
/// analysed in a task of its own, the model taken in a task after them): a dozen macrotasks
/// later covers a preset's seven designs.
async fn tick() {
    for _ in 0..12 {
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            let _ = web_sys::window()
                .unwrap()
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        });
        wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
    }
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
    assert_eq!(text_of(&root, ".gauge-headroom"), "8 MiB to the limit");
    let headroom = root.query_selector(".gauge-headroom").unwrap().unwrap();
    assert_eq!(
        headroom.get_attribute("title").as_deref(),
        Some("8,388,608 bytes")
    );
    let gauge = root.query_selector(".gauge").unwrap().unwrap();
    assert_eq!(gauge.get_attribute("data-level").as_deref(), Some("ok"));
}

#[wasm_bindgen_test]
fn gauge_labels_its_warning_mark() {
    let root = mount(|| view! { <LimitGauge size=Signal::derive(|| 1_000u64)/> });
    assert_eq!(text_of(&root, ".gauge-mark-label"), "80%: warning");
    let label = root.query_selector(".gauge-mark-label").unwrap().unwrap();
    assert!(label
        .get_attribute("style")
        .unwrap_or_default()
        .contains("left: 80%"));
}

#[wasm_bindgen_test]
fn references_to_the_documentation_are_links() {
    let root = mount(|| {
        view! { <p><WithDocLinks text=Signal::derive(|| "How: docs/advisor.md; see docs/ and docs/x.json".to_string())/></p> }
    });
    let links = root.query_selector_all("a").unwrap();
    assert_eq!(links.length(), 1, "only a docs/NAME.md reference is a link");
    let link = root.query_selector("a").unwrap().unwrap();
    assert_eq!(
        link.get_attribute("href").as_deref(),
        Some("docs/advisor.html")
    );
    assert_eq!(link.text_content().as_deref(), Some("docs/advisor.md"));
    assert_eq!(
        root.text_content().as_deref(),
        Some("How: docs/advisor.md; see docs/ and docs/x.json")
    );
}

#[wasm_bindgen_test]
fn gauge_marks_a_document_over_the_limit() {
    let root = mount(|| view! { <LimitGauge size=Signal::derive(|| 16_777_217u64)/> });
    assert_eq!(text_of(&root, ".gauge-headroom"), "1 B over the limit");
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
    let again = reload(|| view! { <DocumentSizer/> });
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

/// Mounts the console and switches it to the articles' examples (data/console/), the
/// database these tests know; it opens on the sample of the model on show.
async fn console_on_examples() -> HtmlElement {
    let root = mount(|| view! { <Console/> });
    tick().await;
    let examples: HtmlElement = root
        .query_selector("input[name=console-source][value=examples]")
        .unwrap()
        .expect("the examples' radio button")
        .unchecked_into();
    examples.click();
    tick().await;
    root
}

#[wasm_bindgen_test]
async fn console_opens_on_the_model_on_show_and_switches_to_the_examples() {
    let root = mount(|| view! { <Console/> });
    tick().await;
    // No saved work: the starter model (social-feed) under its first design.
    let colls = root.query_selector_all(".coll[data-collection]").unwrap();
    let names: Vec<String> = (0..colls.length())
        .filter_map(|i| colls.item(i))
        .filter_map(|n| {
            n.unchecked_into::<HtmlElement>()
                .get_attribute("data-collection")
        })
        .collect();
    assert!(names.iter().any(|n| n == "user"), "{names:?}");
    assert!(!names.iter().any(|n| n == "users"), "{names:?}");
    assert!(text_of(&root, "[data-testid=console-about]").starts_with("social-feed"));
    let root = console_on_examples().await;
    assert!(root
        .query_selector(".coll[data-collection=users]")
        .unwrap()
        .is_some());
}

#[wasm_bindgen_test]
async fn console_runs_a_find_and_shows_count_and_stats() {
    let root = console_on_examples().await;
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
    let root = console_on_examples().await;
    run_in_console(&root, "db.users.find({ followers: 'grace' }).explain()").await;
    let entry = last_entry(&root);
    let plan = text_of(&entry, "[data-testid=explain]");
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
    let root = console_on_examples().await;
    let count = || text_of(&root, ".coll[data-collection=users] .coll-count");
    assert_eq!(count(), "12 docs");
    run_in_console(&root, "db.users.insertMany([{ _id: 'x' }, { _id: 'y' }])").await;
    assert_eq!(count(), "14 docs");
    let value = text_of(&last_entry(&root), ".value-doc");
    assert!(value.contains("insertedIds"), "{value}");
}

// The playground's model editor (docs/page.md).

fn model_text(root: &HtmlElement) -> String {
    root.query_selector("#model-input")
        .unwrap()
        .unwrap()
        .unchecked_into::<HtmlTextAreaElement>()
        .value()
}

fn dispatch(target: &web_sys::Element, event: &str) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict(event, &init).unwrap();
    target.dispatch_event(&ev).unwrap();
}

/// Sets the form input matching `selector` to `value` and commits it (a `change` event).
async fn commit_input(root: &HtmlElement, selector: &str, value: &str) {
    let input: HtmlInputElement = root
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no input matches {selector}"))
        .unchecked_into();
    input.set_value(value);
    dispatch(&input, "change");
    tick().await;
}

async fn click(root: &HtmlElement, selector: &str) {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
        .unchecked_into::<HtmlElement>()
        .click();
    tick().await;
}

async fn type_model(root: &HtmlElement, text: &str) {
    let area: HtmlTextAreaElement = root
        .query_selector("#model-input")
        .unwrap()
        .unwrap()
        .unchecked_into();
    area.set_value(text);
    dispatch(&area, "input");
    tick().await;
}

#[wasm_bindgen_test]
async fn a_form_edit_rewrites_the_json_and_the_results() {
    let root = mount(|| view! { <Playground/> });
    tick().await;
    assert!(text_of(&root, ".collection[data-collection=user]").contains("10,000,000 documents"));
    commit_input(&root, "[aria-label=\"Count of user\"]", "30000000").await;
    let text = model_text(&root);
    assert!(text.contains("\"count\": 30000000,"), "{text}");
    // Pretty, two-space indents, key order kept.
    assert!(text.starts_with("{\n  \"name\": \"social-feed\",\n  \"description\""));
    assert!(text_of(&root, ".collection[data-collection=user]").contains("30,000,000 documents"));
}

#[wasm_bindgen_test]
async fn undo_and_redo_cover_form_json_and_preset_changes() {
    let root = mount(|| view! { <Playground/> });
    tick().await;
    let start = model_text(&root);
    commit_input(&root, "[aria-label=\"Count of user\"]", "5").await;
    let after_form = model_text(&root);
    assert_ne!(after_form, start);
    click(&root, "[data-testid=undo]").await;
    assert_eq!(model_text(&root), start);
    click(&root, "[data-testid=redo]").await;
    assert_eq!(model_text(&root), after_form);

    let edited = after_form.replacen("\"count\": 5,", "\"count\": 6,", 1);
    type_model(&root, &edited).await;
    click(&root, "[data-testid=undo]").await;
    assert_eq!(model_text(&root), after_form);
    click(&root, "[data-testid=redo]").await;
    assert_eq!(model_text(&root), edited);

    click(&root, "#choose-preset").await;
    click(&root, ".preset-card[data-preset=blog]").await;
    assert!(model_text(&root).contains("\"name\": \"blog\""));
    assert!(text_of(&root, "[data-testid=loaded-preset]").starts_with("Blog"));
    click(&root, "[data-testid=undo]").await;
    assert_eq!(model_text(&root), edited);
    assert!(text_of(&root, "[data-testid=loaded-preset]").contains("edited"));
}

#[wasm_bindgen_test]
async fn a_bad_json_edit_keeps_the_last_good_model_in_the_form_and_results() {
    let root = mount(|| view! { <Playground/> });
    tick().await;
    type_model(&root, "{\"entities\": [").await;
    assert!(text_of(&root, ".doc-status .error").contains("line 1, column"));
    let count: HtmlInputElement = root
        .query_selector("[aria-label=\"Count of user\"]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(count.value(), "10000000");
    let fieldset = root.query_selector(".form-body").unwrap().unwrap();
    assert!(fieldset.has_attribute("disabled"));
    assert!(text_of(&root, ".collection[data-collection=user]").contains("10,000,000 documents"));
    // A valid model that breaks a rule still reaches the form, with its problem listed.
    type_model(
        &root,
        r#"{"entities": [{"name": "user", "count": -1, "fields": {}}]}"#,
    )
    .await;
    assert!(!root
        .query_selector(".form-body")
        .unwrap()
        .unwrap()
        .has_attribute("disabled"));
    assert!(text_of(&root, ".doc-status .error").contains("$.entities[0].count"));
}

#[wasm_bindgen_test]
async fn a_reload_restores_the_work() {
    let root = mount(|| view! { <Playground/> });
    tick().await;
    commit_input(&root, "[aria-label=\"Count of activity\"]", "4321").await;
    let saved = model_text(&root);
    let again = reload(|| view! { <Playground/> });
    tick().await;
    assert_eq!(model_text(&again), saved);
    assert!(text_of(&again, ".collection[data-collection=activity]").contains("4,321 documents"));
}

#[wasm_bindgen_test]
async fn a_refused_rename_changes_nothing_and_says_why() {
    let root = mount(|| view! { <Playground/> });
    tick().await;
    let start = model_text(&root);
    commit_input(&root, "[aria-label=\"Name of entity 1\"]", "activity").await;
    assert_eq!(model_text(&root), start);
    assert!(text_of(&root, ".form-message").contains("already an entity named “activity”"));
    commit_input(&root, "[aria-label=\"Name of entity 1\"]", "member").await;
    let text = model_text(&root);
    assert!(text.contains("\"parent\": \"member\"") && !text.contains("\"user\""));
}

#[wasm_bindgen_test]
async fn custom_starts_from_the_design_shown_and_its_picker_writes_an_override() {
    let root = mount(|| view! { <Playground/> });
    tick().await;
    let start = model_text(&root);
    assert!(start.contains("\"base\": \"denormalized\""), "{start}");
    let buttons = root.query_selector_all(".design-button").unwrap();
    assert_eq!(buttons.length(), 4);
    let custom: HtmlElement = buttons.item(3).unwrap().unchecked_into();
    assert!(custom.text_content().unwrap().ends_with("Custom"));
    assert!(root.query_selector(".strategies").unwrap().is_none());
    custom.click();
    tick().await;
    // Choosing Custom changes nothing yet (issue #16: the preset is not "edited" and there is
    // no undo step until the user changes something); its picker starts from the design shown,
    // the starter's (social-feed's) first, Normalized.
    assert_eq!(model_text(&root), start);
    let select: web_sys::HtmlSelectElement = root
        .query_selector("#strategy-feed")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(select.value(), "fan_out_on_read");
    assert_eq!(select.length(), 3);
    select.set_value("bucketed_fan_out");
    dispatch(&select, "change");
    tick().await;
    let text = model_text(&root);
    assert!(
        text.contains("\"feed\": {\n        \"strategy\": \"bucketed_fan_out\",\n        \"size\": 50\n      }"),
        "{text}"
    );
    // The first change writes the design shown with the override, as one step.
    assert!(text.contains("\"base\": \"normalized\""), "{text}");
    let size: HtmlInputElement = root
        .query_selector("#strategy-feed-parameter")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(size.value(), "50");
    click(&root, "[data-testid=undo]").await;
    assert_eq!(
        model_text(&root),
        start,
        "one undo step takes back Custom and its change"
    );
}

#[wasm_bindgen_test]
async fn the_pickers_base_select_and_reset_button_edit_the_design_one_step_each() {
    let root = mount(|| view! { <Playground/> });
    tick().await;
    let custom: HtmlElement = root
        .query_selector_all(".design-button")
        .unwrap()
        .item(3)
        .unwrap()
        .unchecked_into();
    custom.click();
    tick().await;
    let seeded = model_text(&root);
    let select = |id: &str| -> web_sys::HtmlSelectElement {
        root.query_selector(id).unwrap().unwrap().unchecked_into()
    };
    // The base: the feed, not overridden, follows it (bucketed: bucketed fan-out).
    assert_eq!(select("#design-base").value(), "normalized");
    assert_eq!(select("#strategy-feed").value(), "fan_out_on_read");
    assert!(root.query_selector(".strategy-reset").unwrap().is_none());
    let base = select("#design-base");
    base.set_value("bucketed");
    dispatch(&base, "change");
    tick().await;
    let text = model_text(&root);
    assert!(
        text.contains("\"design\": {\n    \"base\": \"bucketed\"\n  }"),
        "{text}"
    );
    assert_eq!(select("#strategy-feed").value(), "bucketed_fan_out");
    // An override gets a reset button naming its relationship; the reset removes it.
    let feed = select("#strategy-feed");
    feed.set_value("fan_out_on_write");
    dispatch(&feed, "change");
    tick().await;
    assert!(model_text(&root).contains("\"strategy\": \"fan_out_on_write\""));
    let reset = root.query_selector(".strategy-reset").unwrap().unwrap();
    assert_eq!(
        reset.get_attribute("aria-label").as_deref(),
        Some("Reset “feed” to the base design (Bucketed)")
    );
    click(&root, ".strategy-reset").await;
    assert_eq!(model_text(&root), text);
    assert!(root.query_selector(".strategy-reset").unwrap().is_none());
    assert_eq!(select("#strategy-feed").value(), "bucketed_fan_out");
    // One undo step each: the reset, the override, the base.
    click(&root, "[data-testid=undo]").await;
    assert!(model_text(&root).contains("\"strategy\": \"fan_out_on_write\""));
    click(&root, "[data-testid=undo]").await;
    assert_eq!(model_text(&root), text);
    click(&root, "[data-testid=undo]").await;
    assert_eq!(model_text(&root), seeded);
    assert_eq!(select("#design-base").value(), "normalized");
}

#[wasm_bindgen_test]
async fn the_collection_card_says_when_a_break_point_is_beyond_a_century() {
    let root = mount(|| view! { <Playground/> });
    tick().await;
    // Denormalized, each user embeds its followers (22 bytes each): 562,943 break 16 MiB,
    // and the largest user has 100,000. At 10 a day that is 46,295 days away (year 2151): no
    // calendar day. At 1,000 a day: 463 days.
    let model = |largest: u32| {
        format!(
            r#"{{ "start_date": "2025-01-01",
  "entities": [ {{ "name": "user", "count": 1000, "fields": {{ "name": {{ "type": "string", "length": {{ "shape": "fixed", "value": 8 }} }} }} }} ],
  "relationships": [ {{ "name": "followers", "parent": "user", "child": "user", "many_to_many": true,
      "cardinality": {{ "shape": "uniform", "min": 0, "max": 100000 }},
      "growth_per_day": {{ "typical": 1, "largest": {largest} }} }} ] }}"#
        )
    };
    // The card's line about the array, once the page shows it.
    async fn array_line(root: &HtmlElement) -> String {
        for _ in 0..100 {
            if let Some(e) = root
                .query_selector(".collection[data-collection=user] .array-line")
                .unwrap()
            {
                return e.text_content().unwrap_or_default();
            }
            tick().await;
        }
        text_of(root, ".collections")
    }
    type_model(&root, &model(10)).await;
    let buttons = root.query_selector_all(".design-button").unwrap();
    let denormalized = (0..buttons.length())
        .filter_map(|i| buttons.item(i))
        .map(|b| b.unchecked_into::<HtmlElement>())
        .find(|b| {
            b.text_content()
                .unwrap_or_default()
                .ends_with("Denormalized")
        })
        .unwrap_or_else(|| panic!("no Denormalized design"));
    denormalized.click();
    tick().await;
    let line = array_line(&root).await;
    assert!(
        line.contains(
            "breaks 16 MiB at 562,943 elements, reached by the largest parent not within 100 years"
        ),
        "{line}"
    );
    type_model(&root, &model(1000)).await;
    let line = array_line(&root).await;
    assert!(
        line.contains("reached by the largest parent on 2026-04-09 (in 463 days)"),
        "{line}"
    );
}
