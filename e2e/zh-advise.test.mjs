// End-to-end: the last English views of the page in 简体中文 (issue #22, item 2). With a Chinese
// browser (navigator.language zh-CN), the Advise panel with its Pareto chart, the "Start from your
// data" (infer) dialog with its summary, and the Custom picker's strategy names show no English
// of the page's own: the same check as e2e/zh.test.mjs (every visible text node, title,
// aria-label and placeholder is Chinese, a number, a unit, a MongoDB or code word, or a name
// from the model), plus the picker's options (which that check skips as form controls). The
// advisor's steps and explanations and the summary's items, the core's words, are checked by
// e2e/zh-core.test.mjs. axe passes; screenshots at 1280×720.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, useSite } from './browser.mjs';
import { audit } from './axe.mjs';
import { english, INFER_KEPT, modelWords, openIn } from './zh-check.mjs';
import { idsShown } from './advise-check.mjs';

const site = useSite();

/** Opens the page in a browser whose language is `locale`, at 1280×720. */
async function open(locale) {
  const { context, page, errors } = await openIn(site, locale);
  await page.waitForSelector('.collection');
  return { context, page, errors };
}


/** Asserts there is no English of the page's own in what is shown, and axe passes. */
async function clean(page, where, preset, root) {
  const found = await english(page, modelWords(preset), root, INFER_KEPT);
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
  // The designs in words, the model's names in them; why it scores worse than the yardstick.
  assert.match(await page.textContent('[data-testid="advise-recommended"]'), /推荐：把每条 activity 复制到它要送达的每个 user 的信息流中/);
  assert.match(await page.textContent('[data-testid="advise-yardstick"]'), /因为范式化设计不可行/);
  assert.deepEqual(await idsShown(page), []);
  await page.$eval('#advise', (a) => a.scrollIntoView());
  await clean(page, 'the Advise panel', 'social-feed', '#advise');
  await page.screenshot({ path: `${SHOTS}/zh-advise.png` });
  for (const [width, height] of [[1280, 720], [1440, 900], [1920, 1080]]) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(200);
    await page.$eval('#advise', (a) => a.scrollIntoView());
    await page.screenshot({ path: `${SHOTS}/zh-advise-${width}.png` });
  }
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
