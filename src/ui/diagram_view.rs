//! The Diagram view: a design drawn as `squillion diagram --design ID --format svg` draws it,
//! one box per collection with its document shapes, indexes and figures, and the references
//! between them, with "Download SVG" and "Download PNG". The playground shows it beside the
//! collection cards, marked with what moved since the design it showed before
//! (`squillion diagram --since`); the editor's Diagram tab shows the model's own diagram
//! (design `""`, `squillion diagram MODEL`).
//!
//! The picture is laid out in the tools module (`ui::diagram`, which alone holds the layout
//! crate): each user of the view keeps one tools worker for it ([`DiagramTools`], `public/worker.js`,
//! `kind: 'diagram'`), started the first time the view asks, and asks it again whenever the
//! design, the model or the language changes. A worker that traps (a failed assertion of the
//! layout) is dropped and the view says why; the next question starts another.
//!
//! The SVG text is parsed as XML (`DOMParser`, never `innerHTML`), stripped of anything that
//! could run, and restyled by the page's stylesheet for its theme (`.diagram-picture`).

use std::cell::RefCell;
use std::rc::Rc;

use gloo_events::EventListener;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::diagram::changes::{self, Changes};
use crate::lang::Msg;
use crate::ui::files;
use crate::ui::i18n::{lang, t, tr, tv};

/// One question to the diagram's worker: the model's text, the design (an offer id; `""` for
/// the model's own diagram) and the language of the diagram's words.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// The text of a valid model (Custom's seeded text while it has a seed).
    pub text: std::sync::Arc<str>,
    /// The design, by its offer id (`""`: the model before any design).
    pub design: String,
    /// The page's language code (`en`, `zh-CN`).
    pub lang: &'static str,
}

/// A picture the worker drew.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    /// The SVG document, as `squillion diagram --format svg` writes it.
    pub svg: std::sync::Arc<str>,
    /// The design it draws, by its offer id.
    pub design: String,
    /// What moved since the design it is compared with, when it is.
    pub changes: Option<Changes>,
    /// The design it is compared with, by its offer id (`""`: none).
    pub since: String,
}

/// Where the diagram stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// Nothing asked yet.
    Idle,
    /// A new worker is loading the tools module.
    Loading,
    /// The worker is drawing.
    Drawing,
    /// The latest question's picture is on show.
    Shown,
    /// Why the latest question has no picture.
    Failed(String),
}

/// A worker and its listeners, which go with it.
type Held = (web_sys::Worker, Vec<EventListener>);

/// The playground's diagram worker and what it last drew. It outlives the results' views
/// (they are rebuilt on every design switch), so that the tools module is loaded once; the
/// playground terminates the worker when it goes.
#[derive(Clone, Copy)]
pub struct DiagramTools {
    /// The worker, once started (dropped when it fails).
    worker: StoredValue<Rc<RefCell<Option<Held>>>, LocalStorage>,
    /// The latest question, its number (answers to earlier ones are ignored) and the design it
    /// is compared with (`""`: none).
    asked: StoredValue<Option<(u32, Question, String)>, LocalStorage>,
    /// True when a picture is marked with what moved since the design drawn before it.
    compares: bool,
    /// Where the latest question stands.
    pub status: RwSignal<Status>,
    /// The last picture drawn (on show, dimmed, while the next one is drawn).
    pub picture: RwSignal<Option<Picture>>,
}

impl DiagramTools {
    /// Returns the tools, with no worker yet; the worker goes when the calling component does.
    /// With `compares`, a picture of another design than the last one asked is marked with what
    /// moved since that one (and a new picture of the same design keeps the design it was
    /// compared with: an edit of the model does not lose the comparison).
    pub fn new(compares: bool) -> DiagramTools {
        let tools = DiagramTools {
            worker: StoredValue::new_local(Rc::default()),
            asked: StoredValue::new_local(None),
            compares,
            status: RwSignal::new(Status::Idle),
            picture: RwSignal::new(None),
        };
        let worker = tools.worker;
        on_cleanup(move || {
            worker.try_with_value(stop);
        });
        tools
    }

