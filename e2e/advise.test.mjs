// End-to-end: the Advise panel on social-feed. The advisor runs in a worker of its own with its
// progress; the Pareto front is drawn (a point per design, its figures on hover), the
// recommendation is listed with its explanations, and "Apply" makes it the model's Custom design
// (one undo step): the figures the page then shows are those of the release CLI's
// `squillion eval --design FILE --json` for that design, numbers to the last bit. The CLI is
// SQUILLION_BIN, else $CARGO_TARGET_DIR/release/squillion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPage, useSite, SHOTS } from './browser.mjs';
import { cliJson } from './cli.mjs';
import { assertSame, cliShown, shownEval } from './figures.mjs';
import { hiddenPoints, idsShown } from './advise-check.mjs';

const site = useSite();

/** The model as the JSON tab shows it (the Form tab is shown again after). */
async function savedModel(page) {
  await page.click('#tab-json');
  const model = JSON.parse(await page.inputValue('#model-input'));
  await page.click('#tab-form');
  return model;
}

test('Advise on social-feed: the front, the recommendation, Apply gives squillion eval of it', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });

  await page.click('#open-advise');
  // Progress while it runs (phase N of M), then the advice.
  await page.waitForSelector('#advise[data-state="running"] progress', { timeout: 30_000 });
  await page.waitForSelector('#advise[data-state="done"]', { timeout: 180_000 });

  // The search said: the space, how much was explored, the infeasible count.
  const searched = await page.$eval('[data-testid="advise-searched"]', (p) => ({ ...p.dataset, text: p.textContent }));
  assert.ok(Number(searched.space) >= 2, `space: ${searched.space}`);
  assert.equal(searched.explored, searched.space, 'social-feed is searched exhaustively');
  assert.match(searched.text, new RegExp(`${searched.infeasible} infeasible`));

  // The front: at least two designs, each with its figures on hover.
  const points = await page.$$eval('.front-point', (ps) => ps.map((p) => ({
    rank: p.dataset.rank, title: p.querySelector('title').textContent, recommended: p.classList.contains('recommended'),
  })));
  assert.ok(points.length >= 2, `front points: ${points.length}`);
  for (const p of points) assert.match(p.title, /read round trips\/s, .* documents and .* index keys written\/s, .* stored and .* of indexes; score/);

  // The recommendation: named, first among the best designs, explained per relationship.
  const headline = await page.textContent('[data-testid="advise-recommended"]');
  assert.match(headline, /^Recommended: Copy each activity into the feed of every user it goes to, in buckets of 50 per feed/);
  // It scores worse than the Normalized design, and says why: that design is infeasible.
  const yardstick = await page.$eval('[data-testid="advise-yardstick"]', (p) => ({ reason: p.dataset.reason, text: p.textContent }));
  assert.equal(yardstick.reason, 'infeasible');
  assert.match(yardstick.text, /because the Normalized design is infeasible: activity\.to breaks 16 MiB/);
  // Every design and choice in words: no strategy id shown (they stay in data-design).
  assert.deepEqual(await idsShown(page), []);
  assert.deepEqual(await hiddenPoints(page), []);
  const rows = await page.$$eval('.advise-table tbody tr', (trs) => trs.map((tr) => ({
    recommended: tr.classList.contains('recommended'), label: tr.querySelector('.advise-words').textContent, verdict: tr.querySelector('.advise-verdict').textContent,
  })));
  assert.ok(rows.length >= 2, `best designs: ${rows.length}`);
  const rec = rows.find((r) => r.recommended);
  assert.ok(rec, 'the recommended design is listed');
  assert.ok(headline.includes(rec.label.trim()), `${headline} / ${rec.label}`);
  assert.equal(rec.verdict, 'verified, feasible');
  assert.ok(points.some((p) => p.recommended), 'the recommendation is on the front');
  // Its cost by the cost model, and where the pick flips (the CLI's numbers: docs/advisor.md).
  assert.match(await page.textContent('[data-testid="advise-cost"]'), /^cost: [\d.]+ (µs|ms|s)\/s of work \(.* reading, .* writing; \d+% of it .+\), storage /);
  // What decides against the runner-up, and where the feed's choice flips: both run on the
  // engine (the CLI's explanation, docs/advisor.md "Where each choice flips").
  const runnerUp = await page.$eval('[data-testid="advise-runner-up"]', (p) => ({ decided: p.dataset.decidedBy, term: p.dataset.term, text: p.textContent }));
  assert.deepEqual([runnerUp.decided, runnerUp.term], ['reads', 'docs_from_disk'], JSON.stringify(runnerUp));
  assert.match(runnerUp.text, /^Against the runner-up \(Copy each activity into the feed of every user it goes to, one document per copy\): its reads cost more, mostly documents read from disk/);
  const feedWhy = await page.textContent('.advise-explanations li[data-dimension="feed"]');
  assert.match(feedWhy, /On the engine it costs \+[\d.]+ s\/s of work and \+[\d.]+ TiB on disk, mostly documents read from disk .*, and would win below [\d.]+ reads per write \(today 55\)\./);
  const flips = await page.$$eval('[data-testid="advise-flips"] li', (lis) => lis.map((l) => l.textContent));
  assert.ok(flips.some((f) => /^Copy each activity into the feed of every user it goes to, one document per copy .*ties at [\d.]+ reads per write \(today 55\)/.test(f)), `flips: ${JSON.stringify(flips)}`);
  // The same flips drawn: the recommendation's line and one per flip, crossing at its ratio.
  const ratio = await page.$eval('[data-testid="advise-ratio"]', (f) => ({
    today: Number(f.dataset.today),
    lines: f.querySelectorAll('polyline.ratio-line').length,
    recommended: f.querySelectorAll('polyline.ratio-line.recommended').length,
    flips: [...f.querySelectorAll('.ratio-flip')].map((c) => Number(c.dataset.ratio)),
    legend: [...f.querySelectorAll('.ratio-legend li')].map((l) => l.textContent.trim()),
  }));
  assert.equal(ratio.today, 55);
  assert.equal(ratio.lines, Math.min(flips.length, 3) + 1, JSON.stringify(ratio));
  assert.equal(ratio.recommended, 1);
  const at = Number(/ties at ([\d.]+) reads per write/.exec(flips.find((f) => /ties at/.test(f)))[1]);
  assert.ok(ratio.flips.some((r) => Math.abs(r - at) / at < 0.05), `flip dots ${ratio.flips} vs ${at}`);
  assert.ok(headline.includes(ratio.legend[0]), `legend ${ratio.legend[0]}`);
  const why = await page.$$eval('.advise-explanations li', (lis) => lis.map((l) => [l.dataset.dimension, l.textContent]));
  assert.ok(why.some(([d]) => d === 'feed'), `explanations: ${JSON.stringify(why)}`);

  await page.screenshot({ path: `${SHOTS}/advise-social-feed.png` });
  await page.$eval('#advise', (a) => a.scrollIntoView());
  await page.screenshot({ path: `${SHOTS}/advise-social-feed-panel.png` });

  // Apply: another of the best designs first (so that the recommendation's Apply has a design
  // to replace), then the recommendation. Each is the model's design, one undo step each, the
  // bar on Custom; the figures shown are the CLI's for the recommendation.
  const spec = (sel) => page.$eval(sel, (b) => JSON.parse(b.dataset.design));
  const other = '.advise-table tbody tr:not(.recommended) .advise-apply-row';
  const otherDesign = await spec(other);
  await page.click(other);
  await page.waitForSelector('.design-button[data-design="custom"][aria-pressed="true"]');
  assert.deepEqual((await savedModel(page)).design, otherDesign, 'Apply wrote the other design');
  const recDesign = await spec('.advise-apply');
  assert.notDeepEqual(recDesign, otherDesign);
  await page.click('.advise-apply');
  const model = await savedModel(page);
  assert.deepEqual(model.design, recDesign, 'Apply wrote the recommendation');
  assert.equal(await page.textContent('.advise-table tr.recommended .advise-apply-row'), 'Applied');
  const shown = await shownEval(page);
  const dir = mkdtempSync(join(tmpdir(), 'squillion-advise-'));
  try {
    const file = join(dir, 'design.json');
    writeFileSync(file, JSON.stringify(model.design));
    const cli = cliJson(['eval', '--preset', 'social-feed', '--design', file, '--json']);
    assertSame(shown, cliShown(cli), 'social-feed / the advisor\'s recommendation');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await page.screenshot({ path: `${SHOTS}/advise-applied.png` });
  await page.$eval('.advise-apply', (b) => b.blur());
  await page.keyboard.press('Control+z');
  assert.deepEqual((await savedModel(page)).design, otherDesign, 'one undo step takes the design back');

  // Cancel: a rerun with other weights stops when asked, and says nothing went wrong.
  await page.fill('#advise-w-storage', '5');
  await page.press('#advise-w-storage', 'Enter');
  await page.waitForSelector('#advise[data-state="running"]');
  await page.click('.advise-cancel');
  await page.waitForSelector('#advise[data-state="idle"]');
  assert.deepEqual(errors, []);
});

