// Benchmark (not a test): exact BSON sizing of the same 100,000 documents by Squillion and by
// npm `bson`'s calculateObjectSize, natively (our release binary vs Node) and in one headless
// Chromium page (our wasm vs js-bson). Only the sizing loop is timed on every side; reading
// the documents is not. Prints the ratios; the machines are shared, so compare ratios, not
// absolute times.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { BSON, EJSON } from 'bson';
import { serve } from '../e2e/serve.mjs';
import { launch } from '../e2e/browser.mjs';
import { rng } from './rng.mjs';

const COUNT = Number(process.env.BENCH_DOCS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
// js-bson in the browser takes about a minute a round here; one round keeps the run short.
const BROWSER_ROUNDS = Number(process.env.BENCH_BROWSER_ROUNDS ?? 1);
const BIN = process.argv[2];
const DIST = process.argv[3] ?? 'dist';

/** Returns COUNT varied documents: users, orders, log lines, analytics buckets. */
function documents() {
  const r = rng(42);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const oid = () => new BSON.ObjectId(Array.from({ length: 24 }, () => '0123456789abcdef'[Math.floor(r() * 16)]).join(''));
  const word = () => pick(['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', '東京', 'Zürich']);
  const text = (n) => Array.from({ length: n }, word).join(' ');
  const docs = [];
  for (let i = 0; i < COUNT; i++) {
    switch (i % 4) {
      case 0:
        docs.push({ _id: oid(), username: `user${i}`, email: `user${i}@example.com`,
          joined: new Date(1_600_000_000_000 + i * 1000), followers: Array.from({ length: Math.floor(r() * 40) }, oid),
          profile: { bio: text(8), verified: r() < 0.5, score: r() * 100 } });
        break;
      case 1:
        docs.push({ _id: oid(), user: { _id: oid(), name: text(2) }, date: new Date(1_700_000_000_000 + i),
          items: Array.from({ length: 1 + Math.floor(r() * 8) }, () => ({ _id: oid(), name: text(3),
            price: BSON.Decimal128.fromString((r() * 100).toFixed(2)), qty: new BSON.Int32(1 + Math.floor(r() * 5)) })),
          total: r() * 500 });
        break;
      case 2:
        docs.push({ _id: oid(), host: oid(), ts: new Date(1_700_000_000_000 + i * 7), level: pick(['info', 'warn', 'error']),
          msg: text(12), bytes: BSON.Long.fromNumber(Math.floor(r() * 1e12)) });
        break;
      default:
        docs.push({ _id: `page-${i}`, start: new Date(1_700_000_000_000), visits: {
          minutes: Array.from({ length: 6 }, () => Array.from({ length: 60 }, () => new BSON.Int32(Math.floor(r() * 50)))),
          hours: Array.from({ length: 6 }, () => new BSON.Int32(Math.floor(r() * 3000))) } });
    }
  }
  return docs;
}

function timeJs(docs, now) {
  let checksum = 0;
  const start = now();
  for (let round = 0; round < ROUNDS; round++) {
    let sum = 0;
    for (const d of docs) sum += BSON.calculateObjectSize(d);
    if (round === 0) checksum = sum;
  }
  return { docs: docs.length, rounds: ROUNDS, ms: now() - start, checksum };
}

const fmt = (t) => `${(t.ms / t.rounds).toFixed(1)} ms per ${t.docs.toLocaleString('en-US')} documents`;

const docs = documents();
const ndjson = docs.map((d) => EJSON.stringify(d, { relaxed: false })).join('\n') + '\n';
mkdirSync('target/bench', { recursive: true });
const file = 'target/bench/docs.ndjson';
writeFileSync(file, ndjson);
// Both sides must size documents read back from the same text.
const reread = readFileSync(file, 'utf8').trim().split('\n').map((l) => EJSON.parse(l, { relaxed: false }));

console.log(`sizing ${COUNT.toLocaleString('en-US')} documents, ${ROUNDS} rounds each`);

const node = timeJs(reread, () => performance.now());
const native = JSON.parse(execFileSync(BIN, ['bench', 'sizes', file, '--rounds', String(ROUNDS)], { encoding: 'utf8' }));
if (native.checksum !== node.checksum) throw new Error(`checksums differ: squillion ${native.checksum}, js-bson ${node.checksum}`);
console.log(`native : squillion ${fmt(native)} | js-bson (Node) ${fmt(node)} | ratio ${(node.ms / native.ms).toFixed(2)}x`);

const server = await serve(DIST, { '/bench-docs.ndjson': file });
const browser = await launch();
try {
  const page = await browser.newPage({ bypassCSP: true });
  await page.goto(`${server.url}?bench`);
  await page.waitForFunction(() => typeof window.squillionBenchSizes === 'function');
  await page.addScriptTag({ path: 'node_modules/bson/lib/bson.bundle.js' });
  const result = await page.evaluate(async (rounds) => {
    const text = await (await fetch('./bench-docs.ndjson')).text();
    const wasm = window.squillionBenchSizes(text, rounds);
    const { BSON: B } = window;
    const docs = text.trim().split('\n').map((l) => B.EJSON.parse(l, { relaxed: false }));
    let checksum = 0;
    const start = performance.now();
    for (let round = 0; round < rounds; round++) {
      let sum = 0;
      for (const d of docs) sum += B.calculateObjectSize(d);
      if (round === 0) checksum = sum;
    }
    const js = { docs: docs.length, rounds, ms: performance.now() - start, checksum };
    return { wasm: { ...wasm }, js };
  }, BROWSER_ROUNDS);
  if (result.wasm.checksum !== result.js.checksum) throw new Error(`browser checksums differ: ${JSON.stringify(result)}`);
  console.log(`browser: squillion (wasm) ${fmt(result.wasm)} | js-bson ${fmt(result.js)} | ratio ${(result.js.ms / result.wasm.ms).toFixed(2)}x (target ≥ 3x)`);
} finally {
  await browser.close();
  await server.close();
}
