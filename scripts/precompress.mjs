// Writes FILE.br (brotli, quality 11) and FILE.gz (gzip -9) beside every text, wasm and svg
// file of a built site, for static hosts that serve precompressed files
// (scripts/build-site.sh; docs/hosting.md).
//
//   node scripts/precompress.mjs DIR
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.svg', '.json', '.txt']);

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/precompress.mjs DIR');
  process.exit(2);
}

let before = 0;
let br = 0;
let gz = 0;
const files = readdirSync(dir, { recursive: true })
  .map((f) => join(dir, f))
  .filter((f) => COMPRESSIBLE.has(extname(f)) && statSync(f).isFile());
for (const file of files) {
  const body = readFileSync(file);
  const b = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  const g = gzipSync(body, { level: 9 });
  writeFileSync(`${file}.br`, b);
  writeFileSync(`${file}.gz`, g);
  before += body.length;
  br += b.length;
  gz += g.length;
}
const k = (n) => `${Math.round(n / 1000).toLocaleString('en-US')} KB`;
console.log(`precompressed ${dir}: ${k(before)} → ${k(br)} brotli, ${k(gz)} gzip`);
