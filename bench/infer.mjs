// Benchmark (not a test): inferring a schema from the same 100,000 generated documents with our
// binary (`squillion bench infer`: reading the mongoexport text, parsing, statistics and the
// model) and with npm mongodb-schema (Compass's analyzer) in Node (EJSON.parse of each line,
// then parseSchema), in the same run; documents per second, the ratio (target: at least 5x)
// and our peak of allocated memory. Then a generated mongoexport file of BENCH_INFER_BIG_MB
// megabytes (default 1024; 0 skips it) streamed from disk natively, to show that memory stays
// bounded whatever the file size.
//
// Usage: node bench/infer.mjs BIN (the bench-native build; scripts/bench.sh builds it).
// Needs `npm ci --prefix tests/differential` (mongodb-schema, bson).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rng } from './rng.mjs';

const require = createRequire(new URL('../tests/differential/package.json', import.meta.url));
const { parseSchema } = require('mongodb-schema');
const { EJSON, ObjectId, Int32, Double, Long } = require('bson');

const BIN = process.argv[2];
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