/** Returns the rendered font size (px on screen) of every SVG text `selector` matches. */
async function textPx(page, selector) {
  return page.$$eval(selector, (els) => els.filter((e) => e.getClientRects().length > 0)
    .map((e) => parseFloat(getComputedStyle(e).fontSize) * e.ownerSVGElement.getScreenCTM().a));
}

/** Returns how far each front point's circle pokes out of its drawing (0 when inside). */
async function clipped(page) {
  return page.$$eval('.advise-front svg', (svgs) => svgs.flatMap((svg) => {
    const box = svg.getBoundingClientRect();
    return [...svg.querySelectorAll('.front-point circle')].map((c) => {
      const r = c.getBoundingClientRect();
      return Math.max(0, box.left - r.left, box.top - r.top, r.right - box.right, r.bottom - box.bottom);
    });
  }));
}

test('the front chart: every point whole, labels readable at 1280×720 and ≥ 16 px in workshop mode; a point applied is squillion eval of its design', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await page.click('#open-advise');
  await page.waitForSelector('#advise[data-state="done"]', { timeout: 180_000 });

  // No point is cut by the drawing's edge, the top one included.
  for (const out of await clipped(page)) assert.ok(out <= 0.5, `a front point is clipped by ${out} px`);
  const normal = await textPx(page, '.advise-front svg text');
  assert.ok(normal.length > 0 && Math.min(...normal) >= 14, `chart labels at 1280×720: ${Math.min(...normal)} px`);
  // The score says what it is against, and that the yardstick may be infeasible.
  assert.match(await page.textContent('.advise-table thead'), /Score vs Normalized/);
  await page.locator('.advise-front').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/advise-front-1280.png` });

  // Click a point of the front that is not the recommendation: it becomes the Custom design and
  // the page's figures are the CLI's for it.
  const point = '.front-point:not(.recommended)';
  const target = (await page.$(point)) ? point : '.front-point';
  const design = await page.$eval(target, (g) => JSON.parse(g.dataset.design));
  await page.click(target);
  await page.waitForSelector('.design-button[data-design="custom"][aria-pressed="true"]');
  const model = await savedModel(page);
  assert.deepEqual(model.design, design, 'the point\'s design is the model\'s');
  const shown = await shownEval(page);
  const dir = mkdtempSync(join(tmpdir(), 'squillion-advise-'));
  try {
    const file = join(dir, 'design.json');
    writeFileSync(file, JSON.stringify(design));
    const cli = cliJson(['eval', '--preset', 'social-feed', '--design', file, '--json']);
    assertSame(shown, cliShown(cli), 'social-feed / a point of the front');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // Workshop mode: the chart larger, every label 16 px or more, no point clipped.
  await page.keyboard.press('w');
  await page.waitForTimeout(300);
  assert.equal(await page.$eval('html', (h) => h.classList.contains('workshop')), true);
  const big = await textPx(page, '.advise-front svg text');
  assert.ok(big.length > 0 && Math.min(...big) >= 16, `chart labels in workshop mode: ${Math.min(...big)} px`);
  for (const out of await clipped(page)) assert.ok(out <= 0.5, `workshop: a front point is clipped by ${out} px`);
  await page.locator('.advise-front').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/advise-front-workshop.png` });
  assert.deepEqual(errors, []);
});

