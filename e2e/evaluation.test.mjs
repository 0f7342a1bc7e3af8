// End-to-end: the playground shows the engine's evaluation, the very numbers of
// `squillion eval --preset NAME --design D --json`, for every preset and every offered design.
// The CLI's JSON is the golden evaluations checked in under tests/golden/ (kept equal to the
// CLI by `cargo test --test suite golden::`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openPage, useSite, SHOTS, openPreset } from './browser.mjs';
import { readExpected, readPresets } from './cli.mjs';
import { assertSame } from './figures.mjs';

/** Where the latency line is written for scripts/test.sh's summary. */
const LATENCY = process.env.SQUILLION_LATENCY ?? 'target/e2e-latency.txt';
const site = useSite();

/** The figures of one operation of the CLI's JSON: [typical, largest] per metric. */
function cliFigures(op) {
  const pair = (key) => [op.typical.total[key].value, op.largest.total[key].value];
  return {
    // Each subject's own round trips: a read with nothing to fetch is not sent (tbc's typical
    // user makes 1, the celebrity 2).
    queries: [op.typical.queries, op.largest.queries],
    lookups: [op.typical.lookups, op.largest.lookups],
    docs_examined: pair('docs_examined'),
    keys_examined: pair('keys_examined'),
    docs_returned: pair('docs_returned'),
    bytes_returned: pair('bytes_returned'),
    docs_written: pair('docs_written'),
    bytes_written: pair('bytes_written'),
    index_keys_written: pair('index_keys_written'),
    shards: [op.typical.max_shards, op.largest.max_shards],
  };
}

/** Waits for the evaluation of `design` and returns what the page shows of it. */
async function shown(page, design) {
  await page.waitForSelector(`.eval-operations[data-state="done"][data-design="${design}"]`, { timeout: 180_000 });
  return page.evaluate(() => ({
    operations: [...document.querySelectorAll('.eval-unit')].map((u) => ({
      unit: u.dataset.unit,
      figures: Object.fromEntries(
        [...u.querySelectorAll('[data-metric]')].map((m) => [m.dataset.metric, [Number(m.dataset.value), Number(m.dataset.largest)]]),
      ),
    })),
    collections: [...document.querySelectorAll('.collection[data-evaluated="true"]')].map((c) => ({
      name: c.dataset.collection,
      documents: Number(c.querySelector('[data-metric="documents"]').dataset.value),
      total_bytes: Number(c.querySelector('[data-metric="total_bytes"]').dataset.value),
      index_bytes: Number(c.querySelector('[data-metric="index_bytes"]').dataset.value),
      // The typical sample document's exact size (shown first on the card).
      sample_bytes: ((v) => (v === undefined ? null : Number(v)))(c.querySelector('[data-metric="sample_bytes"]')?.dataset.value),
    })),
    warnings: [...document.querySelectorAll('.eval-warnings .warning')].map((w) => w.dataset.code).sort(),
  }));
}

test('every preset: each offered design shows the numbers of squillion eval --json', async () => {
  const presets = readPresets();
  assert.ok(presets.length >= 16, `presets: ${presets.length}`);
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  let compared = 0;
  for (const preset of presets) {
    await openPreset(page, preset.name);
    await page.waitForSelector('.lesson');
    const buttons = await page.$$('.design-button');
    // The preset's designs, then Custom (the model's own design: e2e/custom.test.mjs).
    assert.equal(buttons.length, preset.designs.length + 1, `${preset.name}: design buttons`);
    for (const [i, design] of preset.designs.entries()) {
      await buttons[i].click();
      const page_ = await shown(page, design);
      const cli = readExpected(preset.name, `${design}.json`);
      const where = `${preset.name} / ${design}`;
      assert.deepEqual(page_.operations.map((o) => o.unit), cli.operations.map((o) => o.unit), `${where}: operations`);
      for (const [j, op] of cli.operations.entries()) {
        assertSame(page_.operations[j].figures, cliFigures(op), `${where} / ${op.unit}`);
      }
      assertSame(
        page_.collections,
        cli.collections.map((c) => ({
          name: c.name,
          documents: c.stats.count,
          total_bytes: c.stats.total_bytes,
          index_bytes: c.index_bytes.value,
          sample_bytes: c.samples ? c.samples.typical.bytes : null,
        })),
        `${where}: collections`,
      );
      assert.deepEqual(page_.warnings, cli.warnings.map((w) => w.code).sort(), `${where}: warnings`);
      compared += 1;
    }
    // Custom, by its key (the one after the preset's designs): laid out, never an error.
    await page.keyboard.press(String(buttons.length));
    assert.equal(await buttons[buttons.length - 1].getAttribute('aria-pressed'), 'true', `${preset.name}: key ${buttons.length} selects Custom`);
    await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
    assert.ok(await page.$('.collection'), `${preset.name} / custom: no collection shown`);
    assert.equal(await page.$('.results > .error'), null, `${preset.name} / custom failed`);
  }
  console.log(`compared ${compared} evaluations of ${presets.length} presets with the CLI: every number equal to the last bit`);
  assert.deepEqual(errors, []);
  await page.close();
});

/** Presses `key` in the page and returns the ms until `design`'s evaluation is on screen. */
function switchTime(page, key, design) {
  return page.evaluate(({ key, design }) => new Promise((resolve) => {
    const selector = `.eval-operations[data-state="done"][data-design="${design}"]`;
    const t0 = performance.now();
    const done = () => {
      if (!document.querySelector(selector)) return false;
      observer.disconnect();
      resolve(performance.now() - t0);
      return true;
    };
    const observer = new MutationObserver(done);
    observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    window.dispatchEvent(new KeyboardEvent('keydown', { key }));
    done();
  }), { key, design });
}

