//! The model card of the playground: the model as forms or as JSON (both kept in sync), the
//! preset chooser, undo/redo, import/export and the share link.
//!
//! One [`Workspace`] holds the model's text and its undo history. Every change goes through
//! it: typing in the JSON (in bursts), a form edit (rewritten as pretty JSON), a preset, an
//! import or a shared link. Nothing replaces the user's work without a way back: undo covers
//! every step, and a preset, an import or a link also keeps the replaced work in local storage
//! behind a "restore" button. See docs/page.md.
//!
//! It stays one file: the workspace and the model card that drives it share their signals; the
//! card's forms and dialogs are already the modules of `editor/`.

mod chooser;
mod dialog;
mod distribution;
mod entities;
mod infer;
mod inputs;
mod json;
mod relationships;
mod workload;

use leptos::prelude::*;
use serde_json::Value;

use super::{clipboard, files, storage};
use crate::history::{Change, History};
use crate::lang::{Lang, Msg, Text};
use crate::model::edit::{self, EditError};
use crate::model::{parse_model, DesignSpec, Model, ModelError};
use crate::presets;
use crate::presets::PresetText;
use crate::share;
use crate::ui::i18n::{lang, t, tr, tv};

pub use chooser::PresetChooser;

/// The local-storage key of the editor's open tab (`form` or `json`).
const TAB_KEY: &str = "squillion.editor.tab";

/// A model file larger than this is not read (a model is a few kilobytes).
const IMPORT_LIMIT: u64 = 2 * 1024 * 1024;

/// What the last preset, import or link did, shown above the editor.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// A shared link's model was loaded.
    Opened {
        /// True when it replaced different work, which can be restored.
        can_restore: bool,
    },
    /// A link could not be read; nothing changed.
    Refused(String),
    /// A preset (or the blank model) replaced the model.
    Preset {
        /// The preset's name ([`BLANK`] for the blank model); its title is shown in the
        /// page's language.
        name: String,
    },
    /// A model file replaced the model.
    Imported {
        /// The file's name.
        file: String,
    },
    /// A model file could not be imported; nothing changed.
    ImportFailed {
        /// The file's name.
        file: String,
        /// Why, with line and column for syntax errors.
        why: String,
    },
}

/// Why the last form edit did nothing, kept as words rather than a string so that the
/// message follows a switch of the page's language.
#[derive(Debug, Clone, PartialEq)]
pub enum FormMessage {
    /// The JSON text does not parse: the form edits the last readable model only after a fix.
    Broken,
    /// The core refused the edit (a name taken, references it would break).
    Refused(EditError),
}

impl FormMessage {
    /// Returns the message in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        match self {
            FormMessage::Broken => Msg::FormJsonBroken.text(lang),
            FormMessage::Refused(e) => e.text().render(lang),
        }
    }
}

/// The model being edited: its text, undo history, the last readable JSON value, and the
/// messages of the editor. Cheap to copy into every form.
#[derive(Debug, Clone, Copy)]
pub struct Workspace {
    history: RwSignal<History>,
    /// The model's text (what the JSON tab shows and local storage keeps).
    pub text: Memo<String>,
    /// The last text that was readable JSON (an object), as a value: what the forms show.
    pub doc: Memo<Option<Value>>,
    /// True while the text is not readable JSON (the forms are then read-only).
    pub broken: Memo<bool>,
    /// The validation problems of the last readable model, each at its path: a form shows
    /// the ones at its field beside it.
    pub problems: Memo<Vec<ModelError>>,
    /// Why the last form edit was refused, if it was.
    pub message: RwSignal<Option<FormMessage>>,
    /// The accessible label of the name field whose rename was that refused edit: the field
    /// says [`Workspace::message`] beside itself too.
    pub refused_name: RwSignal<Option<String>>,
    /// What the last preset, import or link did.
    pub notice: RwSignal<Option<Notice>>,
    /// A design the next form edit writes first (Custom's seed, shown but not yet written):
    /// the user's first change and the seed are then one undo step.
    pub before_edit: RwSignal<Option<DesignSpec>>,
}