test('the Advise view at 1280, 1440 and 1920 wide: the designs readable, every Apply whole, no point hidden', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1440, height: 900 });
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await page.click('#open-advise');
  await page.waitForSelector('#advise[data-state="done"]', { timeout: 180_000 });
  for (const [width, height] of [[1280, 720], [1440, 900], [1920, 1080]]) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(200);
    await page.$eval('#advise', (a) => a.scrollIntoView());
    const layout = await page.$$eval('.advise-table tbody tr', (trs) => trs.map((tr) => {
      const design = tr.querySelector('th').getBoundingClientRect();
      const button = tr.querySelector('.advise-apply-row');
      const b = button.getBoundingClientRect();
      const region = tr.closest('.table-scroll').getBoundingClientRect();
      return { design: design.width, clipped: button.scrollWidth > button.clientWidth + 1, outside: b.right > region.right + 0.5 || b.left < region.left - 0.5 };
    }));
    for (const row of layout) {
      assert.ok(row.design >= 220, `${width}: the Design column is ${row.design} px wide`);
      assert.ok(!row.clipped && !row.outside, `${width}: an Apply button is clipped: ${JSON.stringify(row)}`);
    }
    assert.deepEqual(await hiddenPoints(page), [], `${width}: a front point hides another`);
    await page.screenshot({ path: `${SHOTS}/advise-${width}.png`, fullPage: false });
  }
  assert.deepEqual(errors, []);
});

