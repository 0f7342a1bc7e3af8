// Trunk post-build hook (Trunk.toml): writes the offline service worker, dist/sw.js, from
// public/sw.js with this build's file list and a version that is a hash of their contents, so
// that every new build is a new worker and an unchanged build is the same one.
//
//   node scripts/service-worker.mjs [DIR]
//
// DIR defaults to $TRUNK_STAGING_DIR (where Trunk assembles the build before it becomes
// dist/). $TRUNK_PROFILE `release` gives a cache-first worker; anything else (`trunk serve`'s
// development builds) a network-first one.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('usage: node scripts/service-worker.mjs DIR (or run as a Trunk hook)');
  process.exit(2);
}
const template = readFileSync(fileURLToPath(new URL('../public/sw.js', import.meta.url)), 'utf8');

/** Every file of the build the page may load, as `/`-separated paths relative to `root`. */
function files(root) {
  return readdirSync(root, { recursive: true })
    .filter((f) => statSync(join(root, f)).isFile())
    .map((f) => f.split(sep).join('/'))
    // The worker is not its own precache; precompressed copies are the host's business.
    .filter((f) => f !== 'sw.js' && !f.endsWith('.gz') && !f.endsWith('.br'))
    .sort();
}

const list = files(dir);
/** What is fetched when first used (docs/size.md): the tools module and the translation files
 * (`zh-CN.json`, scripts/translations.mjs), kept when fetched, not precached. */
const isLazy = (f) => f.startsWith('squillion-tools') || /^[a-z]{2}(-[A-Za-z]+)?\.json$/.test(f);
// The worker's own code is part of the version: a change to it alone is a new build too.
const hash = createHash('sha256').update(template).update('\0');
for (const f of list) {
  hash.update(f).update('\0').update(readFileSync(join(dir, f))).update('\0');
}
const version = hash.digest('hex').slice(0, 16);
const release = process.env.TRUNK_PROFILE === 'release';
const out = template
  .replace("'__VERSION__'", JSON.stringify(version))
  .replace('__FILES__', JSON.stringify(list.filter((f) => !isLazy(f))))
  .replace('__LAZY__', JSON.stringify(list.filter(isLazy)))
  .replace('__NETWORK_FIRST__', String(!release));
writeFileSync(join(dir, 'sw.js'), out);
console.log(`service worker ${version}: ${list.length} files (${list.filter(isLazy).length} kept when first used), ${release ? 'cache' : 'network'} first`);