/// The undo history's clock: milliseconds since the page opened (`performance.now()`, the clock
/// of events' `timeStamp`, which typing passes).
fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

fn read_object(text: &str) -> Option<Value> {
    serde_json::from_str::<Value>(text)
        .ok()
        .filter(Value::is_object)
}

impl Workspace {
    /// Returns a workspace on `history` (its current text is the model), with `notice` shown.
    pub fn new(history: History, notice: Option<Notice>) -> Self {
        let history = RwSignal::new(history);
        let text = Memo::new(move |_| history.with(|h| h.current().to_string()));
        let doc = Memo::new(move |prev: Option<&Option<Value>>| {
            text.with(|t| read_object(t))
                .or_else(|| prev.cloned().flatten())
        });
        let broken = Memo::new(move |_| text.with(|t| read_object(t).is_none()));
        let problems = Memo::new(move |_| {
            doc.with(|d| d.as_ref().map(crate::model::validate::validate))
                .unwrap_or_default()
        });
        Workspace {
            history,
            text,
            doc,
            broken,
            problems,
            message: RwSignal::new(None),
            refused_name: RwSignal::new(None),
            notice: RwSignal::new(notice),
            before_edit: RwSignal::new(None),
        }
    }

    /// Makes `text` the model, recorded as `change`, and saves it.
    pub fn record(&self, text: String, change: Change) {
        self.record_at(text, change, None);
    }

    /// [`Workspace::record`] for a change the user made at `at` (the clock of [`now_ms`]; now
    /// when `None`): typing passes its keystroke's time, so that bursts follow the user's
    /// pauses, not the page's (`History::record_pressed`).
    pub fn record_at(&self, text: String, change: Change, at: Option<f64>) {
        let now = now_ms();
        let mut changed = false;
        self.history
            .update(|h| changed = h.record_pressed(text, change, at.unwrap_or(now), now));
        if changed {
            self.save();
        }
    }

    /// Replaces the whole model (a preset, an import, the blank model): the work it replaces
    /// stays undoable and is also kept for the notice's restore button.
    pub fn replace(&self, text: String, change: Change, notice: Notice) {
        let before = self.text.get_untracked();
        if before != text {
            storage::save(storage::MODEL_BEFORE_LINK_KEY, &before);
        }
        self.record(text, change);
        self.message.set(None);
        self.notice.set(Some(notice));
    }

    /// Brings back the work the last preset, import or link replaced (undoable too).
    pub fn restore(&self) {
        if let Some(previous) = storage::load(storage::MODEL_BEFORE_LINK_KEY) {
            self.record(previous, Change::Restore);
        }
        self.notice.set(None);
    }

    /// Goes back one step.
    pub fn undo(&self) {
        let mut moved = false;
        self.history.update(|h| moved = h.undo().is_some());
        if moved {
            self.after_jump();
        }
    }

    /// Goes forward one step.
    pub fn redo(&self) {
        let mut moved = false;
        self.history.update(|h| moved = h.redo().is_some());
        if moved {
            self.after_jump();
        }
    }

    fn after_jump(&self) {
        self.message.set(None);
        self.notice.set(None);
        self.save();
    }

    fn save(&self) {
        storage::save(storage::MODEL_KEY, &self.text.get_untracked());
    }

    /// Returns what an undo would revert (for the button's label), if anything.
    pub fn undoable(&self) -> Option<Change> {
        self.history.with(History::undoable)
    }

    /// Returns what a redo would re-apply, if anything.
    pub fn redoable(&self) -> Option<Change> {
        self.history.with(History::redoable)
    }

    /// Applies a form edit to the last readable model and rewrites the text as pretty JSON.
    /// A refused edit changes nothing and says why; returns false then.
    pub fn edit(&self, f: impl FnOnce(&mut Value) -> Result<(), EditError>) -> bool {
        // A name field marks the refusal as its own once this returns.
        self.refused_name.set(None);
        if self.broken.get_untracked() {
            self.message.set(Some(FormMessage::Broken));
            return false;
        }
        let Some(mut v) = self.doc.get_untracked() else {
            return false;
        };
        let seeded = match self.before_edit.get_untracked() {
            Some(design) => edit::set_design(&mut v, &design),
            None => Ok(()),
        };
        match seeded.and_then(|()| f(&mut v)) {
            Ok(()) => {
                self.message.set(None);
                self.record(edit::pretty(&v), Change::Form);
                true
            }
            Err(e) => {
                self.message.set(Some(FormMessage::Refused(e)));
                false
            }
        }
    }

