// End-to-end: the Console view in headless Chromium. The expected documents are computed by
// mingo (the peer) on the same sample file, never by our own code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Query } from 'mingo';
import { openPage, openPreset, useSite, SHOTS } from './browser.mjs';
import { readExpected } from './cli.mjs';
import { runCommand, sample, useExamples } from './console.mjs';

const site = useSite();

test('a find on the sample users shows mingo\'s documents and the statistics', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#console`, { width: 1280, height: 1000 });
  await page.waitForSelector('#console-input');
  await useExamples(page);
  // The side panel lists the samples with their counts and indexes.
  const users = sample('users');
  const panel = await page.textContent('.coll[data-collection=users]');
  assert.match(panel, new RegExp(`${users.length} docs`));
  assert.match(panel, /\{ followers: 1 \}/);

  const expected = new Query({ followers: { $size: 3 } }).find(users).all().map((d) => d._id);
  const entry = await runCommand(page, 'db.users.find({ followers: { $size: 3 } })');
  const count = await entry.$eval('[data-testid=count]', (e) => e.textContent);
  assert.equal(count, `${expected.length} documents`);
  const summaries = await entry.$$eval('.docs li', (ls) => ls.map((l) => l.textContent));
  assert.deepEqual(summaries.map((s) => s.match(/_id: '([^']+)'/)[1]), expected);
  const stats = await entry.$eval('[data-testid=stats]', (e) => e.textContent);
  assert.equal(stats, `nReturned: ${expected.length}, keysExamined: 0, docsExamined: ${users.length}, COLLSCAN`);

  // An indexed query with .explain(): the winning plan is an IXSCAN of the multikey index.
  const explained = await runCommand(page, "db.users.find({ followers: 'grace' }, { name: 1 }).explain()");
  const plan = await explained.$eval('[data-testid=explain]', (e) => e.textContent);
  assert.match(plan, /stage: 'IXSCAN'/);
  assert.match(plan, /isMultiKey: true/);
  const want = new Query({ followers: 'grace' }).find(users).all().length;
  assert.match(await explained.$eval('[data-testid=stats]', (e) => e.textContent),
    new RegExp(`^nReturned: ${want}, keysExamined: ${want}, docsExamined: ${want}, IXSCAN \\{ followers: 1 \\}$`));

  // An aggregation, then an error shown inline with its position.
  await runCommand(page, "db.orders.aggregate([{ $unwind: '$items' }, { $group: { _id: '$items.sku', units: { $sum: '$items.qty' } } }, { $sort: { units: -1 } }])");
  const bad = await runCommand(page, 'db.users.find({ followers: { $size: 3 } }).collation({ locale: "fr", alternate: "shifted" })');
  assert.match(await bad.$eval('.error', (e) => e.textContent), /^Line 1, column 44: collation option 'alternate' is not supported/);

  // Up arrow brings back the last command.
  await page.press('#console-input', 'ArrowUp');
  assert.match(await page.inputValue('#console-input'), /collation/);
  await page.fill('#console-input', '');

  await page.screenshot({ path: `${SHOTS}/console.png`, fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('writes update the side panel; server errors show their code', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#console`);
  await page.waitForSelector('#console-input');
  await useExamples(page);
  const n = sample('orders').length;
  const insert = await runCommand(page, "db.orders.insertOne({ _id: 2001, status: 'pending', items: [] })");
  assert.match(await insert.textContent(), /acknowledged: true,\s+insertedId: 2001/);
  await page.waitForFunction((want) => document.querySelector('.coll[data-collection=orders] .coll-count')?.textContent === want, `${n + 1} docs`);
  const dup = await runCommand(page, 'db.orders.insertOne({ _id: 2001 })');
  assert.match(await dup.$eval('.error', (e) => e.textContent), /^MongoServerError\[DuplicateKey\]: E11000 .*\(code 11000\)$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the console opens on the sample of the design on show: its collections, indexes and documents, as the CLI lays them out', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 900 });
  await page.waitForSelector('.collection');
  await openPreset(page, 'social-feed');
  await page.click('.design-button[data-design="bucketed"]');
  await page.waitForSelector('.design-button[data-design="bucketed"][aria-pressed="true"]');
  await page.click('nav >> text=Console');
  await page.waitForSelector('#console-input');
  assert.ok(await page.isChecked('input[name="console-source"][value="model"]'), 'the model is the console\'s database');

  // The design's collections and indexes, as `squillion eval --json` lays them out.
  const golden = readExpected('social-feed', 'bucketed.json');
  const names = await page.$$eval('.coll[data-collection]', (cs) => cs.map((c) => c.dataset.collection));
  assert.deepEqual(names.sort(), golden.layout.collections.map((c) => c.name).sort());
  const keys = await page.$$eval('.coll[data-collection="activity_buckets"] .coll-indexes code', (cs) => cs.map((c) => c.textContent));
  for (const ix of golden.layout.collections.find((c) => c.name === 'activity_buckets').indexes) {
    const shown = `{ ${Object.entries(ix.keys).map(([k, v]) => `${k}: ${v}`).join(', ')} }`;
    assert.ok(keys.includes(shown), `${shown} among ${keys}`);
  }
  assert.match(await page.textContent('[data-testid=console-about]'), /^social-feed · .+: [\d,]+ documents generated from your model/);

  // Its documents answer: the buckets have their owner and sequence, and a count agrees with
  // the panel.
  const entry = await runCommand(page, 'db.activity_buckets.find().limit(3)');
  assert.equal(await entry.$eval('[data-testid=count]', (e) => e.textContent), '3 documents');
  const first = await entry.$eval('.docs li', (l) => l.textContent);
  assert.match(first, /owner: ObjectId\(/);
  assert.match(first, /sequence: \d+/);
  const users = await runCommand(page, 'db.user.countDocuments()');
  const panel = await page.textContent('.coll[data-collection="user"] .coll-count');
  assert.equal(`${(await users.$eval('.value', (e) => e.textContent)).trim()} docs`, panel.trim());
  const shown = await runCommand(page, 'show collections');
  assert.equal(await shown.$eval('[data-testid=count]', (e) => e.textContent), `${names.length} collections`);
  // The example chips query the model's collections.
  const chips = await page.$$eval('.console-examples .chip', (cs) => cs.map((c) => c.title));
  assert.ok(chips.includes('db.activity_buckets.find().limit(3)'), chips.join(' | '));
  await page.screenshot({ path: `${SHOTS}/console-model.png`, fullPage: true });

  // The articles' examples, and back.
  await useExamples(page);
  await page.check('input[name="console-source"][value="model"]');
  await page.waitForSelector('.coll[data-collection="activity_buckets"]');
  assert.deepEqual(errors, []);
  await page.close();
});
