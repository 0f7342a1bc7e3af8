//! The page's language: one signal, its switch in the header, and the helpers every view
//! reads its words through (docs/i18n.md, "The page").
//!
//! The first language is the one chosen before (local storage, [`LANG_KEY`]), else the
//! browser's (`navigator.language`, through [`Lang::from_tag`]). Choosing one in the switch
//! remembers it and sets `<html lang>`, so that screen readers and the CJK font follow. A
//! share link carries the model, never the language: the reader's page speaks the reader's.

use std::sync::OnceLock;

use leptos::prelude::*;

use crate::eval::metric::Metric;
use wasm_bindgen::{JsCast, JsValue};

use crate::lang::{self, Lang, Msg};
use crate::ui::storage;

/// The local-storage key of the language chosen in the switch (`en`, `zh-CN`).
pub const LANG_KEY: &str = "squillion.lang";

/// Returns the page's language signal, created on first use from the remembered choice or
/// the browser's language. Reference-counted rather than owned by the component that first
/// reads it, so that it lives as long as the page.
fn language() -> &'static ArcRwSignal<Lang> {
    static LANG: OnceLock<ArcRwSignal<Lang>> = OnceLock::new();
    // A language whose translation could not be fetched (a first visit that went offline) is
    // English until it is chosen again.
    LANG.get_or_init(|| {
        ArcRwSignal::new(
            Some(initial())
                .filter(|l| lang::is_available(*l))
                .unwrap_or_default(),
        )
    })
}

/// Returns the remembered language, else the browser's, else English.
pub fn initial() -> Lang {
    if let Some(code) = storage::load(LANG_KEY) {
        if let Some(l) = Lang::ALL.into_iter().find(|l| l.code() == code) {
            return l;
        }
    }
    web_sys::window()
        .and_then(|w| w.navigator().language())
        .map_or(Lang::En, |tag| Lang::from_tag(&tag))
}

/// Returns the page's language; read in a reactive closure, the closure re-runs when it
/// changes.
pub fn lang() -> Lang {
    language().get()
}

/// Returns the page's language without subscribing to it (what a message sent now says).
pub fn lang_untracked() -> Lang {
    language().get_untracked()
}

/// Switches the page to `lang`, remembers the choice and sets `<html lang>`; a language whose
/// translation the page has not fetched yet switches once it has it (it stays as it is when the
/// fetch fails).
pub fn set_lang(lang: Lang) {
    let switch = move || {
        storage::save(LANG_KEY, lang.code());
        language().set(lang);
    };
    if lang::is_available(lang) {
        switch();
    } else {
        wasm_bindgen_futures::spawn_local(async move {
            if fetch_translation(lang).await {
                switch();
            }
        });
    }
}

/// Fetches `lang`'s translation file (`<code>.json`, through public/boot.js's
/// `squillionTranslation`, which may have started it beside the module) and supplies it;
/// returns whether the language can be shown now. Failures go to the console: the page goes on
/// in English.
pub async fn fetch_translation(lang: Lang) -> bool {
    if lang::is_available(lang) {
        return true;
    }
    let fetched = async {
        let fetch = js_sys::Reflect::get(&js_sys::global(), &"squillionTranslation".into())?
            .dyn_into::<js_sys::Function>()?;
        let promise = fetch
            .call1(&JsValue::NULL, &lang.code().into())?
            .dyn_into::<js_sys::Promise>()?;
        let text = wasm_bindgen_futures::JsFuture::from(promise).await?;
        let text = text
            .as_string()
            .ok_or_else(|| JsValue::from_str("not text"))?;
        lang::supply(&text).map_err(|e| JsValue::from_str(&e.to_string()))
    };
    match fetched.await {
        Ok(_) => true,
        Err(e) => {
            leptos::logging::warn!("the {lang} translation could not be loaded: {e:?}");
            false
        }
    }
}

/// Returns message `m` in the page's language (tracked).
pub fn t(m: Msg) -> String {
    m.text(lang())
}

/// Returns message `m` with its values in the page's language (tracked).
pub fn tv(m: Msg, values: &[(&str, String)]) -> String {
    m.with(lang(), values)
}

/// Returns how the page names design `id` of the model called `model` in `lang`: a shipped
/// preset's label in that language, Custom and the three named designs from the catalogue,
/// and `english` (the offer's own label) otherwise.
pub fn design_label(model: Option<&str>, id: &str, english: &str, lang: Lang) -> String {
    crate::eval::offer::label_in(model, id, english, lang)
}

/// The name of the model on show (a preset's, by which its operations have names in other
/// languages), provided by the playground as a context.
#[derive(Debug, Clone, Copy)]
pub struct ShownModel(pub Signal<Option<String>>);

/// Returns how the page names the workload operation `unit` of the model on show, in its
/// language: the preset's translated label (`记录一条读数`), else the name itself. The
/// operation keeps its own name in `data-unit` and every output.
pub fn unit_label(unit: &str) -> String {
    let lang = lang();
    if lang == Lang::En {
        return unit.to_string();
    }
    use_context::<ShownModel>()
        .and_then(|s| s.0.get())
        .as_deref()
        .and_then(crate::presets::get)
        .map_or_else(|| unit.to_string(), |p| p.unit_label(unit, lang))
}

