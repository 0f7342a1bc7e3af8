// End-to-end (issue 38): mongod logs dropped on "Start from your data". With the documents of
// the database they log (tests/fixtures/infer/shop), the log's operations become the model's
// workload with their rates, as `squillion infer users.json orders.json --log LOG` gives them
// (tests/suite/workload_logs.rs asserts the CLI's); the dialog prints the log's summary (lines,
// span, shapes with their rates and units, what was skipped and why, bad lines by line), in
// English and in Chinese. A gzipped log alone, with a line cut short, gives a model of the
// collections it names, the cut line reported by number. A gzipped mongodump archive of the
// shop (written by the archive peer of tests/suite/infer_archives.rs) with a log of pages that
// read a user and then the user's orders on one connection: the page's model is the CLI's,
// its workload one read with children. Screenshots: infer-log.png, zh-infer-log.png,
// infer-log-alone.png, infer-log-dump.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { openPage, useSite, SHOTS, dropFiles } from './browser.mjs';
import { cliJson } from './cli.mjs';
import { openIn } from './zh-check.mjs';

const site = useSite();
const LOGS = 'tests/fixtures/mongod-logs';
const SHOP = 'tests/fixtures/infer/shop';
/** The shop's documents and its JSON slow-query log (line 16 cut short, 17 another tool's). */
const SHOP_FILES = [
  { name: 'users.json', path: join(SHOP, 'users.json') },
  { name: 'orders.json', path: join(SHOP, 'orders.json') },
  { name: 'mongod.log', path: join(LOGS, 'mongod-7.0-slow-queries.log') },
].map(({ name, path }) => ({ name, bytes: [...readFileSync(path)] }));

/** Opens "Start from your data" on `page`, drops `files` and infers; waits for the summary. */
async function inferFrom(page, files) {
  await page.waitForSelector('.collection');
  await page.click('#infer-open');
  await page.waitForSelector('.infer-drop');
  await dropFiles(page, files);
  await page.click('#infer-run');
  await page.waitForSelector('[data-testid=infer-summary]', { timeout: 60_000 });
}

/** Returns the texts of the list `id` of the summary. */
const items = (page, id) => page.$$eval(`[data-testid=${id}] li`, (lis) => lis.map((li) => li.textContent));

/** Scrolls the summary to the logs' part, for a screenshot of it. */
const showLog = (page) => page.$eval('[data-testid=infer-log]', (el) => el.scrollIntoView({ block: 'start' }));