test('the cost model on the page: a changed price re-runs the advice, which is squillion advise --cost of it', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  const model = await savedModel(page);
  await page.click('#open-advise');
  await page.waitForSelector('#advise[data-state="done"]', { timeout: 180_000 });
  const before = await page.textContent('[data-testid="advise-recommended"] strong');

  // Folded by default, with the defaults of docs/advisor.md.
  await page.click('.advise-costs > summary');
  assert.equal(await page.inputValue('#advise-c-round-trip'), '300');
  assert.equal(await page.inputValue('#advise-c-disk-read'), '100');
  assert.ok(await page.isDisabled('.advise-costs-reset'), 'nothing to reset');

  // Free round trips and disk reads: what the CLI recommends with the same prices.
  const dir = mkdtempSync(join(tmpdir(), 'squillion-cost-'));
  try {
    const modelFile = join(dir, 'model.json');
    const costFile = join(dir, 'cost.json');
    writeFileSync(modelFile, JSON.stringify(model));
    writeFileSync(costFile, JSON.stringify({ round_trip_us: 0, disk_read_us: 0 }));
    const cli = cliJson(['advise', modelFile, '--cost', costFile, '--json']);
    for (const [id, v] of [['#advise-c-round-trip', '0'], ['#advise-c-disk-read', '0']]) {
      await page.fill(id, v);
      await page.dispatchEvent(id, 'change');
      await page.waitForSelector('#advise[data-state="done"]', { timeout: 180_000 });
    }
    const after = await page.textContent('[data-testid="advise-recommended"] strong');
    assert.equal(after, `Recommended: ${cli.recommended.description}`);
    assert.notEqual(after, before, 'the pick flips when reads cost nothing but their documents');

    // A price that is not one is refused: the field shows the price in use again.
    await page.fill('#advise-c-doc-written', '-5');
    await page.dispatchEvent('#advise-c-doc-written', 'change');
    assert.equal(await page.inputValue('#advise-c-doc-written'), '20');

    // Defaults again: the first pick.
    await page.click('.advise-costs-reset');
    await page.waitForSelector('#advise[data-state="done"]', { timeout: 180_000 });
    assert.equal(await page.textContent('[data-testid="advise-recommended"] strong'), before);
    await page.locator('#advise').screenshot({ path: `${SHOTS}/advise-costs.png` });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(errors, []);
  await page.close();
});