    /// Asks for the picture of `q`, unless it is the question last asked (and not failed).
    pub fn ask(self, q: Question) {
        let failed = matches!(self.status.get_untracked(), Status::Failed(_));
        let same = self
            .asked
            .with_value(|a| a.as_ref().is_some_and(|(_, last, _)| *last == q));
        if same && !failed {
            return;
        }
        let id = self
            .asked
            .with_value(|a| a.as_ref().map_or(1, |(n, _, _)| n + 1));
        let since = match self.asked.get_value() {
            Some((_, last, _)) if self.compares && last.design != q.design => last.design,
            Some((_, _, since)) if self.compares && since != q.design => since,
            _ => String::new(),
        };
        self.asked.set_value(Some((id, q.clone(), since.clone())));
        let held = self.worker.get_value();
        let started = held.borrow().is_some();
        if !started {
            if let Err(e) = self.start(&held) {
                self.status.set(Status::Failed(tv(
                    Msg::DiagramNoWorker,
                    &[("error", format!("{e:?}"))],
                )));
                return;
            }
        }
        self.status.set(if started {
            Status::Drawing
        } else {
            Status::Loading
        });
        let message = crate::ui::worker::message(&[
            ("id", JsValue::from(id)),
            ("kind", JsValue::from_str("diagram")),
            ("model", JsValue::from_str(&q.text)),
            ("design", JsValue::from_str(&q.design)),
            ("since", JsValue::from_str(&since)),
            ("options", JsValue::from_str(q.lang)),
        ]);
        let sent = held
            .borrow()
            .as_ref()
            .map(|(w, _)| w.post_message(&message));
        if let Some(Err(e)) = sent {
            stop(&held);
            self.status.set(Status::Failed(tv(
                Msg::DiagramNoWorker,
                &[("error", format!("{e:?}"))],
            )));
        }
    }

    /// Starts the worker into `held`, with listeners that settle the latest question.
    fn start(self, held: &Rc<RefCell<Option<Held>>>) -> Result<(), JsValue> {
        let worker = crate::ui::worker::spawn_tools()?;
        let on_message = {
            let held = held.clone();
            EventListener::new(&worker, "message", move |ev| {
                let Some(ev) = ev.dyn_ref::<web_sys::MessageEvent>() else {
                    return;
                };
                let data = ev.data();
                let field = |name: &str| js_sys::Reflect::get(&data, &name.into()).ok();
                let id = field("id").and_then(|v| v.as_f64()).unwrap_or(-1.0);
                let latest = self
                    .asked
                    .try_with_value(|a| {
                        a.as_ref()
                            .map(|(n, q, since)| (*n, q.design.clone(), since.clone()))
                    })
                    .flatten();
                let Some((_, design, since)) = latest.filter(|(n, _, _)| f64::from(*n) == id)
                else {
                    return;
                };
                if let Some(svg) = field("svg").and_then(|v| v.as_string()) {
                    let changes = field("changes")
                        .and_then(|v| v.as_string())
                        .and_then(|c| serde_json::from_str::<Changes>(&c).ok());
                    let _ = self.picture.try_set(Some(Picture {
                        svg: svg.into(),
                        design,
                        changes,
                        since,
                    }));
                    let _ = self.status.try_set(Status::Shown);
                    return;
                }
                let why = if let Some(e) = field("error").and_then(|e| e.as_string()) {
                    e
                } else {
                    // A trap (or no answer): this worker cannot draw again; the next question
                    // starts another.
                    let e = field("fatal")
                        .and_then(|e| e.as_string())
                        .unwrap_or_default();
                    let held = held.clone();
                    request_animation_frame(move || stop(&held));
                    tv(Msg::DiagramStopped, &[("error", e)])
                };
                let _ = self.status.try_set(Status::Failed(why));
            })
        };
        let on_error = {
            let held = held.clone();
            EventListener::new(&worker, "error", move |ev| {
                ev.prevent_default();
                let _ = self
                    .status
                    .try_set(Status::Failed(t(Msg::DiagramWorkerFailed)));
                let held = held.clone();
                request_animation_frame(move || stop(&held));
            })
        };
        *held.borrow_mut() = Some((worker, vec![on_message, on_error]));
        Ok(())
    }
}

