//! The entry points of the page's Web Workers.
//!
//! An evaluation worker (`public/worker.js`) loads the page's own wasm module; its start
//! function finds no `window` and calls [`register`] instead of mounting the app, which makes
//! `self.squillionEvaluate(modelText, design, optionsJson)` available to the worker's script,
//! and `self.squillionExport(modelText, design, optionsJson)`, which builds the export's zip
//! archive ([`export_zip`]), and `self.squillionAdvise(modelText, optionsJson, onProgress)`, the
//! design advisor's advice ([`advise_json_with`]). The page calls [`evaluate_json`] and
//! [`export_zip`] directly when no worker can start.
//!
//! The advisor and the export stay in the page's module: they run the engine, which that module
//! holds anyway, and in a module of their own, first compiled when used, the advisor was slower
//! still (host-logs 3.6 to 4.0 s in the browser against 3.6 s here: docs/size.md).
//!
//! An inference worker loads the tools module (`src/bin/squillion-tools.rs`) instead
//! ([`spawn_tools`]).

use wasm_bindgen::prelude::*;

use crate::eval::{evaluate_offered_with, EvalError, EvalOptions, Progress};
use crate::export::{export_offered_zip, ExportError, PAGE_ARCHIVE_LIMIT};
use crate::model::{parse_model, Model};

/// Returns the evaluation of the model in `model_text` under the design it offers with id
/// `design`, as JSON: what `squillion eval --design DESIGN --json` prints, without the layout
/// (the page lays the offer out itself). `options_json` is an [`EvalOptions`] as JSON
/// (`{"max_documents": 200}`; missing fields take their default). Or why it cannot be
/// evaluated.
pub fn evaluate_json(model_text: &str, design: &str, options_json: &str) -> Result<String, String> {
    evaluate_json_with(model_text, design, options_json, &mut |_| {})
}

/// [`evaluate_json`], telling `progress` each step of the evaluation as it starts.
pub fn evaluate_json_with(
    model_text: &str,
    design: &str,
    options_json: &str,
    progress: &mut dyn FnMut(&Progress),
) -> Result<String, String> {
    let (model, opts) = read_request(model_text, options_json)?;
    let lang = serde_json::from_str::<Told>(options_json)
        .map(|t| t.lang)
        .unwrap_or_default();
    // Each step said in the page's language (the options' `lang`, beside the evaluation's).
    let mut told = |p: &Progress| {
        progress(&Progress {
            what: p.text.render(lang),
            ..p.clone()
        })
    };
    let mut evaluation =
        evaluate_offered_with(&model, design, &opts, &mut told).map_err(page_words)?;
    evaluation.layout = None;
    serde_json::to_string(&evaluation).map_err(|e| e.to_string())
}

/// The language an evaluation's steps are told in: `lang` of the page's evaluation options
/// (English when absent), read apart from the options so that it is no part of what is
/// evaluated.
#[derive(Debug, Default, serde::Deserialize)]
struct Told {
    /// The page's language.
    #[serde(default)]
    lang: crate::lang::Lang,
}

/// Returns why an evaluation failed in the page's words: a sample too big names the page's
/// Sample field and the figure that fits, never a command-line flag.
pub fn page_words(e: EvalError) -> String {
    match e {
        EvalError::TooBig(t) => format!(
            "the sample is too big to evaluate ({}){}. Lower “Sample” beside the design bar",
            t.what,
            t.fits.replacen(": at most", "; at most", 1),
        ),
        e => e.to_string(),
    }
}

/// Returns the model a worker is handed, or why it cannot be read: how many problems it has
/// and the first (the page shows every problem in the editor already).
pub fn read_model(model_text: &str) -> Result<Model, String> {
    parse_model(model_text).map_err(|e| {
        let first = e.errors.first().map(|x| x.to_string()).unwrap_or_default();
        format!("the model has {} problem(s): {first}", e.errors.len())
    })
}

/// Returns the model and evaluation options of a request, or why they cannot be read.
fn read_request(model_text: &str, options_json: &str) -> Result<(Model, EvalOptions), String> {
    let model = read_model(model_text)?;
    let opts: EvalOptions =
        serde_json::from_str(options_json).map_err(|e| format!("bad evaluation options: {e}"))?;
    Ok((model, opts))
}

/// What an export archive holds, for the page to say.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ArchiveSummary {
    /// The design exported (its name in the design bar's terms: `denormalized`, `custom`).
    pub design: String,
    /// Documents, all collections together.
    pub documents: u64,
    /// Collections (one file each).
    pub collections: usize,
    /// Files in the archive.
    pub files: usize,
    /// Bytes of the archive.
    pub bytes: u64,
}

