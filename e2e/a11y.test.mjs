// End-to-end: every main view of the page passes axe-core's WCAG 2.1 A and AA rules (the
// checker browsers' accessibility audits are built on): labels, names, roles, ARIA, contrast
// in the light and dark themes and in workshop mode, at 1280×720. axe is injected through the
// DevTools protocol (page.evaluate), so the page keeps its own Content-Security-Policy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useSite, openPreset } from './browser.mjs';
import { audit } from './axe.mjs';

const site = useSite();


/** The views, in the order one page visits them: a name and how to get there from the view
 * before (the first from the playground with social-feed evaluated). One page walks them all,
 * each view audited as the user reaches it, instead of one page load and evaluation per view;
 * the views that change the model (Custom on blog) come last, on their own page. */
const WALK = [
  ['playground', async () => {}],
  ['largest sample document, bytes per field open', async (page) => {
    await page.click('.collection[data-collection="activity"] .segment[data-which="largest"]');
    await page.click('.collection[data-collection="activity"] .sample-breakdown > summary');
  }],
  ['playground, JSON tab', async (page) => page.click('#tab-json')],
  ['preset chooser', async (page) => {
    await page.click('#choose-preset');
    await page.waitForSelector('.chooser');
  }],
  ['workshop mode', async (page) => {
    await page.keyboard.press('Escape');
    await page.waitForSelector('.chooser', { state: 'detached' });
    await page.click('.workshop-toggle');
  }],
  ['document size', async (page) => {
    await page.click('.workshop-toggle');
    await page.click('nav >> text=Document size');
    await page.waitForSelector('.gauge');
  }],
  ['console', async (page) => {
    await page.click('nav >> text=Console');
    await page.check('input[name="console-source"][value="examples"]');
    await page.fill('textarea.console-input, #console-input', 'db.users.find({ followers: { $size: 3 } })');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(500);
  }],
];
const ON_THEIR_OWN = [
  ['Custom design with its picker (blog)', async (page) => {
    await openPreset(page, 'blog');
    await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
    await page.locator('.design-button', { hasText: 'Custom' }).click();
    await page.waitForSelector('.strategies');
    await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  }],
];

for (const scheme of ['light', 'dark']) {
  test(`every main view passes axe's WCAG 2.1 AA rules (${scheme} theme)`, async () => {
    const found = [];
    for (const views of [WALK, ...ON_THEIR_OWN.map((v) => [v])]) {
      const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
      for (const [name, go] of views) {
        await go(page);
        for (const v of await audit(page)) found.push(`${name}: ${v}`);
        assert.deepEqual(errors, [], name);
      }
      await page.close();
    }
    assert.deepEqual(found, [], `\n${found.join('\n')}`);
  });
}