/// Terminates the worker in `held`, if any, and drops its listeners.
fn stop(held: &Rc<RefCell<Option<Held>>>) {
    if let Ok(mut h) = held.try_borrow_mut() {
        if let Some((worker, _listeners)) = h.take() {
            worker.terminate();
        }
    }
}

/// The Diagram view: asks for the picture whenever the question changes, and shows it with its
/// downloads and, when it is compared with another design, what moved; a status while it
/// loads or draws, and why when it cannot.
#[component]
pub fn DiagramView(
    /// The view's diagram worker.
    tools: DiagramTools,
    /// The model text and the design's id (`""`: the model's own diagram); none while the
    /// model cannot be read or the view is not on show.
    question: Signal<Option<(std::sync::Arc<str>, String)>>,
    /// The picture's caption (and its region's name).
    caption: Signal<String>,
    /// The model's name (for the files' names).
    model_name: Signal<String>,
    /// The designs' labels by offer id, as the design bar shows them (to name the design a
    /// picture is compared with).
    #[prop(optional)]
    labels: Option<Signal<Vec<(String, String)>>>,
) -> impl IntoView {
    Effect::new(move |_| {
        let lang = lang().code();
        if let Some((text, design)) = question.get() {
            tools.ask(Question { text, design, lang });
        }
    });
    let host = NodeRef::<leptos::html::Div>::new();
    let workshop = use_context::<crate::ui::Workshop>();
    Effect::new(move |_| {
        let picture = tools.picture.get();
        // Workshop mode: the text at 18 px and more for the back of the room.
        let scale = if workshop.is_some_and(|w| w.0.get()) {
            WORKSHOP_SCALE
        } else {
            1.0
        };
        if let (Some(el), Some(p)) = (host.get(), picture) {
            show_svg(&el, &p.svg, scale);
        }
    });
    let busy = move || matches!(tools.status.get(), Status::Loading | Status::Drawing);
    let file = move |ext: &str| {
        let design = tools
            .picture
            .with_untracked(|p| p.as_ref().map(|p| p.design.clone()))
            .unwrap_or_default();
        let model = files::safe_file_name(&model_name.get_untracked());
        if design.is_empty() {
            format!("{model}.{ext}")
        } else {
            format!("{model}-{}.{ext}", files::safe_file_name(&design))
        }
    };
    let png_error = RwSignal::new(None::<String>);
    let download_svg = move |_| {
        if let Some(p) = tools.picture.get_untracked() {
            let blob = gloo_file::Blob::new_with_options(&*p.svg, Some("image/svg+xml"));
            let _ = files::offer(&file("svg"), blob);
        }
    };
    let download_png = move |_| {
        png_error.set(None);
        if let Some(p) = tools.picture.get_untracked() {
            if let Err(e) = offer_png(&p.svg, file("png"), png_error) {
                png_error.set(Some(e));
            }
        }
    };
    let status = move || {
        match tools.status.get() {
        Status::Idle | Status::Shown => None,
        Status::Loading => Some(view! {
            <p class="diagram-status" role="status"><span class="spinner" aria-hidden="true"></span>{t(Msg::DiagramLoading)}</p>
        }.into_any()),
        Status::Drawing => Some(view! {
            <p class="diagram-status" role="status"><span class="spinner" aria-hidden="true"></span>{t(Msg::DiagramDrawing)}</p>
        }.into_any()),
        Status::Failed(e) => Some(view! {
            <p class="error diagram-error" role="alert">{tv(Msg::DiagramFailed, &[("error", e)])}</p>
        }.into_any()),
    }
    };
    let state = move || match tools.status.get() {
        Status::Idle => "idle",
        Status::Loading => "loading",
        Status::Drawing => "drawing",
        Status::Shown => "shown",
        Status::Failed(_) => "failed",
    };
    let has_picture = move || tools.picture.with(Option::is_some);
    let label_of = move |id: &str| {
        labels
            .and_then(|l| {
                l.with(|l| {
                    l.iter()
                        .find(|(i, _)| i == id)
                        .map(|(_, label)| label.clone())
                })
            })
            .unwrap_or_else(|| id.to_string())
    };
    let changes = move || {
        let (changes, since) = tools
            .picture
            .with(|p| p.as_ref().map(|p| (p.changes.clone(), p.since.clone())))?;
        let c = changes?;
        let design = label_of(&since);
        let text = if c.is_empty() {
            tv(Msg::DiagramNoChanges, &[("design", design)])
        } else {
            tv(
                Msg::DiagramChanges,
                &[
                    ("design", design),
                    ("added", changes::listed(&c.added)),
                    ("changed", changes::listed(&c.changed)),
                    ("gone", changes::listed(&c.gone)),
                ],
            )
        };
        Some(view! { <p class="diagram-changes">{text}</p> })
    };
    view! {
        <section class="diagram-view" data-state=state aria-busy=move || busy().then_some("true")>
            <div class="diagram-actions">
                <button type="button" class="button diagram-svg" on:click=download_svg
                    disabled=move || !has_picture() title=tr!(DiagramDownloadSvgTitle)>
                    {tr!(DiagramDownloadSvg)}
                </button>
                <button type="button" class="button diagram-png" on:click=download_png
                    disabled=move || !has_picture() title=tr!(DiagramDownloadPngTitle)>
                    {tr!(DiagramDownloadPng)}
                </button>
                {move || png_error.get().map(|e| view! {
                    <span class="export-error" role="alert">{tv(Msg::DiagramPngFailed, &[("error", e)])}</span>
                })}
            </div>
            {status}
            <figure class="diagram-figure" hidden=move || !has_picture()>
                <div class="diagram-picture" node_ref=host tabindex="0" role="region"
                    data-design=move || tools.picture.with(|p| p.as_ref().map(|p| p.design.clone()))
                    aria-label=move || caption.get()></div>
                <figcaption>{move || caption.get()}</figcaption>
                {changes}
            </figure>
        </section>
    }
}

