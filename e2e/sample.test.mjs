// End-to-end: each collection card shows a sample document (typical, the largest a click away)
// as Extended JSON that npm `bson` (the peer) parses, to exactly the size the card shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BSON, EJSON } from 'bson';
import { openPage, useSite, SHOTS, openPreset } from './browser.mjs';
import { readExpected } from './cli.mjs';

const site = useSite();

const thousands = (n) => n.toLocaleString('en-US');

/** What the card of collection `name` shows of its sample document. */
async function sampleOf(page, name) {
  return page.$eval(`.collection[data-collection="${name}"] .sample`, (s) => ({
    which: s.dataset.which,
    bytes: Number(s.querySelector('[data-metric="sample_bytes"]').dataset.value),
    bytesText: s.querySelector('[data-metric="sample_bytes"]').textContent,
    bytesTitle: s.querySelector('[data-metric="sample_bytes"]').getAttribute('title'),
    text: s.querySelector('pre.sample-doc').textContent,
    about: s.querySelector('.sample-size .muted').textContent,
    shortened: s.querySelector('.sample-note') !== null,
    fullLargest: s.querySelector('[data-metric="full_largest"]')?.dataset.value ?? null,
    gauges: s.querySelectorAll('.gauge').length,
    pressed: [...s.querySelectorAll('.segment')].map((b) => `${b.dataset.which}:${b.getAttribute('aria-pressed')}`),
  }));
}

/** Opens social-graph under its "followers" design (a user lists all its followers) and waits
 * for its evaluation. */
async function showFollowers(page) {
  await openPreset(page, 'social-graph');
  await page.waitForSelector('.lesson');
  await page.locator('.design-button', { hasText: 'Follower lists' }).click();
  await page.waitForSelector('.eval-operations[data-state="done"][data-design="followers"]', { timeout: 180_000 });
  await page.waitForSelector('.collection[data-collection="user"][data-evaluated="true"] .sample', { timeout: 180_000 });
}

/** Asserts that a whole (not shortened) document's text parses as EJSON to `bytes` bytes. */
function assertParsesToSize(shown, where) {
  const doc = EJSON.parse(shown.text, { relaxed: false });
  assert.equal(BSON.calculateObjectSize(doc), shown.bytes, `${where}: npm bson's size of the shown text`);
}

