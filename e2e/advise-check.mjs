// The Advise view's checks shared by e2e/advise.test.mjs and e2e/zh-advise.test.mjs (issue #35):
// no strategy id shown, no point of the Pareto front hidden under another.

/** Every strategy, pattern and form id a model writes with an underscore: none is shown. */
export const IDS = ['embed_subset', 'extended_reference', 'reference_in_parent', 'reference_in_child', 'two_way',
  'link_collection', 'fan_out_on_read', 'fan_out_on_write', 'bucketed_fan_out', 'time_series', 'parent_references',
  'child_references', 'array_of_ancestors', 'materialized_paths', 'nested_sets', 'single_collection', 'object_storage',
  'document_versioning', 'schema_versioning', 'case_insensitive_index', 'key_value'];

/** Returns the ids of IDS in the Advise view's visible text and its tooltips. */
export async function idsShown(page) {
  const text = await page.$eval('#advise', (a) => [a.innerText,
    ...[...a.querySelectorAll('[title]')].map((e) => e.getAttribute('title')),
    ...[...a.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')),
    ...[...a.querySelectorAll('title')].map((e) => e.textContent)].join('\n'));
  return IDS.filter((id) => text.includes(id));
}

/** Returns the front's markers whose centre lies inside another's circle (a hidden point). */
export async function hiddenPoints(page) {
  return page.$$eval('.front-point circle', (cs) => {
    const ps = cs.map((c) => ({ x: +c.getAttribute('cx'), y: +c.getAttribute('cy'), r: +c.getAttribute('r'), rank: c.parentElement.dataset.ranks }));
    const out = [];
    for (const [i, a] of ps.entries()) {
      for (const b of ps.slice(i + 1)) if (Math.hypot(a.x - b.x, a.y - b.y) < Math.max(a.r, b.r)) out.push(`${a.rank} / ${b.rank}`);
    }
    return out;
  });
}