test('design-switch latency on social-feed (a measurement, not an assertion)', async () => {
  const designs = readPresets().find((p) => p.name === 'social-feed').designs;
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  await openPreset(page, 'social-feed');
  await page.waitForSelector(`.eval-operations[data-state="done"][data-design="${designs[0]}"]`, { timeout: 180_000 });
  // At once: the second design's evaluation may still be running in the background.
  const first = await switchTime(page, '2', designs[1]);
  const cached = [await switchTime(page, '1', designs[0]), await switchTime(page, '2', designs[1])];
  // Uncached: a new sample scale, then at once the third design: the worker first finishes the
  // current design at the new scale, then evaluates the third one while the user waits.
  await page.fill('.scale-input', '499');
  await page.press('.scale-input', 'Enter');
  await page.$eval('.scale-input', (i) => i.blur());
  const uncached = await switchTime(page, '3', designs[2]);
  const line = `design-switch latency social-feed: first ${Math.round(first)} ms, cached ${Math.round(Math.max(...cached))} ms`
    + ` (uncached, evaluation on the critical path: ${Math.round(uncached)} ms)`;
  console.log(line);
  mkdirSync(dirname(LATENCY), { recursive: true });
  writeFileSync(LATENCY, `${line}\n`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the sample scale re-evaluates, and is clamped to the model limits', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  assert.equal(await page.inputValue('.scale-input'), '500', 'the model default is shown');
  await page.fill('.scale-input', '40');
  await page.press('.scale-input', 'Enter');
  await page.waitForFunction(() => document.querySelector('.eval-state[data-state="done"]')?.textContent.includes('≤ 40 docs'), null, { timeout: 180_000 });
  assert.match(await page.textContent('.collection'), /40 documents sampled/);
  await page.fill('.scale-input', '0');
  await page.press('.scale-input', 'Enter');
  assert.match(await page.textContent('.scale-clamped'), /Clamped to 1 /);
  assert.equal(await page.inputValue('.scale-input'), '1');
  await page.waitForFunction(() => document.querySelector('.eval-state[data-state="done"]')?.textContent.includes('≤ 1 docs'), null, { timeout: 180_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the worker reports each step of an evaluation in a progress bar', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  const operations = await page.$$eval('.eval-unit', (us) => us.length);
  // Record every state of the bar from now on.
  await page.evaluate(() => {
    window.steps = [];
    new MutationObserver(() => {
      const bar = document.querySelector('progress.eval-progress');
      if (bar) {
        window.steps.push({
          value: bar.getAttribute('value'), max: bar.getAttribute('max'),
          text: document.querySelector('.eval-state')?.textContent ?? '',
        });
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  await page.fill('.scale-input', '300');
  await page.press('.scale-input', 'Enter');
  await page.waitForFunction(() => document.querySelector('.eval-state[data-state="done"]')?.textContent.includes('≤ 300 docs'), null, { timeout: 180_000 });
  const steps = await page.evaluate(() => window.steps);
  const counted = steps.filter((s) => s.value !== null);
  assert.ok(counted.length >= 3, `the bar moved through the steps: ${JSON.stringify(steps)}`);
  // Generation, insertion, measuring, one step per operation, the cluster.
  for (const s of counted) assert.equal(Number(s.max), 4 + operations, JSON.stringify(s));
  const values = counted.map((s) => Number(s.value));
  assert.deepEqual(values, [...values].sort((a, b) => a - b), 'the steps only go forward');
  assert.ok(counted.some((s) => /running “.+” \(\d+ of \d+\)…/.test(s.text)), JSON.stringify(counted));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a reload shows the chosen design kept from the last visit, only for the same model and build', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${site.server.url}#playground`);
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  const first = await page.textContent('.eval-operations');
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('squillion.evaluation')));
  assert.ok(kept?.source && kept.json.length > 1000, 'the chosen design is kept');

  // From now on no worker ever answers: only a kept evaluation can show numbers.
  await context.addInitScript(() => {
    window.Worker = class {
      postMessage() {}
      terminate() {}
      addEventListener() {}
      removeEventListener() {}
    };
  });
  await page.reload();
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 60_000 });
  assert.equal(await page.textContent('.eval-operations'), first, 'the same numbers as the evaluation');

  // Another build (source hash), then another model: evaluated again, which no worker answers.
  for (const change of [
    (k) => ({ ...k, source: 'another build' }),
    (k) => ({ ...k, text: k.text.replace('"name"', '"name" ') }),
  ]) {
    await page.evaluate((k) => localStorage.setItem('squillion.evaluation', JSON.stringify(k)), change(kept));
    await page.reload();
    await page.waitForSelector('.eval-state[data-state="running"]', { timeout: 60_000 });
    await page.waitForTimeout(1_000);
    assert.equal(await page.$('.eval-operations[data-state="done"]'), null, 'not taken');
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('without a worker the page evaluates inline and says so', async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.route('**/worker.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(`${site.server.url}#playground`);
  await page.waitForSelector('.inline-notice', { timeout: 60_000 });
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  assert.ok((await page.$$('.eval-unit [data-metric="queries"]')).length > 0);
  await page.close();
});

test('screenshots of the evaluated playground (1280×720, 1920×1080, dark)', async () => {
  for (const [width, height, scheme] of [[1280, 720, 'light'], [1920, 1080, 'light'], [1280, 720, 'dark']]) {
    const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width, height });
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
    await page.screenshot({ path: `${SHOTS}/playground-eval-${width}x${height}-${scheme}.png` });
    if (width === 1920) await page.screenshot({ path: `${SHOTS}/playground-eval-full.png`, fullPage: true });
    assert.deepEqual(errors, []);
    await page.close();
  }
});
