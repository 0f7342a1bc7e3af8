// End-to-end: the page's "Compare designs" table is `squillion compare --json`: for every
// named design of social-feed and social-graph, each of the 12 ranked metrics equals the
// release CLI's to the last bit, the best of each row is the one highlighted (ties all), the
// largest document is coloured against the 16 MiB limit, and the last row counts the warnings
// (errors) as the CLI's table does. The CLI is SQUILLION_BIN, else
// $CARGO_TARGET_DIR/release/squillion (built by scripts/test.sh before the end-to-end stage).
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
    const designs = [...t.querySelectorAll('thead th[data-design]')].map((h) => h.dataset.design);
    const rows = {};
    for (const tr of t.querySelectorAll('tbody tr[data-metric]')) {
      rows[tr.dataset.metric] = [...tr.querySelectorAll('td')].map((td) => ({
        value: td.dataset.value,
        errors: td.dataset.errors,
        best: td.classList.contains('best'),
        level: td.dataset.level ?? null,
        text: td.textContent.trim(),
      }));
    }
    return { designs, rows };
  });
}

test('the comparison table is squillion compare, metric by metric, with the best marked', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  let over = 0;
  for (const preset of ['social-feed', 'social-graph']) {
    if (preset !== 'social-feed') await openPreset(page, preset);
    const cli = cliCompare(preset);
    const shown = await table(page);
    const names = cli.designs.map((d) => d.design);
    assert.deepEqual(shown.designs.slice(0, names.length), names, `${preset}: columns`);
    assert.deepEqual(Object.keys(shown.rows).sort(), [...Object.keys(cli.metrics), 'warnings'].sort(), `${preset}: rows`);
    for (const [metric, values] of Object.entries(cli.metrics)) {
      const cells = shown.rows[metric];
      values.forEach((v, i) => {
        assert.ok(Object.is(Number(cells[i].value), v), `${preset} ${metric} ${names[i]}: page ${cells[i].value}, CLI ${v}`);
      });
      // The best of the row over every column shown (Custom included), ties all marked.
      const all = cells.map((c) => Number(c.value));
      const min = Math.min(...all);
      assert.deepEqual(cells.map((c) => c.best), all.map((v) => v === min), `${preset} ${metric}: best`);
      if (metric === 'largest_document_bytes') {
        assert.deepEqual(cells.map((c) => c.level), all.map((v) => (v > LIMIT ? 'over' : v >= 0.8 * LIMIT ? 'warn' : 'ok')));
        over += cells.filter((c) => c.level === 'over').length;
      }
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
  assert.deepEqual(errors, []);
});
