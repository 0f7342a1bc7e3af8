// End-to-end: the "Designs side by side" charts draw every offered design of every preset from
// the engine's evaluations, with the very figures of `squillion eval --preset NAME --design D
// --json` (the golden evaluations in tests/golden/; see evaluation.test.mjs) and
// the text the workload view shows; a design whose evaluation fails is drawn as failed, with
// why; no label overlaps another or leaves its chart, at 1280×720 and 1920×1080, light, dark
// and in workshop mode. Screenshots of every chart go to target/screenshots/charts-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { openPage, openPreset, useSite, SHOTS } from './browser.mjs';
import { readExpected, readPresets } from './cli.mjs';

const site = useSite();

/**
 * Asserts that the page's `actual` is the CLI's `expected`: exactly, or within 2 units in the
 * last place (a few full-scale figures differ in the last bit between wasm and native; see
 * evaluation.test.mjs).
 */
function assertFigure(actual, expected, where) {
  const ulp = Number.EPSILON * Math.max(Math.abs(actual), Math.abs(expected));
  assert.ok(actual === expected || Math.abs(actual - expected) <= 2 * ulp, `${where}: chart ${actual}, CLI ${expected}`);
}

/** Waits until no design of the charts is still evaluating. */
async function settled(page) {
  await page.waitForFunction(() => {
    const cost = document.querySelector('.chart[data-chart="cost"]');
    return cost && cost.querySelector('rect.bar') && !document.querySelector('.design-charts [data-state="pending"]');
  }, null, { timeout: 240_000 });
}

/** Returns the cost bars shown, with their design, operation, state, value and labels. */
function costBars(page) {
  return page.$$eval('.chart[data-chart="cost"] rect.bar', (rs) => rs.map((r) => ({
    design: r.dataset.design,
    op: r.dataset.op,
    state: r.dataset.state,
    value: r.dataset.value === undefined ? null : Number(r.dataset.value),
    text: r.dataset.text ?? null,
    label: r.getAttribute('aria-label'),
    title: r.querySelector('title')?.textContent,
  })));
}

/**
 * Returns every problem of the charts' text: a label outside its chart, two labels that
 * overlap, a chart wider than its card.
 */
function layoutProblems(page) {
  return page.$$eval('.design-charts svg.bars', (svgs) => {
    const problems = [];
    for (const svg of svgs) {
      const chart = svg.closest('.chart').dataset.chart;
      const w = svg.width.baseVal.value;
      const h = svg.height.baseVal.value;
      const card = svg.closest('.card').getBoundingClientRect();
      if (svg.getBoundingClientRect().right > card.right + 0.5) problems.push(`${chart}: wider than its card`);
      const boxes = [...svg.querySelectorAll('text')].map((t) => ({ t: t.textContent, b: t.getBBox() }));
      for (const { t, b } of boxes) {
        if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > w + 0.5 || b.y + b.height > h + 0.5) {
          problems.push(`${chart}: "${t}" leaves the chart (${Math.round(b.x)},${Math.round(b.y)} ${Math.round(b.width)}×${Math.round(b.height)} in ${w}×${h})`);
        }
      }
      for (let i = 0; i < boxes.length; i += 1) {
        for (let j = i + 1; j < boxes.length; j += 1) {
          const [a, b] = [boxes[i].b, boxes[j].b];
          const ox = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
          const oy = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
          if (ox > 0.5 && oy > 0.5) problems.push(`${chart}: "${boxes[i].t}" overlaps "${boxes[j].t}"`);
        }
      }
    }
    return problems;
  });
}

