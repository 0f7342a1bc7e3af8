// End-to-end: the reference documentation is part of the site. Every docs/*.md is rendered into
// dist/docs/ (scripts/docs-site.mjs) with its links and anchors resolving; the page's references
// ("Thresholds and their sources: docs/warnings.md") are links that open the document, in
// both languages; the footer links the list of documents; the size gauge's 80% mark is
// labelled; and the playground does not jump while its results and sample documents arrive
// (cumulative layout shift below 0.1, web.dev's "good").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openPage, openPreset, SHOTS, useSite } from './browser.mjs';

const site = useSite();
const DIST = process.env.SQUILLION_DIST ?? 'dist';

test('every document is in the site, and its links and anchors resolve', () => {
  const sources = readdirSync('docs').filter((f) => f.endsWith('.md'));
  assert.ok(sources.length >= 10, `${sources.length} documents`);
  const pages = new Map();
  for (const f of [...sources.map((s) => s.replace(/\.md$/, '.html')), 'index.html']) {
    const file = join(DIST, 'docs', f);
    assert.ok(existsSync(file), `${file} is built`);
    pages.set(f, readFileSync(file, 'utf8'));
  }
  assert.ok(existsSync(join(DIST, 'docs', 'model.schema.json')), 'the model schema is copied');
  const ids = (html) => new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
  let checked = 0;
  for (const [name, html] of pages) {
    for (const [, href] of html.matchAll(/<a [^>]*href="([^"]+)"/g)) {
      if (/^[a-z]+:/.test(href) || href === '../index.html') continue;
      const [file, anchor] = href.split('#');
      const target = file === '' ? name : file;
      if (target.endsWith('.json')) continue;
      assert.ok(pages.has(target), `${name} links ${href}: no such document`);
      if (anchor) assert.ok(ids(pages.get(target)).has(anchor), `${name} links ${href}: no such anchor`);
      checked += 1;
    }
    assert.ok(!/href="[^"#]*\.md[#"]/.test(html), `${name} still links a .md file`);
  }
  assert.ok(checked > 100, `${checked} links checked`);
  // A Markdown table is a table, code is code.
  assert.match(pages.get('advisor.html'), /<table>/);
  assert.match(pages.get('cli.html'), /<pre><code/);
});

test('the page links its references to the documents it names, and the footer to all of them', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 900 });
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  const link = page.locator('.card-note a.doc-link').first();
  assert.equal(await link.textContent(), 'docs/warnings.md');
  assert.equal(await link.getAttribute('href'), 'docs/warnings.html');
  const [doc] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await doc.waitForLoadState();
  assert.match(await doc.textContent('h1'), /Warnings/i);
  await doc.close();

  const footer = page.locator('footer.foot a');
  assert.equal(await footer.getAttribute('href'), 'docs/index.html');
  const [index] = await Promise.all([page.context().waitForEvent('page'), footer.click()]);
  await index.waitForLoadState();
  assert.ok((await index.$$('ul.docs-index li')).length >= 10);
  await index.screenshot({ path: `${SHOTS}/docs-index.png` });
  await index.click('ul.docs-index a[href="advisor.html"]');
  await index.waitForSelector('h1');
  assert.match(index.url(), /docs\/advisor\.html$/);
  await index.screenshot({ path: `${SHOTS}/docs-advisor.png` });
  await index.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('the 80% mark of the size gauge says what it is', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#documents`, { width: 1280, height: 720 });
  await page.fill('#doc-input', '{"a": 1}');
  await page.waitForSelector('.gauge-mark-label');
  assert.equal((await page.textContent('.gauge-mark-label')).trim(), '80%: warning');
  // Centred under the mark.
  const [mark, label] = await Promise.all(['.warn-mark', '.gauge-mark-label'].map((s) => page.$eval(s, (e) => e.getBoundingClientRect().toJSON())));
  assert.ok(Math.abs(mark.x + mark.width / 2 - (label.x + label.width / 2)) < 2, `${JSON.stringify({ mark, label })}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the playground does not jump while the results and the sample documents arrive', async () => {
  for (const preset of ['social-feed', 'blog']) {
    const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
    await page.waitForSelector('.collection');
    await openPreset(page, preset);
    // From the preset on screen to every panel arrived: each shift the user did not cause.
    await page.evaluate(() => {
      window.shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          if (!e.hadRecentInput) window.shifts.push({ value: e.value, at: e.startTime, nodes: e.sources?.map((s) => s.node?.className ?? s.node?.nodeName) ?? [] });
        }
      }).observe({ type: 'layout-shift' });
    });
    await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
    await page.waitForSelector('.collection[data-evaluated="true"] .sample', { timeout: 180_000 });
    await page.waitForTimeout(1500);
    const shifts = await page.evaluate(() => window.shifts);
    const cls = shifts.reduce((s, e) => s + e.value, 0);
    assert.ok(cls < 0.1, `${preset}: cumulative layout shift ${cls.toFixed(3)}: ${JSON.stringify(shifts)}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});
