// End-to-end: the page's console prints as mongosh prints (issue #16): explain('executionStats')
// with its executionStats section, counts as plain numbers, each document of a cursor once, key
// patterns quoted where they are not identifiers, no trailing commas. The documents are checked
// against mingo (the peer) on the same sample files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Query } from 'mingo';
import { openPage, useSite, SHOTS } from './browser.mjs';
import { runCommand, sample, useExamples } from './console.mjs';

const site = useSite();

/** True when an entry of `text` is followed by a comma and then a closing brace or bracket. */
const trailingComma = (text) => /,\s*\n\s*[}\]]/.test(text) || /, [}\]]/.test(text);

test('the console prints explain, counts, documents and key patterns as mongosh does', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#console`, { width: 1280, height: 1000 });
  await page.waitForSelector('#console-input');
  await useExamples(page);
  const users = sample('users');
  const orders = sample('orders');

  // explain('executionStats'): queryPlanner and executionStats with the documented fields.
  const explained = await runCommand(page, "db.orders.find({ 'customer._id': 'alice' }).sort({ date: -1 }).explain('executionStats')");
  const text = await explained.$eval('[data-testid=explain]', (e) => e.textContent);
  const want = new Query({ 'customer._id': 'alice' }).find(orders).all().length;
  assert.match(text, /^\{\n {2}explainVersion: '1',\n {2}queryPlanner: \{\n {4}namespace: '[a-z]+\.orders',\n {4}winningPlan: \{/);
  assert.match(text, /\n {2}executionStats: \{\n {4}executionSuccess: true,\n/);
  assert.match(text, new RegExp(`\\n {4}nReturned: ${want},\\n`));
  assert.match(text, new RegExp(`\\n {4}totalKeysExamined: ${want},\\n`));
  assert.match(text, new RegExp(`\\n {4}totalDocsExamined: ${want},\\n`));
  assert.match(text, /\n {4}executionStages: \{\n {6}stage: 'FETCH',/);
  assert.match(text, /keyPattern: \{ 'customer\._id': 1, date: -1 \}/, 'a key pattern is valid mongosh');
  assert.ok(!trailingComma(text), text);
  // explain() alone is the queryPlanner verbosity.
  const planner = await runCommand(page, "db.users.find({ followers: 'grace' }).explain()");
  const plannerText = await planner.$eval('[data-testid=explain]', (e) => e.textContent);
  assert.match(plannerText, /stage: 'IXSCAN'/);
  assert.ok(!plannerText.includes('executionStats'), plannerText);
  // An aggregation explains the same way.
  const agg = await runCommand(page, "db.orders.aggregate([{ $match: { status: 'shipped' } }]).explain('executionStats')");
  assert.match(await agg.$eval('[data-testid=explain]', (e) => e.textContent), /executionStats: \{\n {4}executionSuccess: true,/);

  // Counts are plain numbers.
  const count = await runCommand(page, 'db.users.countDocuments({})');
  assert.equal(await count.$eval('.value', (e) => e.textContent), String(users.length));
  const cursorCount = await runCommand(page, 'db.users.find({ followers: { $size: 3 } }).count()');
  assert.equal(await cursorCount.$eval('.value', (e) => e.textContent), String(new Query({ followers: { $size: 3 } }).find(users).all().length));

  // find({}) prints each document once, in cursor order.
  const all = await runCommand(page, 'db.users.find({})');
  const docs = await all.$$eval('.docs li', (ls) => ls.map((l) => l.innerText));
  assert.equal(docs.length, users.length);
  assert.deepEqual(docs.map((d) => d.match(/_id: '([^']+)'/g).length), users.map(() => 1), 'each document once');
  assert.deepEqual(docs.map((d) => d.match(/_id: '([^']+)'/)[1]), users.map((u) => u._id));
  for (const d of docs) assert.ok(!trailingComma(d), d);
  const visible = await all.evaluate((e) => e.innerText);
  for (const u of users) {
    assert.equal(visible.split(`_id: '${u._id}'`).length - 1, 1, `${u._id} shown once`);
  }

  // The side panel's index keys are mongosh too.
  assert.match(await page.textContent('.coll[data-collection=orders]'), /\{ 'customer\._id': 1, date: -1 \}/);

  // The first documents of find({}), each once, for a person to look at.
  await all.evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: `${SHOTS}/mongosh-find.png` });
  await explained.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/mongosh-console.png` });
  await explained.screenshot({ path: `${SHOTS}/mongosh-explain.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
