//! The evaluation pipeline of the playground: every offered design is run for real on the
//! engine (`eval::evaluate_offered`, what `squillion eval --design NAME` runs) in a Web Worker
//! (`public/worker.js`, the page's own wasm module), so the page never freezes.
//!
//! One evaluation is in flight at a time: the chosen design first, then the other offered
//! designs in the background. Results are cached per (model text, design, sample scale), so
//! switching designs back and forth is instant. When no worker can start, evaluations run on
//! the page itself, after a short pause so the "evaluating…" indicator paints first.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::eval::Evaluation;
use crate::ui::worker::evaluate_json;

/// What is evaluated: the model's text, one of its offered designs, the sample scale
/// (`None`: the model's own).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    /// The text of a valid model.
    pub text: Arc<str>,
    /// An offered design's name (`fan-out_on_write`, `normalized`, `custom`).
    pub design: String,
    /// Documents materialized per entity (`EvalOptions::max_documents`).
    pub scale: Option<u64>,
}

/// The result of one evaluation.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// The evaluation, and how long it took (ms, in the worker or on the page).
    Done(Arc<Evaluation>, f64),
    /// Why the design could not be evaluated.
    Failed(String),
}

impl PartialEq for Outcome {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Outcome::Done(a, x), Outcome::Done(b, y)) => Arc::ptr_eq(a, b) && x == y,
            (Outcome::Failed(a), Outcome::Failed(b)) => a == b,
            _ => false,
        }
    }
}

/// Cached evaluations kept for models other than the current one.
const CACHE_LIMIT: usize = 64;

/// The evaluations cache, provided by the page (`App`) so that it outlives a playground:
/// coming back from another view shows the numbers at once instead of evaluating again.
#[derive(Clone, Copy)]
pub struct EvalCache(pub RwSignal<HashMap<Key, Outcome>>);

impl EvalCache {
    /// A new, empty cache.
    pub fn new() -> EvalCache {
        EvalCache(RwSignal::new(HashMap::new()))
    }
}

/// The pipeline's reactive state; cheap to copy into closures.
#[derive(Clone, Copy)]
pub struct Pipeline {
    /// Every finished evaluation.
    pub cache: RwSignal<HashMap<Key, Outcome>>,
    /// The evaluation in flight.
    pub busy: RwSignal<Option<Key>>,
    /// The step the evaluation in flight has reached, as the worker last said: (its key,
    /// step, of, what). None between evaluations and when evaluating on the page.
    pub progress: RwSignal<Option<(Key, u32, u32, String)>>,
    /// Why evaluations run on the page instead of in a worker (None while the worker works).
    pub inline_reason: RwSignal<Option<String>>,
    runner: StoredValue<Rc<RefCell<Runner>>, LocalStorage>,
}

/// The worker and what it is doing (not reactive).
struct Runner {
    worker: Option<web_sys::Worker>,
    next_id: u32,
    /// The id of the message in flight, and its key.
    in_flight: Option<(u32, Key)>,
    /// True once the current worker has answered (it started, so a later failure is the
    /// evaluation's, not the worker's).
    answered: bool,
}

impl Pipeline {
    /// Starts the pipeline: evaluates `wanted` (the chosen design's key first) whenever it
    /// changes, one at a time.
    pub fn start(wanted: Memo<Vec<Key>>) -> Pipeline {
        let cache = use_context::<EvalCache>().unwrap_or_else(EvalCache::new);
        let pipeline = Pipeline {
            cache: cache.0,
            busy: RwSignal::new(None),
            progress: RwSignal::new(None),
            inline_reason: RwSignal::new(None),
            runner: StoredValue::new_local(Rc::new(RefCell::new(Runner {
                worker: None,
                next_id: 0,
                in_flight: None,
                answered: false,
            }))),
        };
        match spawn_worker(pipeline, wanted) {
            Ok(worker) => pipeline
                .runner
                .with_value(|r| r.borrow_mut().worker = Some(worker)),
            Err(why) => pipeline.inline_reason.set(Some(why)),
        }
        // When the playground goes (another view opens), so does its worker: an answer
        // arriving afterwards would find the pipeline's signals gone.
        let runner = send_wrapper::SendWrapper::new(pipeline.runner.get_value());
        on_cleanup(move || {
            if let Some(w) = runner.borrow_mut().worker.take() {
                w.set_onmessage(None);
                w.set_onerror(None);
                w.terminate();
            }
        });
        pipeline.remember(wanted);
        Effect::new(move |_| {
            wanted.track();
            // An evaluation nobody wants any more (another model or scale) is not waited for.
            let stale = pipeline.busy.with_untracked(|b| {
                b.as_ref()
                    .is_some_and(|k| wanted.with_untracked(|w| !w.contains(k)))
            });
            if stale && pipeline.inline_reason.get_untracked().is_none() {
                pipeline.respawn(wanted);
            }
            pipeline.pump(wanted);
        });
        pipeline
    }

