// End-to-end: real dumps DROPPED on "Start from your data" give the model `squillion infer`
// prints for the same files: the sqlite3 `.dump` of tests/fixtures/sql (made by the real
// sqlite3, rows included: tables, a junction table, counts from the rows) and the mongoexport
// files of MongoDB's sample_analytics shape (tests/fixtures/infer/sample_analytics: references
// by the unique key account_id, a map). Entities, counts, relationships and the assumed starter
// workload are the CLI's, and the page's summary lists the workload as assumed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPage, useSite, SHOTS, dropFiles } from './browser.mjs';
import { cliJson } from './cli.mjs';

const site = useSite();
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SQLITE = join(ROOT, 'tests', 'fixtures', 'sql', 'sqlite-store.dump.sql');
const ANALYTICS = join(ROOT, 'tests', 'fixtures', 'infer', 'sample_analytics');
const ANALYTICS_FILES = ['accounts.json', 'customers.json', 'transactions.json'];

/** Opens the dialog, drops `paths`, runs the inference; returns the page, its errors and the
 * model it opened. */
async function inferOnPage(paths) {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.collection');
  await page.click('#choose-preset');
  await page.click('.preset-card[data-preset="infer"]');
  await page.waitForSelector('.infer-drop');
  await dropFiles(page, paths.map((p) => ({ name: p.split('/').pop(), bytes: [...readFileSync(p)] })));
  await page.click('#infer-run');
  await page.waitForSelector('[data-testid=infer-summary]', { timeout: 60_000 });
  const model = JSON.parse(await page.inputValue('#model-input'));
  return { page, errors, model };
}

/** The relationships of a model as `parent → child (name)`, sorted. */
const relationships = (m) => m.relationships.map((r) => `${r.parent} → ${r.child} (${r.name})`).sort();

test('a sqlite3 dump dropped: the tables, counts and relationships squillion infer gives', async () => {
  const { page, errors, model } = await inferOnPage([SQLITE]);
  const cli = cliJson(['infer', SQLITE, '--json']);
  assert.deepEqual(model, cli.model);
  // What the rows say (tests/suite/infer_sql_dumps.rs checks them against the dump itself).
  assert.deepEqual(model.entities.map((e) => [e.name, e.count]),
    cli.report.tables.filter((t) => t.became === 'entity').map((t) => [t.name, t.count]));
  assert.deepEqual(relationships(model), [
    'actor → film (film_actor)',
    'customers → orders (orders)',
    'orders → order_items (order_items)',
    'products → order_items (order_items_by_product_id)',
  ]);
  assert.equal(model.relationships.find((r) => r.name === 'film_actor').many_to_many, true);
  // The starter workload, listed as assumed on the page as in the report.
  assert.deepEqual(model.workload.map((u) => u.name), cli.report.workload.map((w) => w.unit));
  const listed = await page.$$eval('[data-testid=infer-workload] li', (lis) => lis.map((li) => li.textContent));
  assert.equal(listed.length, model.workload.length);
  assert.match(listed[0], /^assumed workload: read customers with its children, 10\/s \(the parent read with its children; not in the data/);
  await page.screenshot({ path: `${SHOTS}/infer-real-sqlite.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('sample_analytics mongoexport files dropped: references by account_id and the map, as the CLI', async () => {
  const paths = ANALYTICS_FILES.map((f) => join(ANALYTICS, f));
  const { page, errors, model } = await inferOnPage(paths);
  const cli = cliJson(['infer', ...paths, '--json']);
  assert.deepEqual(model, cli.model);
  // The counts of tests/suite/infer_keys.rs (the fixture's make.py): 180 accounts, 50 customers
  // holding 103 map entries, 150 transaction buckets holding 922 transactions.
  assert.deepEqual(model.entities.map((e) => [e.name, e.count]).sort(), [
    ['accounts', 180], ['customers', 50], ['tier_and_detail', 103], ['transaction', 922], ['transactions', 150],
  ]);
  assert.deepEqual(relationships(model), [
    'accounts → transactions (accounts_transactions)',
    'customers → accounts (accounts)',
    'customers → tier_and_detail (tier_and_details)',
    'transactions → transaction (transactions)',
  ]);
  const rels = await page.textContent('[data-testid=infer-relationships]');
  assert.match(rels, /161 of 161 values resolved through the unique key account_id/);
  const listed = await page.textContent('[data-testid=infer-workload]');
  assert.match(listed, /read customers with its children, 10\/s/);
  assert.match(listed, /insert tier_and_detail \(tier_and_details\), 1\/s \(a child added/);
  assert.deepEqual(errors, []);
  await page.close();
});
