// End-to-end: page-analytics offers its native time-series design on the design bar beside the
// 6-hour counter documents; chosen there, the page shows the figures of the release CLI's
// `squillion eval --preset page-analytics --design time-series --json` (asked of the CLI during
// the test), the bucket collection `system.buckets.hit` among them, and the comparison table
// gains its column. Screenshots at 1280×720 in target/screenshots (tspa20-*.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useSite, SHOTS, openPreset } from './browser.mjs';
import { cliJson } from './cli.mjs';

const site = useSite();

/** The figures of the CLI's evaluation, as the page marks them up. */
function cliShown(cli) {
  const pair = (op, key) => [op.typical.total[key].value, op.largest.total[key].value];
  const metrics = ['docs_examined', 'keys_examined', 'docs_returned', 'bytes_returned', 'docs_written', 'bytes_written', 'index_keys_written'];
  return {
    operations: cli.operations.map((op) => ({
      unit: op.unit,
      figures: {
        queries: [op.typical.queries, op.largest.queries],
        lookups: [op.typical.lookups, op.largest.lookups],
        ...Object.fromEntries(metrics.map((k) => [k, pair(op, k)])),
        shards: [op.typical.max_shards, op.largest.max_shards],
      },
    })),
    collections: cli.collections.map((c) => ({ name: c.name, documents: c.stats.count, total_bytes: c.stats.total_bytes, index_bytes: c.index_bytes.value })),
    warnings: cli.warnings.map((w) => w.code).sort(),
  };
}

/** What the page shows of the evaluation of `design`, once done. */
async function shown(page, design) {
  await page.waitForSelector(`.eval-operations[data-state="done"][data-design="${design}"]`, { timeout: 300_000 });
  return page.evaluate(() => ({
    operations: [...document.querySelectorAll('.eval-unit')].map((u) => ({
      unit: u.dataset.unit,
      figures: Object.fromEntries([...u.querySelectorAll('[data-metric]')].map((m) => [m.dataset.metric, [Number(m.dataset.value), Number(m.dataset.largest)]])),
    })),
    collections: [...document.querySelectorAll('.collection[data-evaluated="true"]')].map((c) => ({
      name: c.dataset.collection,
      documents: Number(c.querySelector('[data-metric="documents"]').dataset.value),
      total_bytes: Number(c.querySelector('[data-metric="total_bytes"]').dataset.value),
      index_bytes: Number(c.querySelector('[data-metric="index_bytes"]').dataset.value),
    })),
    warnings: [...document.querySelectorAll('.eval-warnings .warning')].map((w) => w.dataset.code).sort(),
  }));
}

/** Asserts that the page's figures are the CLI's, numbers to the last bit. */
function assertSame(actual, expected, where) {
  if (typeof expected === 'number') {
    assert.ok(Object.is(actual, expected), `${where}: page shows ${actual}, the CLI says ${expected}`);
  } else if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${where}: not a list`);
    assert.equal(actual.length, expected.length, `${where}: length`);
    expected.forEach((e, i) => assertSame(actual[i], e, `${where}[${i}]`));
  } else if (expected && typeof expected === 'object') {
    assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort(), `${where}: keys`);
    for (const k of Object.keys(expected)) assertSame(actual[k], expected[k], `${where}.${k}`);
  } else {
    assert.equal(actual, expected, where);
  }
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
  const chart = ts.operations.find((o) => o.unit === "chart of a page's 6 hours");
  assert.deepEqual(chart.figures.queries, [1, 1]);
  assert.deepEqual(chart.figures.docs_examined, [7, 7]);
  const hit = ts.operations.find((o) => o.unit === 'count a hit (minute, hour, total)');
  assert.deepEqual(hit.figures.docs_written, [1, 1]);
  await page.screenshot({ path: `${SHOTS}/tspa20-time-series.png` });
  // Back on the counters: the 6-hour documents, 1 document a chart.
  await page.locator('.design-button[data-design="preallocated"]').click();
  const pre = await shown(page, 'preallocated');
  assertSame(pre, cliShown(cliJson(['eval', '--preset', 'page-analytics', '--design', 'preallocated', '--json'])), 'page-analytics / preallocated');
  assert.equal(pre.collections[0].documents, 146_000_000);
  assert.deepEqual(errors, []);
  await page.close();
});
