// End-to-end: after one visit the page works with no network at all (the service worker of
// public/sw.js precaches the build, and keeps the tools module once it was used), and a new
// build takes over on the next reload and says so.
// "No network" is the server itself closed, not only the browser told it is offline. The
// reference documentation (dist/docs/) opens offline as well.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BSON, EJSON } from 'bson';
import { launch, openPreset, SHOTS } from './browser.mjs';
import { serve } from './serve.mjs';

const DIST = process.env.SQUILLION_DIST ?? 'dist';

/** A copy of the built site the test may change (a "new build"). */
function copyOfSite() {
  const dir = mkdtempSync(join(tmpdir(), 'squillion-offline-'));
  cpSync(DIST, dir, { recursive: true });
  return dir;
}

/** Waits until the service worker controls the page. */
async function controlled(page) {
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 60_000 });
}

/** Opens the playground in a new browser profile and waits until the service worker controls
 * it: the first visit, after which the page works offline. */
async function firstVisit(browser, server) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(`${server.url}#playground`);
  await page.waitForSelector('.collection');
  await controlled(page);
  return { context, page, errors };
}

/** Closes the server, takes the browser offline and reloads the page on social-feed. */
async function reloadOffline(server, context, page) {
  await server.close();
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('.collection');
  await openPreset(page, 'social-feed');
}

/** Evaluates every design on the design bar; returns their names. */
async function evaluateEveryDesign(page) {
  const names = await page.$$eval('.design-button', (bs) => bs.map((b) => b.textContent.trim()));
  for (let i = 0; i < Math.min(names.length, 9); i += 1) {
    await page.keyboard.press(String(i + 1));
    await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
    assert.equal(await page.$('.eval-state[data-state="failed"]'), null, `${names[i]} failed offline`);
  }
  return names;
}