    /// Takes the chosen design's evaluation kept from the last visit when this build made it
    /// for the same model, design and scale, and keeps the chosen design's evaluation whenever
    /// it is there (evaluated now, or in the background before it was chosen) for the next
    /// visit (`remembered`).
    fn remember(self, wanted: Memo<Vec<Key>>) {
        // The key whose evaluation is in storage now (known once recalled or kept).
        let kept: StoredValue<Option<Key>> = StoredValue::new(None);
        if let Some(first) = wanted.with_untracked(|w| w.first().cloned()) {
            if let Some((json, ms)) = super::remembered::recall(&first) {
                if let done @ Outcome::Done(..) = read(&json, ms) {
                    self.cache.update(|c| {
                        c.entry(first.clone()).or_insert(done);
                    });
                    kept.set_value(Some(first));
                }
            }
        }
        Effect::new(move |_| {
            let Some(first) = wanted.with(|w| w.first().cloned()) else {
                return;
            };
            if kept.with_value(|k| k.as_ref() == Some(&first)) {
                return;
            }
            let done = self.cache.with(|c| match c.get(&first) {
                Some(Outcome::Done(e, ms)) => Some((e.clone(), *ms)),
                _ => None,
            });
            if let Some((evaluation, ms)) = done {
                super::remembered::keep(&first, &evaluation, ms);
                kept.set_value(Some(first));
            }
        });
    }

    /// False once the playground that owns the pipeline is gone: a late callback (an
    /// evaluation on the page scheduled before) then does nothing.
    fn alive(self) -> bool {
        !self.runner.is_disposed()
    }

    /// Replaces the worker by a fresh one, dropping the evaluation in flight.
    fn respawn(self, wanted: Memo<Vec<Key>>) {
        let runner = self.runner.get_value();
        if let Some(w) = runner.borrow_mut().worker.take() {
            w.terminate();
        }
        match spawn_worker(self, wanted) {
            Ok(worker) => {
                let mut r = runner.borrow_mut();
                r.worker = Some(worker);
                r.in_flight = None;
                r.answered = false;
            }
            Err(why) => self.fall_back(&why),
        }
        self.progress.set(None);
        self.busy.set(None);
    }

    /// Sends the first wanted evaluation not yet cached, unless one is in flight.
    fn pump(self, wanted: Memo<Vec<Key>>) {
        if self.busy.get_untracked().is_some() {
            return;
        }
        let next = wanted.with_untracked(|keys| {
            self.cache
                .with_untracked(|c| keys.iter().find(|k| !c.contains_key(*k)).cloned())
        });
        let Some(key) = next else { return };
        self.busy.set(Some(key.clone()));
        // The page's language only tells the steps; it is no part of the cache key.
        let options = serde_json::json!({ "max_documents": key.scale, "lang": crate::ui::i18n::lang_untracked() })
            .to_string();
        let runner = self.runner.get_value();
        let sent = {
            let mut r = runner.borrow_mut();
            r.next_id = r.next_id.wrapping_add(1);
            let id = r.next_id;
            r.in_flight = Some((id, key.clone()));
            r.worker
                .as_ref()
                .map(|w| w.post_message(&message(id, &key, &options)).is_ok())
        };
        if sent != Some(true) {
            if sent == Some(false) {
                self.fall_back("the evaluation worker refused a message");
            }
            self.run_inline(key, options, wanted);
        }
    }

    /// Stops using the worker; the page evaluates from now on.
    fn fall_back(self, why: &str) {
        let runner = self.runner.get_value();
        if let Some(w) = runner.borrow_mut().worker.take() {
            w.terminate();
        }
        if self.inline_reason.get_untracked().is_none() {
            self.inline_reason.set(Some(why.to_string()));
        }
    }

    /// Evaluates `key` on the page, after a pause that lets the indicator paint.
    fn run_inline(self, key: Key, options: String, wanted: Memo<Vec<Key>>) {
        let run = move || {
            if !self.alive() {
                return;
            }
            let t0 = now();
            let outcome = match evaluate_json(&key.text, &key.design, &options) {
                Ok(json) => read(&json, now() - t0),
                Err(e) => Outcome::Failed(e),
            };
            self.finish(key, outcome, wanted);
        };
        if set_timeout_with_handle(run, std::time::Duration::from_millis(30)).is_err() {
            self.busy.set(None);
        }
    }

