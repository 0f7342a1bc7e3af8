// End-to-end: a model's problems in 简体中文 (issue #22, item 3). In a Chinese browser, a bad
// model typed into the JSON tab lists each problem at its JSON path in Chinese (the core's
// code and values rendered in the page's language, the code on the item as data-code); a JSON
// syntax error reads "第 L 行，第 C 列：JSON 语法错误：…" above the text and in the list, with
// serde_json's own detail in English; switching to English re-renders the same problems in
// English; axe passes with the problems shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, useSite } from './browser.mjs';
import { audit } from './axe.mjs';
import { openIn } from './zh-check.mjs';

const site = useSite();

const CJK = /[\u4e00-\u9fff]/;

/** A model with three problems: a negative count, an unknown BSON type, an unknown entity. */
const BAD = JSON.stringify({
  entities: [{ name: 'user', count: -5, fields: { a: { type: 'strin' } } }],
  relationships: [{ name: 'r', parent: 'user', child: 'post', cardinality: { shape: 'fixed', value: 1 } }],
}, null, 2);

/** Opens the playground in a browser whose language is `locale`, at 1280×720. */
async function open(locale) {
  const { context, page, errors } = await openIn(site, locale);
  await page.waitForSelector('.collection');
  // axe reads the page behind the editor too: wait until its evaluation is done, not faded
  // "pending" (which axe would read as low contrast), as e2e/zh-advise.test.mjs does.
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  return { context, page, errors };
}

/** Returns the problem list's items: code, path and the text after it. */
async function problems(page) {
  return page.$$eval('.model-card .doc-status .model-errors li', (lis) =>
    lis.map((li) => ({ code: li.dataset.code, path: li.querySelector('code').textContent, text: li.textContent })));
}

test('a bad model typed in Chinese lists each problem in Chinese at its path', async () => {
  const { context, page, errors } = await open('zh-CN');
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  await page.click('#tab-json');
  await page.fill('#model-input', BAD);
  await page.waitForSelector('.model-errors li[data-code="unknown-entity"]');
  const list = await problems(page);
  assert.deepEqual(list.map((p) => [p.code, p.path]), [
    ['negative', '$.entities[0].count'],
    ['unknown-bson-type', '$.entities[0].fields.a.type'],
    ['unknown-entity', '$.relationships[0].child'],
  ]);
  assert.equal(list[0].text, '$.entities[0].count：不能为负数（实际为 -5）');
  assert.equal(list[2].text, '$.relationships[0].child：未知的实体“post”');
  for (const p of list) assert.match(p.text, CJK, `in Chinese: ${p.text}`);
  assert.match(await page.textContent('.model-card .doc-status .error strong'), CJK);
  // The card is sticky beside the results: a tall window shows it whole, the list under the text.
  await page.setViewportSize({ width: 1280, height: 1400 });
  await page.locator('.model-card').screenshot({ path: `${SHOTS}/zh-problems.png` });
  await page.setViewportSize({ width: 1280, height: 720 });
  const violations = await audit(page);
  assert.deepEqual(violations, [], `axe with problems in zh-CN:\n${violations.join('\n')}`);

  // The header's switch re-renders the same problems in English, word for word the CLI's.
  await page.selectOption('#lang-switch', 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  const english = await problems(page);
  assert.equal(english[2].text, '$.relationships[0].child: unknown entity "post"');
  assert.equal(english[0].text, '$.entities[0].count: must not be negative (found -5)');
  await page.selectOption('#lang-switch', 'zh-CN');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a JSON syntax error in Chinese: its line and column, the Chinese lead, serde_json\'s detail', async () => {
  const { context, page, errors } = await open('zh-CN');
  await page.click('#tab-json');
  await page.fill('#model-input', '{"entities": [\n  {"name": 1,}\n]}');
  const mark = await page.waitForSelector('#json-error');
  const lead = await mark.$eval('span', (s) => s.textContent);
  assert.equal(lead, '第 2 行，第 14 列：JSON 语法错误：trailing comma');
  assert.equal((await mark.$eval('button', (b) => b.textContent)).trim(), '显示第 2 行');
  const list = await problems(page);
  assert.deepEqual(list.map((p) => [p.code, p.path]), [['json-syntax', '第 2 行，第 14 列']]);
  assert.equal(list[0].text, '第 2 行，第 14 列：JSON 语法错误：trailing comma');
  await page.screenshot({ path: `${SHOTS}/zh-problems-syntax.png` });
  const violations = await audit(page);
  assert.deepEqual(violations, [], `axe with a syntax error in zh-CN:\n${violations.join('\n')}`);
  assert.deepEqual(errors, []);
  await context.close();
});
