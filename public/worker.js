// The playground's evaluation worker: the page's own wasm module (the same files boot.js
// loads, so nothing is shipped twice). Without a window, the module's start function only
// registers `squillionEvaluate(modelText, design, optionsJson)`, which returns the evaluation of
// the offered design with that id as JSON (what `squillion eval --design ID --json` prints, minus
// the layout), or throws why the design cannot be evaluated.
//
// Message in:  { module } first, when the page has its compiled module (WebAssembly.Module);
//              then { id, model, design, options, lang } (lang: the page's language, whose
//              translation file the worker fetches once before it answers)
// Message out: { id, progress: { step, of, what } } (a step starts; any number of them), then
//              { id, json, ms } | { id, error } (the design cannot be evaluated)
//              | { id, fatal, init? } (this worker cannot evaluate at all: the page takes over;
//                init: true when the module did not even load)
//
// Kinds `infer` and `diagram` run in the tools module (squillion-tools.js and its wasm:
// inference from data and SQL schemas, the diagram's layout), fetched the first time a worker
// asks for it and kept by the service worker; such a worker never instantiates the page's
// module (docs/size.md). Every other kind runs in the page's module.
//
// With `kind: 'export'`, the same message builds the export's zip archive instead
// (`squillionExport`, what "Download export (.zip)" asks a worker of its own for):
// Message out: { id, zip: Uint8Array (transferred), summary, ms } | { id, error } | { id, fatal }
//
// With `kind: 'infer'` ("Start from your data", src/ui/infer.rs), `inputs` is an array of
// { name, collection, kind: 'json'|'bson'|'metadata'|'archive'|'sql', file?: File, text?: string }:
// mongoexport and mongodump files are handed to `squillionInfer` in 4 MiB slices read here
// (FileReaderSync), schemas and metadata whole; `counts` is "users=30000000, …".
// Message out: { id, progress: { done, total, file } } (bytes read so far), then
//              { id, json, ms } (JSON {model, summary}) | { id, error } | { id, fatal }
//
// With `kind: 'diagram'` (the Diagram view; `options`: the page's language; `design` '' for the
// model's own diagram; `since`: the design to mark what moved from, or ''):
// Message out: { id, svg, changes, ms } (changes: JSON or null) | { id, error } | { id, fatal }
//
// With `kind: 'migrate'` (the Migrate panel; `design`: the source design, `to`: the target's,
// `options`: the page's language): what `squillion migrate --from design --to to --json` prints
// and the panel's summary (src/ui/migrate.rs):
// Message out: { id, summary, json, script, ms } (a plan) | { id, refused, json, ms } (none is
//              made, and why) | { id, error } | { id, fatal }
//
// With `kind: 'advise'`, the design advisor (`squillionAdvise(modelText, optionsJson, onProgress)`,
// what the Advise panel asks a worker of its own for; Cancel terminates that worker):
// Message out: { id, progress: { step, of, what } }…, then { id, json, ms } | { id, error } | { id, fatal }
import init from './squillion.js';

let ready = null;
/** The translation this worker was handed (the first message whose `lang` is not English:
 * src/ui/worker.rs's `message`), once fetched. */
let translated = null;

/** Hands the module the translation file of `lang` (`zh-CN.json`), fetched once per worker
 * (from the service worker's cache when the page kept it); English needs none. A file that
 * cannot be had leaves the worker in English. */
function translate(lang) {
  if (!lang || lang === 'en') return null;
  translated ??= fetch(new URL(`./${lang}.json`, import.meta.url))
    .then((r) => (r.ok ? r.text() : Promise.reject(new Error(`${lang}.json: HTTP ${r.status}`))))
    .then((text) => self.squillionTranslate?.(text))
    .catch(() => {});
  return translated;
}
/** The page's compiled module, when the page sends it (its first message, `{ module }`:
 * src/ui/worker.rs). */
let given = null;