    /// Sets `key` of the object at `parent` (a JSON pointer), or removes it (`None`).
    pub fn set(&self, parent: &str, key: &str, value: Option<Value>) -> bool {
        let parent = parent.to_string();
        let key = key.to_string();
        self.edit(move |v| {
            edit::set_key(v, &parent, &key, value);
            Ok(())
        })
    }
}

/// Which view of the model is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tab {
    Form,
    Json,
    /// The model's diagram: its entities and relationships before any design.
    Diagram,
}

impl Tab {
    /// Its name in local storage and in share links.
    fn name(self) -> &'static str {
        match self {
            Tab::Form => "form",
            Tab::Json => "json",
            Tab::Diagram => "diagram",
        }
    }

    /// The tab called `name`.
    fn from_name(name: &str) -> Option<Tab> {
        [Tab::Form, Tab::Json, Tab::Diagram]
            .into_iter()
            .find(|t| t.name() == name)
    }
}

/// The name the blank model's file gives itself, and the chooser's key for it.
pub(super) const BLANK: &str = "blank";

/// Returns `(preset name, edited)` for the loaded preset (`None` for the user's own model).
fn loaded_preset(doc: &Value) -> Option<(String, bool)> {
    let name = doc.get("name").and_then(Value::as_str)?;
    if name == BLANK {
        let blank: Value = serde_json::from_str(edit::BLANK_MODEL).ok()?;
        return Some((BLANK.to_string(), blank != *doc));
    }
    let p = presets::get(name)?;
    let original: Value = serde_json::from_str(p.text).ok()?;
    Some((p.name.to_string(), original != *doc))
}

/// Returns the title of preset `name` (or of the blank model) in the page's language (tracked).
fn preset_title(name: &str) -> String {
    match presets::get(name) {
        Some(p) => p.text(lang()).title.clone(),
        None => t(Msg::BlankModel),
    }
}

/// Returns the lesson of the last valid model's preset in the page's language (tracked): the
/// preset's own text when it is one of ours, else the notes the model carries (English).
fn lesson_text(model: ReadSignal<Option<Model>>) -> Option<PresetText> {
    let (name, notes) = model.with(|m| {
        m.as_ref()
            .map(|m| (m.name.clone(), m.preset.clone()))
            .unwrap_or_default()
    });
    let notes = notes?;
    let shipped = name.as_deref().and_then(presets::get);
    Some(match shipped {
        // The notes are the preset's own (not edited): its text in the page's language.
        Some(p) if p.title == notes.title => p.text(lang()).clone(),
        _ => PresetText {
            title: notes.title,
            lesson: notes.lesson,
            explanation: notes.explanation,
            scale_note: notes.scale_note,
            source_title: notes.source.title.clone().unwrap_or_default(),
            design_labels: Default::default(),
            units: Default::default(),
        },
    })
}

/// Returns a link to this page that opens the playground with `model_text`, showing `design`
/// in the editor's `tab`.
fn share_link(model_text: &str, design: String, tab: Tab) -> String {
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|href| href.split('#').next().unwrap_or_default().to_string())
        .unwrap_or_default();
    let link = share::Link {
        model: model_text.to_string(),
        design: (!design.is_empty()).then_some(design),
        view: Some(tab.name().to_string()),
    };
    format!("{base}#{}", share::fragment("playground", &link))
}

/// Opens the editor on the view a share link names (`form`, `json` or `diagram`; anything else is
/// ignored), for the model card about to be made.
pub fn show_view(view: &str) {
    if let Some(tab) = Tab::from_name(view) {
        storage::save(TAB_KEY, tab.name());
    }
}