/// Returns the export of the model in `model_text` under its offered design `design` at the
/// evaluation's sample (`options_json` as for [`evaluate_json`]) as a zip archive, with what
/// it holds; or why it cannot be exported.
pub fn export_zip(
    model_text: &str,
    design: &str,
    options_json: &str,
) -> Result<(Vec<u8>, ArchiveSummary), String> {
    let (model, opts) = read_request(model_text, options_json)?;
    let archive =
        export_offered_zip(&model, design, &opts, PAGE_ARCHIVE_LIMIT).map_err(|e| match e {
            ExportError::Eval(e) => page_words(e),
            e => e.to_string(),
        })?;
    let m = &archive.manifest;
    let summary = ArchiveSummary {
        design: m.design.clone(),
        documents: m.documents(),
        collections: m.collections.len(),
        files: m.collections.len() + crate::export::SCRIPT_FILES.len(),
        bytes: archive.bytes.len() as u64,
    };
    Ok((archive.bytes, summary))
}

/// What the page asks of the advisor: the weights of the score (the rest is the CLI's
/// default: a horizon of 5 years, the best 3 verified).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AdviseRequest {
    /// The weights of the score.
    pub weights: crate::advise::Weights,
    /// Designs listed (best first) and verified on the engine.
    pub top: usize,
    /// The language the progress is told in (the page's).
    #[serde(default)]
    pub lang: crate::lang::Lang,
    /// The price of each figure (`squillion advise --cost FILE`); the defaults when absent.
    #[serde(default)]
    pub cost: crate::advise::cost::CostModel,
}

/// Returns [`crate::advise::advise`] of the model in `model_text` as JSON (what
/// `squillion advise --json` prints), telling `progress` each phase as it starts;
/// `options_json` is an [`AdviseRequest`]. Or why the model cannot be read.
pub fn advise_json_with(
    model_text: &str,
    options_json: &str,
    progress: &mut dyn FnMut(&Progress),
) -> Result<String, String> {
    let (model, _) = read_request(model_text, "{}")?;
    let req: AdviseRequest =
        serde_json::from_str(options_json).map_err(|e| format!("bad advice options: {e}"))?;
    let opts = crate::advise::AdviseOptions {
        weights: req.weights,
        top: req.top.max(1),
        cost: req.cost,
        ..crate::advise::AdviseOptions::default()
    };
    let advice = crate::advise::advise_in(&model, &opts, req.lang, progress);
    serde_json::to_string(&advice).map_err(|e| e.to_string())
}

/// Returns a JS progress callback's caller: `onProgress(step, of, what)`, or nothing.
fn progress_caller(on_progress: JsValue) -> impl FnMut(&Progress) {
    let on_progress = on_progress.dyn_into::<js_sys::Function>().ok();
    move |p: &Progress| {
        if let Some(f) = &on_progress {
            let _ = f.call3(
                &JsValue::NULL,
                &JsValue::from(p.step as u32),
                &JsValue::from(p.of as u32),
                &JsValue::from_str(&p.what),
            );
        }
    }
}

/// Registers `squillionEvaluate(model, design, options, onProgress?)` on the worker's global
/// scope; `onProgress(step, of, what)` is called as each step starts; an error comes back as a
/// thrown string.
pub fn register() {
    register_translate();
    type Evaluate = dyn Fn(String, String, String, JsValue) -> Result<String, JsValue>;
    let evaluate = Closure::<Evaluate>::new(
        |model: String, design: String, options: String, on_progress: JsValue| {
            let mut tell = progress_caller(on_progress);
            evaluate_json_with(&model, &design, &options, &mut tell)
                .map_err(|e| JsValue::from_str(&e))
        },
    );
    let _ = js_sys::Reflect::set(
        &js_sys::global(),
        &"squillionEvaluate".into(),
        evaluate.as_ref(),
    );
    // The function lives as long as the worker.
    evaluate.forget();
    // `{ zip: Uint8Array, summary: ArchiveSummary JSON }`, or a thrown string.
    let export = Closure::<dyn Fn(String, String, String) -> Result<JsValue, JsValue>>::new(
        |model: String, design: String, options: String| {
            let (bytes, summary) =
                export_zip(&model, &design, &options).map_err(|e| JsValue::from_str(&e))?;
            let summary =
                serde_json::to_string(&summary).map_err(|e| JsValue::from_str(&e.to_string()))?;
            let out = js_sys::Object::new();
            let zip = js_sys::Uint8Array::from(bytes.as_slice());
            let _ = js_sys::Reflect::set(&out, &"zip".into(), &zip);
            let _ = js_sys::Reflect::set(&out, &"summary".into(), &summary.into());
            Ok(out.into())
        },
    );
    let _ = js_sys::Reflect::set(
        &js_sys::global(),
        &"squillionExport".into(),
        export.as_ref(),
    );
    export.forget();
    // `squillionAdvise(model, options, onProgress?)`: the advice as JSON, or a thrown string.
    type Advise = dyn Fn(String, String, JsValue) -> Result<String, JsValue>;
    let advise = Closure::<Advise>::new(|model: String, options: String, on_progress: JsValue| {
        let mut tell = progress_caller(on_progress);
        advise_json_with(&model, &options, &mut tell).map_err(|e| JsValue::from_str(&e))
    });
    let _ = js_sys::Reflect::set(
        &js_sys::global(),
        &"squillionAdvise".into(),
        advise.as_ref(),
    );
    advise.forget();
    // `squillionMigrate(model, from, to, lang)`: the Migrate panel's plan (`ui::migrate`).
    crate::ui::migrate::register();
}