/** Asserts what every chart must hold for `designs` (CLI names) of the preset `name`. */
async function checkPreset(page, name, designs) {
  const cli = designs.map((d) => readExpected(name, `${d}.json`));
  // Every design's units (a lifecycle design adds its own): the chart has a group for each,
  // and a design without one shows a placeholder there.
  const ops = [...new Set(cli.flatMap((e) => e.operations.map((o) => o.unit)))];
  const byKey = (bars) => new Map(bars.map((b) => [`${b.design}/${b.op}`, b]));
  // Round trips (the default), then docs examined: one bar per design and operation, each
  // with the CLI's figure as its value and in its label.
  for (const [metric, value] of [
    ['queries', (o) => o.queries],
    ['docs_examined', (o) => o.typical.total.docs_examined.value],
  ]) {
    if (metric !== 'queries') await page.click(`.metric-switch[data-metric="${metric}"]`);
    const bars = await costBars(page);
    assert.equal(bars.length, designs.length * ops.length, `${name} ${metric}: bars = designs × operations`);
    const shown = byKey(bars);
    for (const [i, design] of designs.entries()) {
      for (const op of cli[i].operations) {
        const bar = shown.get(`${design}/${op.unit}`);
        assert.ok(bar, `${name}: no bar for ${design}/${op.unit}`);
        assert.equal(bar.state, 'done', `${name} ${design}`);
        assertFigure(bar.value, value(op), `${name} ${metric} ${design}/${op.unit}`);
        assert.ok(bar.label.includes(`: ${bar.text} `), `${name}: ${bar.label} / ${bar.text}`);
        assert.equal(bar.title, bar.label);
      }
      for (const op of ops.filter((u) => !cli[i].operations.some((o) => o.unit === u))) {
        const bar = shown.get(`${design}/${op}`);
        assert.ok(bar, `${name}: no placeholder for ${design}/${op}`);
        assert.equal(bar.value, null, `${name}: ${design} does not run ${op}`);
      }
    }
  }
  // The chosen (first) design's docs examined are written as the workload view writes them.
  await page.waitForSelector(`.eval-operations[data-state="done"][data-design="${designs[0]}"]`, { timeout: 180_000 });
  const cells = await page.$$eval('.eval-unit', (us) => us.map((u) => [u.dataset.unit, u.querySelector('[data-metric="docs_examined"] dd').textContent]));
  const bars = byKey(await costBars(page));
  for (const [unit, text] of cells) {
    const bar = bars.get(`${designs[0]}/${unit}`);
    assert.ok(text.startsWith(bar.text), `${name} ${unit}: workload "${text}", chart "${bar.text}"`);
  }
  await page.click('.metric-switch[data-metric="queries"]');
  // Storage: a data and an index segment per collection of each design, the CLI's bytes.
  const segs = await page.$$eval('.chart[data-chart="storage"] rect.bar-seg', (rs) => rs.map((r) => ({ ...r.dataset, label: r.getAttribute('aria-label') })));
  for (const [i, design] of designs.entries()) {
    const mine = segs.filter((s) => s.design === design);
    assert.equal(mine.length, cli[i].collections.length * 2, `${name} ${design}: segments`);
    for (const c of cli[i].collections) {
      const data = mine.find((s) => s.collection === c.name && s.kind === 'data');
      const index = mine.find((s) => s.collection === c.name && s.kind === 'indexes');
      assertFigure(Number(data.value), c.stats.total_bytes, `${name} ${design} ${c.name} data`);
      assertFigure(Number(index.value), c.index_bytes.value, `${name} ${design} ${c.name} indexes`);
      assert.match(index.label, /\(estimate\)$/);
    }
  }
  // Legends: one entry per design; one per collection plus the index key.
  assert.equal(await page.$$eval('.chart[data-chart="cost"] .chart-legend li', (ls) => ls.length), designs.length);
  const collections = new Set(cli.flatMap((e) => e.collections.map((c) => c.name)));
  assert.equal(await page.$$eval('.chart[data-chart="storage"] .chart-legend li', (ls) => ls.length), collections.size + 1);
  // No collection wears a design's colour (two palettes, however many designs), and the
  // collections' colours differ while the palette lasts.
  const fills = (sel) => page.$$eval(sel, (rs) => [...new Set(rs.map((r) => getComputedStyle(r).fill))]);
  const designFills = await fills('.chart[data-chart="cost"] rect.bar:not(.placeholder)');
  const collectionFills = await fills('.chart[data-chart="storage"] rect.bar-seg');
  assert.equal(designFills.length, Math.min(designs.length, 8), `${name}: design colours`);
  assert.equal(collectionFills.length, Math.min(collections.size, 8), `${name}: collection colours`);
  assert.deepEqual(collectionFills.filter((f) => designFills.includes(f)), [], `${name}: a collection in a design's colour`);
  assert.deepEqual(await layoutProblems(page), [], `${name}: layout`);
}

