// End-to-end: "Download export (.zip)" on the social-feed preset: the page offers one zip
// archive whose files are those `squillion export` writes, each collection file one canonical
// Extended JSON document per line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EJSON } from 'bson';
import { openPage, useSite, SHOTS, openPreset } from './browser.mjs';

const site = useSite();

/** Returns the files of a zip archive ({ name: text }, in archive order), read by Python's
 * zipfile, which checks every CRC and that every entry is stored. */
function unzip(path) {
  const script = [
    'import json, sys, zipfile',
    'z = zipfile.ZipFile(sys.argv[1])',
    'assert z.testzip() is None',
    'assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())',
    'print(json.dumps([[n, z.read(n).decode("utf-8")] for n in z.namelist()]))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script, path], { maxBuffer: 1 << 28 }).toString());
}

test('the export downloads as one zip of mongoimport files and scripts', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  await page.waitForSelector('.collection');
  await openPreset(page, 'social-feed');
  await page.keyboard.press('2');
  const button = page.locator('button.export-zip');
  assert.equal((await button.textContent()).trim(), 'Download export (.zip)');
  const downloaded = page.waitForEvent('download', { timeout: 180_000 });
  await button.click();
  const download = await downloaded;
  assert.equal(download.suggestedFilename(), 'social-feed-denormalized.zip');
  const dir = mkdtempSync(join(tmpdir(), 'squillion-export-'));
  try {
    const path = join(dir, download.suggestedFilename());
    await download.saveAs(path);
    const files = unzip(path);
    const names = files.map(([n]) => n);
    assert.deepEqual(names.slice(-4), ['setup.js', 'workload.js', 'README.md', 'manifest.json']);
    const manifest = JSON.parse(files.find(([n]) => n === 'manifest.json')[1]);
    assert.equal(manifest.model, 'social-feed');
    assert.equal(manifest.design, 'denormalized');
    assert.deepEqual(names.slice(0, -4), manifest.collections.map((c) => c.file));
    let documents = 0;
    for (const c of manifest.collections) {
      const text = files.find(([n]) => n === c.file)[1];
      const lines = text.split('\n');
      assert.equal(lines.pop(), '', `${c.file} ends with a newline`);
      assert.equal(lines.length, c.documents, c.file);
      for (const line of lines) {
        const doc = EJSON.parse(line, { relaxed: false });
        assert.ok(doc._id !== undefined, `${c.file}: a document without _id`);
      }
      documents += lines.length;
    }
    assert.ok(documents > 0);
    assert.match(files.find(([n]) => n === 'setup.js')[1], /createCollection/);
    assert.match(files.find(([n]) => n === 'README.md')[1], /mongoimport/);
    // The page says what the archive holds.
    const summary = await page.locator('.export-summary').textContent();
    assert.ok(
      summary.includes(`social-feed-denormalized.zip: ${documents.toLocaleString('en-US')} documents`),
      summary,
    );
    await page.locator('.design-row').screenshot({ path: `${SHOTS}/export-zip.png` });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('without a worker the page builds the archive itself', async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  // No worker script: every worker fails to start (the evaluation falls back to the page too).
  await page.route('**/worker.js', (route) => route.abort());
  await page.goto(`${site.server.url}#playground`);
  await page.waitForSelector('.collection');
  await openPreset(page, 'social-feed');
  const downloaded = page.waitForEvent('download', { timeout: 180_000 });
  await page.click('button.export-zip');
  const download = await downloaded;
  assert.equal(download.suggestedFilename(), 'social-feed-normalized.zip');
  const dir = mkdtempSync(join(tmpdir(), 'squillion-export-'));
  try {
    const path = join(dir, 'export.zip');
    await download.saveAs(path);
    const names = unzip(path).map(([n]) => n);
    assert.ok(names.includes('manifest.json') && names.includes('user.json'), names.join(', '));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await page.waitForSelector('.export-summary');
  // The workers did fail: the evaluation says it runs on the page.
  await page.waitForSelector('.inline-notice');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a sample over the budget is refused with a message, and the page goes on', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  await page.waitForSelector('.collection');
  await openPreset(page, 'social-feed');
  // The sample control clamps to what fits (e2e/states.test.mjs); the model's own sample
  // size is not clamped, and is refused.
  await page.click('#tab-json');
  const m = JSON.parse(await page.inputValue('#model-input'));
  m.sample = { max_documents: 1000000 };
  await page.fill('#model-input', JSON.stringify(m, null, 2));
  await page.waitForSelector('.eval-state[data-state="failed"]', { timeout: 180_000 });
  await page.click('button.export-zip');
  const alert = await page.waitForSelector('.export-error', { timeout: 180_000 });
  assert.match(await alert.textContent(), /^The export failed: the sample is too big to evaluate .*Lower “Sample” beside the design bar/);
  assert.doesNotMatch(await alert.textContent(), /--scale/);
  assert.equal((await page.locator('button.export-zip').textContent()).trim(), 'Download export (.zip)');
  assert.equal(await page.locator('button.export-zip').isEnabled(), true);
  await page.locator('.design-row').screenshot({ path: `${SHOTS}/export-zip-refused.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
