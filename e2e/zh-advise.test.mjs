// End-to-end: the last English views of the page in 简体中文 (issue #22, item 2). With a Chinese
// browser (navigator.language zh-CN), the Advise panel with its Pareto chart, the "Start from your
// data" (infer) dialog with its summary, and the Custom picker's strategy names show no English
// of the page's own: the same check as e2e/zh.test.mjs (every visible text node, title,
// aria-label and placeholder is Chinese, a number, a unit, a MongoDB or code word, or a name
// from the model), plus the picker's options (which that check skips as form controls). The
// advisor's explanations are the core's English, marked lang="en" (docs/i18n.md, "What remains
// English"). axe passes; screenshots at 1280×720.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { SHOTS, useSite } from './browser.mjs';
import { audit } from './axe.mjs';

const site = useSite();

/** Latin-letter words the Chinese page keeps (as e2e/zh.test.mjs, and the infer dialog's file
 * extensions and its counts example): MongoDB's and the product's names, operators,
 * units, keys, formats (the same words docs/i18n.md's glossary leaves as they are). */
const KEPT = new Set(`
  Squillion MongoDB mongod mongosh mongoexport mongodump mongoimport GridFS BSON EJSON JSON SQL
  CSV NDJSON Extended ObjectId id db find aggregate lookup unwind inc push sort limit match
  COLLSCAN IXSCAN FETCH IDHACK WiredTiger squillion compare advise export docs warnings md
  B KiB MiB GiB TiB KB MB GB s ms p50 p99 k v Ctrl Shift Esc W Z Y zip js README setup workload
  manifest json BSONObjectTooLarge embed copy extended_reference owner sequence control minutes
  hours name dropIndex hideIndex MMAPv1 usePowerOf2Sizes S3 GCS Azure Blob URL Compass fs files
  chunks gridfs parents_per_child K M tbc
  ndjson bson sql users orders
`.split(/\s+/).filter(Boolean));

/** Returns every word of `v` (keys and string values, recursively) added to `words`. */
function wordsOf(v, words = new Set()) {
  if (typeof v === 'string') v.split(/[^A-Za-z0-9_]+/).forEach((w) => w && words.add(w));
  else if (Array.isArray(v)) v.forEach((x) => wordsOf(x, words));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { wordsOf(k, words); wordsOf(x, words); }
  return words;
}

/** The Latin words the Chinese presets keep (quoted names, backticked code, sources: checked by
 * tests/preset_locales.rs), allowed wherever a preset's text shows. */
const PRESET_WORDS = wordsOf(
  readdirSync('locales/zh-CN/presets').map((f) => JSON.parse(readFileSync(`locales/zh-CN/presets/${f}`, 'utf8'))),
);

/** Every word of a preset's model (keys and values outside its `preset` notes, and its
 * source): entity, field, relationship and operation names, shown as they are in every
 * language; and the words its Chinese text keeps. */
function modelWords(name) {
  const model = JSON.parse(readFileSync(`presets/${name}.json`, 'utf8'));
  const source = model.preset?.source;
  delete model.preset;
  return wordsOf([model, source], new Set(PRESET_WORDS));
}

/** Returns the visible text nodes under `root` (a selector) that hold English words the page should have
 * translated: not in code (code, pre, kbd, inputs, selects), not marked as another language
 * (the switch's "English"), and not kept (KEPT, the model's words, code-like words). */
async function english(page, allowed, root) {
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
      if (KEPT.has(word) || allowed.has(word) || word.length < 2) return false;
      // Code: operators, paths, snake_case, camelCase, warning codes, file names.
      if (/[_$.]/.test(word) || /[a-z][A-Z]/.test(word) || /^[A-Z0-9_]+$/.test(word)) return false;
      return true;
    });
  });
}


