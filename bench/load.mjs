// Benchmark (not a test): how fast the page loads, as a new user and as a returning one meets
// it, on three networks. The built site (dist/) is served like a static host (precompressed
// .br/.gz when scripts/build-site.sh wrote them, else gzip; ETags), and the network is emulated
// in the server (e2e/serve.mjs), so the page, its Web Worker and its service worker are all
// slowed alike. For each network: a cold load (a new browser profile: no cache, no service
// worker) and a warm reload (the same profile, once the service worker controls the page).
//
//   node bench/load.mjs [DIST]
//
// Prints per load the time to first paint, to an interactive model editor and to the first
// evaluated design, and the bytes the server sent; then the targets of issue #36.
import { launch } from '../e2e/browser.mjs';
import { serve } from '../e2e/serve.mjs';

const DIST = process.argv[2] ?? 'dist';
const ROUNDS = Number(process.env.BENCH_LOAD_ROUNDS ?? 3);

const NETWORKS = [
  { name: 'none', link: null },
  { name: '10 Mbit/s, 40 ms RTT', link: { mbps: 10, rttMs: 40 } },
  { name: '1.6 Mbit/s, 150 ms RTT', link: { mbps: 1.6, rttMs: 150 } },
];

/** Records, in the page, when each selector first appears (ms since navigation start). */
function marker() {
  const want = {
    editor: '#tab-json',
    evaluated: '.eval-operations[data-state="done"]',
  };
  window.__marks = {};
  const check = () => {
    for (const [name, sel] of Object.entries(want)) {
      if (window.__marks[name] == null && document.querySelector(sel)) window.__marks[name] = performance.now();
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
}

/** Loads (or reloads) the playground; returns its timings and the bytes sent. */
async function load(page, server, url, reload) {
  const bytes = server.stats.bytes;
  if (reload) await page.reload();
  else await page.goto(url);
  await page.waitForFunction(() => window.__marks?.evaluated != null, null, { timeout: 180_000, polling: 50 });
  const marks = await page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0] ?? performance.getEntriesByName('first-paint')[0];
    return { paint: paint?.startTime ?? NaN, editor: window.__marks.editor, evaluated: window.__marks.evaluated };
  });
  return { ...marks, bytes: server.stats.bytes - bytes };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms) => `${(ms / 1000).toFixed(2)} s`.padStart(9);
const kb = (b) => `${Math.round(b / 1000).toLocaleString('en-US')} KB`.padStart(10);

const browser = await launch();
const results = {};
try {
  for (const net of NETWORKS) {
    const server = await serve(DIST, {}, { compress: true, link: net.link });
    const url = `${server.url}#playground`;
    const runs = { cold: [], warm: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addInitScript(marker);
      const page = await context.newPage();
      runs.cold.push(await load(page, server, url, false));
      await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 60_000 });
      runs.warm.push(await load(page, server, url, true));
      await context.close();
    }
    await server.close();
    results[net.name] = runs;
    console.log(`\n${net.name} (median of ${ROUNDS}):`);
    console.log(`${'load'.padEnd(8)}${'paint'.padStart(9)}${'editor'.padStart(9)}${'evaluated'.padStart(10)}${'sent'.padStart(10)}`);
    for (const kind of ['cold', 'warm']) {
      const r = runs[kind];
      const m = (k) => median(r.map((x) => x[k]));
      console.log(`${kind.padEnd(8)}${s(m('paint'))}${s(m('editor'))} ${s(m('evaluated'))}${kb(m('bytes'))}`);
    }
  }
} finally {
  await browser.close();
}

const med = (net, kind, key) => median(results[net][kind].map((x) => x[key]));
// The targets of the page-load issue (#36), which tightened those of #21 (1.5 s, 2.5 s, 0.5 s,
// 6 s) when the page had doubled.
const targets = [
  ['10 Mbit/s cold: editor interactive ≤ 1.0 s', med(NETWORKS[1].name, 'cold', 'editor'), 1000],
  ['10 Mbit/s cold: first design evaluated ≤ 1.5 s', med(NETWORKS[1].name, 'cold', 'evaluated'), 1500],
  ['10 Mbit/s warm reload: numbers ≤ 0.3 s', med(NETWORKS[1].name, 'warm', 'evaluated'), 300],
  ['1.6 Mbit/s cold: first design evaluated ≤ 4 s', med(NETWORKS[2].name, 'cold', 'evaluated'), 4000],
];
console.log('\ntargets (issue #36):');
for (const [what, ms, limit] of targets) {
  console.log(`  ${what}: ${(ms / 1000).toFixed(2)} s (${ms <= limit ? 'met' : `missed by ${((ms - limit) / 1000).toFixed(2)} s`})`);
}