/// Returns true when the focused element is a form input whose typed value is not yet
/// committed to the model: there the browser's own undo applies to the field.
fn uncommitted_field() -> bool {
    use wasm_bindgen::JsCast;
    let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
    else {
        return false;
    };
    let Some(committed) = el.get_attribute("data-committed") else {
        return false;
    };
    el.dyn_into::<web_sys::HtmlInputElement>()
        .is_ok_and(|input| input.value() != committed)
}

/// Returns the JSON text area and its caret when it has the focus.
fn json_caret() -> Option<(web_sys::HtmlTextAreaElement, u32)> {
    use wasm_bindgen::JsCast;
    let area: web_sys::HtmlTextAreaElement = web_sys::window()?
        .document()?
        .active_element()?
        .dyn_into()
        .ok()?;
    let at = area.selection_start().ok().flatten()?;
    Some((area, at))
}

/// Puts the caret back where it was (or at the end of a shorter text) once an undo or redo has
/// replaced the text, instead of at the end.
fn restore_caret((area, at): (web_sys::HtmlTextAreaElement, u32)) {
    request_animation_frame(move || {
        let len = u32::try_from(area.value().encode_utf16().count()).unwrap_or(u32::MAX);
        let at = at.min(len);
        let _ = area.set_selection_range(at, at);
    });
}

/// Reads a dropped or chosen model file; a valid model replaces the current one (undoable),
/// anything else changes nothing and says why.
pub fn import_file(ws: Workspace, file: web_sys::File) {
    let file = gloo_file::File::from(file);
    let name = file.name();
    if file.size() > IMPORT_LIMIT {
        ws.notice.set(Some(Notice::ImportFailed {
            file: name,
            why: "the file is larger than 2 MiB; a model is a few kilobytes".to_string(),
        }));
        return;
    }
    leptos::task::spawn_local(async move {
        let outcome = match files::read_text(&file).await {
            Err(why) => Err(why),
            Ok(text) => match parse_model(&text) {
                Ok(_) => Ok(text),
                Err(e) => Err(describe_errors(&e.errors)),
            },
        };
        // The playground may have gone while the file was read (another view opened).
        if ws.history.is_disposed() {
            return;
        }
        match outcome {
            Ok(text) => ws.replace(text, Change::Import, Notice::Imported { file: name }),
            Err(why) => {
                let _ = ws
                    .notice
                    .try_set(Some(Notice::ImportFailed { file: name, why }));
            }
        }
    });
}

/// Returns the first problems of a model in the page's language, each with its line and
/// column or JSON path ("$.entities[0].count：不能为负数（实际为 -5）；还有 2 个问题").
fn describe_errors(errors: &[ModelError]) -> String {
    let lang = lang();
    let mut out: Vec<String> = errors
        .iter()
        .take(3)
        .map(|e| e.to_string_in(lang))
        .collect();
    if errors.len() > 3 {
        out.push(
            Text::new("problem-and-more")
                .arg("count", errors.len() - 3)
                .render(lang),
        );
    }
    out.join(match lang {
        Lang::En => "; ",
        Lang::ZhCn => "；",
    })
}

