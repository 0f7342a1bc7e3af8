// End-to-end: the page holds any number of designs at any width. product-parts offers 7
// designs (six of the preset and Custom); at 390, 1280 and 1920 px wide, in normal and workshop
// mode, the page never scrolls sideways, the design bar keeps every design inside itself, and
// the comparison table scrolls inside its card (never past it). At 390 px editor and results
// stack, and the editor's field names keep their width.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useSite, SHOTS, openPreset } from './browser.mjs';

const site = useSite();

/** Returns the overflow figures of the page, the design bar and the compare card. */
async function overflow(page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const bar = document.querySelector('.design-bar');
    const barBox = bar.getBoundingClientRect();
    const buttons = [...bar.querySelectorAll('.design-button')].map((b) => {
      const box = b.getBoundingClientRect();
      const label = b.querySelector('.design-label');
      return {
        text: label.textContent,
        title: b.title,
        inside: box.left >= barBox.left - 0.5 && box.right <= barBox.right + 0.5,
        cut: label.scrollWidth > label.clientWidth + 1,
        lines: Math.round(box.height / parseFloat(getComputedStyle(b).lineHeight || '20')),
        height: box.height,
      };
    });
    const card = document.querySelector('.card.compare');
    const scroller = card.querySelector('.table-scroll');
    return {
      page: { scroll: root.scrollWidth, client: root.clientWidth },
      bar: { scroll: bar.scrollWidth, client: bar.clientWidth },
      buttons,
      card: { scroll: card.scrollWidth, client: card.clientWidth, right: card.getBoundingClientRect().right },
      scroller: {
        scroll: scroller.scrollWidth,
        client: scroller.clientWidth,
        overflowX: getComputedStyle(scroller).overflowX,
        tabindex: scroller.getAttribute('tabindex'),
      },
    };
  });
}

/** Opens product-parts at `width`×`height`, in workshop mode when `workshop`; waits for the
 * comparison to be filled in. */
async function productParts(width, height, workshop) {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width, height });
  await page.waitForSelector('.collection');
  await openPreset(page, 'product-parts');
  await page.waitForFunction(() => document.querySelectorAll('.design-button').length === 7);
  await page.waitForFunction(
    () => document.querySelectorAll('.compare-table thead th[data-state="done"]').length === 7,
    null,
    { timeout: 180_000 },
  );
  if (workshop) {
    await page.keyboard.press('w');
    assert.equal(await page.$eval('html', (h) => h.classList.contains('workshop')), true);
  }
  // A resize redraws the charts at the new width: let it settle.
  await page.waitForTimeout(300);
  return { page, errors };
}

for (const [width, height] of [[390, 844], [1280, 720], [1920, 1080]]) {
  for (const workshop of [false, true]) {
    const mode = workshop ? 'workshop' : 'normal';
    test(`product-parts' 7 designs fit at ${width}×${height}, ${mode} mode`, async () => {
      const { page, errors } = await productParts(width, height, workshop);
      const o = await overflow(page);
      assert.ok(o.page.scroll <= o.page.client, `the page scrolls sideways: ${o.page.scroll} > ${o.page.client}`);
      assert.ok(o.bar.scroll <= o.bar.client, `the design bar overflows: ${o.bar.scroll} > ${o.bar.client}`);
      assert.equal(o.buttons.length, 7);
      for (const b of o.buttons) {
        assert.ok(b.inside, `${b.text} sticks out of the design bar`);
        assert.ok(b.title.startsWith(b.text), `${b.text}: the whole name on hover (${b.title})`);
        // On one line: a design's name never wraps to 2 or 3 lines.
        assert.ok(b.height < 60 * (workshop ? 1.5 : 1), `${b.text} is ${b.height} px tall`);
        if (width >= 1280) assert.equal(b.cut, false, `${b.text} is cut at ${width} px`);
      }
      assert.equal(o.buttons.at(-1).text, 'Custom');
      // The card never grows past the page; a table wider than it scrolls inside it.
      assert.ok(o.card.scroll <= o.card.client, `the compare card overflows: ${o.card.scroll} > ${o.card.client}`);
      assert.ok(o.card.right <= width, `the compare card ends at ${o.card.right}`);
      if (o.scroller.scroll > o.scroller.client) {
        assert.equal(o.scroller.overflowX, 'auto');
        assert.equal(o.scroller.tabindex, '0', 'a keyboard user can scroll the table');
      }
      // Beside the editor at 1280 px the table scrolls in its card, its metric column in
      // place; wider, and in workshop mode (the editor aside), the 8 columns fit.
      if (width >= 1280 && (workshop || width >= 1920)) {
        assert.ok(o.scroller.scroll <= o.scroller.client, `at ${width} px the 7 columns fit: ${o.scroller.scroll} > ${o.scroller.client}`);
      }
      if (o.scroller.scroll > o.scroller.client) {
        const sticky = await page.$eval('.compare-table tbody th[scope="row"]', (th) => getComputedStyle(th).position);
        assert.equal(sticky, 'sticky', 'the metric names stay while the figures scroll');
      }
      if (width === 1280) {
        await page.screenshot({ path: `${SHOTS}/layout-product-parts-1280-${mode}.png` });
      }
      if (width === 390) {
        await page.screenshot({ path: `${SHOTS}/layout-product-parts-390-${mode}.png`, fullPage: !workshop });
      }
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
}

test('at 390 px editor and results stack, and field names keep their width', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 390, height: 844 });
  await page.waitForSelector('.collection');
  const boxes = await page.evaluate(() => {
    const box = (s) => document.querySelector(s).getBoundingClientRect();
    return { editor: box('.model-card'), results: box('.results'), designs: box('.design-row') };
  });
  assert.ok(boxes.editor.bottom <= boxes.results.top, 'the results come below the editor');
  assert.ok(boxes.editor.width >= 340 && boxes.results.width >= 340, `stacked full width: ${boxes.editor.width}, ${boxes.results.width}`);
  // Every field name's input shows at least 12 characters of its monospace text.
  const names = await page.$$eval('.model-form .field-table .name-input', (inputs) => inputs.map((i) => {
    const em = parseFloat(getComputedStyle(i).fontSize);
    return { value: i.value, chars: i.clientWidth / (0.6 * em) };
  }));
  assert.ok(names.length > 3, `field names: ${names.length}`);
  for (const n of names) assert.ok(n.chars >= 12, `${n.value}: room for ${n.chars.toFixed(1)} characters`);
  const root = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert.ok(root[0] <= root[1], `the page scrolls sideways: ${root}`);
  await page.locator('.model-form .field-table').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/layout-390-editor.png` });
  // The other views hold 390 px too.
  for (const view of ['Document size', 'Console']) {
    await page.click(`nav >> text=${view}`);
    await page.waitForTimeout(300);
    const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    assert.ok(scroll <= client, `${view}: the page scrolls sideways: ${scroll} > ${client}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('another preset at 1280×720, normal and workshop mode (screenshots)', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.collection');
  await openPreset(page, 'social-graph');
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await page.screenshot({ path: `${SHOTS}/layout-social-graph-1280-normal.png` });
  await page.keyboard.press('w');
  await page.waitForTimeout(300);
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert.ok(scroll <= client, `the page scrolls sideways: ${scroll} > ${client}`);
  await page.screenshot({ path: `${SHOTS}/layout-social-graph-1280-workshop.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