    /// Stores an outcome and sends the next evaluation.
    fn finish(self, key: Key, outcome: Outcome, wanted: Memo<Vec<Key>>) {
        let current = wanted.with_untracked(|w| w.first().map(|k| k.text.clone()));
        self.cache.update(|c| {
            if c.len() >= CACHE_LIMIT {
                c.retain(|k, _| Some(&k.text) == current.as_ref());
            }
            c.insert(key, outcome);
        });
        self.runner.get_value().borrow_mut().in_flight = None;
        self.progress.set(None);
        self.busy.set(None);
        self.pump(wanted);
    }

    /// Handles the worker's answer to message `id`.
    fn answer(self, data: &JsValue, wanted: Memo<Vec<Key>>) {
        let field = |name: &str| js_sys::Reflect::get(data, &name.into()).ok();
        let id = field("id").and_then(|v| v.as_f64());
        let in_flight = self.runner.get_value().borrow().in_flight.clone();
        let Some((expected, key)) = in_flight else {
            return;
        };
        if id != Some(f64::from(expected)) {
            return;
        }
        let answered = std::mem::replace(&mut self.runner.get_value().borrow_mut().answered, true);
        if let Some(p) = field("progress").filter(|p| p.is_object()) {
            let get = |name: &str| js_sys::Reflect::get(&p, &name.into()).ok();
            let num = |name: &str| get(name).and_then(|v| v.as_f64()).map_or(0, |v| v as u32);
            let what = get("what").and_then(|v| v.as_string()).unwrap_or_default();
            self.progress.set(Some((key, num("step"), num("of"), what)));
            return;
        }
        if let Some(fatal) = field("fatal").and_then(|v| v.as_string()) {
            if answered {
                // The worker worked before: this evaluation broke it (out of memory at a huge
                // sample, say). Running it on the page would freeze the page: report it, and
                // go on with a fresh worker.
                self.cache.update(|c| {
                    c.insert(
                        key,
                        Outcome::Failed(format!(
                            "the evaluation stopped ({fatal}); a smaller sample may fit"
                        )),
                    );
                });
                self.respawn(wanted);
                self.pump(wanted);
                return;
            }
            // The worker cannot evaluate at all: evaluate this one and the rest on the page.
            self.fall_back(&format!("the evaluation worker failed ({fatal})"));
            let options = serde_json::json!({ "max_documents": key.scale }).to_string();
            self.run_inline(key, options, wanted);
            return;
        }
        let ms = field("ms").and_then(|v| v.as_f64()).unwrap_or(0.0);
        let outcome = match (
            field("json").and_then(|v| v.as_string()),
            field("error").and_then(|v| v.as_string()),
        ) {
            (Some(json), _) => read(&json, ms),
            (None, Some(e)) => Outcome::Failed(e),
            (None, None) => Outcome::Failed("the worker sent no evaluation".to_string()),
        };
        self.finish(key, outcome, wanted);
    }
}

/// Returns the outcome of an Evaluation's JSON (the worker's answer).
fn read(json: &str, ms: f64) -> Outcome {
    match serde_json::from_str::<Evaluation>(json) {
        Ok(e) => Outcome::Done(Arc::new(e), ms),
        Err(e) => Outcome::Failed(format!("the evaluation could not be read: {e}")),
    }
}

/// Returns the page's clock in ms.
fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Returns the worker message for one evaluation.
fn message(id: u32, key: &Key, options: &str) -> JsValue {
    crate::ui::worker::message(&[
        ("id", JsValue::from(id)),
        ("model", JsValue::from_str(&key.text)),
        ("design", JsValue::from_str(&key.design)),
        ("options", JsValue::from_str(options)),
    ])
    .into()
}

/// Starts the module worker and wires its answers and failures into the pipeline.
fn spawn_worker(pipeline: Pipeline, wanted: Memo<Vec<Key>>) -> Result<web_sys::Worker, String> {
    let worker =
        crate::ui::worker::spawn().map_err(|e| format!("no Web Worker could start ({e:?})"))?;
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            if pipeline.alive() {
                pipeline.answer(&ev.data(), wanted);
            }
        });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let on_error = Closure::<dyn Fn(web_sys::Event)>::new(move |ev: web_sys::Event| {
        ev.prevent_default();
        if !pipeline.alive() {
            return;
        }
        pipeline.fall_back("the evaluation worker could not start");
        let in_flight = pipeline.runner.get_value().borrow().in_flight.clone();
        if let Some((_, key)) = in_flight {
            let options = serde_json::json!({ "max_documents": key.scale }).to_string();
            pipeline.run_inline(key, options, wanted);
        }
    });
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_error.forget();
    Ok(worker)
}
