// End-to-end: a form edit's refusal in 简体中文 (issue #22, item 1, "every error message"). In
// a Chinese browser, renaming an entity to a name another entity has is refused in Chinese,
// above the form and beside the name field (ending with 。); deleting an entity a relationship
// needs is refused in Chinese with each broken reference at its path; the header's switch
// re-renders the same refusal in English, word for word the core's `Display`; axe passes with
// the refusal shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, useSite } from './browser.mjs';
import { audit } from './axe.mjs';
import { openIn } from './zh-check.mjs';

const site = useSite();

const CJK = /[\u4e00-\u9fff]/;

/** Opens the playground in a browser whose language is `locale`, at 1280×720. */
async function open(locale) {
  const { context, page, errors } = await openIn(site, locale);
  await page.waitForSelector('.collection');
  // axe reads the results too: wait until the evaluation is done, not faded "pending".
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  return { context, page, errors };
}

/** Types `value` into the form input labelled `label` and commits it (Enter). */
async function commit(page, label, value) {
  await page.fill(`[aria-label="${label}"]`, value);
  await page.press(`[aria-label="${label}"]`, 'Enter');
}

test('a refused rename and a refused delete say why in Chinese, and in English after a switch', async () => {
  const { context, page, errors } = await open('zh-CN');
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  const before = await page.inputValue('#model-input');

  // A taken name: refused above the form and beside the field, which shows the old name again.
  await commit(page, '实体 1 的名称', 'activity');
  await page.waitForSelector('.form-message');
  assert.equal(await page.textContent('.form-message'), '已经有名为“activity”的实体');
  assert.equal(await page.textContent('.name-problem'), '已经有名为“activity”的实体。');
  assert.equal(await page.inputValue('[aria-label="实体 1 的名称"]'), 'user');

  // Deleting the entity the relationship needs: each broken reference at its path, in Chinese.
  await page.click('[aria-label="删除实体 user"]');
  await page.waitForFunction(() => document.querySelector('.form-message')?.textContent.startsWith('删除实体'));
  const refusal = await page.textContent('.form-message');
  assert.match(refusal, /^删除实体“user”会破坏 \d+ 处引用：\$\.relationships\[0\]\.parent：未知的实体“user”/);
  assert.doesNotMatch(refusal, /\b(Deleting|would|break|references?|unknown|entity)\b/, refusal);
  assert.match(refusal, CJK);
  assert.equal(await page.inputValue('#model-input'), before, 'a refusal changes nothing');
  await page.locator('.form-message').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/zh-edit-refused.png` });
  const violations = await audit(page);
  assert.deepEqual(violations, [], `axe with a refusal in zh-CN:\n${violations.join('\n')}`);

  // The header's switch re-renders the same refusal in English, as the core's Display says it.
  await page.selectOption('#lang-switch', 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.match(
    await page.textContent('.form-message'),
    /^Deleting entity “user” would break \d+ references: \$\.relationships\[0\]\.parent: unknown entity "user"/,
  );
  await page.selectOption('#lang-switch', 'zh-CN');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.match(await page.textContent('.form-message'), /^删除实体“user”/);
  assert.deepEqual(errors, []);
  await context.close();
});
