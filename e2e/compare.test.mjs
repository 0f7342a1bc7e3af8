// End-to-end: the page's "Compare designs" table is `squillion compare --json`: for every
// named design of social-feed and social-graph, each of the 12 ranked metrics equals the
// release CLI's to the last bit, the best feasible value of each row is the one highlighted
// (ties all), a design with an error-severity warning is labelled infeasible with the CLI's
// codes (`infeasible`) and never highlighted, the largest document is coloured against the
// 16 MiB limit, and the last row counts the warnings (errors) as the CLI's table does. The CLI is SQUILLION_BIN (scripts/test.sh: the
// native tests' optimized build, $CARGO_TARGET_DIR/ci/squillion), else $CARGO_TARGET_DIR/release/squillion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useSite, openPreset, SHOTS } from './browser.mjs';
import { cliJson } from './cli.mjs';
import { english, modelWords, openIn } from './zh-check.mjs';

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

/** Waits for the verdict above the table, once every design is evaluated. */
async function verdict(page) {
  await page.waitForSelector('[data-testid="compare-verdict"] .verdict-text[data-state="done"]', { timeout: 300_000 });
  return page.$eval('[data-testid="compare-verdict"]', (v) => {
    const p = v.querySelector('.verdict-text');
    return {
      winner: p.dataset.winner ?? null,
      outcome: p.dataset.outcome,
      text: p.textContent.trim(),
      lines: [...v.querySelectorAll('.verdict-lines li')].map((li) => [li.dataset.design, li.textContent.trim()]),
    };
  });
}

/** How the comparison sits in its card: the card never overflows (the table scrolls inside
 * its own region, the metric column sticky), the page never scrolls sideways, and no word of
 * an infeasible label (a warning code) is broken inside itself. */
async function fits(page) {
  return page.$eval('.card.compare', (card) => {
    const scroll = card.querySelector('.table-scroll');
    const broken = [];
    for (const label of card.querySelectorAll('.infeasible-label')) {
      const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        for (const m of n.textContent.matchAll(/\S+/g)) {
          const r = document.createRange();
          r.setStart(n, m.index);
          r.setEnd(n, m.index + m[0].length);
          if (r.getClientRects().length > 1) broken.push(m[0]);
        }
      }
    }
    return {
      card: [card.scrollWidth, card.clientWidth],
      page: [document.documentElement.scrollWidth, window.innerWidth],
      scroll: [scroll.scrollWidth, scroll.clientWidth],
      sticky: getComputedStyle(card.querySelector('tbody th[scope="row"]')).position,
      broken,
    };
  });
}

test('the verdict names the winner squillion compare names, and the table fits its card', async () => {
  const cli = cliCompare('social-feed');
  for (const viewport of [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }]) {
    const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, viewport);
    // Before every design is evaluated, a neutral line holds the verdict's place.
    const first = await page.waitForSelector('[data-testid="compare-verdict"] .verdict-text');
    if ((await first.getAttribute('data-state')) === 'pending') {
      assert.match(await first.textContent(), /^Deciding: \d+ of \d+ designs evaluated/);
    }
    const v = await verdict(page);
    assert.equal(v.outcome, 'winner');
    // The page compares Custom too (here the model's own design, fan-out on write): the
    // winner is the CLI's, named by the design bar's label, with its deciding figures.
    assert.equal(v.winner, cli.verdict.winner, v.text);
    const label = cli.verdict.designs.find((d) => d.design === cli.verdict.winner).label;
    assert.ok(v.text.startsWith(`${label} wins: `), v.text);
    // Its column is marked too: it may be scrolled out of view.
    const marked = await page.$$eval('.compare-table thead th.winner', (hs) => hs.map((h) => [h.dataset.design, h.querySelector('.winner-label')?.textContent]));
    assert.deepEqual(marked, [[v.winner, 'wins']]);
    assert.match(v.text, /\d+(\.\d+)? (µs|ms|s) of work per second of workload against/);
    // One line per other design, the CLI's for the designs both show.
    const heads = await page.$$eval('.compare-table thead th[data-design]', (hs) => hs.map((h) => h.dataset.design));
    assert.deepEqual(v.lines.map(([d]) => d), heads.filter((d) => d !== v.winner));
    for (const [design, line] of v.lines) {
      const i = cli.verdict.designs.filter((d) => d.design !== cli.verdict.winner).findIndex((d) => d.design === design);
      if (i >= 0) assert.equal(line, cli.verdict.lines[i], design);
    }
    assert.ok(v.lines.some(([, l]) => /: infeasible \(ARRAY_BREAK_POINT/.test(l)), JSON.stringify(v.lines));
    const f = await fits(page);
    assert.ok(f.card[0] <= f.card[1], `${viewport.width}: the card overflows: ${f.card}`);
    assert.ok(f.page[0] <= f.page[1], `${viewport.width}: the page scrolls sideways: ${f.page}`);
    assert.equal(f.sticky, 'sticky');
    assert.deepEqual(f.broken, [], `${viewport.width}: words broken inside`);
    await page.$eval('.card.compare', (c) => c.scrollIntoView());
    await page.locator('.card.compare').screenshot({ path: `${SHOTS}/compare-verdict-${viewport.width}.png` });
    if (viewport.width === 1280) {
      // Seven columns (host-logs): the table scrolls inside its card, the card still fits.
      await openPreset(page, 'host-logs');
      const h = await verdict(page);
      assert.equal(h.winner, cliCompare('host-logs').verdict.winner, h.text);
      const wide = await fits(page);
      assert.ok(wide.card[0] <= wide.card[1], `host-logs: the card overflows: ${wide.card}`);
      assert.ok(wide.page[0] <= wide.page[1], `host-logs: the page scrolls sideways: ${wide.page}`);
      assert.deepEqual(wide.broken, []);
      // The winner's column is in view inside the table's scroll, beside the metric column.
      const seen = await page.$eval('.card.compare', (card, winner) => {
        const region = card.querySelector('.table-scroll').getBoundingClientRect();
        const metric = card.querySelector('thead th:first-child').getBoundingClientRect();
        const head = card.querySelector(`thead th[data-design="${winner}"]`).getBoundingClientRect();
        return { left: head.left, right: head.right, from: metric.right, to: region.right, scrolled: card.querySelector('.table-scroll').scrollLeft };
      }, h.winner);
      assert.ok(seen.left >= seen.from - 1 && seen.right <= seen.to + 1, `host-logs: ${h.winner}'s column out of view: ${JSON.stringify(seen)}`);
      await page.$eval('.card.compare', (c) => c.scrollIntoView());
      await page.locator('.card.compare').screenshot({ path: `${SHOTS}/compare-verdict-host-logs-1280.png` });
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('zh-CN: the verdict is in Chinese, designs by their Chinese names', async () => {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }]) {
    const { context, page, errors } = await openIn(site, 'zh-CN');
    await page.setViewportSize(viewport);
    const v = await verdict(page);
    assert.match(v.text, /胜出：/, v.text);
    assert.ok(v.lines.length >= 2);
    const found = await english(page, modelWords('social-feed'), '[data-testid="compare-verdict"]');
    assert.deepEqual(found, [], `English left in the verdict:\n${found.join('\n')}`);
    const f = await fits(page);
    assert.ok(f.card[0] <= f.card[1], `${viewport.width}: the card overflows: ${f.card}`);
    assert.deepEqual(f.broken, []);
    await page.$eval('.card.compare', (c) => c.scrollIntoView());
    await page.locator('.card.compare').screenshot({ path: `${SHOTS}/zh-compare-verdict-${viewport.width}.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
