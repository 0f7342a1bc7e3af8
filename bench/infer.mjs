// Benchmark (not a test): inferring a schema from the same 100,000 generated documents with our
// binary (`squillion bench infer`: reading the mongoexport text, parsing, statistics and the
// model) and with npm mongodb-schema (Compass's analyzer) in Node (EJSON.parse of each line,
// then parseSchema), in the same run; documents per second, the ratio (target: at least 5x)
// and our peak of allocated memory. Then the same in one headless Chromium page: the page's
// WebAssembly (`window.squillionBenchInfer`, opened with `?bench`) against mongodb-schema
// loaded into the same page (its CommonJS files wrapped into one script here, with bson's own
// browser bundle), on the same text; memory there is the growth of the WebAssembly memory
// during our rounds (it only grows: a bound on our peak) and the JavaScript heap that
// mongodb-schema's documents and schema hold when it returns (a lower bound on its peak).
// Then a generated mongoexport file of BENCH_INFER_BIG_MB megabytes (default 1024; 0 skips
// it) streamed from disk natively, to show that memory stays bounded whatever the file size.
//
// Usage: node bench/infer.mjs BIN [DIST] (the bench-native build, scripts/bench.sh builds it;
// DIST the page built by `trunk build --release`, default dist). BENCH_NATIVE_ONLY=1 skips the
// browser. Needs `npm ci --prefix tests/differential` (mongodb-schema, bson).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rng } from './rng.mjs';
import { serve } from '../e2e/serve.mjs';
import { launch } from '../e2e/browser.mjs';

const require = createRequire(new URL('../tests/differential/package.json', import.meta.url));
const { parseSchema } = require('mongodb-schema');
const { EJSON, ObjectId, Int32, Double, Long } = require('bson');

const BIN = process.argv[2];
const DIST = process.argv[3] ?? 'dist';
const DOCS = Number(process.env.BENCH_INFER_DOCS ?? 100000);
const ROUNDS = Number(process.env.BENCH_INFER_ROUNDS ?? 3);
const BIG_MB = Number(process.env.BENCH_INFER_BIG_MB ?? 1024);

/** Returns one varied document: several types per field, missing fields, nested objects, arrays. */
function document(r, i) {
  const d = { _id: ObjectId.createFromTime(1700000000 + i), name: 'x'.repeat(1 + Math.floor(r() * 30)) };
  const roll = r();
  if (roll < 0.6) d.n = new Int32(Math.floor(r() * 1000));
  else if (roll < 0.85) d.n = new Double(r());
  else if (roll < 0.95) d.n = 'seven';
  if (r() < 0.5) d.big = Long.fromNumber(Math.floor(r() * 1e12));
  if (r() < 0.8) d.flag = r() < 0.5;
  if (r() < 0.7) d.at = new Date(1700000000000 + Math.floor(r() * 1e10));
  d.tags = Array.from({ length: Math.floor(r() * 6) }, (_, k) => (r() < 0.7 ? `t${k}` : new Int32(k)));
  if (r() < 0.7) d.meta = { a: new Int32(Math.floor(r() * 10)), ...(r() < 0.5 ? { b: 'bee' } : {}), inner: { c: r() < 0.5 } };
  else if (r() < 0.3) d.meta = null;
  if (r() < 0.6) d.items = Array.from({ length: 1 + Math.floor(r() * 4) }, (_, k) => ({ sku: `s${k}`, qty: new Int32(k + 1) }));
  return d;
}

const r = rng(18);
const lines = Array.from({ length: DOCS }, (_, i) => EJSON.stringify(document(r, i), { relaxed: false }));
const text = lines.join('\n') + '\n';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'squillion-infer-bench-'));
const file = path.join(dir, 'docs.json');
fs.writeFileSync(file, text);

