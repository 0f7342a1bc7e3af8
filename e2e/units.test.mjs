// End-to-end: bytes on the page are in binary units (B, KiB, MiB, GiB, TiB), never a long run of
// digits followed by "bytes" (issue #16: the working-set warning printed
// "≈3,232,053,343,560 bytes"), and the exact figure is on hover (the collection cards' sizes and
// the comparison's byte cells).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, openPreset, useSite, SHOTS } from './browser.mjs';
import { readPresets, readExpected } from './cli.mjs';

const site = useSite();

/** The runs of 7 or more digits (thousands separators allowed) followed by "bytes" in `text`. */
function longByteRuns(text) {
  return [...text.matchAll(/(\d(?:[\d,]*\d)?)\s*bytes\b/g)]
    .map((m) => m[0])
    .filter((run) => run.replace(/\D/g, '').length >= 7);
}

test('the scan finds what it looks for', () => {
  assert.deepEqual(longByteRuns('Working set ≈3,232,053,343,560 bytes per shard'), ['3,232,053,343,560 bytes']);
  assert.deepEqual(longByteRuns('1234567 bytes and 123,456 bytes'), ['1234567 bytes']);
  assert.deepEqual(longByteRuns('Working set ≈2.94 TiB per shard'), []);
});

test('every preset\'s default design shows bytes in binary units with the exact figure on hover', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 900 });
  for (const preset of readPresets()) {
    await openPreset(page, preset.name);
    const design = preset.designs[0].id ?? preset.designs[0];
    await page.waitForSelector(`.eval-operations[data-state="done"][data-design="${design}"]`, { timeout: 180_000 });
    await page.waitForSelector('.collection[data-evaluated="true"]', { timeout: 180_000 });
    const text = await page.evaluate(() => document.body.innerText);
    assert.deepEqual(longByteRuns(text), [], `${preset.name}/${design}: long byte counts on the page`);
    // Every size cell of the collection cards: binary units in the text, the exact count on hover.
    const cells = await page.$$eval('.collection[data-evaluated="true"] [data-metric="max"], .collection[data-evaluated="true"] [data-metric="avg"], [data-metric="sample_bytes"]',
      (es) => es.map((e) => ({ value: Number(e.dataset.value), text: e.textContent.trim(), title: e.getAttribute('title') })));
    assert.ok(cells.length >= 2, `${preset.name}: size cells`);
    for (const c of cells) {
      assert.match(c.text, /^(≈ )?\d+(\.\d+)? (B|KiB|MiB|GiB|TiB)$/, `${preset.name}: ${c.text}`);
      assert.equal(c.title.split('.')[0], `${c.value.toLocaleString('en-US')} bytes`, `${preset.name}: hover of ${c.text}`);
    }
    // The comparison's byte cells (every design evaluated so far, this one at least): binary
    // units, per second for the workload's rates, the exact count on hover.
    await page.waitForSelector(`.compare-table thead th[data-design="${design}"][data-state="done"]`, { timeout: 180_000 });
    const compared = await page.$$eval('.compare-table tbody tr[data-metric*="bytes"] td[data-value]',
      (es) => es.map((e) => ({ metric: e.closest('tr').dataset.metric, value: Number(e.dataset.value), text: e.textContent.trim(), title: e.getAttribute('title') })));
    assert.ok(compared.length >= 5, `${preset.name}: compare byte cells`);
    for (const c of compared) {
      const rate = ['storage_bytes', 'index_bytes', 'largest_document_bytes'].includes(c.metric) ? '' : '/s';
      assert.match(c.text, new RegExp(`^\\d+(\\.\\d+)? (B|KiB|MiB|GiB|TiB)${rate}$`), `${preset.name} compare ${c.metric}: ${c.text}`);
      assert.equal(c.title, `${Math.round(c.value).toLocaleString('en-US')} ${Math.round(c.value) === 1 ? 'byte' : 'bytes'}${rate}`, `${preset.name} compare ${c.metric}: hover of ${c.text}`);
    }
    // The warnings the CLI reports for this design are on the page in the same words.
    const expected = readExpected(preset.name, `${design}.json`);
    const shown = await page.$$eval('.warning-list .warning > p:not(.fix)', (ps) => ps.map((p) => p.textContent));
    for (const w of expected.warnings.filter((x) => x.code === 'WORKING_SET_EXCEEDS_CACHE')) {
      assert.ok(shown.includes(w.message), `${preset.name}: ${w.message}`);
      assert.match(w.message, /^Working set ≈\d+(\.\d+)? (MiB|GiB|TiB) per shard/);
    }
  }
  // A warning with units, for a person to look at: social-graph's default design.
  await openPreset(page, 'social-graph');
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  const warning = page.locator('.warning[data-code="WORKING_SET_EXCEEDS_CACHE"]');
  await warning.scrollIntoViewIfNeeded();
  assert.match(await warning.textContent(), /Working set ≈[\d.]+ (GiB|TiB) per shard .* cache of 7\.5 GiB \(50% of 16 GiB of RAM − 1 GiB\)/);
  await page.locator('.warning-list').screenshot({ path: `${SHOTS}/units-warnings.png` });
  const card = page.locator('.collection[data-evaluated="true"]').first();
  await card.screenshot({ path: `${SHOTS}/units-collection.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
