// End-to-end: the console and the document-size view in 简体中文 (issue #22, item 2). Opened
// with a Chinese browser, both views show no English of the page's own (the same check as
// e2e/zh.test.mjs: every visible text node, tooltip, aria-label and placeholder is Chinese, a
// number, a unit, a MongoDB or code word, or a name from the data shown), axe passes, and
// screenshots at 1280×720 show them. The core's own English (a parser's error message, the
// engine's statistics line) is out of scope (docs/i18n.md, "What remains English").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, useSite } from './browser.mjs';
import { audit } from './axe.mjs';
import { runCommand, useExamples } from './console.mjs';
import { english as englishIn, openIn } from './zh-check.mjs';

const site = useSite();

/** Latin-letter words the Chinese page keeps (as e2e/zh.test.mjs's KEPT), plus the BSON type
 * names the breakdown table shows as MongoDB spells them (`$type` aliases). */
const KEPT = new Set(`
  Squillion MongoDB mongod mongosh BSON EJSON JSON Extended ObjectId ISODate NumberLong id db find
  aggregate sort limit COLLSCAN IXSCAN FETCH B KiB MiB GiB KB MB Enter Shift NUL test canonical
  relaxed string object array bool date null int long double decimal binData objectId
`.split(/\s+/).filter(Boolean));

/** Returns every Latin word of `text`. */
const wordsOf = (text) => text.match(/[A-Za-z][A-Za-z0-9_]*/g) ?? [];

/** Returns the visible text that holds an English word the page should have translated (the
 * shared check, e2e/zh-check.mjs, with this view's KEPT words). */
const english = (page, allowed) => englishIn(page, allowed, 'body', KEPT);

/** Opens `hash` in a browser whose language is zh-CN, at 1280×720. */
const open = (hash) => openIn(site, 'zh-CN', hash);

test('the console in Chinese: no English of the page, axe passes', async () => {
  const { context, page, errors } = await open('#console');
  await page.waitForSelector('#console-input');
  await useExamples(page);
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  assert.equal((await page.textContent('.console-side h2')).trim(), '集合');
  // The data's own words: collection names, index names and keys, the example commands.
  const allowed = new Set(await page.evaluate(() => [
    ...[...document.querySelectorAll('[data-collection]')].map((e) => e.dataset.collection),
    ...[...document.querySelectorAll('.coll-indexes li, .chip')].map((e) => e.title),
  ].join(' ')).then((s) => wordsOf(s)));
  for (const name of ['Grace', 'Alice']) allowed.add(name);

  const before = await english(page, allowed);
  assert.deepEqual(before, [], `English in the empty console:\n${before.join('\n')}`);
  // A command that returns documents, one that pages ("show more"), and an example chip.
  const entry = await runCommand(page, 'db.users.find({ followers: { $size: 3 } })');
  assert.match(await entry.$eval('[data-testid=count]', (e) => e.textContent), /^\d+ 个文档$/);
  const all = await runCommand(page, 'db.orders.find()');
  const more = await all.$('button.more');
  if (more) assert.match(await more.textContent(), /^显示更多（已显示 \d+ \/ [\d,]+）$/);
  await page.click('.console-examples .chip:nth-of-type(1)');
  await page.waitForFunction(() => document.querySelectorAll('.entry').length === 3);
  const after = await english(page, allowed);
  assert.deepEqual(after, [], `English in the console:\n${after.join('\n')}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/zh-console.png` });
  const violations = await audit(page);
  assert.deepEqual(violations, [], `axe in the Chinese console:\n${violations.join('\n')}`);

  // A command the console cannot read: its position label is Chinese (the message is the parser's).
  const bad = await runCommand(page, 'db.users.find({');
  assert.match(await bad.$eval('.error strong', (e) => e.textContent), /^第 \d+ 行，第 \d+ 列$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the document-size view in Chinese: no English of the page, axe passes', async () => {
  const { context, page, errors } = await open('#documents');
  await page.waitForSelector('[data-testid=size-bytes]');
  assert.equal((await page.textContent('.editor-card h2')).trim(), '文档');
  // The picker's examples are in Chinese too (options are skipped by the text check).
  const options = await page.$$eval('.picker option', (os) => os.map((o) => o.textContent));
  assert.ok(options.length > 0 && options.every((o) => /[\u4e00-\u9fff]/.test(o)), options.join(' | '));

  for (const example of await page.$$eval('.picker option', (os) => os.map((o) => o.value))) {
    await page.selectOption('.picker select', example);
    // The document's own field names show in the treemap and the table.
    const allowed = new Set(wordsOf(await page.inputValue('#doc-input')));
    const found = await english(page, allowed);
    assert.deepEqual(found, [], `English in the document-size view (${example}):\n${found.join('\n')}`);
  }
  await page.selectOption('.picker select', { index: 0 });
  assert.match(await page.textContent('.result-card .badge'), /[\u4e00-\u9fff]/);
  await page.screenshot({ path: `${SHOTS}/zh-documents.png` });
  const violations = await audit(page);
  assert.deepEqual(violations, [], `axe in the Chinese document-size view:\n${violations.join('\n')}`);

  // An unreadable edit: the position and the "last valid document" note are Chinese.
  await page.fill('#doc-input', '{ a: 1,, }');
  const error = await page.waitForSelector('.doc-status .error');
  assert.match(await error.textContent(), /^第 \d+ 行，第 \d+ 列: .* — 显示的是上一个有效的文档$/);
  assert.deepEqual(errors, []);
  await context.close();
});