test('the sample documents parse as EJSON to the sizes shown; the largest is a click away', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  let whole = 0;
  // The starter (social-feed: small documents, shown whole), then social-graph's "followers"
  // design (a user document listing millions of followers at full scale).
  for (const preset of ['social-feed', 'social-graph']) {
    if (preset !== 'social-feed') await showFollowers(page);
    await page.waitForSelector('.collection[data-evaluated="true"] .sample', { timeout: 180_000 });
    const names = await page.$$eval('.collection[data-evaluated="true"]', (cs) => cs.map((c) => c.dataset.collection));
    assert.ok(names.length >= 2, `${preset} collections: ${names}`);
    for (const name of names) {
      const typical = await sampleOf(page, name);
      assert.equal(typical.which, 'typical');
      assert.deepEqual(typical.pressed, ['typical:true', 'largest:false']);
      // Binary units on the page, the exact figure on hover.
      assert.match(typical.bytesText, /^\d+(\.\d+)? (B|KiB|MiB)$/);
      assert.equal(typical.bytesTitle, `${thousands(typical.bytes)} bytes`);
      assert.equal(typical.gauges, 1, `${name}: one gauge for the typical document`);
      if (typical.shortened) {
        assert.match(typical.text, /…/, `${name}: a shortened text marks what it leaves out`);
        // Still Extended JSON: the markers are strings.
        EJSON.parse(typical.text, { relaxed: false });
      } else {
        assertParsesToSize(typical, `${name} typical`);
        whole += 1;
      }

      // The toggle, from the keyboard: focused, then Enter.
      await page.focus(`.collection[data-collection="${name}"] .segment[data-which="largest"]`);
      await page.keyboard.press('Enter');
      await page.waitForSelector(`.collection[data-collection="${name}"] .sample[data-which="largest"]`);
      const largest = await sampleOf(page, name);
      assert.deepEqual(largest.pressed, ['typical:false', 'largest:true']);
      assert.ok(largest.bytes >= typical.bytes, `${name}: largest ${largest.bytes} < typical ${typical.bytes}`);
      if (largest.shortened) {
        assert.match(largest.text, /…/);
        EJSON.parse(largest.text, { relaxed: false });
      } else {
        assertParsesToSize(largest, `${name} largest`);
        whole += 1;
      }
      // The shape table's "Largest" beyond the sample gets its own gauge, labelled.
      const tableMax = Math.max(...(await page.$$eval(
        `.collection[data-collection="${name}"] .shape-table [data-metric="max"]`,
        (cells) => cells.map((c) => Number(c.dataset.value)),
      )));
      if (tableMax > largest.bytes) {
        assert.equal(Number(largest.fullLargest), tableMax, `${name}: full-scale largest`);
        assert.equal(largest.gauges, 2);
      } else {
        assert.equal(largest.fullLargest, null);
      }
    }
  }
  assert.ok(whole >= 2, `documents shown whole and checked: ${whole}`);

  // user: millions of followers at full scale, 10,000 in the sample, 10 in the text.
  const user = await sampleOf(page, 'user');
  assert.match(user.text, /"… 9,990 more elements \([\d,]+ at full scale\)"/);
  assert.ok(user.shortened);
  assert.ok(user.fullLargest !== null && Number(user.fullLargest) > user.bytes);
  // Two full-scale figures, as the CLI prints them: the shape's estimate (every field at its
  // mean length) in the gauge, and this very document with all its elements (its own strings,
  // exact) in the line above, when they differ.
  const cli = readExpected('social-graph', 'followers.json').collections.find((c) => c.name === 'user');
  const exact = cli.samples.largest.full_bytes;
  assert.equal(Number(user.fullLargest), Math.max(...cli.stats.shapes.map((s) => s.max.bytes)));
  if (exact.bytes !== Number(user.fullLargest)) {
    assert.ok(user.about.includes(`this document with every array element: ${thousands(exact.bytes)} B${exact.exact ? ' (exact)' : ''}`), user.about);
  } else {
    assert.ok(!user.about.includes('every array element'), user.about);
  }

  // Back to the typical one; the breakdown opens from the keyboard and lists its fields.
  await page.click('.collection[data-collection="user"] .segment[data-which="typical"]');
  await page.waitForSelector('.collection[data-collection="user"] .sample[data-which="typical"]');
  await page.focus('.collection[data-collection="user"] .sample-breakdown > summary');
  await page.keyboard.press('Enter');
  const rows = await page.$$eval('.collection[data-collection="user"] .sample-breakdown[open] .breakdown tbody tr[data-path]', (r) => r.map((x) => x.dataset.path));
  assert.ok(rows.includes('_id') && rows.includes('followers'), `rows: ${rows.slice(0, 8)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('screenshots of a collection card with its sample document (1280×720 light and dark, 1920×1080)', async () => {
  for (const [width, height, scheme] of [[1280, 720, 'light'], [1280, 720, 'dark'], [1920, 1080, 'light']]) {
    const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width, height });
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
    await openPreset(page, 'social-graph');
    await showFollowers(page);
    const card = '.collection[data-collection="user"][data-evaluated="true"]';
    await page.click(`${card} .segment[data-which="largest"]`);
    await page.click(`${card} .sample-breakdown > summary`);
    await page.locator(`${card} .sample`).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/sample-${width}x${height}-${scheme}.png` });
    await page.locator(card).screenshot({ path: `${SHOTS}/sample-card-${width}-${scheme}.png` });
    assert.deepEqual(errors, []);
    await page.close();
  }
});
