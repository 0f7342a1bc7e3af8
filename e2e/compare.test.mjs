// End-to-end: the page's "Compare designs" table is `squillion compare --json`: for every
// named design of social-feed and social-graph, each of the 12 ranked metrics equals the
// release CLI's to the last bit, the best feasible value of each row is the one highlighted
// (ties all), a design with an error-severity warning is labelled infeasible with the CLI's
// codes (`infeasible`) and never highlighted, the largest document is coloured against the
// 16 MiB limit, and the last row counts the warnings (errors) as the CLI's table does. The CLI is SQUILLION_BIN (scripts/test.sh: the
// native tests' optimized build, $CARGO_TARGET_DIR/ci/squillion), else $CARGO_TARGET_DIR/release/squillion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useSite, openPreset } from './browser.mjs';
import { cliJson } from './cli.mjs';

const LIMIT = 16 * 1024 * 1024;
const site = useSite();

/** The CLI's `compare --preset NAME --json`. */
const cliCompare = (preset) => cliJson(['compare', '--preset', preset, '--json']);

/** The table as shown, once every column is evaluated: design → metric → cell. */
async function table(page) {
  await page.waitForFunction(() => {
    const heads = [...document.querySelectorAll('.compare-table thead th[data-design]')];
    return heads.length > 0 && heads.every((h) => h.dataset.state === 'done');
  }, null, { timeout: 300_000 });
  return page.$eval('.compare-table', (t) => {
    const heads = [...t.querySelectorAll('thead th[data-design]')];
    const designs = heads.map((h) => h.dataset.design);
    const infeasible = heads.map((h) => (h.dataset.infeasible ? h.dataset.infeasible.split(',') : null));
    const labels = heads.map((h) => h.textContent.trim());
    const rows = {};
    for (const tr of t.querySelectorAll('tbody tr[data-metric]')) {
      rows[tr.dataset.metric] = [...tr.querySelectorAll('td')].map((td) => ({
        value: td.dataset.value,
        errors: td.dataset.errors,
        best: td.classList.contains('best'),
        infeasible: td.classList.contains('infeasible'),
        level: td.dataset.level ?? null,
        text: td.textContent.trim(),
      }));
    }
    return { designs, infeasible, labels, rows };
  });
}

test('the comparison table is squillion compare, metric by metric, with the best marked', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  let over = 0;
  let refused = 0;
  for (const preset of ['social-feed', 'social-graph']) {
    if (preset !== 'social-feed') await openPreset(page, preset);
    const cli = cliCompare(preset);
    const shown = await table(page);
    const names = cli.designs.map((d) => d.design);
    assert.deepEqual(shown.designs.slice(0, names.length), names, `${preset}: columns`);
    assert.deepEqual(Object.keys(shown.rows).sort(), [...Object.keys(cli.metrics), 'warnings'].sort(), `${preset}: rows`);
    // Infeasible designs: the CLI's codes, in the header's label and data.
    names.forEach((n, i) => {
      assert.deepEqual(shown.infeasible[i], cli.infeasible[n] ?? null, `${preset} ${n}: infeasible`);
      if (cli.infeasible[n]) {
        assert.match(shown.labels[i], new RegExp(`infeasible: ${cli.infeasible[n].join(', ')}`), `${preset} ${n}: label`);
        refused += 1;
      }
    });
    const feasible = shown.infeasible.map((codes) => codes === null);
    for (const [metric, values] of Object.entries(cli.metrics)) {
      const cells = shown.rows[metric];
      values.forEach((v, i) => {
        assert.ok(Object.is(Number(cells[i].value), v), `${preset} ${metric} ${names[i]}: page ${cells[i].value}, CLI ${v}`);
      });
      // The best of the row over every feasible column shown (Custom included), ties all
      // marked; an infeasible column never (nor is it the CLI's best).
      const all = cells.map((c) => Number(c.value));
      const min = Math.min(...all.filter((_, i) => feasible[i]));
      assert.deepEqual(cells.map((c) => c.best), all.map((v, i) => feasible[i] && v === min), `${preset} ${metric}: best`);
      assert.deepEqual(cells.map((c) => c.infeasible), feasible.map((f) => !f), `${preset} ${metric}: muted`);
      const cliBest = names.indexOf(cli.best[metric]);
      assert.ok(cliBest < 0 || feasible[cliBest], `${preset} ${metric}: the CLI's best is feasible`);
      if (metric === 'largest_document_bytes') {
        assert.deepEqual(cells.map((c) => c.level), all.map((v) => (v > LIMIT ? 'over' : v >= 0.8 * LIMIT ? 'warn' : 'ok')));
        over += cells.filter((c) => c.level === 'over').length;
      }
    }
    // The charts below say the same: an infeasible design's bars carry its codes and are
    // labelled "(infeasible)".
    const bars = await page.$$eval('.chart svg [data-design][data-state="done"]', (bs) =>
      bs.map((b) => [b.dataset.design, b.dataset.infeasible ?? null, b.getAttribute('aria-label') ?? '']));
    assert.ok(bars.some(([d]) => cli.infeasible[d]), `${preset}: bars of an infeasible design`);
    for (const [design, codes, label] of bars) {
      if (!names.includes(design)) continue;
      const want = cli.infeasible[design] ?? null;
      assert.equal(codes, want && want.join(','), `${preset} ${design}: bar data-infeasible`);
      assert.equal(label.includes('(infeasible)'), want !== null, `${preset} ${design}: ${label}`);
    }
    cli.designs.forEach((d, i) => {
      const errs = d.warnings.filter((w) => w.severity === 'error').length;
      const cell = shown.rows.warnings[i];
      assert.equal(cell.text, `${d.warnings.length} (${errs})`, `${preset} ${d.design}: warnings`);
      assert.equal(Number(cell.errors), errs);
    });
  }
  // social-feed's normalized design and social-graph's followers break 16 MiB.
  assert.ok(over >= 2, `columns over 16 MiB: ${over}`);
  // ...and are infeasible (with social-graph's denormalized).
  assert.ok(refused >= 3, `infeasible columns: ${refused}`);
  assert.deepEqual(errors, []);
});
