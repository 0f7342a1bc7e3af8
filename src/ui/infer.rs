//! "Start from your data" on the page's worker side: the inputs the dialog
//! (`editor/infer.rs`) hands the worker, read from the worker's script and inferred as one
//! batch by the core ([`crate::infer::batch`]), which also builds the summary the dialog
//! shows ([`crate::infer::summary`]).
//!
//! mongoexport and mongodump files are fed in chunks: the worker's script reads each file
//! 4 MiB at a time (`FileReaderSync` over `File.slice`) when [`JsChunks`] asks for more, and
//! reports the bytes read; SQL schemas and `.metadata.json` files are read whole.

use std::io::Read;

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

pub use crate::infer::batch::looks_like_sql;
use crate::infer::batch::{infer_inputs, parse_counts, Input, Source};
pub use crate::infer::input::{classify, Kind};
pub use crate::infer::summary::Summary;

/// A file read in chunks from the worker's script: each call of `next()` returns the next
/// chunk (a `Uint8Array`), or `null` at the end.
pub struct JsChunks {
    /// The script's `next`.
    next: js_sys::Function,
    /// The chunk being read, and how much of it was.
    chunk: Vec<u8>,
    /// Bytes of `chunk` already handed out.
    at: usize,
}

impl JsChunks {
    /// Returns a reader over the chunks `next` returns.
    pub fn new(next: js_sys::Function) -> Self {
        JsChunks {
            next,
            chunk: Vec::new(),
            at: 0,
        }
    }
}

impl Read for JsChunks {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at >= self.chunk.len() {
            let v = self
                .next
                .call0(&JsValue::NULL)
                .map_err(|_| std::io::Error::other("the file could not be read"))?;
            let Ok(bytes) = v.dyn_into::<js_sys::Uint8Array>() else {
                return Ok(0);
            };
            self.chunk = bytes.to_vec();
            self.at = 0;
        }
        let rest = self.chunk.get(self.at..).unwrap_or_default();
        let n = rest.len().min(buf.len());
        buf.get_mut(..n)
            .unwrap_or_default()
            .copy_from_slice(rest.get(..n).unwrap_or_default());
        self.at += n;
        Ok(n)
    }
}

/// Returns the inputs the worker's script describes: an array of `{ name, collection, kind,
/// next?, text? }` (`next` for a file read in chunks, `text` for text read whole).
fn read_inputs(inputs: &JsValue) -> Result<Vec<Input>, String> {
    let array: js_sys::Array = inputs
        .clone()
        .dyn_into()
        .map_err(|_| "no inputs".to_string())?;
    let field = |o: &JsValue, name: &str| js_sys::Reflect::get(o, &name.into()).ok();
    let mut out = Vec::new();
    for item in array.iter() {
        let text_of = |name: &str| field(&item, name).and_then(|v| v.as_string());
        let name = text_of("name").unwrap_or_else(|| "input".to_string());
        let collection = text_of("collection").unwrap_or_else(|| name.clone());
        let kind = match text_of("kind").as_deref() {
            Some("bson") => Kind::Bson,
            Some("metadata") => Kind::Metadata,
            Some("archive") => Kind::Archive,
            Some("sql") => Kind::Sql,
            _ => Kind::Json,
        };
        let source = match field(&item, "next").and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        {
            Some(next) => Source::Chunks(Box::new(JsChunks::new(next))),
            None => Source::Text(text_of("text").unwrap_or_default()),
        };
        out.push(Input {
            name,
            collection,
            kind,
            source,
        });
    }
    Ok(out)
}

/// Registers `squillionInfer(inputs, countsText)` on the worker's global scope: it returns
/// `JSON {model, summary}` (the model as text, a [`Summary`]) or throws why nothing could be
/// inferred, as a string.
pub fn register() {
    type InferFn = dyn Fn(JsValue, String) -> Result<String, JsValue>;
    let infer = Closure::<InferFn>::new(|inputs: JsValue, counts: String| {
        let run = || -> Result<String, String> {
            let counts = parse_counts(&counts)?;
            let (model, summary) = infer_inputs(read_inputs(&inputs)?, &counts)?;
            serde_json::to_string(&Answer { model, summary }).map_err(|e| e.to_string())
        };
        run().map_err(|e| JsValue::from_str(&e))
    });
    let _ = js_sys::Reflect::set(&js_sys::global(), &"squillionInfer".into(), infer.as_ref());
    // The function lives as long as the worker.
    infer.forget();
}

/// What the worker answers: the model's text and the summary.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Answer {
    /// The model, pretty JSON.
    pub model: String,
    /// What was found and assumed.
    pub summary: Summary,
}
