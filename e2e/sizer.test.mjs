// End-to-end: the built site in headless Chromium. Sizes are checked against npm `bson`
// (the peer), never against our own code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BSON, EJSON } from 'bson';
import { openPage, useSite, SHOTS } from './browser.mjs';

const site = useSite();

const thousands = (n) => n.toLocaleString('en-US');

/** A relaxed Extended JSON document exercising several types and a 12-element array. */
const PASTED = `{
  "_id": {"$oid": "5f9b1c2e8d1a4b3c2d1e0f01"},
  "username": "wil",
  "email": "wil@example.com",
  "joined": {"$date": "2026-11-21T09:30:00Z"},
  "visits": {"$numberLong": "9007199254740993"},
  "score": 4.75,
  "city": "Zürich — 東京",
  "tbc": [{"$oid": "5f9b1c2e8d1a4b3c2d1e0f02"}, {"$oid": "5f9b1c2e8d1a4b3c2d1e0f03"}],
  "followers": [1,2,3,4,5,6,7,8,9,10,11,12],
  "profile": {"bio": "", "tags": ["a", "bb"], "verified": true, "deleted": null}
}`;

test('pasting a document shows its exact size, equal to npm bson', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#documents`);
  await page.waitForSelector('[data-testid=size-bytes]');
  const expected = BSON.calculateObjectSize(EJSON.parse(PASTED, { relaxed: false }));
  await page.fill('#doc-input', PASTED);
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid=size-bytes]')?.textContent === want,
    thousands(expected),
  );
  assert.equal(await page.textContent('[data-testid=size-bytes]'), thousands(expected));
  // Every top-level field has a row in the table.
  for (const key of Object.keys(JSON.parse(PASTED))) {
    assert.ok(await page.$(`.breakdown tr[data-path="${key}"]`), `row for ${key}`);
  }
  await page.screenshot({ path: `${SHOTS}/sizer.png`, fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad edit shows line and column and keeps the last good size', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#documents`);
  await page.waitForSelector('[data-testid=size-bytes]');
  await page.fill('#doc-input', '{"a": 1}');
  await page.waitForFunction(() => document.querySelector('[data-testid=size-bytes]')?.textContent === '12');
  await page.fill('#doc-input', '{"a": 1,\n "b": ]}');
  const error = await page.waitForSelector('.error');
  assert.match(await error.textContent(), /^Line 2, column \d+/);
  assert.equal(await page.textContent('[data-testid=size-bytes]'), '12');
  await page.screenshot({ path: `${SHOTS}/sizer-error.png`, fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('every example from the articles loads and is sized', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#documents`);
  await page.waitForSelector('[data-testid=size-bytes]');
  const options = await page.$$eval('select[aria-label="Example document"] option', (os) => os.map((o) => o.value));
  assert.ok(options.length >= 5, `examples: ${options}`);
  for (const value of options) {
    await page.selectOption('select[aria-label="Example document"]', value);
    const shown = await page.textContent('[data-testid=size-bytes]');
    assert.match(shown, /^[\d,]+$/, `${value}: ${shown}`);
    assert.notEqual(shown, '5', `${value} did not parse`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a reload restores the document being worked on', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#documents`);
  await page.waitForSelector('[data-testid=size-bytes]');
  await page.fill('#doc-input', '{ a: "kept" }');
  // 4 + 1 + 2 + (4 + 5) + 1 = 17 bytes.
  await page.waitForFunction(() => document.querySelector('[data-testid=size-bytes]')?.textContent === '17');
  await page.reload();
  await page.waitForSelector('[data-testid=size-bytes]');
  assert.equal(await page.inputValue('#doc-input'), '{ a: "kept" }');
  assert.equal(await page.textContent('[data-testid=size-bytes]'), '17');
  assert.deepEqual(errors, []);
  await page.close();
});