test('a log dropped with the documents of its database: its operations are the workload, with their rates', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 900 });
  await page.waitForSelector('.collection');
  await page.click('#infer-open');
  await page.waitForSelector('.infer-drop');
  await dropFiles(page, SHOP_FILES);
  assert.match(await page.textContent('.infer-files'), /mongod\.log a mongod log, or documents → mongod: its lines tell/);
  await page.click('#infer-run');
  await page.waitForSelector('[data-testid=infer-summary]', { timeout: 60_000 });
  // The model's workload is the log's: its units and their rates (what the CLI gives).
  const model = JSON.parse(await page.inputValue('#model-input'));
  assert.deepEqual(
    model.workload.map((u) => u.name),
    ['read users by email', 'list orders by customerId sorted by date', 'insert into orders', 'update users name'],
  );
  assert.equal(model.workload[0].rate_per_sec, 0.03);
  assert.deepEqual(model.workload[2].steps[0], { op: 'insert_child', relationship: 'orders' });
  assert.deepEqual(model.entities.map((e) => e.name).sort(), ['orders', 'users']);
  assert.match(model.description, /measured from mongod logs/);
  // The summary: the log read, its shapes with their rates and units, what was skipped, bad lines.
  const [source] = await items(page, 'infer-log-sources');
  assert.match(source, /^mongod\.log: \d+ lines read \(mongod JSON log\), \d+ operations logged, 2 bad lines, from 2024-03-01T10:00:00/);
  assert.match(await page.textContent('[data-testid=infer-log-totals]'), /operations counted in \d+ shapes, over 100\.0 s of log/);
  const shapes = await items(page, 'infer-log-shapes');
  assert.ok(
    shapes.some((s) => s.startsWith('find shop.users filter {"email":"?string"}: 3 operations, 0.0300/s') && s.includes('→ workload “read users by email”')),
    shapes.join('\n'),
  );
  assert.ok(shapes.some((s) => /→ not in the workload: the model refuses its unit/.test(s)), shapes.join('\n'));
  const skipped = await items(page, 'infer-log-skipped');
  assert.ok(skipped.some((s) => /^1 operation skipped: on admin, local or config, the server's own data \(1 × hello on admin\.\$cmd\)/.test(s)), skipped.join('\n'));
  assert.ok(skipped.some((s) => /a cursor's next batch/.test(s)), skipped.join('\n'));
  assert.match(await page.textContent('[data-testid=infer-log-bad-count]'), /2 bad lines in the logs \(not read; the rest was\)/);
  const bad = await items(page, 'infer-log-bad');
  assert.match(bad[0], /^mongod\.log: line 16: not JSON/);
  assert.match(bad[1], /^mongod\.log: line 17: a JSON object that is neither/);
  // The starter workload's assumed units are gone.
  assert.equal(await page.$('[data-testid=infer-workload]'), null);
  await showLog(page);
  await page.screenshot({ path: `${SHOTS}/infer-log.png` });
  // The editor's workload shows the log's units.
  await page.click('#infer-done');
  await page.waitForFunction(
    () => [...document.querySelectorAll('.unit-item .name-input')].some((i) => i.value === 'read users by email'),
    null,
    { timeout: 30_000 },
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('zh-CN: the log\'s summary in Chinese', async () => {
  const { context, page, errors } = await openIn(site, 'zh-CN');
  await page.setViewportSize({ width: 1280, height: 900 });
  await inferFrom(page, SHOP_FILES);
  assert.match(await page.textContent('[data-testid=infer-log-totals]'), /^共计 \d+ 个操作，归为 \d+ 种形状，日志时长 100\.0 秒$/);
  const shapes = await items(page, 'infer-log-shapes');
  assert.ok(shapes.some((s) => s.includes('：3 个操作，每秒 0.0300 次') && s.includes('→ 工作负载“read users by email”')), shapes.join('\n'));
  assert.match(await page.textContent('[data-testid=infer-log-bad-count]'), /日志中有 2 行无法读取/);
  assert.match((await items(page, 'infer-log-bad'))[0], /^mongod\.log：第 16 行：not JSON/);
  await showLog(page);
  await page.screenshot({ path: `${SHOTS}/zh-infer-log.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a gzipped log alone with a line cut short: a model of its collections, the line reported', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 900 });
  const log = gzipSync(readFileSync(join(LOGS, 'mongod_26_corrupt.log')));
  await inferFrom(page, [{ name: 'mongod.log.gz', bytes: [...log] }]);
  const model = JSON.parse(await page.inputValue('#model-input'));
  const names = model.entities.map((e) => e.name);
  assert.ok(names.includes('dimgray.jambul'), names.join(', '));
  const unit = model.workload.find((u) => u.name === 'read dimgray.jambul by _id');
  assert.ok(unit, model.workload.map((u) => u.name).join(', '));
  // The model keeps three significant digits of a rate: 6 in 737.639 s.
  assert.equal(unit.rate_per_sec, 0.00813);
  const [source] = await items(page, 'infer-log-sources');
  assert.match(source, /^mongod\.log\.gz \(gzipped\): [\d,]+ lines read \(mongod text log\)/);
  const bad = await items(page, 'infer-log-bad');
  assert.ok(bad.some((b) => b.startsWith('mongod.log.gz: line 190: ')), bad.join('\n'));
  // A log alone has no documents: no count of skipped document lines.
  assert.equal(await page.$('[data-testid=infer-skipped-count]'), null);
  await showLog(page);
  await page.screenshot({ path: `${SHOTS}/infer-log-alone.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a mongodump archive dropped with a log of joined reads: the CLI\'s model, one read with children', async () => {
  // The shop's documents as `mongodump --archive --gzip` of database shop writes them.
  const docs = ['users', 'orders'].flatMap((c) =>
    readFileSync(join(SHOP, `${c}.json`), 'utf8').trim().split('\n').map((d) => `{"ns": "shop.${c}", "doc": ${d}}`));
  const archive = join(mkdtempSync(join(tmpdir(), 'squillion-log-dump-')), 'shop.archive.gz');
  const peer = spawnSync('python3', ['tests/suite/common/mongodump_archive.py', archive, '--gzip'],
    { input: docs.join('\n') + '\n', encoding: 'utf8' });
  assert.equal(peer.status, 0, peer.stderr);
  const log = join(LOGS, 'shop', 'joins.log');
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 900 });
  await inferFrom(page, [
    { name: 'shop.archive.gz', bytes: [...readFileSync(archive)] },
    { name: 'joins.log', bytes: [...readFileSync(log)] },
  ]);
  const model = JSON.parse(await page.inputValue('#model-input'));
  const cli = cliJson(['infer', archive, '--log', log, '--json']);
  assert.deepEqual(model, cli.model, 'the page reads the archive and the log as squillion infer does');
  assert.deepEqual(model.workload.map((u) => u.name), ['read users by email with orders', 'update users name']);
  assert.deepEqual(model.workload[0].steps[0].children,
    [{ relationship: 'orders', limit: 10, sort: { field: 'date', order: -1 } }]);
  // The summary says which reads were joined, and how often.
  const shapes = await items(page, 'infer-log-shapes');
  assert.ok(shapes.some((s) => s.startsWith('find shop.orders') && s.includes('read as the orders children of a users read: 12 of its 14 finds')),
    shapes.join('\n'));
  assert.ok(shapes.some((s) => s.startsWith('find shop.users') && s.includes('an application-level join')), shapes.join('\n'));
  await showLog(page);
  await page.screenshot({ path: `${SHOTS}/infer-log-dump.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
