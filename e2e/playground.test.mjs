// End-to-end: the design playground in headless Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { serve } from './serve.mjs';
import { launch, openPage } from './browser.mjs';

const DIST = process.env.SQUILLION_DIST ?? 'dist';
const SHOTS = 'target/screenshots';
let server;
let browser;

before(async () => {
  server = await serve(DIST);
  browser = await launch();
  mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('keys 1–4 switch designs and the collections follow', async () => {
  const { page, errors } = await openPage(browser, `${server.url}#playground`);
  await page.waitForSelector('.collection');
  const pressed = () => page.$eval('.design-button[aria-pressed="true"]', (b) => b.textContent.trim());
  assert.match(await pressed(), /Normalized$/);
  const collections = async () => page.$$eval('.collection', (cs) => cs.map((c) => c.dataset.collection));
  const normalized = await collections();
  await page.keyboard.press('3');
  assert.match(await pressed(), /Bucketed$/);
  const bucketed = await collections();
  assert.notDeepEqual(bucketed, normalized, 'the bucketed design lays out other collections');
  await page.screenshot({ path: `${SHOTS}/playground.png`, fullPage: false });
  await page.keyboard.press('1');
  assert.deepEqual(await collections(), normalized);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad model edit lists the problem and keeps the last good numbers', async () => {
  const { page, errors } = await openPage(browser, `${server.url}#playground`);
  await page.waitForSelector('.collection');
  const before = await page.$$eval('.collection', (cs) => cs.length);
  await page.fill('#model-input', '{"entities": [');
  const error = await page.waitForSelector('.model-card .error');
  assert.match(await error.textContent(), /line 1, column \d+/);
  assert.equal(await page.$$eval('.collection', (cs) => cs.length), before);
  assert.deepEqual(errors, []);
  await page.close();
});
