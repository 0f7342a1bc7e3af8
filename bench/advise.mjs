// Benchmark (not a test): the design advisor on every preset, natively (`squillion bench advise`,
// the release binary: the search alone and the whole advice with its engine verification) and in
// headless Chromium (the page's Advise panel on the preset: from the click on "Advise" to the
// advice shown, the whole advice as a user waits for it, in the panel's Web Worker). Targets
// (issue #19): the whole search ≤ 1 s natively and ≤ 3 s in the browser for every preset. The
// native verdicts are given twice: for the search (screening, scoring, front, explanations: what
// the issue times; the engine runs get their speed from the engine issue) and for the whole
// advice with its engine verification; the browser's is the whole advice, as the panel runs it.
// Prints one row per preset with each target met or missed.
//
//   node bench/advise.mjs $CARGO_TARGET_DIR/bench-native/squillion [dist]   # cargo build --profile bench-native --bin squillion
//
// BENCH_NATIVE_ONLY=1 skips the browser; BENCH_ADVISE_ROUNDS (default 3) rounds natively (the
// median is shown), BENCH_ADVISE_PAGE_ROUNDS (default 1) runs of the panel per preset (the
// median is shown).
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { serve } from '../e2e/serve.mjs';
import { launch, openPreset } from '../e2e/browser.mjs';

const BIN = process.argv[2];
const DIST = process.argv[3] ?? 'dist';
const ROUNDS = Number(process.env.BENCH_ADVISE_ROUNDS ?? 3);
const PAGE_ROUNDS = Number(process.env.BENCH_ADVISE_PAGE_ROUNDS ?? 1);
const NATIVE_TARGET_MS = 1000;
const BROWSER_TARGET_MS = 3000;

const files = readdirSync('presets').filter((f) => f.endsWith('.json')).sort().map((f) => `presets/${f}`);
const native = execFileSync(BIN, ['bench', 'advise', '--rounds', String(ROUNDS), ...files], { encoding: 'utf8', maxBuffer: 1 << 26 })
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const name = (f) => f.replace(/^presets\//, '').replace(/\.json$/, '');
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/** Times the Advise panel on preset `preset`: click to advice shown, in ms. */
async function pageRun(browser, url, preset) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await page.goto(`${url}#playground`);
    await openPreset(page, preset);
    await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 300_000 });
    const t0 = await page.evaluate(() => performance.now());
    await page.click('#open-advise');
    await page.waitForSelector('#advise[data-state="done"], #advise[data-state="failed"]', { timeout: 300_000 });
    const t1 = await page.evaluate(() => performance.now());
    const state = await page.$eval('#advise', (a) => a.dataset.state);
    if (state !== 'done') throw new Error(`${preset}: the advisor failed`);
    return t1 - t0;
  } finally {
    await page.close();
  }
}

const browserMs = new Map();
if (!process.env.BENCH_NATIVE_ONLY) {
  const server = await serve(DIST);
  const browser = await launch();
  try {
    for (const f of files) {
      const runs = [];
      for (let i = 0; i < PAGE_ROUNDS; i += 1) runs.push(await pageRun(browser, server.url, name(f)));
      browserMs.set(f, median(runs));
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

const ms = (x) => (x == null ? '-' : `${x.toFixed(x < 10 ? 1 : 0)} ms`).padStart(11);
const verdict = (x, target) => (x == null ? '-' : x <= target ? 'met' : 'MISSED');
console.log(`advise per preset (native: median of ${ROUNDS}; browser: the Advise panel, click to advice, median of ${PAGE_ROUNDS}):`);
console.log(`${'preset'.padEnd(22)}${'designs'.padStart(8)}${'search'.padStart(11)}${'≤ 1 s'.padStart(8)}${'+ verify'.padStart(11)}${'≤ 1 s'.padStart(8)}${'browser'.padStart(11)}${'≤ 3 s'.padStart(8)}${'verified'.padStart(10)}`);
let missed = 0;
native.forEach((n, i) => {
  const f = files[i];
  const b = browserMs.get(f);
  const sv = verdict(n.search_ms, NATIVE_TARGET_MS);
  const nv = verdict(n.verified_ms, NATIVE_TARGET_MS);
  const bv = verdict(b, BROWSER_TARGET_MS);
  if (sv === 'MISSED' || nv === 'MISSED' || bv === 'MISSED') missed += 1;
  console.log(`${name(f).padEnd(22)}${String(n.space).padStart(8)}${ms(n.search_ms)}${sv.padStart(8)}${ms(n.verified_ms)}${nv.padStart(8)}${ms(b)}${bv.padStart(8)}${String(n.verified).padStart(10)}`);
});
console.log(missed === 0 ? 'every target met' : `${missed} preset(s) missed a target`);
