// End-to-end: every preset under every design in 简体中文, with every fold open, shows no
// English of the page's own (the check of e2e/zh-check.mjs: a visible Latin word must be
// MongoDB's, a unit, code, or the model's own name). The other zh tests walk one preset each
// view; this one walks what the presets make the page show: every collection card's shapes
// (a link collection's "link", a feed's "feed item", a GridFS file's "… chunk"), every
// operation, warning and comparison. And the model editor's short labels ("长度", "最小")
// stay on one line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { everyDesignEvaluated as settled, openPreset, SHOTS, useSite } from './browser.mjs';
import { english, modelWords, openIn } from './zh-check.mjs';

const site = useSite();

const PRESETS = readdirSync('presets')
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .sort();

test('every preset under every design in Chinese: no English of the page', async () => {
  const { context, page, errors } = await openIn(site, 'zh-CN');
  await page.waitForSelector('.collection');
  const found = new Map();
  let views = 0;
  for (const preset of PRESETS) {
    await openPreset(page, preset);
    await settled(page);
    const designs = await page.$$eval('.design-button', (bs) => bs.map((b) => b.dataset.design));
    for (const design of designs) {
      await page.click(`.design-button[data-design="${design}"]`);
      await page.waitForSelector(`.design-button[data-design="${design}"][aria-pressed="true"]`);
      await page.waitForSelector('.eval-operations[data-state="done"], .eval-state[data-state="failed"]', { timeout: 240_000 });
      await page.$$eval('details', (ds) => ds.forEach((d) => { d.open = true; }));
      for (const t of await english(page, modelWords(preset))) {
        if (!found.has(t)) found.set(t, `${preset} · ${design}`);
      }
      views += 1;
    }
  }
  assert.ok(views >= 60, `${views} preset designs walked`);
  const left = [...found].map(([t, where]) => `${where}: ${t}`);
  assert.deepEqual(left, [], `English left in the Chinese page:\n${left.join('\n')}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the editor\'s short labels stay on one line in Chinese', async () => {
  const { context, page, errors } = await openIn(site, 'zh-CN');
  await page.waitForSelector('.collection');
  await openPreset(page, 'blog');
  await page.waitForSelector('.dist-shape > span');
  const labels = await page.$$eval('.dist-shape > span, .num-field > span, .select-field > span', (ss) => ss
    .filter((s) => s.checkVisibility())
    .map((s) => ({ text: s.textContent, height: s.getBoundingClientRect().height, line: parseFloat(getComputedStyle(s).lineHeight) || 16 })));
  assert.ok(labels.length >= 10, `${labels.length} labels`);
  assert.ok(labels.some((l) => l.text === '长度'), labels.map((l) => l.text).join(' '));
  const wrapped = labels.filter((l) => l.height > l.line * 1.5);
  assert.deepEqual(wrapped, [], 'a label wraps');
  await page.locator('.editor, .model-card').first().screenshot({ path: `${SHOTS}/zh-editor.png` });
  assert.deepEqual(errors, []);
  await context.close();
});
