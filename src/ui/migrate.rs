//! The Migrate panel on the worker's side: a migration planned, checked on the engine and
//! summarized in a worker of the page's own module (`public/worker.js`, `kind: 'migrate'`),
//! which holds the engine the check runs on, as the advisor's worker does: in the tools module
//! the planner would bring the whole engine with it (docs/size.md). The panel itself is
//! `playground/migrate.rs`.
//!
//! The plan is what `squillion migrate MODEL --from D1 --to D2 --lang LANG --json` prints,
//! byte for byte (the same [`crate::migrate::report::plan_json`] of the same designs, checked
//! on the same sample scale), with `migrate.js` (what `--out` writes) and the
//! [`Summary`](crate::migrate::report::Summary) the panel shows.

use wasm_bindgen::prelude::*;

use crate::lang::Lang;
use crate::migrate::check::check;
use crate::migrate::report::{plan_json, refusal_json, summary};
use crate::migrate::{plan, script::script, MigrateOptions, Side};

/// The sample scale the page checks a plan on: the CLI's default `--scale`, so that the
/// page's plan.json is the CLI's.
const CHECK_SCALE: u64 = 40;

/// What the worker answers: a plan, or why none is made.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A plan: its summary (JSON of a `Summary`), `plan.json` and `migrate.js`.
    Planned {
        /// The summary the panel shows, as JSON.
        summary: String,
        /// What `squillion migrate --json` prints.
        json: String,
        /// The whole plan as one mongosh script.
        script: String,
    },
    /// No plan: the refusal in one sentence, and its JSON (`{"refused": …}`).
    Refused {
        /// Why, in the language asked for.
        message: String,
        /// What `squillion migrate --json` prints for it.
        json: String,
    },
}

/// Returns the migration of the model in `model_text` from the design `from` to the design
/// `to` (offer ids, as the design bar names them), its words in `lang`; or why the designs
/// cannot be read.
pub fn migration(model_text: &str, from: &str, to: &str, lang: &str) -> Result<Answer, String> {
    let model = crate::ui::worker::read_model(model_text)?;
    let lang = Lang::from_tag(lang);
    let source = crate::eval::offered_layout(&model, from).map_err(|e| e.to_string())?;
    let target = crate::eval::offered_layout(&model, to).map_err(|e| e.to_string())?;
    let (source_name, target_name) = (source.name(), target.name());
    let (from, to) = (
        Side {
            model: &source.model,
            layout: &source.layout,
            name: &source_name,
        },
        Side {
            model: &target.model,
            layout: &target.layout,
            name: &target_name,
        },
    );
    let opts = MigrateOptions {
        lang,
        ..MigrateOptions::default()
    };
    let m = match plan(from, to, opts) {
        Ok(m) => m,
        Err(e) => {
            return Ok(Answer::Refused {
                message: e.render(lang),
                json: refusal_json(&e, lang),
            })
        }
    };
    let report = check(from, to, &m, CHECK_SCALE).map_err(|e| e.to_string())?;
    Ok(Answer::Planned {
        summary: serde_json::to_string(&summary(&m, &report, lang)).map_err(|e| e.to_string())?,
        json: plan_json(&m, &report),
        script: script(&m),
    })
}

/// Registers `squillionMigrate(modelText, fromId, toId, lang)` on the worker's global scope: it
/// returns `{ summary, json, script }` (a plan) or `{ refused, json }` (why none is made), or
/// throws why the designs cannot be read, as a string.
pub fn register() {
    type MigrateFn = dyn Fn(String, String, String, String) -> Result<JsValue, JsValue>;
    let run = Closure::<MigrateFn>::new(|model: String, from: String, to: String, lang: String| {
        let out = js_sys::Object::new();
        let set = |k: &str, v: &str| {
            let _ = js_sys::Reflect::set(&out, &k.into(), &JsValue::from_str(v));
        };
        match migration(&model, &from, &to, &lang).map_err(|e| JsValue::from_str(&e))? {
            Answer::Planned {
                summary,
                json,
                script,
            } => {
                set("summary", &summary);
                set("json", &json);
                set("script", &script);
            }
            Answer::Refused { message, json } => {
                set("refused", &message);
                set("json", &json);
            }
        }
        Ok(out.into())
    });
    let _ = js_sys::Reflect::set(&js_sys::global(), &"squillionMigrate".into(), run.as_ref());
    // The function lives as long as the worker.
    run.forget();
}
