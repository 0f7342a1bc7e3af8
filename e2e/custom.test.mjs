// End-to-end: the Custom design (the model's own `design`) and its strategy picker on a preset.
// A strategy picked is an override in the model's JSON (one undo step), and the figures shown
// are those of the release CLI's `squillion eval MODEL --json` for the same model (also with
// `--design FILE`). The CLI is SQUILLION_BIN (scripts/test.sh: the native tests' optimized build,
// $CARGO_TARGET_DIR/ci/squillion), else $CARGO_TARGET_DIR/release/squillion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPage, useSite, SHOTS, openPreset, showJson } from './browser.mjs';
import { cliJson } from './cli.mjs';
import { assertSame, cliShown, shownEval } from './figures.mjs';

const site = useSite();

/** Runs the CLI's `eval ARGS --json` (exit 1, an error-severity warning, is an evaluation). */
const cliEval = (args) => cliJson(['eval', ...args, '--json']);

/** The model's `design` as the JSON tab shows it. */
async function design(page) {
  return JSON.parse(await page.inputValue('#model-input')).design;
}

const pressed = (page) => page.$eval('.design-button[aria-pressed="true"]', (b) => b.textContent.trim());

test('Custom on a preset: pick a strategy, the JSON has it, the CLI agrees, undo restores, key 4', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await openPreset(page, 'blog');
  await showJson(page);
  const labels = await page.$$eval('.design-button', (bs) => bs.map((b) => b.textContent.trim()));
  assert.deepEqual(labels, ['1Normalized (references)', '2Denormalized (embedded)', '3One query per page', '4Custom']);
  assert.equal(await page.$('.strategies'), null, 'no picker outside Custom');

  // From Denormalized, Custom starts as that design, shown but not written until a change
  // (e2e/states.test.mjs checks the badge and the undo step).
  const shipped = await design(page);
  await page.keyboard.press('2');
  await page.click('.design-button:has-text("Custom")');
  assert.equal(await pressed(page), '4Custom');
  assert.deepEqual(await design(page), shipped);
  assert.equal(await page.inputValue('#design-base'), 'denormalized');
  const rows = await page.$$eval('.strategy-row', (rs) => rs.map((r) => r.dataset.relationship));
  assert.deepEqual(rows, ['posts', 'comments']);
  // Only the strategies a one-to-many relationship may take (no feed strategies), labelled.
  const options = await page.$$eval('#strategy-comments option', (os) => os.map((o) => o.value));
  assert.equal(options.length, 10);
  assert.ok(!options.some((o) => o.includes('fan_out')), options.join());
  assert.equal(await page.$eval('label[for="strategy-comments"]', (l) => l.textContent), 'commentspost → comment');
  // Comments are read on their own: denormalized keeps them in their own collection.
  assert.equal(await page.inputValue('#strategy-comments'), 'reference_in_child');

  // A strategy and its parameter: overrides in the JSON, on the design Custom started from.
  await page.selectOption('#strategy-comments', 'bucket');
  await designIs(page, (d) => d.relationships?.comments);
  assert.deepEqual(await design(page), { base: 'denormalized', relationships: { comments: { strategy: 'bucket', size: 50 } } });
  assert.equal(await page.textContent('label[for="strategy-comments-parameter"]'), 'Bucket size');
  await page.fill('#strategy-comments-parameter', '20');
  await page.press('#strategy-comments-parameter', 'Enter');
  await designIs(page, (d) => d.relationships?.comments?.size === 20);
  assert.equal(await page.inputValue('#strategy-comments-parameter'), '20');
  assert.ok(await page.$('.collection[data-collection="comments_buckets"]'), 'the bucket collection is laid out');

  // The figures are the CLI's for this very model, and for its design given as a file.
  const shown = await shownEval(page);
  const dir = mkdtempSync(join(tmpdir(), 'squillion-custom-'));
  try {
    const text = await page.inputValue('#model-input');
    writeFileSync(join(dir, 'model.json'), text);
    writeFileSync(join(dir, 'design.json'), JSON.stringify(JSON.parse(text).design));
    const cli = cliShown(cliEval([join(dir, 'model.json')]));
    assert.ok(cli.operations.length > 0);
    assertSame(shown, cli, 'blog / custom');
    assertSame(shown, cliShown(cliEval([join(dir, 'model.json'), '--design', join(dir, 'design.json')])), 'blog / --design FILE');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // Comparison: Custom beside the named designs.
  // Each head's design name, without the verdict's winner mark or an infeasible label.
  const heads = await page.$$eval('.compare-table thead th', (ths) => ths.map((t) => {
    const name = t.cloneNode(true);
    name.querySelectorAll('.winner-label, .infeasible-label').forEach((l) => l.remove());
    return name.textContent.trim();
  }));
  assert.deepEqual(heads.slice(1), ['Normalized (references)', 'Denormalized (embedded)', 'One query per page', 'Custom']);
  await page.$eval('.compare', (c) => c.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: `${SHOTS}/custom-design-compare.png` });

  await page.$eval('#strategy-comments', (s) => s.scrollIntoView({ block: 'center' }));
  await page.focus('#strategy-comments');
  await page.keyboard.press('Tab');
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SHOTS}/custom-design-1280x720-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // A parameter of 0: the model's validation error, the model unchanged.
  const before = await page.inputValue('#model-input');
  await page.fill('#strategy-comments-parameter', '0');
  await page.press('#strategy-comments-parameter', 'Enter');
  const error = await page.waitForSelector('.strategy-error');
  // The path, then the message with its own parenthesis (not wrapped in another).
  assert.match(await error.textContent(), /was refused: \$\.design\.relationships\.comments\.size: must be at least 1 \(found 0\)$/);
  assert.equal(await page.inputValue('#model-input'), before);
  assert.equal(await page.inputValue('#strategy-comments-parameter'), '20', 'the field shows the model again');
  await page.$eval('.strategies', (c) => c.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: `${SHOTS}/custom-design-refused.png` });

  // Undo (outside any field): the size, then the strategy.
  await page.$eval('#strategy-comments-parameter', (i) => i.blur());
  await page.keyboard.press('Control+z');
  await designIs(page, (d) => d.relationships?.comments?.size === 50);
  await page.keyboard.press('Control+z');
  await designIs(page, (d) => JSON.stringify(d) === JSON.stringify(shipped));
  // Back at the preset's own design: Custom shows Denormalized again.
  assert.equal(await page.inputValue('#strategy-comments'), 'reference_in_child');
  assert.equal(await page.$('#strategy-comments-parameter'), null);
  // Redo brings the bucket back; a customized design is kept when coming back to Custom.
  await page.keyboard.press('Control+y');
  await designIs(page, (d) => d.relationships?.comments);
  await page.keyboard.press('1');
  assert.equal(await pressed(page), '1Normalized (references)');
  assert.equal(await page.$('.strategies'), null);
  await page.keyboard.press('4');
  assert.equal(await pressed(page), '4Custom');
  assert.deepEqual((await design(page)).relationships, { comments: { strategy: 'bucket', size: 50 } });
  assert.equal(await page.inputValue('#strategy-comments'), 'bucket');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the picker is reachable by keyboard and a feed lists only the feed strategies', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await openPreset(page, 'social-feed');
  await page.keyboard.press('4');
  assert.equal(await pressed(page), '4Custom');
  assert.deepEqual(await page.$$eval('#strategy-feed option', (os) => os.map((o) => o.value)), ['fan_out_on_read', 'fan_out_on_write', 'bucketed_fan_out']);
  // Tab from the Custom button reaches the select; the keyboard changes the strategy.
  await page.focus('.design-button[aria-pressed="true"]');
  let reached = false;
  const passed = [];
  for (let i = 0; i < 16 && !reached; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => document.activeElement?.id);
    passed.push(id);
    reached = id === 'strategy-feed';
  }
  assert.ok(reached, `Tab reaches the strategy select (passed ${passed.join(', ')})`);
  // The base design and the joins come first, in the card's order.
  const [b, j, f] = ['design-base', 'design-joins', 'strategy-feed'].map((id) => passed.indexOf(id));
  assert.ok(b >= 0 && b < j && j < f, passed.join(', '));
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none', 'the focused select shows its focus');
  await page.selectOption('#strategy-feed', 'bucketed_fan_out');
  await page.waitForSelector('.collection[data-collection$="_buckets"]');
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  assert.equal(await page.$('.results > .error'), null);
  assert.deepEqual(errors, []);
  await page.close();
});

