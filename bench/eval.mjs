// Benchmark (not a test): evaluating a model on the engine, natively (our release binary) and
// in headless Chromium (our wasm, the page's own module), on the same model files in the same
// run. Each evaluation is cold (nothing kept from the previous one). Targets (issues #4 and
// #17): every model evaluates at the default sample scale in ≤ 100 ms in the browser, the
// largest preset (social-graph) in ≤ 50 ms natively, with a peak of allocated memory ≤ 2x the
// sample's BSON bytes (measured natively); the full-scale arithmetic for 100 million entities
// in < 1 ms. Prints a table, the browser/native ratio and, natively, where the time goes.
// BENCH_NATIVE_ONLY=1 skips the browser.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { serve } from '../e2e/serve.mjs';
import { launch } from '../e2e/browser.mjs';

const BIN = process.argv[2];
const DIST = process.argv[3] ?? 'dist';
const ROUNDS = Number(process.env.BENCH_EVAL_ROUNDS ?? 5);

const files = ['bench/dozen.json', ...readdirSync('presets').filter((f) => f.endsWith('.json')).sort().map((f) => `presets/${f}`)];
const native = execFileSync(BIN, ['bench', 'eval', '--rounds', String(ROUNDS), ...files], { encoding: 'utf8', maxBuffer: 1 << 26 })
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));

let wasm = files.map(() => null);
if (!process.env.BENCH_NATIVE_ONLY) {
  const server = await serve(DIST);
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}?bench`);
    await page.waitForFunction(() => typeof window.squillionBenchEval === 'function');
    wasm = [];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      wasm.push(JSON.parse(await page.evaluate(({ text, rounds }) => window.squillionBenchEval(text, rounds), { text, rounds: ROUNDS })));
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

const ms = (x) => (x == null ? '-' : `${x.toFixed(x < 10 ? 2 : 0)} ms`).padStart(10);
const mb = (x) => `${(x / 1e6).toFixed(1)} MB`;
console.log(`evaluation (median of ${ROUNDS}; default sample scale), native vs browser:`);
console.log(`${'model'.padEnd(22)}${'docs'.padStart(7)}${'BSON'.padStart(10)}${'native'.padStart(10)}${'browser'.padStart(10)}${'ratio'.padStart(8)}${'peak (native)'.padStart(22)}${'arith'.padStart(12)}`);
files.forEach((f, i) => {
  const n = native[i];
  const w = wasm[i];
  const ratio = w && n.eval_ms > 0 ? `${(w.eval_ms / n.eval_ms).toFixed(1)}x` : '-';
  const peak = n.peak_bytes == null ? '-' : `${mb(n.peak_bytes)} (${(n.peak_bytes / Math.max(1, n.sample_bytes)).toFixed(1)}x)`;
  console.log(`${(n.model || f).slice(0, 21).padEnd(22)}${String(n.documents).padStart(7)}${mb(n.sample_bytes).padStart(10)}${ms(n.eval_ms)}${ms(w?.eval_ms)}${ratio.padStart(8)}${peak.padStart(22)}${ms(w?.arith_ms ?? n.arith_ms).padStart(12)}`);
});
console.log('where the native time goes (median evaluation, ms): layout / generate / insert + indexes / measure / operations / cluster');
files.forEach((f, i) => {
  const p = native[i].phases;
  console.log(`${(native[i].model || f).slice(0, 21).padEnd(22)}${[p.layout, p.generate, p.insert, p.measure, p.operations, p.cluster].map((x) => x.toFixed(1).padStart(8)).join('')}`);
});
const verdict = (ok) => (ok ? 'met' : 'missed');
const worst = wasm.every((w) => w) ? Math.max(...wasm.map((w) => w.eval_ms)) : null;
// Each target: the figure, its ratio to the target (above 1 misses it) and the verdict.
const over = (x, target) => `${(x / target).toFixed(2)}x the target`;
if (worst != null) {
  const slow = wasm.filter((w) => w.eval_ms > 100).length;
  console.log(`target: every model in the browser ≤ 100 ms: slowest ${worst.toFixed(1)} ms, ${over(worst, 100)}; ${wasm.length - slow} of ${wasm.length} within (${verdict(worst <= 100)})`);
}
const social = native.find((n) => n.model === 'social-graph');
if (social) console.log(`target: social-graph natively ≤ 50 ms: ${social.eval_ms.toFixed(1)} ms, ${over(social.eval_ms, 50)} (${verdict(social.eval_ms <= 50)})`);
const ratios = native.filter((n) => n.peak_bytes != null).map((n) => n.peak_bytes / Math.max(1, n.sample_bytes));
if (ratios.length) {
  const w = Math.max(...ratios);
  const worstModel = native.filter((n) => n.peak_bytes != null)[ratios.indexOf(w)].model;
  console.log(`target: peak memory ≤ 2x the sample's BSON bytes: worst ${w.toFixed(1)}x (${worstModel}), ${over(w, 2)}; ${ratios.filter((r) => r <= 2).length} of ${ratios.length} within (${verdict(w <= 2)})`);
}
const dozen = wasm[0] ?? native[0];
console.log(`target: full-scale arithmetic for 100 million entities < 1 ms: ${dozen.arith_ms.toFixed(3)} ms, ${over(dozen.arith_ms, 1)} (${verdict(dozen.arith_ms < 1)})`);