/// The model card: toolbar, notices, preset bar, the Form and JSON tabs, the problems.
#[component]
pub fn ModelCard(
    /// The model being edited.
    ws: Workspace,
    /// The last valid model (its preset's lesson is shown).
    model: ReadSignal<Option<Model>>,
    /// The problems of the current text.
    errors: ReadSignal<Vec<ModelError>>,
    /// The design on show (an offer id), which a share link keeps.
    design: Memo<String>,
) -> impl IntoView {
    let first_tab = storage::load(TAB_KEY)
        .as_deref()
        .and_then(Tab::from_name)
        .unwrap_or(Tab::Form);
    let tab = RwSignal::new(first_tab);
    let set_tab = move |t: Tab| {
        tab.set(t);
        storage::save(TAB_KEY, t.name());
    };
    let chooser_open = RwSignal::new(false);
    let infer_open = RwSignal::new(false);
    let dropping = RwSignal::new(false);
    let (share_url, set_share_url) = signal(None::<String>);
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        dropping.set(false);
        if let Some(file) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|l| l.get(0))
        {
            import_file(ws, file);
        }
    };
    let on_dragover = move |ev: leptos::ev::DragEvent| {
        let has_files = ev
            .data_transfer()
            .is_some_and(|d| d.types().includes(&"Files".into(), 0));
        if has_files {
            ev.prevent_default();
            dropping.set(true);
        }
    };

    undo_keys(ws);

    let loaded = Memo::new(move |_| ws.doc.with(|d| d.as_ref().and_then(loaded_preset)));
    let on_tab_key = move |ev: leptos::ev::KeyboardEvent| {
        const ORDER: [Tab; 3] = [Tab::Form, Tab::Json, Tab::Diagram];
        let at = ORDER
            .iter()
            .position(|t| *t == tab.get_untracked())
            .unwrap_or(0);
        let next = match ev.key().as_str() {
            "Home" => ORDER[0],
            "End" => ORDER[ORDER.len() - 1],
            "ArrowLeft" => ORDER[(at + ORDER.len() - 1) % ORDER.len()],
            "ArrowRight" => ORDER[(at + 1) % ORDER.len()],
            _ => return,
        };
        ev.prevent_default();
        set_tab(next);
        focus(match next {
            Tab::Form => "#tab-form",
            Tab::Json => "#tab-json",
            Tab::Diagram => "#tab-diagram",
        });
    };

    view! {
        <div
            class="card model-card"
            class:dropping=move || dropping.get()
            on:dragover=on_dragover
            on:dragleave=move |_| dropping.set(false)
            on:drop=on_drop
        >
            <div class="card-head">
                <h2>{tr!(ModelHeading)}</h2>
                {file_toolbar(ws, design, tab, set_share_url, infer_open)}
            </div>
            <NoticeLine ws=ws/>
            {move || share_url.get().map(|url| view! {
                <label class="share-url">
                    <span>{tr!(ShareLinkCopied)}</span>
                    <input type="text" readonly prop:value=url aria-label=tr!(ShareLinkField)/>
                </label>
            })}
            {preset_bar(loaded, chooser_open)}
            {lesson_details(model)}
            <div class="editor-bar">
                <div class="editor-tabs" role="tablist" aria-label=tr!(EditAs)>
                    {tab_button(Tab::Form, tab, set_tab, on_tab_key)}
                    {tab_button(Tab::Json, tab, set_tab, on_tab_key)}
                    {tab_button(Tab::Diagram, tab, set_tab, on_tab_key)}
                </div>
                <div class="undo-buttons">
                    {history_button(ws, false)}
                    {history_button(ws, true)}
                </div>
            </div>
            <div id="panel-form" role="tabpanel" aria-labelledby="tab-form" class="model-form" hidden=move || tab.get() != Tab::Form>
                // Built again in another language: its labels are read when it is built.
                {move || {
                    lang();
                    view! { <ModelForm ws=ws/> }
                }}
            </div>
            <div id="panel-json" role="tabpanel" aria-labelledby="tab-json" hidden=move || tab.get() != Tab::Json>
                <label class="visually-hidden" for="model-input">{tr!(ModelAsJson)}</label>
                <json::JsonArea ws=ws errors=errors open=Signal::derive(move || tab.get() == Tab::Json)/>
            </div>
            <div id="panel-diagram" role="tabpanel" aria-labelledby="tab-diagram" hidden=move || tab.get() != Tab::Diagram>
                {model_diagram(ws, model, Signal::derive(move || tab.get() == Tab::Diagram))}
            </div>
            <ModelErrors errors=errors/>
            <p class="drop-hint" aria-hidden="true">{tr!(DropHint)}</p>
        </div>
        {move || chooser_open.get().then(|| view! {
            <PresetChooser ws=ws loaded=loaded on_close=move || {
                chooser_open.set(false);
                focus("#choose-preset");
            } on_infer=move || {
                chooser_open.set(false);
                infer_open.set(true);
            }/>
        })}
        {move || infer_open.get().then(|| view! {
            <infer::InferDialog ws=ws on_close=move || {
                infer_open.set(false);
                focus("#infer-open");
            }/>
        })}
    }
}