/** Opens the page in a browser whose language is `locale`, at 1280×720. */
async function open(locale) {
  const context = await site.browser.newContext({ locale, viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${site.server.url}#playground`);
  await page.waitForSelector('.collection');
  return { context, page, errors };
}


/** Asserts there is no English of the page's own in what is shown, and axe passes. */
async function clean(page, where, preset, root) {
  const found = await english(page, modelWords(preset), root);
  assert.deepEqual(found, [], `English left in ${where}:\n${found.join('\n')}`);
  const violations = await audit(page);
  assert.deepEqual(violations, [], `axe in zh-CN, ${where}:\n${violations.join('\n')}`);
}

test('zh-CN: the Advise panel and its chart are in Chinese', async () => {
  const { context, page, errors } = await open('zh-CN');
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await page.click('#open-advise');
  await page.waitForSelector('#advise[data-state="done"]', { timeout: 180_000 });
  assert.equal((await page.textContent('#advise-title')).trim(), '建议：适合这个负载的最佳设计');
  assert.match(await page.textContent('[data-testid="advise-searched"]'), /个可行/);
  assert.match(await page.textContent('.advise-front figcaption'), /帕累托前沿/);
  const point = await page.getAttribute('.front-point', 'aria-label');
  assert.match(point, /次读往返/, point);
  await page.$eval('#advise', (a) => a.scrollIntoView());
  await clean(page, 'the Advise panel', 'social-feed', '#advise');
  await page.screenshot({ path: `${SHOTS}/zh-advise.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test('zh-CN: the "Start from your data" dialog and its summary are in Chinese', async () => {
  const { context, page, errors } = await open('zh-CN');
  // axe reads the page behind the dialog too: wait until its evaluation is done, not faded
  // "pending" (which axe would read as low contrast), as e2e/zh.test.mjs does.
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await page.click('#choose-preset');
  await page.click('.preset-card[data-preset="infer"]');
  await page.waitForSelector('.infer-dialog');
  assert.equal((await page.textContent('#infer-title')).trim(), '从你的数据开始');
  await clean(page, 'the infer dialog', 'social-feed', '.infer-dialog');
  await page.screenshot({ path: `${SHOTS}/zh-infer.png` });
  // Pasted documents: the summary of what was read and assumed (its items are the data's own
  // names and the core's descriptions; the headings and the count are the page's).
  await page.fill('#infer-paste', '{"_id": 1, "name": "Ann", "tags": ["a", "b"]}\n{"_id": 2, "name": "Bo", "tags": []}');
  await page.fill('.infer-collection', 'people');
  await page.click('#infer-run');
  await page.waitForSelector('[data-testid="infer-summary"]', { timeout: 60_000 });
  assert.match(await page.textContent('#infer-summary-title'), /模型已在编辑器中打开/);
  assert.match(await page.textContent('[data-testid="infer-skipped-count"]'), /跳过 0 行/);
  const headings = await page.$$eval('.infer-summary h3', (hs) => hs.map((h) => h.textContent));
  for (const h of headings) assert.match(h, /[\u4e00-\u9fff]/, `heading in Chinese: ${h}`);
  await page.click('#infer-done');
  assert.deepEqual(errors, []);
  await context.close();
});

test('zh-CN: the Custom picker names every strategy in Chinese; the values stay the model names', async () => {
  const { context, page, errors } = await open('zh-CN');
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await page.click('#choose-preset');
  await page.click('.preset-card[data-preset="blog"]');
  await page.waitForSelector('.chooser', { state: 'detached' });
  await page.locator('.design-button').last().click();
  await page.waitForSelector('.strategies select');
  const options = await page.$$eval('.strategy-row select[id^="strategy-"]:not([id$="-parameter"]) option', (os) => os.map((o) => [o.value, o.textContent.trim()]));
  assert.ok(options.length > 4, 'the picker offers strategies');
  const strategies = new Map(await page.$$eval('#strategy-comments option', (os) => os.map((o) => [o.value, o.textContent.trim()])));
  assert.equal(strategies.get('embed'), '内嵌');
  assert.equal(strategies.get('reference_in_child'), '子文档中引用');
  assert.equal(strategies.get('bucket'), '分桶');
  for (const [value, text] of options) {
    assert.match(value, /^[a-z_]+$/, `the value is the model's name: ${value}`);
    assert.match(text, /[\u4e00-\u9fff]/, `option ${value} in Chinese: ${text}`);
  }
  await page.$eval('.strategies', (s) => s.scrollIntoView());
  // axe reads the whole page: wait until blog's Custom evaluation is done, not faded "pending".
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await clean(page, 'the Custom picker', 'blog', '.strategies');
  await page.screenshot({ path: `${SHOTS}/zh-custom.png` });
  assert.deepEqual(errors, []);
  await context.close();
});