/** Instantiates the module this message's kind runs in, once: the tools module for `infer` and
 * `diagram`, else the app's (the page's compiled one when sent, else fetched and compiled). */
function start(kind) {
  if (kind === 'infer' || kind === 'diagram') {
    ready ??= import('./squillion-tools.js').then((tools) =>
      tools.default({ module_or_path: new URL('./squillion-tools_bg.wasm', import.meta.url) }),
    );
  }
  ready ??= init({ module_or_path: given ?? new URL('./squillion_bg.wasm', import.meta.url) });
  return ready;
}

self.onmessage = async (event) => {
  if (event.data?.module) {
    given = event.data.module;
    return;
  }
  const { id, kind, model, design, options } = event.data;
  try {
    await start(kind);
    await translate(event.data.lang);
  } catch (e) {
    self.postMessage({ id, fatal: String(e?.message ?? e), init: true });
    return;
  }
  const t0 = performance.now();
  try {
    if (kind === 'export') {
      const { zip, summary } = self.squillionExport(model, design, options);
      self.postMessage({ id, zip, summary, ms: performance.now() - t0 }, [zip.buffer]);
      return;
    }
    if (kind === 'infer') {
      const json = self.squillionInfer(inferInputs(id, event.data.inputs), event.data.counts ?? '');
      self.postMessage({ id, json, ms: performance.now() - t0 });
      return;
    }
    if (kind === 'diagram') {
      const { svg, changes } = self.squillionDiagram(model, design, event.data.since ?? '', options ?? 'en');
      self.postMessage({ id, svg, changes, ms: performance.now() - t0 });
      return;
    }
    if (kind === 'migrate') {
      const answer = self.squillionMigrate(model, design, event.data.to ?? '', options ?? 'en');
      self.postMessage({ id, ...answer, ms: performance.now() - t0 });
      return;
    }
    const progress = (step, of, what) => self.postMessage({ id, progress: { step, of, what } });
    if (kind === 'advise') {
      const json = self.squillionAdvise(model, options, progress);
      self.postMessage({ id, json, ms: performance.now() - t0 });
      return;
    }
    const json = self.squillionEvaluate(model, design, options, progress);
    self.postMessage({ id, json, ms: performance.now() - t0 });
  } catch (e) {
    // A string is the evaluation's own error; anything else (a trap) leaves the module unusable.
    if (typeof e === 'string') self.postMessage({ id, error: e });
    else self.postMessage({ id, fatal: String(e?.message ?? e) });
  }
};

/** The bytes of a file handed to the inference at a time. */
const CHUNK = 4 * 1024 * 1024;

/** Returns the inputs of an inference as `squillionInfer` reads them: a file of documents gets
 * `next()`, which reads its next slice and reports the bytes read of all the files. */
function inferInputs(id, inputs) {
  const reader = new FileReaderSync();
  const total = inputs.reduce((n, i) => n + (i.file?.size ?? i.text?.length ?? 0), 0);
  let done = 0;
  const tell = (file) => self.postMessage({ id, progress: { done, total, file } });
  return inputs.map((input) => {
    const { name, collection, kind, file } = input;
    if (!file) {
      done += input.text?.length ?? 0;
      return { name, collection, kind, text: input.text ?? '' };
    }
    // Text read whole, unless gzipped (mongodump --gzip's .metadata.json.gz): those bytes go
    // to the core in chunks, which decompresses them.
    if ((kind === 'sql' || kind === 'metadata') && !/\.gz$/i.test(name)) {
      const text = reader.readAsText(file);
      done += file.size;
      tell(name);
      return { name, collection, kind, text };
    }
    let at = 0;
    const next = () => {
      if (at >= file.size) return null;
      const end = Math.min(at + CHUNK, file.size);
      const bytes = new Uint8Array(reader.readAsArrayBuffer(file.slice(at, end)));
      done += end - at;
      at = end;
      tell(name);
      return bytes;
    };
    return { name, collection, kind, next };
  });
}