/// How much larger than its own size workshop mode draws the picture (its 13 px text at 18 px).
const WORKSHOP_SCALE: f64 = 1.4;

/// Replaces what `host` shows with the SVG document `svg`, parsed as XML, drawn `scale` times
/// its own size; elements that could run or embed anything (`script`, `foreignObject`) and
/// every `on…` attribute are removed first (the layout writes none: this only keeps it so).
fn show_svg(host: &web_sys::HtmlDivElement, svg: &str, scale: f64) {
    let Ok(parser) = web_sys::DomParser::new() else {
        return;
    };
    let Ok(doc) = parser.parse_from_string(svg, web_sys::SupportedType::ImageSvgXml) else {
        return;
    };
    let Some(root) = doc.document_element().filter(|r| r.tag_name() == "svg") else {
        return;
    };
    if let Ok(found) = root.query_selector_all("script, foreignObject") {
        for i in 0..found.length() {
            if let Some(e) = found
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            {
                e.remove();
            }
        }
    }
    let mut every = vec![root.clone()];
    if let Ok(all) = root.query_selector_all("*") {
        every.extend(
            (0..all.length())
                .filter_map(|i| all.item(i))
                .filter_map(|n| n.dyn_into::<web_sys::Element>().ok()),
        );
    }
    for e in &every {
        for name in e.get_attribute_names().iter().filter_map(|n| n.as_string()) {
            if name.to_ascii_lowercase().starts_with("on") {
                let _ = e.remove_attribute(&name);
            }
        }
    }
    let size = |name: &str| {
        root.get_attribute(name)
            .and_then(|v| v.parse::<f64>().ok())
            .map(|v| v * scale)
    };
    if let (Some(w), Some(h)) = (size("width"), size("height")) {
        let _ = root.set_attribute("style", &format!("width: {w}px; height: {h}px"));
    }
    let Some(page) = host.owner_document() else {
        return;
    };
    if let Ok(node) = page.import_node_with_deep(&root, true) {
        host.set_text_content(None);
        let _ = host.append_child(&node);
        // A picture wider than its frame opens at its middle, where the layout centres it.
        host.set_scroll_left((host.scroll_width() - host.client_width()) / 2);
    }
}