/** Waits until the JSON tab's model satisfies `check(design)` (the model's `design`, or {}). */
async function designIs(page, check) {
  // The text changes at once, the page's model (and so every form and figure) a few tasks
  // later: `#results` is `aria-busy` in between, so both are waited for in one check. Polled
  // from here, `check` running in Node: the page's CSP refuses a predicate given as a string.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { design, busy } = await page.evaluate(() => ({
      design: JSON.parse(document.querySelector('#model-input').value).design ?? {},
      busy: document.querySelector('#results[aria-busy]') !== null,
    }));
    if (!busy && check(design)) return;
    assert.ok(Date.now() < deadline, `the design never passed ${check}: ${JSON.stringify(design)} (busy: ${busy})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Evaluates the JSON tab's model with the CLI (as `squillion eval MODEL --json`). */
async function cliOf(page) {
  const dir = mkdtempSync(join(tmpdir(), 'squillion-custom-'));
  try {
    writeFileSync(join(dir, 'model.json'), await page.inputValue('#model-input'));
    return cliShown(cliEval([join(dir, 'model.json')]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('base design, reset to base, copied fields and joins: one undo step each, the CLI agrees', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await openPreset(page, 'blog');
  await showJson(page);
  await page.keyboard.press('2');
  await page.keyboard.press('4');
  assert.equal(await pressed(page), '4Custom');
  assert.equal(await page.inputValue('#design-base'), 'denormalized');
  assert.deepEqual(await page.$$eval('#design-base option', (os) => os.map((o) => [o.value, o.textContent])), [['normalized', 'Normalized'], ['denormalized', 'Denormalized'], ['bucketed', 'Bucketed']]);
  assert.equal(await page.inputValue('#design-joins'), 'application');
  assert.equal(await page.$('.strategy-reset'), null, 'no override, no reset');
  const before = await shownEval(page);

  // The base: the rows without an override follow it, the figures change and are the CLI's.
  await page.selectOption('#design-base', 'bucketed');
  await designIs(page, (d) => d.base === 'bucketed');
  assert.deepEqual(await design(page), { base: 'bucketed' });
  assert.equal(await page.inputValue('#strategy-comments'), 'bucket');
  await page.waitForSelector('.collection[data-collection="comments_buckets"]');
  const bucketed = await shownEval(page);
  assert.notDeepEqual(bucketed, before, 'the Custom figures change with the base');
  assertSame(bucketed, await cliOf(page), 'blog / custom on a bucketed base');
  // One undo step back to the preset's own design, where Custom shows Denormalized again; a
  // change from there writes it.
  await page.$eval('#design-base', (s) => s.blur());
  await page.keyboard.press('Control+z');
  await designIs(page, (d) => d.base !== 'bucketed');
  assert.equal(await page.inputValue('#design-base'), 'denormalized');
  assert.equal(await page.inputValue('#strategy-comments'), 'reference_in_child');

  // Copied fields of a reference in child (from the base): the post's fields, checked for
  // those the base copies (denormalized copies the parent fields the workload reads).
  const copy = '.strategy-row[data-relationship="comments"] .strategy-copy:not([hidden])';
  assert.equal(await page.textContent(`${copy} legend`), 'Fields of post copied into each comment');
  const boxes = await page.$$eval(`${copy} input[type="checkbox"]`, (is) => is.map((i) => [i.parentElement.textContent.trim(), i.checked]));
  assert.deepEqual(boxes, ['slug', 'title', 'date', 'summary', 'body', 'tags'].map((f) => [f, f === 'slug']));
  // Space on a focused checkbox copies the field: the base's strategy with it becomes an
  // override in the JSON; the focus stays.
  await page.focus('#copy-comments-parent-title');
  await page.keyboard.press('Space');
  await designIs(page, (d) => d.relationships?.comments?.copy?.length === 2);
  assert.deepEqual((await design(page)).relationships, { comments: { strategy: 'reference_in_child', copy: ['slug', 'title'] } });
  assert.match(await page.inputValue('#model-input'), /"copy": \[\s*"slug",\s*"title"\s*\]/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'copy-comments-parent-title');
  assert.ok(await page.isChecked('#copy-comments-parent-title'));
  // Another goes in the entity's field order, not the order clicked.
  await page.click('#copy-comments-parent-date');
  await designIs(page, (d) => d.relationships?.comments?.copy?.length === 3);
  assert.deepEqual((await design(page)).relationships.comments.copy, ['slug', 'title', 'date']);
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  assertSame(await shownEval(page), await cliOf(page), 'blog / custom copying slug, title and date');

  // Screenshots of the picker with a copied-fields row, in both themes and two sizes.
  for (const [width, height] of [[1280, 720], [1920, 1080]]) {
    await page.setViewportSize({ width, height });
    await page.$eval('.strategies', (c) => c.scrollIntoView({ block: 'center' }));
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: `${SHOTS}/custom-picker-${width}x${height}-${scheme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Unticking is one step; undo brings it back.
  await page.click('#copy-comments-parent-date');
  await designIs(page, (d) => d.relationships?.comments?.copy?.length === 2);
  await page.$eval('#copy-comments-parent-date', (i) => i.blur());
  await page.keyboard.press('Control+z');
  await designIs(page, (d) => d.relationships?.comments?.copy?.length === 3);
  assert.ok(await page.isChecked('#copy-comments-parent-date'));

  // Reset to base: only on the override, labelled, by keyboard; one undo step.
  assert.equal(await page.$('.strategy-row[data-relationship="posts"] .strategy-reset'), null);
  const reset = '.strategy-row[data-relationship="comments"] .strategy-reset';
  assert.equal(await page.getAttribute(reset, 'aria-label'), 'Reset “comments” to the base design (Denormalized)');
  await page.focus(reset);
  await page.keyboard.press('Enter');
  await designIs(page, (d) => !d.relationships);
  assert.deepEqual(await design(page), { base: 'denormalized' });
  assert.equal(await page.$(reset), null);
  await page.waitForFunction(() => document.activeElement?.id === 'strategy-comments');
  assert.equal(await page.isChecked('#copy-comments-parent-date'), false);
  await page.$eval('#strategy-comments', (s) => s.blur());
  await page.keyboard.press('Control+z');
  await designIs(page, (d) => d.relationships?.comments?.copy?.length === 3);
  await page.waitForSelector(reset);

  // An extended reference copies the child's fields (a comment's).
  await page.selectOption('#strategy-comments', 'extended_reference');
  await designIs(page, (d) => d.relationships?.comments?.strategy === 'extended_reference');
  assert.equal(await page.textContent(`${copy} legend`), 'Fields of comment copied next to each id');
  const er = await page.$$eval(`${copy} input[type="checkbox"]`, (is) => is.map((i) => i.id));
  assert.deepEqual(er, ['copy-comments-child-who', 'copy-comments-child-date', 'copy-comments-child-text']);
  // The boxes show the default copy (the child fields the workload reads); toggling one flips it.
  const checkedNames = () => page.$$eval(`${copy} input:checked`, (is) => is.map((i) => i.id.replace('copy-comments-child-', '')));
  assert.deepEqual(await checkedNames(), (await design(page)).relationships.comments.copy ?? []);
  const had = await page.isChecked('#copy-comments-child-who');
  await page.click('#copy-comments-child-who');
  await designIs(page, had ? (d) => !(d.relationships.comments.copy ?? []).includes('who') : (d) => (d.relationships.comments.copy ?? []).includes('who'));
  assert.deepEqual(await checkedNames(), (await design(page)).relationships.comments.copy ?? []);

  // Joins: $lookup is written, the default removes the key.
  assert.deepEqual(await page.$$eval('#design-joins option', (os) => os.map((o) => o.value)), ['application', 'lookup']);
  await page.selectOption('#design-joins', 'lookup');
  await designIs(page, (d) => d.joins === 'lookup');
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  await page.selectOption('#design-joins', 'application');
  await designIs(page, (d) => d.joins === undefined);
  assert.equal(await page.$('.strategy-error'), null);
  assert.deepEqual(errors, []);
  await page.close();
});
