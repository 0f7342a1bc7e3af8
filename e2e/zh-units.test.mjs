// End-to-end: a preset's workload operations are named in the page's language. In zh-CN,
// sensor-readings' operations (and the ones its lifecycle designs add) read as the preset's
// Chinese names in the workload, the engine's figures and the cost chart, while `data-unit`
// and `data-op` keep the model's names; the header's switch brings the English back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, SHOTS, openPreset } from './browser.mjs';
import { openIn } from './zh-check.mjs';

const site = useSite();

test('zh-CN: sensor-readings names its operations in Chinese; the model keeps its names', async () => {
  const { context, page, errors } = await openIn(site, 'zh-CN');
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await openPreset(page, 'sensor-readings');
  await page.waitForSelector('.eval-unit[data-unit="record a reading"]', { timeout: 180_000 });
  const heading = (unit) => page.textContent(`.eval-unit[data-unit="${unit}"] h3`);
  assert.equal(await heading('record a reading'), '记录一条读数');
  assert.equal(await heading('recalibrate a sensor'), '重新校准传感器');
  // The cost chart's groups: every design's operations, the approximate counter's too.
  await page.waitForFunction(() => document.querySelectorAll('.chart[data-chart="cost"] .group-label').length >= 6, null, { timeout: 300_000 });
  const groups = await page.$$eval('.chart[data-chart="cost"] .group-label', (ts) => ts.map((t) => t.textContent));
  assert.ok(groups.includes('记录一条读数'), groups.join(' | '));
  assert.ok(groups.some((g) => g.startsWith('记录一条读数：readingCount')), groups.join(' | '));
  assert.ok(groups.includes('归档 30 天前的读数'), groups.join(' | '));
  const ops = await page.$$eval('.chart[data-chart="cost"] rect.bar[data-op]', (rs) => [...new Set(rs.map((r) => r.dataset.op))]);
  assert.ok(ops.includes('record a reading'), `data-op keeps the model's name: ${ops.join(' | ')}`);
  await page.$eval('.design-charts', (c) => c.scrollIntoView());
  await page.screenshot({ path: `${SHOTS}/zh-units.png` });
  // English again: the model's own names.
  await page.selectOption('#lang-switch', 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.equal(await heading('record a reading'), 'record a reading');
  assert.deepEqual(errors, []);
  await context.close();
});
