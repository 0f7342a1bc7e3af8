// End-to-end: the design playground in headless Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useSite, SHOTS, showJson, openPreset } from './browser.mjs';

const site = useSite();

test('number keys switch designs and the collections follow', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  await page.waitForSelector('.collection');
  const buttons = await page.$$eval('.design-button', (bs) => bs.map((b) => b.textContent.trim()));
  assert.ok(buttons.length >= 3, `designs: ${buttons}`);
  const pressed = () => page.$eval('.design-button[aria-pressed="true"]', (b) => b.textContent.trim());
  assert.equal(await pressed(), buttons[0]);
  const collections = async () => page.$$eval('.collection', (cs) => cs.map((c) => c.dataset.collection));
  const first = await collections();
  await page.keyboard.press('3');
  assert.equal(await pressed(), buttons[2]);
  const third = await collections();
  assert.notDeepEqual(third, first, 'the third design lays out other collections');
  await page.screenshot({ path: `${SHOTS}/playground.png`, fullPage: false });
  await page.keyboard.press('1');
  assert.deepEqual(await collections(), first);
  assert.deepEqual(errors, []);
  await page.close();
});

test('leaving the playground mid-evaluation is clean; coming back, a key moves one design', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  // social-graph evaluates its designs for seconds in the background: leave while it does.
  await page.waitForSelector('.collection');
  await openPreset(page, 'social-graph');
  await page.waitForSelector('.design-button');
  await page.keyboard.press('2');
  // The first design's evaluation, timed once: coming back shows it from the cache.
  await page.keyboard.press('1');
  const ms = await page.getAttribute('.eval-state[data-state="done"]', 'data-ms', { timeout: 180_000 });
  await page.keyboard.press('2');
  await page.click('nav >> text=Document size');
  await page.waitForSelector('.gauge');
  // The design keys belong to the playground: here they do nothing, and nothing breaks.
  for (const key of ['1', '2', '3']) await page.keyboard.press(key);
  // Answers of the background evaluations would have arrived by now.
  await page.waitForTimeout(4000);
  assert.deepEqual(errors, [], 'no panic after leaving the playground');
  assert.equal(await page.$('#panic-banner'), null);
  await page.click('nav >> text=Design playground');
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await page.keyboard.press('1');
  assert.equal(await page.getAttribute('.eval-state[data-state="done"]', 'data-ms'), ms, 'the evaluation comes from the cache, not run again');
  const pressed = () => page.$eval('.design-button[aria-pressed="true"]', (b) => b.textContent.trim());
  const buttons = await page.$$eval('.design-button', (bs) => bs.map((b) => b.textContent.trim()));
  await page.keyboard.press('1');
  assert.equal(await pressed(), buttons[0]);
  await page.keyboard.press('3');
  assert.equal(await pressed(), buttons[2], 'one listener: key 3 selects the third design');
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

// Every preset's every design, Custom by its key included, is opened and compared with the CLI
// in e2e/evaluation.test.mjs.
test('a preset opens with its lesson and collections', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  await page.waitForSelector('.collection');
  await openPreset(page, 'social-graph');
  await page.waitForSelector('.lesson');
  assert.ok(await page.$('.collection'), 'social-graph: no collection shown');
  await page.screenshot({ path: `${SHOTS}/playground-preset.png`, fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad model edit lists the problem and keeps the last good numbers', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  await page.waitForSelector('.collection');
  const before = await page.$$eval('.collection', (cs) => cs.length);
  await showJson(page);
  await page.fill('#model-input', '{"entities": [');
  const error = await page.waitForSelector('.model-card .error');
  assert.match(await error.textContent(), /line 1, column \d+/);
  assert.equal(await page.$$eval('.collection', (cs) => cs.length), before);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a share link round-trips the model and keeps the previous work restorable', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  await page.waitForSelector('.collection');
  const shared = (await page.inputValue('#model-input')).replace('"social-feed"', '"shared-feed"');
  await showJson(page);
  await page.fill('#model-input', shared);
  await page.click('text=Share link');
  const url = await page.inputValue('.share-url input');
  // The design and the editor's view beside the model (e2e/states.test.mjs opens them).
  assert.match(url, /#playground&design=normalized&view=json&model=[A-Za-z0-9_-]+$/);

  // A stranger opens it: a fresh browser context with no saved work.
  const { page: other, errors: otherErrors } = await openPage(site.browser, url);
  await other.waitForSelector('.collection');
  assert.equal(await other.inputValue('#model-input'), shared);
  assert.deepEqual(otherErrors, []);
  await other.close();

  // Someone with other work opens it: the link loads, the old work is one click away.
  await showJson(page);
  await page.fill('#model-input', shared.replace('"shared-feed"', '"my-own-work"'));
  await page.goto('about:blank');
  await page.goto(url);
  await page.waitForSelector('.notice');
  assert.equal(await page.inputValue('#model-input'), shared);
  await page.click('text=Restore your previous model');
  assert.match(await page.inputValue('#model-input'), /"my-own-work"/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a damaged link is refused and changes nothing', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground&model=AAAA`);
  const alert = await page.waitForSelector('.model-card .error');
  assert.match(await alert.textContent(), /could not be opened.*unchanged/);
  await page.waitForSelector('.collection');
  assert.deepEqual(errors, []);
  await page.close();
});

test('workshop mode: W toggles large type for a projector at 1280×720', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.collection');
  await page.keyboard.press('w');
  assert.equal(await page.$eval('html', (h) => h.classList.contains('workshop')), true);
  assert.equal(await page.isVisible('#model-input'), false, 'the editor steps aside');
  assert.equal(await page.isVisible('.compare-table'), true);
  await page.screenshot({ path: `${SHOTS}/playground-workshop.png` });
  await page.keyboard.press('w');
  assert.equal(await page.$eval('html', (h) => h.classList.contains('workshop')), false);
  assert.deepEqual(errors, []);
  await page.close();
});