/// The model's file toolbar: import a file, infer a model from data, export the model, copy a
/// share link (of the model, the design on show and the tab open).
fn file_toolbar(
    ws: Workspace,
    design: Memo<String>,
    tab: RwSignal<Tab>,
    set_share_url: WriteSignal<Option<String>>,
    infer_open: RwSignal<bool>,
) -> impl IntoView {
    let on_share = move |_| {
        let url = share_link(
            &ws.text.get_untracked(),
            design.get_untracked(),
            tab.get_untracked(),
        );
        clipboard::copy(&url);
        set_share_url.set(Some(url));
    };
    let on_export = move |_| export_model(ws);
    let file_input = NodeRef::<leptos::html::Input>::new();
    let on_import_click = move |_| {
        if let Some(input) = file_input.get() {
            input.click();
        }
    };
    let on_file = move |ev: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        if let Some(file) = input.files().and_then(|l| l.get(0)) {
            import_file(ws, file);
        }
        // Choosing the same file again must fire `change` again.
        input.set_value("");
    };
    view! {
    <div class="toolbar" role="toolbar" aria-label=tr!(ModelFileToolbar)>
        <button type="button" class="button" on:click=on_import_click title=tr!(ImportTitle)>{tr!(ImportButton)}</button>
        <input
            node_ref=file_input
            type="file"
            class="visually-hidden"
            accept=".json,application/json"
            aria-label=tr!(ImportInput)
            tabindex="-1"
            on:change=on_file
        />
        <button type="button" class="button" id="infer-open" aria-haspopup="dialog" on:click=move |_| infer_open.set(true) title=tr!(FromDataTitle)>{tr!(FromDataButton)}</button>
        <button type="button" class="button" on:click=on_export title=tr!(ExportModelTitle)>{tr!(ExportModelButton)}</button>
        <button type="button" class="button" on:click=on_share>{tr!(ShareLinkButton)}</button>
    </div>
    }
}

/// Downloads the model's text as `<its name>.json`.
fn export_model(ws: Workspace) {
    let name = ws
        .doc
        .with_untracked(|d| {
            d.as_ref()
                .and_then(|d| d.get("name"))
                .and_then(Value::as_str)
                .map(files::safe_file_name)
        })
        .unwrap_or_else(|| "model".to_string());
    files::download(&format!("{name}.json"), &ws.text.get_untracked());
}

/// Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo, everywhere on the playground, except in a
/// form input with uncommitted typing (the browser undoes that typing). See docs/page.md.
fn undo_keys(ws: Workspace) {
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if !(ev.ctrl_key() || ev.meta_key()) || ev.alt_key() {
            return;
        }
        let key = ev.key().to_ascii_lowercase();
        let undo = key == "z" && !ev.shift_key();
        let redo = (key == "z" && ev.shift_key()) || (key == "y" && !ev.shift_key());
        if !(undo || redo) || uncommitted_field() {
            return;
        }
        ev.prevent_default();
        let caret = json_caret();
        if undo {
            ws.undo();
        } else {
            ws.redo();
        }
        if let Some(caret) = caret {
            restore_caret(caret);
        }
    });
    on_cleanup(move || keys.remove());
}

/// The preset bar: the preset loaded (marked when edited since), or the user's own model, and
/// the button that opens the preset chooser.
fn preset_bar(loaded: Memo<Option<(String, bool)>>, chooser_open: RwSignal<bool>) -> impl IntoView {
    view! {
    <div class="preset-bar">
        <span class="preset-label">{tr!(PresetLabel)}</span>
        <span class="preset-current" data-testid="loaded-preset">
            {move || match loaded.get() {
                Some((name, edited)) => view! {
                    <strong>{preset_title(&name)}</strong>
                    {edited.then(|| view! { <span class="badge" data-level="info">{tr!(PresetEdited)}</span> })}
                }.into_any(),
                None => view! { <span class="muted">{tr!(OwnModel)}</span> }.into_any(),
            }}
        </span>
        <button
            type="button"
            class="button"
            id="choose-preset"
            aria-haspopup="dialog"
            aria-expanded=move || chooser_open.get().to_string()
            on:click=move |_| chooser_open.set(true)
        >
            {tr!(PresetsButton)}
        </button>
    </div>
    }
}

