// axe-core for the end-to-end tests: injected through the DevTools protocol (page.evaluate), so
// the page keeps its own Content-Security-Policy, and run with the WCAG 2.1 A and AA rules. One
// audit for every test that checks accessibility (a11y, and the views in 简体中文).
import { readFileSync } from 'node:fs';

const AXE = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');

/** Runs axe on the page as it is; returns one line per violation and node. */
export async function audit(page) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() =>
    // eslint-disable-next-line no-undef
    axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }),
  );
  return result.violations.flatMap((v) =>
    v.nodes.slice(0, 5).map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary.replace(/\s+/g, ' ').slice(0, 240)}`),
  );
}