/// Returns a document shape's label in the page's language: the model's names stay, and the
/// words the layout adds to them are translated: a link collection's `link`, a bucket's
/// `bucket`, a feed's `feed item`, `feed copy` and `feed bucket`, a relationship's
/// `… continuation` documents and a GridFS file's `… file`, `… chunk` and `… last chunk`. The
/// label itself stays the shape's name in `data-shape` and every output. A label that is the
/// name of an entity `collection` holds is the model's own word and stays as it is (a model
/// may call an entity `link` or `bucket`).
pub fn shape_label(label: &str, collection: &crate::design::Collection) -> String {
    if collection
        .shapes
        .iter()
        .any(|s| s.entity.as_deref() == Some(label))
    {
        return label.to_string();
    }
    let fixed = [
        ("link", Msg::ShapeLink),
        ("bucket", Msg::ShapeBucket),
        ("feed item", Msg::ShapeFeedItem),
        ("feed copy", Msg::ShapeFeedCopy),
        ("feed bucket", Msg::ShapeFeedBucket),
    ];
    if let Some((_, m)) = fixed.iter().find(|(l, _)| *l == label) {
        return t(*m);
    }
    // The longest suffix first: `… last chunk` before `… chunk`.
    let suffixed = [
        (" last chunk", Msg::ShapeLastChunk),
        (" chunk", Msg::ShapeChunk),
        (" file", Msg::ShapeFile),
        (" continuation", Msg::ShapeContinuation),
    ];
    for (suffix, m) in suffixed {
        if let Some(of) = label.strip_suffix(suffix).filter(|of| !of.is_empty()) {
            return tv(m, &[("of", of.to_string())]);
        }
    }
    label.to_string()
}

/// Returns what metric `m` is, per run, in `lang` (`docs examined`, `检查的文档`).
pub fn metric_label(m: Metric, lang: Lang) -> String {
    m.label_msg().text(lang)
}

/// Returns metric `m`'s label in a comparison, in `lang`: per second for the workload's
/// figures (`docs examined/s`, `检查的文档/秒`), capitalized in English.
pub fn compared_label(m: Metric, lang: Lang) -> String {
    let label = metric_label(m, lang);
    let label = if m.is_per_sec() {
        Msg::MetricPerSec.with(lang, &[("label", label)])
    } else {
        label
    };
    crate::human::capitalize(&label)
}

/// Returns an exact byte count for a tooltip in the page's language (tracked):
/// `25,000,288 bytes`, `25,000,288 字节`.
pub fn exact_bytes(n: u64) -> String {
    tv(Msg::ExactBytes, &[("bytes", crate::human::thousands(n))])
}

/// Returns what an undo step changed, in the page's language (tracked): `opening the preset`.
pub fn change_text(c: crate::history::Change) -> String {
    use crate::history::Change;
    t(match c {
        Change::Typing => Msg::ChangeTyping,
        Change::Form => Msg::ChangeForm,
        Change::Preset => Msg::ChangePreset,
        Change::Import => Msg::ChangeImport,
        Change::Link => Msg::ChangeLink,
        Change::Restore => Msg::ChangeRestore,
    })
}

/// Returns a calendar day (`YYYY-MM-DD`, as the core writes it) as the page shows it in
/// `lang`: ISO 8601 in both languages (docs/i18n.md, "Numbers and dates": unambiguous, the
/// order Chinese writes a date in, and what the CLI and the JSON print). Every date the page
/// shows goes through here, so a change of format is one place.
pub fn date(iso: &str, _lang: Lang) -> String {
    iso.to_string()
}

/// Returns when an array reaches its break point, in `lang` ("on 2025-02-17 (in 47 days)",
/// "于 2025-02-17（47 天后）"; past the horizon "not within 100 years").
pub fn break_date(d: &crate::arith::BreakDate, lang: Lang) -> String {
    match (&d.date, d.beyond_years) {
        (Some(day), None) => Msg::BreakDateOn.with(
            lang,
            &[
                ("date", date(day, lang)),
                ("days", crate::human::thousands(d.days)),
            ],
        ),
        (_, years) => Msg::BreakDateBeyond.with(
            lang,
            &[(
                "years",
                years.unwrap_or(crate::arith::HORIZON_YEARS).to_string(),
            )],
        ),
    }
}

/// Keeps `<html lang>` equal to the page's language (for screen readers, hyphenation and the
/// font a browser picks for CJK text).
pub fn follow_in_document() {
    Effect::new(move |_| {
        let l = lang();
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = root.set_attribute("lang", l.code());
        }
    });
}

/// The language switch of the header: a select of every language, each named in itself.
#[component]
pub fn LangSwitch() -> impl IntoView {
    let on_change = move |ev: leptos::ev::Event| {
        let code = event_target_value(&ev);
        if let Some(l) = Lang::ALL.into_iter().find(|l| l.code() == code) {
            set_lang(l);
        }
    };
    view! {
        <select
            class="lang-switch"
            id="lang-switch"
            aria-label=move || t(Msg::LanguageSwitch)
            title=move || t(Msg::LanguageSwitch)
            on:change=on_change
        >
            {Lang::ALL
                .into_iter()
                .map(|l| view! {
                    <option value=l.code() lang=l.code() selected=move || lang() == l>
                        {l.native_name()}
                    </option>
                })
                .collect_view()}
        </select>
    }
}

/// `tr!(Name)`: a reactive closure returning message `Msg::Name` in the page's language, for
/// a view's text node or attribute (`title=tr!(CloseEsc)`); `tr!(Name, count = n)` fills its
/// values (each formatted with `to_string`).
macro_rules! tr {
    ($m:ident) => {
        move || $crate::ui::i18n::t($crate::lang::Msg::$m)
    };
    ($m:ident, $($k:ident = $v:expr),+ $(,)?) => {
        move || $crate::ui::i18n::tv(
            $crate::lang::Msg::$m,
            &[$((stringify!($k), ($v).to_string())),+],
        )
    };
}
pub(crate) use tr;
