// End-to-end: workshop mode for a projector at 1280×720 (the preset's title and lesson in view,
// code and JSON at 18 px or more, charts across the card with 16 px labels or more, the keys a
// presenter uses), and the keyboard path to the results: skip links first, a few Tab presses
// from the top to the design bar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useSite, SHOTS, openPreset } from './browser.mjs';

const site = useSite();

/** Opens product-parts at 1280×720 with its designs evaluated. */
async function productParts() {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.collection');
  await openPreset(page, 'product-parts');
  await page.waitForFunction(
    () => document.querySelectorAll('.compare-table thead th[data-state="done"]').length === 7,
    null,
    { timeout: 180_000 },
  );
  return { page, errors };
}

/** Returns the rendered font size (px on screen) of every element `selector` matches: the
 * computed size, times the SVG's scale for SVG text. */
async function sizes(page, selector) {
  return page.$$eval(selector, (els) => els.filter((e) => e.getClientRects().length > 0).map((e) => {
    const px = parseFloat(getComputedStyle(e).fontSize);
    const svg = e.ownerSVGElement;
    const scale = svg ? svg.getScreenCTM().a : 1;
    return px * scale;
  }));
}

const pressed = (page) => page.$eval('.design-button[aria-pressed="true"]', (b) => b.dataset.design);

