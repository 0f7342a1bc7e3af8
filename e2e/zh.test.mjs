// End-to-end: the page in 简体中文 (issue #22). Opened with a Chinese browser (navigator.language
// zh-CN) and through the header's switch, the views a presenter uses (the preset chooser, a
// preset's lesson, the design bar, the compare table, the warnings, the charts, the editor)
// show no English of the page's own: every visible text node is Chinese, a number, a unit, a
// MongoDB or code word, or a name from the model itself (entities, fields, operations). axe
// passes in Chinese; screenshots at 1280×720 and in workshop mode show the CJK font; the switch
// back to English restores English and the choice survives a reload; a share link carries
// the model, not the language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { everyDesignEvaluated as settled, SHOTS, useSite } from './browser.mjs';
import { audit } from './axe.mjs';
import { english, modelWords, openIn } from './zh-check.mjs';

const site = useSite();

/** Opens the page in a browser whose language is `locale`, at 1280×720. */
async function open(locale) {
  const { context, page, errors } = await openIn(site, locale);
  await page.waitForSelector('.collection');
  return { context, page, errors };
}

test('a Chinese browser gets the page in Chinese: no English of the page in the presenter views', async () => {
  const { context, page, errors } = await open('zh-CN');
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  assert.equal(await page.$eval('#lang-switch', (s) => s.value), 'zh-CN');
  assert.equal((await page.textContent('nav.tabs a[href="#playground"]')).trim(), '设计演练场');

  const found = [];
  const look = async (where, preset) => {
    for (const t of await english(page, modelWords(preset))) found.push(`${where}: ${t}`);
  };

  // The preset chooser.
  await page.click('#choose-preset');
  await page.waitForSelector('.chooser');
  await look('preset chooser', 'social-feed');
  await page.screenshot({ path: `${SHOTS}/zh-chooser.png` });
  await page.click('.preset-card[data-preset="social-graph"]');
  await page.waitForSelector('.chooser', { state: 'detached' });
  await settled(page);

  // The lesson, open; the design bar; the results with the compare table, warnings, charts.
  await page.click('details.lesson > summary');
  const lesson = await page.textContent('details.lesson');
  assert.match(lesson, /[\u4e00-\u9fff]/, 'the lesson is in Chinese');
  await look('social-graph, first design', 'social-graph');
  await page.screenshot({ path: `${SHOTS}/zh-1280x720.png` });
  await page.click('.design-button:nth-of-type(2)');
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 240_000 });
  await look('social-graph, second design', 'social-graph');
  await page.screenshot({ path: `${SHOTS}/zh-results.png`, fullPage: true });
  await page.locator('.design-charts').screenshot({ path: `${SHOTS}/zh-charts.png` });
  await page.locator('.warnings').first().screenshot({ path: `${SHOTS}/zh-warnings.png` });

  // The warnings come in Chinese: the core's message ids rendered in the page's language.
  const warnings = await page.$$eval('.warning p', (ps) => ps.map((p) => p.textContent));
  assert.ok(warnings.length > 0, 'social-graph has warnings');
  for (const w of warnings) assert.match(w, /[\u4e00-\u9fff]/, `warning in Chinese: ${w}`);

  // The editor's JSON tab and the form's first fields.
  await page.click('#tab-json');
  await look('JSON tab', 'social-graph');
  await page.click('#tab-form');

  // Workshop mode: the lesson and the results for a projector.
  await page.keyboard.press('w');
  await page.waitForSelector('html.workshop');
  await page.evaluate(() => window.scrollTo(0, 0));
  await look('workshop mode', 'social-graph');
  await page.screenshot({ path: `${SHOTS}/zh-workshop.png` });
  await page.keyboard.press('w');

  // A CJK font renders the Chinese (not boxes): the tab's text is as wide as real glyphs.
  const width = await page.$eval('nav.tabs a[href="#playground"]', (a) => a.getBoundingClientRect().width);
  assert.ok(width > 40, `the CJK label has width ${width}`);

  assert.deepEqual(found, [], `English left in the Chinese page:\n${found.join('\n')}`);
  const violations = await audit(page);
  assert.deepEqual(violations, [], `axe in zh-CN:\n${violations.join('\n')}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the switch changes the language both ways, is remembered, and stays out of share links', async () => {
  const { context, page, errors } = await open('en-US');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.equal((await page.textContent('nav.tabs a[href="#playground"]')).trim(), 'Design playground');
  const english = await page.textContent('.compare h2');

  await page.selectOption('#lang-switch', 'zh-CN');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.equal((await page.textContent('.compare h2')).trim(), '比较设计');
  assert.equal((await page.textContent('.workshop-toggle')).trim(), '讲习模式');

  // Remembered across a reload, whatever the browser says.
  await page.reload();
  await page.waitForSelector('.collection');
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  assert.equal((await page.textContent('.compare h2')).trim(), '比较设计');

  // A share link holds the model (and design and view), never the language.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.click('.toolbar button:has-text("分享链接")');
  const link = await page.inputValue('.share-url input');
  assert.ok(!/[?&#]lang=|zh-CN|zh_CN/.test(decodeURIComponent(link)), `no language in ${link}`);

  // Back to English: the same words as before the switch.
  await page.selectOption('#lang-switch', 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.equal(await page.textContent('.compare h2'), english);
  assert.equal((await page.textContent('nav.tabs a[href="#playground"]')).trim(), 'Design playground');
  // Audited once evaluated, as e2e/a11y.test.mjs does: the stand-in figures are faded.
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 240_000 });
  const violations = await audit(page);
  assert.deepEqual(violations, [], `axe in English after the switch:\n${violations.join('\n')}`);
  assert.deepEqual(errors, []);
  await context.close();
});
