// Benchmark (not a test): evaluating a model on the engine, natively (our release binary) and
// in headless Chromium (our wasm, the page's own module), on the same model files in the same
// run. Targets (issue #4): a model of a dozen entities (bench/dozen.json) evaluates at the
// default sample scale in < 100 ms in the browser; the full-scale arithmetic for 100 million
// entities in < 1 ms. Every preset is timed too. Prints a table and the browser/native ratio.
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

const server = await serve(DIST);
const browser = await launch();
let wasm;
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

const ms = (x) => `${x.toFixed(x < 10 ? 2 : 0)} ms`.padStart(10);
console.log(`evaluation (median of ${ROUNDS}; default sample scale), native vs browser:`);
console.log(`${'model'.padEnd(22)}${'docs'.padStart(7)}${'native'.padStart(10)}${'browser'.padStart(10)}${'ratio'.padStart(8)}${'arith (browser)'.padStart(17)}`);
files.forEach((f, i) => {
  const n = native[i];
  const w = wasm[i];
  const ratio = n.eval_ms > 0 ? (w.eval_ms / n.eval_ms).toFixed(1) : '-';
  console.log(`${(w.model || f).slice(0, 21).padEnd(22)}${String(w.documents).padStart(7)}${ms(n.eval_ms)}${ms(w.eval_ms)}${`${ratio}x`.padStart(8)}${ms(w.arith_ms).padStart(17)}`);
});
const dozen = wasm[0];
console.log(`target: a dozen entities in the browser < 100 ms: ${dozen.eval_ms.toFixed(1)} ms (${dozen.eval_ms < 100 ? 'met' : 'missed'}); ` +
  `full-scale arithmetic for 100 million entities < 1 ms: ${dozen.arith_ms.toFixed(3)} ms (${dozen.arith_ms < 1 ? 'met' : 'missed'})`);
