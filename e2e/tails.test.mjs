// End-to-end: every tail true (issue #15). The message model (a binData attachment,
// lognormal typical 200,000, p99 5,000,000, max 25,000,000 bytes, presence 0.3), opened from a
// share link, shows on the page exactly what `squillion eval --json` prints: the exact largest
// document, the estimated p50/p99 with their 99% bounds, the documents over 16 MiB at full
// scale, and the DOC_OVER_LIMIT error the CLI exits 1 with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { deflateRawSync } from 'node:zlib';
import { openPage, useSite, SHOTS } from './browser.mjs';
import { BIN, cliJson } from './cli.mjs';

const site = useSite();
const MODEL = 'tests/models/attachments.json';

/** A share-link payload, as src/share.rs encodes it: raw deflate, base64url without padding. */
const payload = (text) => deflateRawSync(Buffer.from(text), { level: 9 }).toString('base64url');

test('a file past 16 MiB in a document: the page equals eval --json, an error with its share', async () => {
  const run = spawnSync(BIN, ['eval', MODEL], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(run.status, 1, 'an error-severity warning exits 1');
  assert.match(run.stdout, /DOC_OVER_LIMIT message\.attachment: .*≈ 0\.0205% of message documents \(≈ 41\)/);
  const cli = cliJson(['eval', MODEL, '--json']);
  const message = cli.collections.find((c) => c.name === 'message');
  const shape = message.stats.shapes[0];

  const text = readFileSync(MODEL, 'utf8');
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground&model=${payload(text)}`, { width: 1280, height: 900 });
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  const card = await page.$('.collection[data-collection="message"][data-evaluated="true"]');
  assert.ok(card, 'the message card shows the evaluation');
  const cell = (metric) => card.$eval(`[data-metric="${metric}"]`, (e) => ({ value: Number(e.dataset.value), text: e.textContent, title: e.getAttribute('title') }));
  const max = await cell('max');
  assert.equal(max.value, shape.max.bytes);
  assert.equal(max.value, 25_000_288);
  // The largest of the 200,000 messages expected at full scale (an estimate: the file's
  // longest length is an atom of its clamped lognormal) reads as the bound, 23.84 MiB: one
  // figure, the expected's, with no redundant "bound" line (issue #35); both exact on hover.
  const expectedBytes = Number(await card.$eval('[data-metric="max"]', (e) => e.dataset.expected));
  assert.equal(expectedBytes, shape.largest_expected.bytes);
  assert.ok(expectedBytes < shape.max.bytes && expectedBytes > shape.p99.bytes);
  assert.equal(max.text, '≈ 23.84 MiB');
  assert.ok(max.title.startsWith('25,000,288 bytes. The bound'), max.title);
  assert.ok(max.title.includes(`${expectedBytes.toLocaleString('en-US')} bytes. The largest document expected among 200,000 at full scale`), max.title);
  assert.equal(await card.$('[data-metric="largest_expected"]'), null, 'no second line for the same figure');
  assert.equal(await card.$('.bound'), null, 'no bound line');
  for (const q of ['p50', 'p99']) {
    const c = await cell(q);
    assert.equal(c.value, shape[q].bytes, q);
    assert.match(c.text, /^≈ /, `${q} is an estimate`);
    const [lo, hi] = shape[`${q}_bounds`];
    assert.ok(c.title.includes(`${lo.toLocaleString('en-US')} – ${hi.toLocaleString('en-US')} B`), c.title);
  }
  const over = await cell('over_limit');
  assert.equal(over.value, shape.over_limit.documents);
  assert.match(over.text, /^≈ 41 message documents \(≈ 0\.0205%\) over 16 MiB at full scale, because of attachment$/);
  // The sample card's largest document is the table's largest, to the byte.
  const sampleLargest = message.samples.largest.full_bytes.bytes;
  assert.equal(sampleLargest, shape.max.bytes);

  const warnings = await page.$$eval('.eval-warnings .warning', (ws) => ws.map((w) => [w.dataset.code, w.textContent]));
  const error = warnings.find(([code]) => code === 'DOC_OVER_LIMIT');
  assert.ok(error, JSON.stringify(warnings));
  const cliError = cli.warnings.find((w) => w.code === 'DOC_OVER_LIMIT');
  assert.equal(cliError.severity, 'error');
  assert.ok(error[1].includes(cliError.message), `${error[1]}\n≠ ${cliError.message}`);
  assert.ok(error[1].includes('GridFS'), 'the fix offers GridFS');
  assert.deepEqual(warnings.map(([c]) => c).sort(), cli.warnings.map((w) => w.code).sort());
  await card.screenshot({ path: `${SHOTS}/tails-attachment-card.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
