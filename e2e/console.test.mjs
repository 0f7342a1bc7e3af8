// End-to-end: the Console view in headless Chromium. The expected documents are computed by
// mingo (the peer) on the same sample file, never by our own code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Query } from 'mingo';
import { openPage, useSite, SHOTS } from './browser.mjs';
import { runCommand, sample } from './console.mjs';

const site = useSite();

test('a find on the sample users shows mingo\'s documents and the statistics', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#console`, { width: 1280, height: 1000 });
  await page.waitForSelector('#console-input');
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
  const n = sample('orders').length;
  const insert = await runCommand(page, "db.orders.insertOne({ _id: 2001, status: 'pending', items: [] })");
  assert.match(await insert.textContent(), /acknowledged: true,\s+insertedId: 2001/);
  await page.waitForFunction((want) => document.querySelector('.coll[data-collection=orders] .coll-count')?.textContent === want, `${n + 1} docs`);
  const dup = await runCommand(page, 'db.orders.insertOne({ _id: 2001 })');
  assert.match(await dup.$eval('.error', (e) => e.textContent), /^MongoServerError\[DuplicateKey\]: E11000 .*\(code 11000\)$/);
  assert.deepEqual(errors, []);
  await page.close();
});