test('every preset: one bar per design and operation, with the figures of squillion eval --json', async () => {
  const presets = readPresets();
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  for (const preset of presets) {
    await openPreset(page, preset.name);
    await settled(page);
    // The preset's designs, then Custom (the preset file's own design until it is edited).
    await checkPreset(page, preset.name, [...preset.designs, 'custom']);
    const card = await page.$('.design-charts');
    await card.screenshot({ path: `${SHOTS}/charts-${preset.name}.png` });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('large screens, dark theme and workshop mode: nothing overlaps, nothing is clipped', async () => {
  for (const [width, height, scheme, workshop] of [
    [1920, 1080, 'dark', false],
    [1280, 720, 'dark', true],
    [1920, 1080, 'light', true],
  ]) {
    const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width, height });
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
    for (const name of ['social-graph', 'product-parts']) {
      // The preset chooser is in the model card, which workshop mode hides.
      if (workshop && name !== 'social-graph') await page.click('.workshop-toggle');
      await openPreset(page, name);
      if (workshop) await page.click('.workshop-toggle');
      await settled(page);
      // The charts follow the card's width (it changes with workshop mode).
      await page.waitForFunction(() => {
        const svg = document.querySelector('.design-charts svg.bars');
        const host = document.querySelector('.chart-host');
        return svg && Math.abs(svg.width.baseVal.value - host.clientWidth) < 1;
      });
      assert.deepEqual(await layoutProblems(page), [], `${name} ${width}×${height} ${scheme}${workshop ? ' workshop' : ''}`);
      const fonts = await page.$$eval('.design-charts svg.bars', (s) => s.map((x) => x.getAttribute('font-size')));
      assert.ok(fonts.every((f) => f === (workshop ? '18' : '12')), `font sizes ${fonts}`);
      const card = await page.$('.design-charts');
      const shot = `${SHOTS}/charts-${name}-${width}x${height}-${scheme}${workshop ? '-workshop' : ''}`;
      await card.screenshot({ path: `${shot}.png` });
      // Docs examined span orders of magnitude on these presets: a log scale, still clear.
      await page.click('.metric-switch[data-metric="docs_examined"]');
      assert.equal(await page.$eval('.chart[data-chart="cost"] svg', (s) => s.dataset.scale), 'log scale');
      assert.deepEqual(await layoutProblems(page), [], `${name} docs examined`);
      await (await page.$('.chart[data-chart="cost"]')).screenshot({ path: `${shot}-docs.png` });
      await page.click('.metric-switch[data-metric="queries"]');
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});

/** A share-link payload, as src/share.rs encodes it: raw deflate, base64url without padding. */
const payload = (text) => deflateRawSync(Buffer.from(text), { level: 9 }).toString('base64url');

test('a design whose evaluation fails is drawn as failed, with why; the others are drawn', async () => {
  // Social feed without its preset (the three named designs and its own, "Custom", which is
  // denormalized) with a sample of 6,000 per entity: too big to evaluate for normalized and
  // bucketed (the engine refuses it up front), fine for the other two.
  const model = JSON.parse(readFileSync('presets/social-feed.json', 'utf8'));
  delete model.preset;
  model.name = 'social feed, big sample';
  model.sample = { max_documents: 6000 };
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground&model=${payload(JSON.stringify(model))}`, { width: 1280, height: 720 });
  await settled(page);
  const bars = await costBars(page);
  const designs = [...new Set(bars.map((b) => b.design))];
  assert.deepEqual(designs, ['normalized', 'denormalized', 'bucketed', 'custom']);
  const ops = new Set(bars.map((b) => b.op));
  assert.ok(ops.size >= 3);
  assert.equal(bars.length, designs.length * ops.size);
  const failing = ['normalized', 'bucketed'];
  for (const b of bars) {
    if (failing.includes(b.design)) {
      assert.equal(b.state, 'failed', JSON.stringify(b));
      assert.equal(b.value, null);
      assert.match(b.label, /: failed: the sample is too big to evaluate \(about [\d,.]+ MiB in memory, over the limit of 64 MiB\); at most [\d,]+ documents per entity fit$/);
    } else {
      assert.equal(b.state, 'done', JSON.stringify(b));
      assert.ok(Number.isFinite(b.value));
    }
  }
  const legend = await page.$$eval('.chart[data-chart="cost"] .chart-legend li', (ls) => ls.map((l) => [l.dataset.state, l.textContent, l.title]));
  assert.deepEqual(legend.map((l) => l[0]), ['failed', 'done', 'failed', 'done']);
  assert.match(legend[0][1], /^Normalized \(failed: the sample is too big to evaluate/);
  assert.match(legend[0][2], /at most [\d,]+ documents per entity fit\. Lower “Sample” beside the design bar$/, 'the whole message on hover, in the page\'s words');
  const storage = await page.$$eval('.chart[data-chart="storage"] svg [data-state]', (r) => r.map((x) => [x.dataset.design, x.dataset.state]));
  assert.deepEqual(storage, [['normalized', 'failed'], ['denormalized', 'done'], ['bucketed', 'failed'], ['custom', 'done']]);
  assert.deepEqual(await layoutProblems(page), []);
  await (await page.$('.design-charts')).screenshot({ path: `${SHOTS}/charts-failed.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
