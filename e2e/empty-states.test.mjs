// End-to-end: the states between the usual ones: the comparison of a model without
// operations says there is nothing to run instead of rows of zeros (the sizes stay), the
// comparison's byte cells give the exact count on hover, a refused rename is said beside its
// field, and the charts' text follows workshop mode even when their width stays the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useSite, SHOTS, openPreset } from './browser.mjs';

const site = useSite();

/** The rows of the comparison at full scale, the ones a model without operations keeps. */
const SIZE_ROWS = ['storage_bytes', 'index_bytes', 'largest_document_bytes'];

/** Waits until every column of the comparison is evaluated. */
const allDone = (page) => page.waitForFunction(() => {
  const heads = [...document.querySelectorAll('.compare-table thead th[data-design]')];
  return heads.length > 0 && heads.every((h) => h.dataset.state === 'done');
}, null, { timeout: 300_000 });

/** Types `value` into the form input labelled `label` and commits it (Enter). */
async function commit(page, label, value) {
  await page.fill(`[aria-label="${label}"]`, value);
  await page.press(`[aria-label="${label}"]`, 'Enter');
}

test('the blank model: the comparison says there is nothing to run and keeps the sizes; no totals of 0', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 900 });
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await openPreset(page, 'blank');
  await page.waitForSelector('.eval-operations[data-state="done"] [data-testid="nothing-to-run"]', { timeout: 60_000 });
  await allDone(page);
  const table = await page.$eval('.compare-table', (t) => ({
    columns: t.querySelectorAll('thead th[data-design]').length,
    rows: [...t.querySelectorAll('tbody tr')].map((tr) => ({
      metric: tr.dataset.metric ?? null,
      testid: tr.dataset.testid ?? null,
      cells: [...tr.querySelectorAll('td')].map((td) => td.textContent.trim()),
      colspan: tr.querySelector('td')?.colSpan,
    })),
  }));
  assert.ok(table.columns >= 2, 'the designs offered for one\'s own model');
  // First the row that says why, across every column; then the sizes and the warnings.
  const [why, ...rest] = table.rows;
  assert.equal(why.testid, 'compare-nothing-to-run');
  assert.equal(why.colspan, table.columns);
  assert.match(why.cells[0], /nothing to run/);
  assert.deepEqual(rest.map((r) => r.metric), [...SIZE_ROWS, 'warnings'], 'no per-second rows');
  for (const r of rest.filter((x) => SIZE_ROWS.includes(x.metric) && x.metric !== 'index_bytes')) {
    for (const c of r.cells) assert.match(c, /^\d+(\.\d+)? (B|KiB|MiB|GiB)$/, `${r.metric}: ${c}`);
    assert.ok(r.cells.some((c) => !/^0 B$/.test(c)), `${r.metric} has sizes`);
  }
  // The workload card says why instead of printing totals of 0.
  assert.equal(await page.$('.eval-totals'), null, 'no totals line');
  const card = await page.textContent('.eval-operations');
  assert.doesNotMatch(card, /\b0 round trips/);
  assert.match(card, /nothing to run/);
  assert.doesNotMatch(await page.textContent('.results'), /Evaluating the designs/);
  // The cost chart says so too, without a metric switch or a legend for bars it does not draw.
  const cost = page.locator('.chart[data-chart="cost"]');
  await page.waitForFunction(() => /nothing to run/.test(document.querySelector('[data-chart="cost"]')?.textContent ?? ''));
  assert.equal(await cost.locator('.metric-switches, .chart-legend').count(), 0);
  await page.locator('.compare').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/empty-states-blank-results-1280x900.png` });
  // A workload again: the per-second rows come back.
  await openPreset(page, 'blog');
  await page.waitForSelector('.compare-table tr[data-metric="queries_per_sec"]', { timeout: 180_000 });
  assert.equal(await page.$('[data-testid="compare-nothing-to-run"]'), null);
  assert.equal(await cost.locator('.metric-switch').count(), 5, 'the switch is back');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the comparison\'s byte cells: binary units, the exact count on hover; counts have no title', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1920, height: 1080 });
  await allDone(page);
  const cells = await page.$$eval('.compare-table tbody tr[data-metric] td[data-value]', (tds) => tds.map((td) => ({
    metric: td.closest('tr').dataset.metric,
    value: Number(td.dataset.value),
    text: td.textContent.trim(),
    title: td.getAttribute('title'),
  })));
  const bytes = cells.filter((c) => /bytes/.test(c.metric));
  assert.equal(new Set(bytes.map((c) => c.metric)).size, 5, 'bytes returned and written, data, index, largest document');
  for (const c of bytes) {
    const perSec = !['storage_bytes', 'index_bytes', 'largest_document_bytes'].includes(c.metric);
    const unit = perSec ? '/s' : '';
    assert.match(c.text, new RegExp(`^\\d+(\\.\\d+)? (B|KiB|MiB|GiB|TiB)${unit}$`), `${c.metric}: ${c.text}`);
    assert.equal(c.title, `${Math.round(c.value).toLocaleString('en-US')} ${Math.round(c.value) === 1 ? 'byte' : 'bytes'}${unit}`, `${c.metric}: hover of ${c.text}`);
  }
  for (const c of cells.filter((x) => !/bytes/.test(x.metric))) assert.equal(c.title, null, `${c.metric}: ${c.text}`);
  const largest = bytes.find((c) => c.metric === 'largest_document_bytes');
  console.log(`largest document: "${largest.text}", on hover "${largest.title}"`);
  await page.hover('.compare-table tr[data-metric="largest_document_bytes"] td');
  await page.locator('.compare').screenshot({ path: `${SHOTS}/empty-states-compare-units-1920.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a refused rename is said beside its field, and goes with the next edit', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.collection');
  // An entity renamed to a name in use: under the entity's head, beside its name.
  await commit(page, 'Name of entity 1', 'activity');
  const entity = page.locator('.entity-item').first().locator('.item-head .name-problem');
  assert.equal(await entity.textContent(), 'There is already an entity named “activity”.');
  assert.match(await page.textContent('.form-message'), /already an entity named “activity”/, 'the form says it too');
  assert.equal(await page.inputValue('[aria-label="Name of entity 1"]'), 'user');
  const input = await page.locator('[aria-label="Name of entity 1"]').boundingBox();
  const said = await entity.boundingBox();
  assert.ok(said.y >= input.y + input.height - 1 && said.y - (input.y + input.height) < 60, `right under the name: ${JSON.stringify({ input, said })}`);
  assert.equal(await page.locator('.name-problem').count(), 1, 'only beside the field refused');
  await page.locator('.entity-item').first().screenshot({ path: `${SHOTS}/empty-states-rename-refused.png` });
  // A field renamed to another field's name: under the field's name, in its row.
  await commit(page, 'Name of field type of activity', 'date');
  const field = page.locator('.field-row:has([aria-label="Name of field type of activity"]) .name-problem');
  assert.equal(await field.textContent(), 'There is already a field named “date”.');
  assert.equal(await page.locator('.name-problem').count(), 1, 'the entity\'s refusal is no longer the last word');
  // An empty relationship name.
  await commit(page, 'Name of relationship 1', '');
  assert.equal(await page.locator('.relationship-item .name-problem').textContent(), 'A name cannot be empty.');
  // The next edit that goes through clears it, beside the field and above.
  await commit(page, 'Count of user', '2000');
  await page.waitForFunction(() => document.querySelector('#model-input').value.includes('"count": 2000'));
  assert.equal(await page.locator('.name-problem').count(), 0);
  assert.equal(await page.$('.form-message'), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the charts\' text follows workshop mode even when their width stays the same', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await allDone(page);
  await page.waitForSelector('.design-charts svg.bars .tick');
  // The charts' box held at one size in both modes (its height too: larger legends would
  // resize it): only the mode changes, and no resize says so.
  await page.addStyleTag({ content: '.design-charts .chart-host { width: 520px; height: 1600px; overflow: hidden; }' });
  await page.waitForFunction(() => document.querySelector('.design-charts svg.bars')?.getAttribute('width') <= 520);
  const measure = () => page.$eval('.design-charts', (card) => {
    const svg = card.querySelector('svg.bars');
    const tick = svg.querySelector('.tick');
    return {
      width: card.querySelector('.chart-host').clientWidth,
      height: card.querySelector('.chart-host').clientHeight,
      font: Number(svg.getAttribute('font-size')),
      tick: parseFloat(getComputedStyle(tick).fontSize) * svg.getScreenCTM().a,
    };
  });
  const normal = await measure();
  await page.keyboard.press('w');
  await page.waitForFunction(() => document.querySelector('.design-charts svg.bars')?.getAttribute('font-size') === '18', null, { timeout: 5_000 });
  const workshop = await measure();
  await page.keyboard.press('w');
  await page.waitForFunction(() => document.querySelector('.design-charts svg.bars')?.getAttribute('font-size') === '12', null, { timeout: 5_000 });
  const back = await measure();
  console.log(JSON.stringify({ normal, workshop, back }));
  assert.equal(workshop.width, normal.width, 'the width did not change: only the mode did');
  assert.equal(workshop.height, normal.height, 'nor the height');
  assert.equal(normal.font, 12);
  assert.equal(workshop.font, 18);
  assert.ok(workshop.tick >= 16, `axis labels in workshop mode: ${workshop.tick} px`);
  assert.ok(normal.tick < 16, `axis labels otherwise: ${normal.tick} px`);
  assert.deepEqual(back, normal);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a preset names its designs for people: social-graph\'s tbc is "Continuation (tbc)", the id stays tbc', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 900 });
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await openPreset(page, 'social-graph');
  const bar = await page.$$eval('#designs .design-button', (bs) => bs.map((b) => [b.dataset.design, b.querySelector('.design-label').textContent]));
  assert.deepEqual(bar, [
    ['following', 'Following lists'],
    ['followers', 'Follower lists'],
    ['normalized', 'Normalized (follower collection)'],
    ['tbc', 'Continuation (tbc)'],
    ['denormalized', 'Denormalized (embedded)'],
    ['custom', 'Custom'],
  ]);
  await openPreset(page, 'message-attachments');
  const labels = await page.$$eval('#designs .design-button .design-label', (ls) => ls.map((l) => l.textContent));
  assert.deepEqual(labels, ['Embedded (binData)', 'GridFS', 'Object storage', 'Custom']);
  assert.deepEqual(errors, []);
  await page.close();
});