test('after one visit, the page loads, evaluates every design and sizes a document offline', async () => {
  const dir = copyOfSite();
  const server = await serve(dir);
  const browser = await launch();
  try {
    const { context, page, errors } = await firstVisit(browser, server);
    const online = server.stats.requests;

    await reloadOffline(server, context, page);
    const designs = await evaluateEveryDesign(page);
    assert.ok(designs.length >= 3, `designs: ${designs}`);
    await page.screenshot({ path: `${SHOTS}/offline-playground.png` });

    await page.click('nav >> text=Document size');
    const doc = '{"_id": {"$oid": "5f9b1c2e8d1a4b3c2d1e0f01"}, "tags": ["a", "bb"], "n": 42}';
    await page.fill('#doc-input', doc);
    const expected = BSON.calculateObjectSize(EJSON.parse(doc, { relaxed: false })).toLocaleString('en-US');
    await page.waitForFunction((want) => document.querySelector('[data-testid=size-bytes]')?.textContent === want, expected);
    assert.equal(server.stats.requests, online, 'nothing reached the (closed) server');
    // The reference documentation the page links opens offline too: a document, not the page.
    await page.goto(`${server.url}docs/advisor.html#the-cost-model-advisecost`);
    assert.match(await page.textContent('h1'), /advisor/i);
    assert.equal(await page.$('#main'), null, 'the document, not the playground');
    assert.equal(server.stats.requests, online, 'nothing reached the (closed) server');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Infers a model from pasted SQL in the "Start from your data" dialog, and closes it. */
async function inferPastedSql(page) {
  await page.click('#infer-open');
  await page.waitForSelector('.infer-dialog');
  await page.fill('#infer-paste', 'CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT);');
  await page.click('#infer-run');
  await page.waitForSelector('[data-testid=infer-summary]', { timeout: 60_000 });
  await page.click('#infer-done');
  await page.waitForSelector('.infer-dialog', { state: 'detached' });
}

/** Runs the advisor on the open model until its advice is shown. */
async function advise(page) {
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await page.click('#open-advise');
  await page.waitForSelector('#advise[data-state="done"]', { timeout: 180_000 });
}

test('the tools module, fetched when first used, works offline after that use: inference (and the advisor, on the page module)', async () => {
  const dir = copyOfSite();
  const server = await serve(dir);
  const browser = await launch();
  try {
    const { context, page, errors } = await firstVisit(browser, server);
    // The service worker's install precaches the build but not the tools module, and nothing
    // the page does before a tool is used fetches it.
    const precached = JSON.parse(readFileSync(join(dir, 'sw.js'), 'utf8').match(/const FILES = (\[.*\]);/)[1]);
    assert.ok(!precached.some((f) => f.startsWith('squillion-tools')), precached.join(', '));
    assert.equal(server.stats.sent['/squillion-tools_bg.wasm'] ?? 0, 0, JSON.stringify(server.stats.sent));

    // Used once online: fetched then, once.
    await advise(page);
    await inferPastedSql(page);
    assert.equal(server.stats.sent['/squillion-tools_bg.wasm'], 1, JSON.stringify(server.stats.sent));
    const online = server.stats.requests;

    await reloadOffline(server, context, page);
    await advise(page);
    assert.equal(await page.$('#advise .error'), null, 'the advisor ran offline');
    await inferPastedSql(page);
    assert.equal(server.stats.requests, online, 'nothing reached the (closed) server');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a new build is installed beside the running one and takes over on the next reload', async () => {
  const dir = copyOfSite();
  const server = await serve(dir);
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}#playground`);
    await page.waitForSelector('.collection');
    await controlled(page);
    await page.waitForFunction(() => localStorage.getItem('squillion-build') != null);
    const first = await page.evaluate(async () => (await fetch('sw.js')).text());

    // A new build: one file changes (worker.js: index.html pins style.css by its hash), and the
    // post-build hook versions the service worker anew.
    appendFileSync(join(dir, 'worker.js'), '\n// new build\n');
    execFileSync('node', ['scripts/service-worker.mjs', dir], { env: { ...process.env, TRUNK_PROFILE: 'release' } });
    assert.notEqual(readFileSync(join(dir, 'sw.js'), 'utf8'), first, 'a new build is a new worker');

    // The running page finds it (as it does at every load; here without waiting for one), says
    // that it is ready, and keeps running the old build.
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
    await page.waitForSelector('.sw-notice >> text=takes over when you reload', { timeout: 60_000 });
    assert.ok(!(await page.evaluate(async () => (await fetch('worker.js')).text())).includes('new build'));

    // The next load runs the new build and says so.
    await page.reload();
    await page.waitForSelector('.sw-notice >> text=was updated', { timeout: 60_000 });
    await page.waitForSelector('.collection');
    assert.ok((await page.evaluate(async () => (await fetch('worker.js')).text())).includes('new build'));
    await page.screenshot({ path: `${SHOTS}/offline-updated.png` });
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the wasm is downloaded and compiled once: the evaluation worker gets the page\'s module', async () => {
  // No service worker here (sw.js is not found): its precache would fetch the wasm too.
  const server = await serve(process.env.SQUILLION_ONCE_DIST ?? DIST, { '/sw.js': join(tmpdir(), 'no-such-file') });
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    await page.goto(`${server.url}#playground`);
    await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
    // Evaluated in the worker (not on the page, its fallback).
    assert.equal(await page.$('.inline-notice'), null);
    assert.equal(server.stats.sent['/squillion_bg.wasm'], 1, JSON.stringify(server.stats.sent));
    assert.equal(await page.evaluate(() => window.squillionModule instanceof WebAssembly.Module), true);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('the service worker precaches exactly the files of the build', () => {
  const sw = readFileSync(join(DIST, 'sw.js'), 'utf8');
  const files = JSON.parse(sw.match(/const FILES = (\[.*\]);/)[1]);
  for (const f of ['index.html', 'boot.js', 'worker.js', 'squillion.js', 'squillion_bg.wasm', 'style.css']) {
    assert.ok(files.includes(f), `${f} is precached`);
  }
  assert.match(sw, /const VERSION = "[0-9a-f]{16}";/);
  assert.match(sw, /const NETWORK_FIRST = false;/, 'a release build answers from the cache first');
  assert.ok(!sw.includes('__'), 'every placeholder filled');
});
