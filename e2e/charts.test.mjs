// End-to-end: the Compare designs charts draw every offered design from the engine's evaluations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useSite, SHOTS } from './browser.mjs';

const site = useSite();

test('cost and storage charts have one bar per design and operation, numbers in labels', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.chart[data-chart="cost"] rect.bar', { state: 'attached' });
  // Every design evaluated: nothing pending any more.
  await page.waitForTimeout(8000);
  const designs = await page.$$eval('.chart-legend li', (ls) => ls.length);
  assert.ok(designs >= 2, `designs: ${designs}`);
  const charts = await page.$$('.chart[data-chart="cost"]');
  assert.equal(charts.length, 3);
  for (const chart of charts) {
    const bars = await chart.$$eval('rect.bar:not(.pending)', (rs) => rs.map((r) => ({ op: r.dataset.op, v: Number(r.dataset.value), title: r.querySelector('title').textContent })));
    const ops = new Set(bars.map((b) => b.op));
    const pending = await chart.$$eval('rect.bar.pending', (rs) => rs.length);
    assert.equal(bars.length + pending, ops.size * designs);
    for (const b of bars) {
      assert.ok(Number.isFinite(b.v) && b.v >= 0, JSON.stringify(b));
      assert.match(b.title, new RegExp(`${b.op}: `));
    }
    assert.equal(await chart.$eval('svg', (s) => s.getAttribute('role')), 'img');
    assert.ok(await chart.$eval('table.visually-hidden', (t) => t.rows.length) === ops.size + 1);
  }
  // Storage: one data and one index segment per collection per design.
  const segs = await page.$$eval('.chart[data-chart="storage"] rect.seg', (rs) => rs.map((r) => r.dataset));
  const designsWithSegs = new Set(segs.map((s) => s.design));
  assert.ok(designsWithSegs.size >= 1);
  assert.equal(segs.filter((s) => s.kind === 'data').length, segs.filter((s) => s.kind === 'index').length);
  const card = await page.$('.compare-charts');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/charts-light.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${SHOTS}/charts-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.evaluate(() => document.documentElement.classList.add('workshop'));
  await (await page.$('.compare-charts')).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/charts-workshop.png` });
  assert.deepEqual(errors, []);
});
