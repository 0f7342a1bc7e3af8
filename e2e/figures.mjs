// The figures the page shows of an evaluation, the same figures from the release CLI's
// `squillion eval --json`, and the comparison of the two to the last bit: shared by the tests
// that check a design shown in the page against the CLI (custom, picker-patterns, advise, evaluation).
import assert from 'node:assert/strict';

const METRICS = ['docs_examined', 'keys_examined', 'docs_returned', 'bytes_returned', 'docs_written', 'bytes_written', 'index_keys_written'];

/** The figures of the CLI's evaluation (`eval --json`), as the page marks them up. */
export function cliShown(cli) {
  const pair = (op, key) => [op.typical.total[key].value, op.largest.total[key].value];
  return {
    operations: cli.operations.map((op) => ({
      unit: op.unit,
      figures: {
        queries: [op.typical.queries, op.largest.queries],
        lookups: [op.typical.lookups, op.largest.lookups],
        ...Object.fromEntries(METRICS.map((k) => [k, pair(op, k)])),
        shards: [op.typical.max_shards, op.largest.max_shards],
      },
    })),
    collections: cli.collections.map((c) => ({
      name: c.name, documents: c.stats.count, total_bytes: c.stats.total_bytes, index_bytes: c.index_bytes.value,
      disk_bytes: cli.storage.collections.find((s) => s.collection === c.name)?.disk_bytes.value ?? null,
    })),
    warnings: cli.warnings.map((w) => w.code).sort(),
  };
}

/**
 * What the page shows of the chosen design's evaluation, once done (call it once the layout of
 * the model shown has changed: the evaluation of a new model starts pending).
 */
export async function shownEval(page) {
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 300_000 });
  return page.evaluate(() => ({
    operations: [...document.querySelectorAll('.eval-unit')].map((u) => ({
      unit: u.dataset.unit,
      figures: Object.fromEntries([...u.querySelectorAll('[data-metric]')].map((m) => [m.dataset.metric, [Number(m.dataset.value), Number(m.dataset.largest)]])),
    })),
    collections: [...document.querySelectorAll('.collection[data-evaluated="true"]')].map((c) => ({
      name: c.dataset.collection,
      documents: Number(c.querySelector('[data-metric="documents"]').dataset.value),
      total_bytes: Number(c.querySelector('[data-metric="total_bytes"]').dataset.value),
      index_bytes: Number(c.querySelector('[data-metric="index_bytes"]').dataset.value),
      disk_bytes: ((d) => (d ? Number(d.dataset.value) : null))(c.querySelector('[data-metric="disk_bytes"]')),
    })),
    warnings: [...document.querySelectorAll('.eval-warnings .warning')].map((w) => w.dataset.code).sort(),
  }));
}

/** Asserts that the page's figures are the CLI's: numbers to the last bit, lists item by item. */
export function assertSame(actual, expected, where) {
  if (typeof expected === 'number' && typeof actual === 'number') {
    assert.ok(Object.is(actual, expected), `${where}: page shows ${actual}, the CLI says ${expected}`);
    return;
  }
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${where}: not a list`);
    assert.equal(actual.length, expected.length, `${where}: length`);
    expected.forEach((e, i) => assertSame(actual[i], e, `${where}[${i}]`));
    return;
  }
  if (expected && typeof expected === 'object') {
    assert.ok(actual && typeof actual === 'object', `${where}: not an object`);
    assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort(), `${where}: keys`);
    for (const k of Object.keys(expected)) assertSame(actual[k], expected[k], `${where}.${k}`);
    return;
  }
  assert.equal(actual, expected, where);
}