test('workshop mode: the lesson in view, code ≥ 18 px, charts across with labels ≥ 16 px', async () => {
  const { page, errors } = await productParts();
  const title = await page.$eval('[data-testid="loaded-preset"] strong', (s) => s.textContent);
  await page.keyboard.press('w');
  assert.equal(await page.$eval('html', (h) => h.classList.contains('workshop')), true);
  await page.waitForTimeout(300);
  await page.evaluate(() => window.scrollTo(0, 0));

  // The title and the lesson, whole, in the first screen.
  const lesson = page.locator('[data-testid="workshop-lesson"]');
  const box = await lesson.boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 720, `the lesson is in view: ${JSON.stringify(box)}`);
  assert.equal(await lesson.locator('h2').textContent(), title);
  assert.match(await lesson.locator('p').textContent(), /\w{3,}/);
  assert.ok(Math.min(...await sizes(page, '[data-testid="workshop-lesson"] p')) >= 18);
  // The design bar in the first screen too.
  const bar = await page.locator('.design-bar').boundingBox();
  assert.ok(bar.y + bar.height <= 720, `the designs are in view: ${JSON.stringify(bar)}`);
  await page.screenshot({ path: `${SHOTS}/workshop-product-parts-1280.png` });

  // Code and JSON: the operations' mongosh, the sample document.
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  for (const selector of ['.command pre.code', 'pre.sample-doc']) {
    const px = await sizes(page, selector);
    assert.ok(px.length > 0, `${selector} is shown`);
    assert.ok(Math.min(...px) >= 18, `${selector}: ${px}`);
  }
  // Metric labels and figures.
  assert.ok(Math.min(...await sizes(page, '.metric-cell dt')) >= 17);
  assert.ok(Math.min(...await sizes(page, '.metric-cell dd')) >= 18);

  // The charts: across their card, tick and bar labels of 16 px or more.
  const across = async (selector) => page.$$eval(selector, (svgs) => svgs.map((svg) => {
    const host = svg.parentElement.closest('.card');
    const style = getComputedStyle(host);
    const inner = host.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return svg.getBoundingClientRect().width / inner;
  }));
  const bars = await across('.design-charts svg.bars');
  assert.equal(bars.length, 2, 'the cost and storage charts');
  for (const share of bars) assert.ok(share >= 0.95, `a chart takes ${(share * 100).toFixed(0)}% of its card`);
  for (const selector of ['.design-charts .tick', '.design-charts svg text']) {
    const px = await sizes(page, selector);
    assert.ok(px.length > 0, `${selector} is drawn`);
    assert.ok(Math.min(...px) >= 16, `${selector}: ${Math.min(...px)} px`);
  }
  await page.locator('.design-charts').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/workshop-product-parts-charts.png` });

  // The break chart of a growing array (social-feed's first design): across its card too.
  await page.keyboard.press('w');
  await openPreset(page, 'social-feed');
  await page.keyboard.press('1');
  await page.keyboard.press('w');
  await page.waitForSelector('.growth');
  const growth = await across('.growth');
  assert.ok(growth.length > 0 && Math.min(...growth) >= 0.95, `the break chart takes ${growth} of its card`);
  const ticks = await sizes(page, '.growth .tick');
  assert.ok(ticks.length > 0 && Math.min(...ticks) >= 16, `break chart labels: ${Math.min(...ticks)} px`);
  await page.locator('.growth').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/workshop-social-feed-growth.png` });

  // The console: commands, documents and the input at 18 px or more.
  await page.click('nav >> text=Console');
  await page.check('input[name="console-source"][value="examples"]');
  await page.fill('#console-input', 'db.users.find({}).limit(2)');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.entry .docs');
  for (const selector of ['#console-input', '.entry pre', '.coll-indexes code']) {
    const px = await sizes(page, selector);
    assert.ok(px.length > 0 && Math.min(...px) >= 18, `${selector}: ${px}`);
  }
  await page.screenshot({ path: `${SHOTS}/workshop-console.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('keys 1–9, Left/Right and W drive the designs, never while typing', async () => {
  const { page, errors } = await productParts();
  const ids = await page.$$eval('.design-button', (bs) => bs.map((b) => b.dataset.design));
  assert.equal(ids.length, 7);
  await page.keyboard.press('w');
  assert.equal(await page.$eval('html', (h) => h.classList.contains('workshop')), true);
  for (const i of [3, 7, 1]) {
    await page.keyboard.press(String(i));
    assert.equal(await pressed(page), ids[i - 1], `key ${i}`);
  }
  // 8 and 9: no such design, nothing moves.
  await page.keyboard.press('9');
  assert.equal(await pressed(page), ids[0]);
  await page.keyboard.press('ArrowRight');
  assert.equal(await pressed(page), ids[1]);
  await page.keyboard.press('ArrowRight');
  assert.equal(await pressed(page), ids[2]);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await pressed(page), ids[1]);
  await page.keyboard.press('1');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await pressed(page), ids[0], 'the first design has none before it');
  // On the design bar, the focus follows the design the arrows choose.
  await page.focus('.design-button[aria-pressed="true"]');
  await page.keyboard.press('ArrowRight');
  assert.equal(await pressed(page), ids[1]);
  await page.waitForFunction((id) => document.activeElement?.dataset?.design === id, ids[1], { timeout: 5000 });

  // Typing in an input: keys are text, not shortcuts.
  await page.keyboard.press('w');
  assert.equal(await page.$eval('html', (h) => h.classList.contains('workshop')), false);
  const scale = await page.inputValue('.scale-input');
  await page.click('.scale-input');
  for (const key of ['3', 'ArrowRight', 'ArrowLeft', 'w']) await page.keyboard.press(key);
  assert.equal(await pressed(page), ids[1], 'no design change while typing');
  assert.equal(await page.$eval('html', (h) => h.classList.contains('workshop')), false, 'no workshop mode while typing');
  await page.fill('.scale-input', scale);
  // The caret moves in the JSON text; the design stays.
  await page.click('#tab-json');
  await page.click('#model-input');
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowLeft']) await page.keyboard.press(key);
  assert.equal(await pressed(page), ids[1]);
  // The editor's tabs use the arrows themselves.
  await page.focus('#tab-json');
  await page.keyboard.press('ArrowLeft');
  // The page moves the focus on the next animation frame: wait for it, a
  // wrong tab still fails after the timeout.
  await page.waitForFunction(() => document.activeElement?.id === 'tab-form', null, { timeout: 5000 });
  assert.equal(await pressed(page), ids[1], 'arrows on the tab list switch tabs, not designs');
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('5');
  assert.equal(await pressed(page), ids[4]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('skip links come first and focus the results and the design bar; the designs are a few Tabs away', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.collection');
  const hashBefore = await page.evaluate(() => location.hash);

  await page.keyboard.press('Tab');
  const first = await page.evaluate(() => ({ text: document.activeElement.textContent, top: document.activeElement.getBoundingClientRect().top }));
  assert.equal(first.text, 'Skip to results');
  assert.ok(first.top >= 0, 'visible when focused');
  assert.ok(await page.locator('.skip-link', { hasText: 'Skip to results' }).isVisible());
  await page.screenshot({ path: `${SHOTS}/skip-link.png`, clip: { x: 0, y: 0, width: 640, height: 120 } });
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'results');
  assert.equal(await page.evaluate(() => location.hash), hashBefore, 'the URL stays as it was');

  await page.reload();
  await page.waitForSelector('.collection');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to designs');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.closest('.design-bar') !== null), true);
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-pressed')), 'true');

  // Without the skip links: the first design is a few Tab presses from the top of the page.
  await page.reload();
  await page.waitForSelector('.collection');
  let presses = 0;
  while (presses < 40) {
    await page.keyboard.press('Tab');
    presses += 1;
    if (await page.evaluate(() => document.activeElement.closest('.design-bar') !== null)) break;
  }
  assert.ok(presses <= 8, `${presses} Tab presses to the design bar`);
  // Then the editor, then the results.
  const order = [];
  for (let i = 0; i < 300 && order.at(-1) !== 'results'; i++) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate(() => {
      const e = document.activeElement;
      return e.closest('.model-card') ? 'editor' : e.closest('.results') ? 'results' : e.closest('.design-row') ? 'designs' : 'other';
    });
    if (order.at(-1) !== where) order.push(where);
  }
  assert.deepEqual(order.slice(0, 3), ['designs', 'editor', 'results'], `tab order: ${order}`);
  assert.deepEqual(errors, []);
  await page.close();
});
