// End-to-end: the core's own words in 简体中文 (issue #22, items 1 and 3: the advisor's progress
// and its explanation of each choice, the infer summary of a pasted document, an engine error's
// lead in the console). In zh-CN none of them leaves English of Squillion's own (e2e/zh-check.mjs:
// the model's and the data's names, code and mongod's message aside), and axe passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idsShown } from './advise-check.mjs';
import { SHOTS, useSite } from './browser.mjs';
import { audit } from './axe.mjs';
import { runCommand, useExamples } from './console.mjs';
import { english, modelWords, wordsOf, openIn } from './zh-check.mjs';

const site = useSite();

/** Opens the page at `hash` in a Chinese browser, at 1280×720. */
const open = (hash) => openIn(site, 'zh-CN', hash);

/** Asserts no English of the page's own under `root`, and that axe passes on the page. */
async function clean(page, where, allowed, root) {
  const found = await english(page, allowed, root);
  assert.deepEqual(found, [], `English left in ${where}:\n${found.join('\n')}`);
  const violations = await audit(page);
  assert.deepEqual(violations, [], `axe in zh-CN, ${where}:\n${violations.join('\n')}`);
}

test('zh-CN: the advisor tells its steps and explains each choice in Chinese', async () => {
  const { context, page, errors } = await open('#playground');
  await page.waitForSelector('.collection');
  await page.click('#choose-preset');
  await page.click('.preset-card[data-preset="social-graph"]');
  await page.waitForSelector('.chooser', { state: 'detached' });
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await page.click('#open-advise');
  // The steps while it runs: each is the core's, told in the page's language.
  const phases = new Set();
  for (let i = 0; i < 600; i++) {
    const state = await page.getAttribute('#advise', 'data-state');
    const phase = await page.$eval('.advise-phase', (p) => p.textContent.trim()).catch(() => null);
    if (phase) phases.add(phase);
    if (state === 'done') break;
    await page.waitForTimeout(50);
  }
  await page.waitForSelector('#advise[data-state="done"]', { timeout: 180_000 });
  assert.ok(phases.size > 0, 'a step was shown');
  for (const p of phases) assert.match(p, /[\u4e00-\u9fff]/, `a step in Chinese: ${p}`);
  assert.ok([...phases].every((p) => !/screening|running|explaining/i.test(p)), [...phases].join('\n'));
  // Why: one explanation per relationship, in Chinese, no longer marked English.
  const why = await page.$$eval('.advise-explanations li', (ls) => ls.map((l) => [l.getAttribute('lang'), l.textContent]));
  assert.ok(why.length >= 2, 'explanations');
  for (const [lang, text] of why) {
    assert.equal(lang, null, `not marked English: ${text}`);
    assert.match(text, /[\u4e00-\u9fff]/, text);
    assert.doesNotMatch(text, /next best|is infeasible|breaks 16 MiB|No feasible/, text);
  }
  assert.ok(why.some(([, t]) => /^每个 user 保存它所在 followers 的各个 user 文档的 id。/.test(t) && /不可行/.test(t) && /次优选择/.test(t)), why.join('\n'));
  // The designs are in words with the model's names; no strategy id is shown.
  assert.deepEqual(await idsShown(page), []);
  const labels = wordsOf(await page.$$eval('.advise-label', (ls) => ls.map((l) => l.textContent)));
  await page.$eval('.advise-why', (w) => w.scrollIntoView());
  await clean(page, 'the Advise panel', new Set([...modelWords('social-graph'), ...labels]), '#advise');
  await page.screenshot({ path: `${SHOTS}/zh-core-advise.png` });
  // Back in English, the same explanation is the advice's English text.
  await page.selectOption('#lang-switch', 'en');
  await page.waitForFunction(() => document.querySelector('.advise-explanations li')?.textContent.includes('The next best is'));
  await page.selectOption('#lang-switch', 'zh-CN');
  assert.deepEqual(errors, []);
  await context.close();
});

