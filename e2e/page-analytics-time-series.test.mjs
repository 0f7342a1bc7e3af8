// End-to-end: page-analytics offers its native time-series design on the design bar beside the
// 6-hour counter documents; chosen there, the page shows the figures of the release CLI's
// `squillion eval --preset page-analytics --design time-series --json` (asked of the CLI during
// the test), the bucket collection `system.buckets.hit` among them, and the comparison table
// gains its column. Screenshots at 1280×720 in target/screenshots (page-analytics-time-series.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useSite, SHOTS, openPreset } from './browser.mjs';
import { cliJson } from './cli.mjs';
import { assertSame, cliShown, shownEval } from './figures.mjs';

const site = useSite();

/** What the page shows of the evaluation of `design`, once done. */
async function shown(page, design) {
  await page.waitForSelector(`.eval-operations[data-state="done"][data-design="${design}"]`, { timeout: 300_000 });
  return shownEval(page);
}

test('page-analytics: the time-series design on the design bar shows the CLI\'s figures', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 300_000 });
  await openPreset(page, 'page-analytics');
  await page.waitForSelector('.lesson');
  const labels = await page.$$eval('.design-button', (bs) => bs.map((b) => b.dataset.design));
  assert.deepEqual(labels, ['preallocated', 'on-demand', 'time-series', 'custom']);
  const button = page.locator('.design-button[data-design="time-series"]');
  assert.ok((await button.textContent()).includes('Time-series collection'));
  await button.click();
  const ts = await shown(page, 'time-series');
  const cli = cliShown(cliJson(['eval', '--preset', 'page-analytics', '--design', 'time-series', '--json']));
  assertSame(ts, cli, 'page-analytics / time-series');
  // The lesson's figures, as the page shows them: the buckets, 1 round trip a hit and a chart,
  // the chart's 7 buckets of the page's 6 hours.
  const buckets = ts.collections.find((c) => c.name === 'system.buckets.hit');
  assert.equal(buckets?.documents, 876_000_000);
  // On disk (the CLI's figure, compared above): the buckets' columns compressed, then zstd,
  // well under the buckets' own bytes.
  const disk = await page.$eval('.collection[data-collection="system.buckets.hit"] [data-metric="disk_bytes"]', (d) => ({ compressor: d.dataset.compressor, text: d.textContent }));
  assert.equal(disk.compressor, 'zstd');
  assert.match(disk.text, /^≈ [\d.]+ (GiB|TiB) on disk \(zstd over compressed columns\) ·$/);
  assert.ok(buckets.disk_bytes < buckets.total_bytes * 0.7, `${buckets.disk_bytes} of ${buckets.total_bytes}`);
  const chart = ts.operations.find((o) => o.unit === "chart of a page's 6 hours");
  assert.deepEqual(chart.figures.queries, [1, 1]);
  assert.deepEqual(chart.figures.docs_examined, [7, 7]);
  const hit = ts.operations.find((o) => o.unit === 'count a hit (minute, hour, total)');
  assert.deepEqual(hit.figures.docs_written, [1, 1]);
  await page.screenshot({ path: `${SHOTS}/page-analytics-time-series.png` });
  // Back on the counters: the 6-hour documents, 1 document a chart.
  await page.locator('.design-button[data-design="preallocated"]').click();
  const pre = await shown(page, 'preallocated');
  assertSame(pre, cliShown(cliJson(['eval', '--preset', 'page-analytics', '--design', 'preallocated', '--json'])), 'page-analytics / preallocated');
  assert.equal(pre.collections[0].documents, 146_000_000);
  assert.deepEqual(errors, []);
  await page.close();
});