/// Registers `squillionTranslate(json)` on a worker's global scope, in both modules:
/// public/worker.js hands it the translation file of a message's `lang` (fetched once per
/// worker) before that message runs, so that what the worker writes in words (progress, advice,
/// the diagram's labels) is in the page's language (src/lang/translations.rs).
pub fn register_translate() {
    let translate = Closure::<dyn Fn(String) -> Result<(), JsValue>>::new(|json: String| {
        crate::lang::supply(&json)
            .map(|_| ())
            .map_err(|e| JsValue::from_str(&e.to_string()))
    });
    let _ = js_sys::Reflect::set(
        &js_sys::global(),
        &"squillionTranslate".into(),
        translate.as_ref(),
    );
    // The function lives as long as the worker.
    translate.forget();
}

/// Returns a message for public/worker.js: these fields and `lang`, the page's language, whose
/// translation the worker fetches before it answers ([`register_translate`]).
pub fn message(fields: &[(&str, JsValue)]) -> js_sys::Object {
    let message = js_sys::Object::new();
    let lang = crate::ui::i18n::lang_untracked();
    for (name, value) in fields
        .iter()
        .chain([("lang", JsValue::from_str(lang.code()))].iter())
    {
        // Setting a field of a plain object cannot fail.
        let _ = js_sys::Reflect::set(&message, &(*name).into(), value);
    }
    message
}

/// A worker started for one run and the listeners that hear it; [`WorkerRun::stop`] ends the
/// run. The Advise and Migrate panels each keep one.
#[derive(Default)]
pub struct WorkerRun {
    /// The worker, while it runs.
    pub worker: Option<web_sys::Worker>,
    /// Its listeners, which go with it.
    pub listeners: Vec<gloo_events::EventListener>,
}

impl WorkerRun {
    /// Terminates the worker, if one runs, and keeps its listeners (a listener may call this
    /// while it runs: dropping it then would free the closure under way).
    pub fn terminate(&mut self) {
        if let Some(w) = self.worker.take() {
            w.terminate();
        }
    }

    /// Terminates the worker, if one runs, and drops its listeners.
    pub fn stop(&mut self) {
        self.terminate();
        self.listeners.clear();
    }
}

/// Starts a Web Worker running `public/worker.js` (a module worker) and hands it the page's
/// compiled wasm module, `window.squillionModule` (set by `public/boot.js`), as its first
/// message, so that the worker instantiates it instead of fetching and compiling the module a
/// second time. Without that module (an older boot script) the worker loads the wasm itself.
pub fn spawn() -> Result<web_sys::Worker, JsValue> {
    let worker = new_worker()?;
    let module = js_sys::Reflect::get(&js_sys::global(), &"squillionModule".into())
        .ok()
        .filter(|m| m.is_instance_of::<js_sys::WebAssembly::Module>());
    if let Some(module) = module {
        let message = js_sys::Object::new();
        js_sys::Reflect::set(&message, &"module".into(), &module)?;
        worker.post_message(&message)?;
    }
    Ok(worker)
}

/// Starts a worker for the tools module (inference from data and SQL schemas): it fetches that
/// module itself (public/worker.js), so the page's module is not handed to it.
pub fn spawn_tools() -> Result<web_sys::Worker, JsValue> {
    new_worker()
}

/// Starts `public/worker.js` as a module worker, with no module handed to it yet.
fn new_worker() -> Result<web_sys::Worker, JsValue> {
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    web_sys::Worker::new_with_options("./worker.js", &options)
}