/// The loaded preset's lesson, folded: its title and lesson, then its explanation and the note
/// on its scale.
fn lesson_details(model: ReadSignal<Option<Model>>) -> impl IntoView {
    move || {
        lesson_text(model).map(|p| view! {
        <details class="lesson">
            <summary><strong>{p.title.clone()}</strong>{tr!(TitleSeparator)}{p.lesson.clone()}</summary>
            {p.explanation.split("\n\n").map(|para| view! { <p>{para.to_string()}</p> }).collect_view()}
            <p class="muted">{p.scale_note.clone()}</p>
        </details>
    })
    }
}

/// The Diagram tab's content: the last valid model drawn before any design, as
/// `squillion diagram MODEL --format svg` draws it, asked of a tools worker of its own only
/// while the tab is open.
fn model_diagram(
    ws: Workspace,
    model: ReadSignal<Option<Model>>,
    open: Signal<bool>,
) -> impl IntoView {
    let tools = crate::ui::diagram_view::DiagramTools::new(false);
    // The text of the model last read without problems (the model is read a task after
    // its text changes).
    let text = Memo::new(move |_| {
        model.with(|m| m.is_some()).then(|| {
            let text: std::sync::Arc<str> = ws.text.get_untracked().into();
            text
        })
    });
    let question = Signal::derive(move || {
        if !open.get() {
            return None;
        }
        text.get().map(|t| (t, String::new()))
    });
    let name = Signal::derive(move || {
        model.with(|m| {
            m.as_ref()
                .and_then(|m| m.name.clone())
                .unwrap_or_else(|| "model".to_string())
        })
    });
    let caption = Signal::derive(move || tv(Msg::DiagramModelCaption, &[("model", name.get())]));
    view! {
        <p class="diagram-model-note muted">{tr!(DiagramModelNote)}</p>
        <crate::ui::diagram_view::DiagramView tools=tools question=question caption=caption
            model_name=name/>
    }
}

/// One tab of the editor bar (Form, JSON, Diagram): selected while its panel is open, and the one Tab
/// reaches; the arrows, Home and End move between the tabs.
fn tab_button(
    of: Tab,
    tab: RwSignal<Tab>,
    set_tab: impl Fn(Tab) + Copy + Send + Sync + 'static,
    on_tab_key: impl Fn(leptos::ev::KeyboardEvent) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let (id, controls) = match of {
        Tab::Form => ("tab-form", "panel-form"),
        Tab::Json => ("tab-json", "panel-json"),
        Tab::Diagram => ("tab-diagram", "panel-diagram"),
    };
    view! {
        <button
            type="button"
            role="tab"
            id=id
            aria-controls=controls
            aria-selected=move || (tab.get() == of).to_string()
            tabindex=move || if tab.get() == of { "0" } else { "-1" }
            on:click=move |_| set_tab(of)
            on:keydown=on_tab_key
        >
            {move || match of {
                Tab::Form => t(Msg::TabForm),
                Tab::Json => "JSON".to_string(),
                Tab::Diagram => t(Msg::TabDiagram),
            }}
        </button>
    }
}

/// The Undo button (`redo` false) or the Redo button: what it would undo or redo on hover,
/// disabled when there is nothing to.
fn history_button(ws: Workspace, redo: bool) -> impl IntoView {
    let (testid, title, nothing, label) = if redo {
        ("redo", Msg::RedoTitle, Msg::NothingToRedo, Msg::RedoButton)
    } else {
        ("undo", Msg::UndoTitle, Msg::NothingToUndo, Msg::UndoButton)
    };
    let step = move || if redo { ws.redoable() } else { ws.undoable() };
    view! {
        <button
            type="button"
            class="button"
            data-testid=testid
            disabled=move || step().is_none()
            title=move || match step() {
                Some(c) => tv(title, &[("what", crate::ui::i18n::change_text(c))]),
                None => t(nothing),
            }
            on:click=move |_| if redo { ws.redo() } else { ws.undo() }
        >
            {move || t(label)}
        </button>
    }
}