/// How much larger than on screen the PNG is drawn.
const PNG_SCALE: f64 = 2.0;

/// Draws `svg` onto a canvas (white behind it, [`PNG_SCALE`] times its size) and offers it
/// as the PNG file `name`; a failure once the picture has loaded is set in `failed`.
fn offer_png(svg: &str, name: String, failed: RwSignal<Option<String>>) -> Result<(), String> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let image = web_sys::HtmlImageElement::new().map_err(|e| format!("{e:?}"))?;
    // Each handler is freed once it has run.
    let loaded = image.clone();
    let on_load = Closure::once_into_js(move || {
        if let Err(e) = draw_png(&document, &loaded, name) {
            let _ = failed.try_set(Some(e));
        }
    });
    image.set_onload(Some(on_load.unchecked_ref()));
    let on_error = Closure::once_into_js(move || {
        let _ = failed.try_set(Some("the picture did not load".to_string()));
    });
    image.set_onerror(Some(on_error.unchecked_ref()));
    // A data URL: the page's content security policy allows images from `data:` only.
    let url = format!(
        "data:image/svg+xml;charset=utf-8,{}",
        js_sys::encode_uri_component(svg)
    );
    image.set_src(&url);
    Ok(())
}

/// Draws the loaded `image` on a canvas and offers it as the PNG file `name`.
fn draw_png(
    document: &web_sys::Document,
    image: &web_sys::HtmlImageElement,
    name: String,
) -> Result<(), String> {
    let canvas: web_sys::HtmlCanvasElement = document
        .create_element("canvas")
        .map_err(|e| format!("{e:?}"))?
        .dyn_into()
        .map_err(|_| "no canvas")?;
    let (w, h) = (
        f64::from(image.natural_width()),
        f64::from(image.natural_height()),
    );
    if w <= 0.0 || h <= 0.0 {
        return Err("the picture has no size".to_string());
    }
    canvas.set_width((w * PNG_SCALE).ceil() as u32);
    canvas.set_height((h * PNG_SCALE).ceil() as u32);
    let context: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")
        .map_err(|e| format!("{e:?}"))?
        .ok_or("no 2d context")?
        .dyn_into()
        .map_err(|_| "no 2d context")?;
    context.set_fill_style_str("#ffffff");
    context.fill_rect(0.0, 0.0, w * PNG_SCALE, h * PNG_SCALE);
    context
        .draw_image_with_html_image_element_and_dw_and_dh(
            image,
            0.0,
            0.0,
            w * PNG_SCALE,
            h * PNG_SCALE,
        )
        .map_err(|e| format!("{e:?}"))?;
    let done = Closure::once_into_js(move |blob: JsValue| {
        if let Ok(blob) = blob.dyn_into::<web_sys::Blob>() {
            let _ = files::offer(&name, gloo_file::Blob::from(blob));
        }
    });
    canvas
        .to_blob(done.unchecked_ref())
        .map_err(|e| format!("{e:?}"))
}