test('zh-CN: the summary of a pasted document says what was found and assumed in Chinese', async () => {
  const { context, page, errors } = await open('#playground');
  await page.waitForSelector('.collection');
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await page.click('#choose-preset');
  await page.click('.preset-card[data-preset="infer"]');
  await page.waitForSelector('.infer-dialog');
  const docs = [
    { _id: 1, name: 'Ann', profile: {}, orders: [{ sku: 'a', qty: 2 }, { sku: 'b', qty: 1 }] },
    { _id: 2, name: 'Bo', profile: {}, orders: [{ sku: 'c', qty: 5 }] },
    { _id: 3, name: 'Cy', profile: {}, status: 'new' },
  ];
  await page.fill('#infer-paste', docs.map((d) => JSON.stringify(d)).join('\n'));
  await page.fill('.infer-collection', 'people');
  await page.click('#infer-run');
  await page.waitForSelector('[data-testid="infer-summary"]', { timeout: 60_000 });
  const items = async (id) => page.$$eval(`[data-testid="${id}"] li`, (ls) => ls.map((l) => l.textContent));
  const sources = await items('infer-sources');
  assert.match(sources[0], /→ people：读取 3 个文档，跳过 0 行/, sources.join('\n'));
  const entities = await items('infer-entities');
  assert.ok(entities.some((e) => /^people：读取 3 个文档，数量 3，/.test(e)), entities.join('\n'));
  const relationships = await items('infer-relationships');
  assert.ok(relationships.some((r) => /（内嵌数组 orders）/.test(r)), relationships.join('\n'));
  const assumed = await items('infer-assumed');
  assert.ok(assumed.some((a) => a === 'people._id：数值型 _id 是唯一的：写成序列，而不是看到的范围'), assumed.join('\n'));
  assert.ok(assumed.some((a) => /^people\.profile：只见到空对象：写成 null/.test(a)), assumed.join('\n'));
  assert.ok(assumed.some((a) => /子文档数组已移出/.test(a)), assumed.join('\n'));
  // The data's own names (people, orders, sku …) and the pasted input's name stay as they are.
  // BSON's type aliases and null are MongoDB's words (tests/suite/catalogues.rs keeps them in Latin).
  const data = wordsOf([docs, 'people', 'pasted', 'order', 'int', 'string', 'null']);
  await clean(page, 'the infer summary', data, '[data-testid="infer-summary"]');
  await page.screenshot({ path: `${SHOTS}/zh-core-infer.png` });
  // Switching the language re-renders the summary: English is the report's words.
  await page.selectOption('#lang-switch', 'en');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="infer-assumed"] li')]
    .some((l) => l.textContent === 'people._id: a numeric _id is unique: written as a sequence, not the range seen'));
  await page.selectOption('#lang-switch', 'zh-CN');
  await page.click('#infer-done');
  assert.deepEqual(errors, []);
  await context.close();
});

test('zh-CN: an engine error in the console is led by its codeName in Chinese, mongosh\'s line as it is', async () => {
  const { context, page, errors } = await open('#console');
  await page.waitForSelector('#console-input');
  await useExamples(page);
  const entry = await runCommand(page, 'db.users.insertOne({ _id: 1 })');
  await runCommand(page, 'db.users.insertOne({ _id: 1 })').then(async (e) => {
    const text = (await e.textContent()).replace(/\s+/g, ' ');
    assert.match(text, /重复键: MongoServerError\[DuplicateKey\]: E11000 duplicate key error/, text);
    assert.equal(await e.$eval('.error strong', (s) => s.textContent), '重复键');
  });
  assert.ok(entry);
  await page.screenshot({ path: `${SHOTS}/zh-core-console.png` });
  const violations = await audit(page);
  assert.deepEqual(violations, [], `axe in zh-CN, the console:\n${violations.join('\n')}`);
  assert.deepEqual(errors, []);
  await context.close();
});