try {
  const ours = JSON.parse(execFileSync(BIN, ['bench', 'infer', file, '--rounds', String(ROUNDS)], { encoding: 'utf8' }));

  const times = [];
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now();
    const docs = text.split('\n').filter((l) => l).map((l) => EJSON.parse(l, { relaxed: false }));
    const schema = await parseSchema(docs);
    times.push(performance.now() - t0);
    if (schema.count !== DOCS) throw new Error(`mongodb-schema read ${schema.count} documents`);
  }
  times.sort((a, b) => a - b);
  const theirMs = times[Math.floor(times.length / 2)];
  const theirs = DOCS / theirMs * 1e3;

  const mb = (x) => (x < 1e6 ? `${(x / 1e3).toFixed(1)} kB` : `${(x / 1e6).toFixed(1)} MB`);
  const rate = (x) => `${Math.round(x).toLocaleString('en-US')} docs/s`;
  console.log(`infer: ${DOCS.toLocaleString('en-US')} documents (${mb(text.length)} of mongoexport text), median of ${ROUNDS}`);
  console.log(`  squillion (native)      ${ours.ms.toFixed(0).padStart(7)} ms  ${rate(ours.docs_per_sec).padStart(18)}  peak ${ours.peak_bytes == null ? '-' : mb(ours.peak_bytes)}`);
  console.log(`  mongodb-schema (Node)   ${theirMs.toFixed(0).padStart(7)} ms  ${rate(theirs).padStart(18)}`);
  const ratio = ours.docs_per_sec / theirs;
  console.log(`target: at least 5x mongodb-schema's documents per second: ${ratio.toFixed(1)}x (${ratio >= 5 ? 'met' : 'NOT met'})`);

  if (!process.env.BENCH_NATIVE_ONLY) await browser(text, file);

  if (BIG_MB > 0) {
    const big = path.join(dir, 'big.json');
    const fd = fs.openSync(big, 'w');
    let written = 0;
    const chunk = Buffer.from(text);
    while (written < BIG_MB * 1e6) {
      fs.writeSync(fd, chunk);
      written += chunk.length;
    }
    fs.closeSync(fd);
    const s = JSON.parse(execFileSync(BIN, ['bench', 'infer', big, '--stream', '--rounds', '1'], { encoding: 'utf8' }));
    console.log(
      `streamed: ${mb(s.bytes)} file, ${s.docs.toLocaleString('en-US')} documents in ${(s.ms / 1e3).toFixed(1)} s ` +
        `(${(s.bytes / 1e6 / (s.ms / 1e3)).toFixed(0)} MB/s, ${rate(s.docs_per_sec)}), peak ${mb(s.peak_bytes)} ` +
        `(${(s.peak_bytes / s.bytes * 100).toFixed(3)}% of the file; ${mb(ours.peak_bytes)} for ${mb(text.length)} in memory)`,
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Returns mongodb-schema as one classic script for the page: each CommonJS file it loads
 * (found by its `require("…")` calls and resolved as Node resolves them) wrapped in a function,
 * `bson` taken from bson's browser bundle (the global `BSON`); the script sets
 * `window.mongodbSchema`.
 */
function bundleMongodbSchema() {
  const ids = new Map();
  const modules = [];
  const visit = (file) => {
    if (ids.has(file)) return ids.get(file);
    const id = modules.length;
    ids.set(file, id);
    modules.push(null);
    const source = fs.readFileSync(file, 'utf8');
    const deps = {};
    for (const [, spec] of source.matchAll(/require\(["']([^"']+)["']\)/g)) {
      if (spec !== 'bson') deps[spec] = visit(createRequire(file).resolve(spec));
    }
    modules[id] = `[function (module, exports, require) {\n${source}\n}, ${JSON.stringify(deps)}]`;
    return id;
  };
  const entry = visit(require.resolve('mongodb-schema'));
  return `window.mongodbSchema = (function () {
  const defs = [${modules.join(',\n')}];
  const cache = [];
  function load(id) {
    if (cache[id]) return cache[id].exports;
    const module = { exports: {} };
    cache[id] = module;
    const [fn, deps] = defs[id];
    fn(module, module.exports, (spec) => (spec === 'bson' ? BSON : load(deps[spec])));
    return module.exports;
  }
  return load(${entry});
})();`;
}

/** Times both inferences on `text` in one headless Chromium page and prints them. */
async function browser(text, file) {
  const server = await serve(DIST, { '/bench-infer.ndjson': file });
  const chromium = await launch();
  try {
    const page = await chromium.newPage({ bypassCSP: true });
    const cdp = await page.context().newCDPSession(page);
    await page.goto(`${server.url}?bench`);
    // Inference is the tools module's (docs/size.md): loaded into the page, it registers the hook.
    await page.waitForFunction(() => typeof window.squillionLoadTools === 'function');
    await page.evaluate(() => window.squillionLoadTools());
    await page.waitForFunction(() => typeof window.squillionBenchInfer === 'function');
    await page.addScriptTag({ path: path.join(path.dirname(require.resolve('bson')), 'bson.bundle.js') });
    await page.addScriptTag({ content: bundleMongodbSchema() });
    await page.evaluate(async () => {
      window.benchText = await (await fetch('./bench-infer.ndjson')).text();
    });
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize;
    };
    const ours = await page.evaluate(({ rounds }) => JSON.parse(window.squillionBenchInfer(window.benchText, rounds)), { rounds: ROUNDS });
    const heapBefore = await heap();
    const theirs = await page.evaluate(async ({ rounds, docs }) => {
      const { EJSON } = window.BSON;
      const times = [];
      for (let round = 0; round < rounds; round++) {
        window.benchKept = null;
        const t0 = performance.now();
        const parsed = window.benchText.split('\n').filter((l) => l).map((l) => EJSON.parse(l, { relaxed: false }));
        const schema = await window.mongodbSchema.parseSchema(parsed);
        times.push(performance.now() - t0);
        if (schema.count !== docs) throw new Error(`mongodb-schema read ${schema.count} documents`);
        window.benchKept = { parsed, schema };
      }
      times.sort((a, b) => a - b);
      return { ms: times[Math.floor(times.length / 2)] };
    }, { rounds: ROUNDS, docs: DOCS });
    // What its documents and schema hold once it returns (kept alive on purpose), less what
    // the page held before.
    const held = (await heap()) - heapBefore;
    await page.evaluate(() => { window.benchKept = null; });
    if (ours.docs !== DOCS) throw new Error(`squillion read ${ours.docs} documents in the page`);
    const theirRate = DOCS / theirs.ms * 1e3;
    const mb = (x) => (x < 1e6 ? `${(x / 1e3).toFixed(1)} kB` : `${(x / 1e6).toFixed(1)} MB`);
    const rate = (x) => `${Math.round(x).toLocaleString('en-US')} docs/s`;
    console.log(`browser (headless Chromium, one page), median of ${ROUNDS}:`);
    console.log(
      `  squillion (WebAssembly) ${ours.ms.toFixed(0).padStart(7)} ms  ${rate(ours.docs_per_sec).padStart(18)}  ` +
        `WebAssembly memory grew ${mb(ours.memory_after - ours.memory_before)} (${mb(ours.memory_before)} → ${mb(ours.memory_after)})`,
    );
    console.log(
      `  mongodb-schema (JS)     ${theirs.ms.toFixed(0).padStart(7)} ms  ${rate(theirRate).padStart(18)}  ` +
        `JS heap held at the end ${mb(held)}`,
    );
    const ratio = ours.docs_per_sec / theirRate;
    console.log(`target: at least 5x mongodb-schema's documents per second in the page: ${ratio.toFixed(1)}x (${ratio >= 5 ? 'met' : 'NOT met'})`);
  } finally {
    await chromium.close();
    await server.close();
  }
}