/// Moves the keyboard focus to the element matching `selector`, after the next render.
fn focus(selector: &'static str) {
    request_animation_frame(move || {
        use wasm_bindgen::JsCast;
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(selector).ok().flatten())
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
        }
    });
}

/// The line above the editor saying what the last preset, import or link did.
#[component]
fn NoticeLine(ws: Workspace) -> impl IntoView {
    let restore = move |_| ws.restore();
    move || {
        ws.notice.get().map(|n| match n {
            Notice::Opened { can_restore } => view! {
                <p class="notice" role="status">
                    {tr!(NoticeOpenedLink)}" "
                    {can_restore.then(|| view! {
                        <button type="button" class="link-button" on:click=restore>{tr!(RestorePrevious)}</button>
                    })}
                </p>
            }
            .into_any(),
            Notice::Preset { name } => view! {
                <p class="notice" role="status">
                    {move || tv(Msg::NoticeOpenedPreset, &[("title", preset_title(&name))])}" "
                    <button type="button" class="link-button" on:click=restore>{tr!(BackToPrevious)}</button>
                </p>
            }
            .into_any(),
            Notice::Imported { file } => view! {
                <p class="notice" role="status">
                    {tr!(NoticeImported, file = file)}" "
                    <button type="button" class="link-button" on:click=restore>{tr!(BackToPrevious)}</button>
                </p>
            }
            .into_any(),
            Notice::Refused(why) => view! {
                <p class="error" role="alert">{tr!(NoticeRefusedLink, why = why)}</p>
            }
            .into_any(),
            Notice::ImportFailed { file, why } => view! {
                <p class="error" role="alert" data-testid="import-error">{tr!(NoticeImportFailed, file = file, why = why)}</p>
            }
            .into_any(),
        })
    }
}

/// The model as forms: entities, relationships, workload.
#[component]
fn ModelForm(ws: Workspace) -> impl IntoView {
    // Only whether there is a model re-renders the sections; each control follows its value.
    let readable = Memo::new(move |_| ws.doc.with(Option::is_some));
    view! {
        {move || ws.broken.get().then(|| view! {
            <p class="notice form-frozen" role="status">
                {tr!(FormFrozen)}
            </p>
        })}
        {move || ws.message.get().map(|m| view! {
            <p class="error form-message" role="alert">{m.render(lang())}</p>
        })}
        <fieldset class="form-body" disabled=move || ws.broken.get()>
            <legend class="visually-hidden">{tr!(ModelHeading)}</legend>
            {move || if !readable.get() {
                view! { <p class="empty">{tr!(NoReadableModel)}</p> }.into_any()
            } else {
                view! {
                    <entities::EntitiesForm ws=ws/>
                    <relationships::RelationshipsForm ws=ws/>
                    <workload::WorkloadForm ws=ws/>
                    <p class="hint form-hint">{tr!(FormHint)}</p>
                }.into_any()
            }}
        </fieldset>
    }
}

/// The list of problems in the model, each at its JSON path (and line and column for syntax).
#[component]
pub fn ModelErrors(
    /// The problems; empty when the model is valid.
    errors: ReadSignal<Vec<ModelError>>,
) -> impl IntoView {
    view! {
        <div class="doc-status" aria-live="polite">
            {move || {
                let errors = errors.get();
                if errors.is_empty() {
                    view! { <p class="hint">{tr!(ValidModel)}</p> }.into_any()
                } else {
                    view! {
                        <div class="error" role="alert">
                            <strong>{tv(Msg::ModelProblems, &[("count", errors.len().to_string())])}</strong>
                            <ul class="model-errors">
                                {errors
                                    .into_iter()
                                    .map(|e| {
                                        let place = match (e.line, e.column) {
                                            (Some(l), Some(c)) => tv(
                                                Msg::LineColumn,
                                                &[("line", l.to_string()), ("column", c.to_string())],
                                            ),
                                            _ => e.path.clone(),
                                        };
                                        view! { <li data-code=e.code.to_string()><code>{place}</code>{t(Msg::Colon)}{e.message_in(lang())}</li> }
                                    })
                                    .collect_view()}
                            </ul>
                        </div>
                    }
                    .into_any()
                }
            }}
        </div>
    }
}
