// The check the 简体中文 end-to-end tests share (e2e/zh*.test.mjs): which visible text of the
// page is English the page should have translated. What stays Latin: MongoDB's and the
// product's names, operators, units, keys, formats (KEPT: the words docs/i18n.md's glossary
// leaves as they are), code-like words, and the model's own names (modelWords).
import { readFileSync, readdirSync } from 'node:fs';

/** Latin-letter words the Chinese page keeps; the last line is BSON's type names as MongoDB
 * spells them (`$type` aliases), which the bytes-per-field tables show. */
export const KEPT = new Set(`
  Squillion MongoDB mongod mongosh mongoexport mongodump mongoimport GridFS BSON EJSON JSON SQL
  CSV NDJSON Extended ObjectId id db find aggregate lookup unwind inc push sort limit match
  COLLSCAN IXSCAN FETCH IDHACK WiredTiger snappy zstd squillion compare advise export diagram migrate docs warnings md
  B KiB MiB GiB TiB KB MB GB s ms p50 p99 k v Ctrl Shift Esc W Z Y zip js README setup workload
  manifest json BSONObjectTooLarge embed copy extended_reference owner sequence control minutes
  hours name dropIndex hideIndex MMAPv1 usePowerOf2Sizes S3 GCS Azure Blob URL Compass fs files
  chunks gridfs parents_per_child K M tbc
  string object array bool date null int long double decimal binData objectId
`.split(/\s+/).filter(Boolean));

/** KEPT with the infer dialog's file extensions, mongodump's flags (--archive, --gzip), its
 * counts example and the profiler's collection (system.profile). */
export const INFER_KEPT = new Set([...KEPT, 'ndjson', 'bson', 'sql', 'users', 'orders', 'archive', 'gzip', 'gz', 'system', 'profile']);

/** Returns every word of `v` (keys and string values, recursively) added to `words`. */
export function wordsOf(v, words = new Set()) {
  if (typeof v === 'string') v.split(/[^A-Za-z0-9_]+/).forEach((w) => w && words.add(w));
  else if (Array.isArray(v)) v.forEach((x) => wordsOf(x, words));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { wordsOf(k, words); wordsOf(x, words); }
  return words;
}

/** The Latin words the Chinese presets keep (quoted names, backticked code, sources: checked by
 * tests/suite/preset_locales.rs), allowed wherever a preset's text shows. */
export const PRESET_WORDS = wordsOf(
  readdirSync('locales/zh-CN/presets').map((f) => JSON.parse(readFileSync(`locales/zh-CN/presets/${f}`, 'utf8'))),
);

/** Every word of a preset's model (keys and values outside its `preset` notes, and its
 * source): entity, field, relationship and operation names, shown as they are in every
 * language; and the words its Chinese text keeps. */
export function modelWords(name) {
  const model = JSON.parse(readFileSync(`presets/${name}.json`, 'utf8'));
  const source = model.preset?.source;
  delete model.preset;
  return wordsOf([model, source], new Set(PRESET_WORDS));
}

/** Returns the visible text nodes under `root` (a selector; the whole page by default) that
 * hold English words the page should have translated: not in code (code, pre, kbd, inputs,
 * selects), not marked as another language (the switch's "English"), and not kept (`kept`, the
 * `allowed` words, code-like words). */
export async function english(page, allowed, root = 'body', kept = KEPT) {
  const texts = await page.evaluate((root) => {
    const out = [];
    // Skipped: code; text marked hidden; and two kinds of the core's own English the page shows
    // as it comes (docs/i18n.md, "What remains English"): the engine's note under each mongosh
    // command (hidden in workshop mode) and the evaluation's step while it runs.
    const skip = 'code, pre, kbd, samp, textarea, input, select, option, script, style, [aria-hidden="true"], '
      + '.visually-hidden, .command .note, .eval-state[data-state="running"]';
    const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = n.textContent.trim();
      if (!el || !text || el.closest(skip)) continue;
      const marked = el.closest('[lang]');
      if (marked && !marked.getAttribute('lang').startsWith('zh')) continue;
      if (el.closest('details:not([open])') && !el.closest('summary')) continue;
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      out.push(text);
    }
    // Tooltips, names and placeholders a user meets too.
    for (const el of document.querySelector(root).querySelectorAll('[title], [aria-label], [placeholder]')) {
      if (!el.checkVisibility()) continue;
      for (const a of ['title', 'aria-label', 'placeholder']) {
        const v = el.getAttribute(a);
        if (v) out.push(`${a}: ${v}`);
      }
    }
    return out;
  }, root);
  return texts.filter((t) => {
    const body = t.replace(/^(title|aria-label|placeholder): /, '');
    const words = body.match(/[A-Za-z][A-Za-z0-9_$.]*/g) ?? [];
    return words.some((w) => {
      const word = w.replace(/\.$/, '');
      if (kept.has(word) || allowed.has(word) || word.length < 2) return false;
      // Code: operators, paths, snake_case, camelCase, warning codes, file names; and a word with
      // a digit, which no English word has: the tail of an ObjectId's hex (`66d21b96…` reads as
      // the word `d21b96…`), an index name.
      if (/[_$.]/.test(word) || /[a-z][A-Z]/.test(word) || /^[A-Z0-9_]+$/.test(word)) return false;
      if (/[0-9]/.test(word)) return false;
      return true;
    });
  });
}

/**
 * Opens `hash` of the site in a browser context whose language is `locale` (1280×720), with
 * the page's errors and console errors collected: how every zh test starts. The caller waits
 * for what its view needs.
 */
export async function openIn(site, locale, hash = '#playground') {
  const context = await site.browser.newContext({ locale, viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${site.server.url}${hash}`);
  return { context, page, errors };
}
