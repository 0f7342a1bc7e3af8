// End-to-end: the model editor (forms and JSON in sync, undo/redo, presets, files) in
// headless Chromium. docs/page.md describes the behaviour these tests pin down.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openPage, useSite, SHOTS, showJson, openPreset } from './browser.mjs';

const site = useSite();
const SMALL = { width: 1280, height: 720 };

/** The model's JSON text (readable whichever tab is open). */
const json = (page) => page.inputValue('#model-input');
/** The number of documents the results show for `collection`. */
const docs = (page, collection) =>
  page.$eval(`.collection[data-collection="${collection}"]`, (c) => c.textContent.match(/([\d,]+) documents/)?.[1]);

/** Types `value` into the form input labelled `label` and commits it (Enter). */
async function commit(page, label, value) {
  await page.fill(`[aria-label="${label}"]`, value);
  await page.press(`[aria-label="${label}"]`, 'Enter');
}

async function fresh(viewport = SMALL) {
  const opened = await openPage(site.browser, `${site.server.url}#playground`, viewport);
  await opened.page.waitForSelector('.collection');
  return opened;
}

test('a form edit rewrites the JSON and the results follow', async () => {
  const { page, errors } = await fresh();
  assert.equal(await page.getAttribute('#tab-form', 'aria-selected'), 'true', 'the form is the default tab');
  assert.match(await page.textContent('[data-testid=loaded-preset]'), /Social feed/);
  assert.equal(await docs(page, 'user'), '10,000,000');
  await commit(page, 'Count of user', '25000000');
  await page.waitForFunction(() => document.querySelector('#model-input').value.includes('"count": 25000000'));
  assert.equal(await docs(page, 'user'), '25,000,000');
  // The other keys stay where they were; the preset now reads as edited.
  const model = JSON.parse(await json(page));
  assert.deepEqual(Object.keys(model).slice(0, 3), ['name', 'description', 'entities']);
  assert.equal(model.preset.title.length > 0, true);
  assert.match(await page.textContent('[data-testid=loaded-preset]'), /edited/);
  await page.screenshot({ path: `${SHOTS}/editor-form.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('fields, relationships, operations and steps reorder; each move is one undo step', async () => {
  const { page, errors } = await fresh();
  const start = await json(page);
  const fields = async () => Object.keys(JSON.parse(await json(page)).entities[1].fields);
  const before = await fields();
  assert.deepEqual(before.slice(0, 2), ['date', 'type']);
  // The first field cannot go up; moving "type" up puts it first, definition and all.
  assert.equal(await page.isDisabled('[aria-label="Move field date of activity up"]'), true);
  await page.click('[aria-label="Move field type of activity up"]');
  await page.waitForFunction(() => /"fields": \{\s*"type"/.test(document.querySelector('#model-input').value));
  assert.deepEqual(await fields(), ['type', 'date', ...before.slice(2)]);
  // Operations: the second goes up.
  const units = async () => JSON.parse(await json(page)).workload.map((u) => u.name);
  const ops = await units();
  await page.click(`[aria-label="Move operation ${ops[1]} up"]`);
  await page.waitForFunction((first) => JSON.parse(document.querySelector('#model-input').value).workload[0].name === first, ops[1]);
  assert.deepEqual(await units(), [ops[1], ops[0], ...ops.slice(2)]);
  assert.equal(await page.isDisabled(`[aria-label="Move operation ${ops[1]} up"]`), true);
  // Two undos give the model back as it was.
  await page.click('[data-testid=undo]');
  await page.click('[data-testid=undo]');
  assert.equal(await json(page), start);
  await page.screenshot({ path: `${SHOTS}/editor-reorder.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('undo and redo: a form edit, a JSON edit and a preset load', async () => {
  const { page, errors } = await fresh();
  const start = await json(page);
  // Form edit.
  await commit(page, 'Count of user', '123');
  await page.waitForFunction(() => document.querySelector('#model-input').value.includes('"count": 123'));
  await page.click('[data-testid=undo]');
  assert.equal(await json(page), start);
  await page.click('[data-testid=redo]');
  assert.match(await json(page), /"count": 123,/);
  await page.keyboard.press('Control+z');
  assert.equal(await json(page), start);
  await page.keyboard.press('Control+Shift+z');
  assert.match(await json(page), /"count": 123,/);
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+y');
  assert.match(await json(page), /"count": 123,/);
  const afterForm = await json(page);

  // JSON edit: a typing burst is one step, undone with Ctrl+Z in the text itself.
  await showJson(page);
  await page.click('#model-input');
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.type('  "seed": 7,\n');
  assert.match(await json(page), /"seed": 7,/);
  await page.keyboard.press('Control+z');
  assert.equal(await json(page), afterForm);
  // The caret stays where the typing was, not at the end of the text.
  await page.waitForFunction(() => document.querySelector('#model-input').selectionStart < 40);
  await page.keyboard.press('Control+Shift+z');
  assert.match(await json(page), /"seed": 7,/);
  const afterJson = await json(page);

  // A preset replaces the work; undo brings it back.
  await openPreset(page, 'blog');
  assert.match(await json(page), /"name": "blog"/);
  assert.match(await page.textContent('[data-testid=loaded-preset]'), /^Blog/);
  assert.equal(await page.getAttribute('[data-testid=undo]', 'title'), 'Undo opening the preset (Ctrl+Z)');
  await page.keyboard.press('Control+z');
  assert.equal(await json(page), afterJson);
  await page.keyboard.press('Control+z');
  assert.equal(await json(page), afterForm);
  assert.deepEqual(errors, []);
  await page.close();
});

test('keys pressed while the page is busy stay in their typing burst: one Ctrl+Z undoes them all', async () => {
  const { page, errors } = await fresh();
  await showJson(page);
  const start = await json(page);
  await page.click('#model-input');
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.type('  "seed"');
  // The page busy for 1.5 s, past a burst's 1 s pause, as an analysis is on a slow machine:
  // the keys pressed meanwhile wait for it, but they were pressed within the burst.
  await page.evaluate(() => {
    setTimeout(() => {
      const t = performance.now();
      while (performance.now() - t < 1500);
    }, 0);
  });
  await page.keyboard.type(': 7,\n');
  assert.match(await json(page), /"seed": 7,\n/);
  await page.keyboard.press('Control+z');
  assert.equal(await json(page), start);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an input without a key of its own, after a pause, is its own undo step', async () => {
  const { page, errors } = await fresh();
  await showJson(page);
  await page.click('#model-input');
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.type('  "seed": 7,\n');
  const typed = await json(page);
  // An arrow key makes no input; the text inserted later comes with no keydown (as a paste from
  // the menu or a drop does), past a burst's pause: the arrow's time must not join it.
  await page.keyboard.press('ArrowLeft');
  await page.waitForTimeout(1200);
  await page.keyboard.insertText(' ');
  assert.notEqual(await json(page), typed);
  await page.keyboard.press('Control+z');
  assert.equal(await json(page), typed);
  assert.deepEqual(errors, []);
  await page.close();
});

test('in a form field, Ctrl+Z first undoes the typing not yet committed', async () => {
  const { page, errors } = await fresh();
  const start = await json(page);
  await page.click('[aria-label="Count of user"]');
  await page.keyboard.press('End');
  await page.keyboard.type('99');
  await page.keyboard.press('Control+z');
  // The browser's own undo took the typing back; the model never changed.
  assert.equal(await page.inputValue('[aria-label="Count of user"]'), '10000000');
  assert.equal(await json(page), start);
  assert.equal(await page.isDisabled('[data-testid=undo]'), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad JSON edit lists its problem; the form and the results keep the last good model', async () => {
  const { page, errors } = await fresh();
  await showJson(page);
  await page.fill('#model-input', '{"entities": [');
  const error = await page.waitForSelector('.model-card .doc-status .error');
  assert.match(await error.textContent(), /line 1, column \d+/);
  assert.equal(await docs(page, 'user'), '10,000,000');
  await page.click('#tab-form');
  assert.equal(await page.inputValue('[aria-label="Count of user"]'), '10000000');
  assert.equal(await page.$eval('.form-body', (f) => f.disabled), true);
  assert.match(await page.textContent('.form-frozen'), /syntax error/);
  await page.screenshot({ path: `${SHOTS}/editor-broken-json.png` });
  // Undo takes the broken text back.
  await page.keyboard.press('Control+z');
  assert.equal(await page.$eval('.form-body', (f) => f.disabled), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('renames carry their references or are refused with a reason', async () => {
  const { page, errors } = await fresh();
  await commit(page, 'Name of entity 1', 'member');
  await page.waitForFunction(() => document.querySelector('#model-input').value.includes('"parent": "member"'));
  const model = JSON.parse(await json(page));
  assert.equal(model.relationships[0].child, 'member');
  assert.equal(await page.$('.model-card .doc-status .error'), null, 'still a valid model');
  await page.waitForSelector('.collection[data-collection="member"]');
  // A taken name is refused; the field shows the old name again.
  await commit(page, 'Name of entity 1', 'activity');
  assert.match(await page.textContent('.form-message'), /already an entity named “activity”/);
  assert.equal(await page.inputValue('[aria-label="Name of entity 1"]'), 'member');
  // Deleting an entity a relationship needs is refused, with the path.
  await page.click('[aria-label="Delete entity member"]');
  assert.match(await page.textContent('.form-message'), /Deleting entity “member” would break .*\$\.relationships\[0\]\.parent/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('distribution shapes: the form converts the numbers and draws the shape', async () => {
  const { page, errors } = await fresh();
  const shape = '[aria-label="Shape of the cardinality of feed"]';
  await page.locator('.relationship-item').scrollIntoViewIfNeeded();
  assert.equal(await page.inputValue(shape), 'zipf');
  const zipfLine = await page.getAttribute('.relationship-item .shape-preview .curve', 'points');
  await page.selectOption(shape, 'uniform');
  await page.waitForFunction(() => /"shape": "uniform",\s*"min": 0,\s*"max": 1000000/.test(document.querySelector('#model-input').value));
  assert.notEqual(await page.getAttribute('.relationship-item .shape-preview .curve', 'points'), zipfLine);
  assert.equal(await page.inputValue('[aria-label="max of the cardinality of feed"]'), '1000000');
  await page.locator('.relationship-item').screenshot({ path: `${SHOTS}/editor-relationship.png` });
  await page.locator('.unit-item').last().scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/editor-workload.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('many-to-many: the relationship states parents per child, and leaves it with the box', async () => {
  const { page, errors } = await fresh();
  await openPreset(page, 'social-graph');
  const shape = '[aria-label="Shape of the parents per child of followers"]';
  await page.locator(shape).scrollIntoViewIfNeeded();
  assert.equal(await page.inputValue(shape), 'lognormal');
  assert.equal(await page.inputValue('[aria-label="max of the parents per child of followers"]'), '7500');
  // "default": the key goes, every child at the mean (the layout then notes the assumed tail).
  await page.selectOption(shape, 'default');
  await page.waitForFunction(() => !document.querySelector('#model-input').value.includes('"parents_per_child":'));
  await page.selectOption(shape, 'fixed');
  await page.waitForFunction(() => /"parents_per_child": \{\s*"shape": "fixed"/.test(document.querySelector('#model-input').value));
  // One-to-many has one parent per child: unticking many-to-many removes the key with it.
  const box = page.locator('.relationship-item[data-relationship="followers"] .check-field input').first();
  await box.uncheck();
  await page.waitForFunction(() => !document.querySelector('#model-input').value.includes('"parents_per_child":'));
  assert.equal(await page.locator(shape).count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the work comes back on reload', async () => {
  const { page, errors } = await fresh();
  await commit(page, 'Count of activity', '777');
  await page.waitForFunction(() => document.querySelector('#model-input').value.includes('"count": 777'));
  await page.reload();
  await page.waitForSelector('.collection');
  assert.match(await json(page), /"count": 777/);
  assert.equal(await page.inputValue('[aria-label="Count of activity"]'), '777');
  assert.deepEqual(errors, []);
  await page.close();
});

test('export and import round-trip a model; the import is undoable', async () => {
  const { page, errors } = await fresh();
  await commit(page, 'Count of user', '4242');
  await page.waitForFunction(() => document.querySelector('#model-input').value.includes('"count": 4242'));
  const exported = await json(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('.model-card .toolbar >> text="Export"')]);
  assert.equal(download.suggestedFilename(), 'social-feed.json');
  const file = await readFile(await download.path(), 'utf8');
  assert.equal(file, exported);

  await openPreset(page, 'blank');
  assert.match(await page.textContent('[data-testid=loaded-preset]'), /Blank model/);
  await page.setInputFiles('input[type=file]', { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(file) });
  await page.waitForSelector('text=Imported “mine.json”');
  assert.equal(await json(page), exported);
  await page.keyboard.press('Control+z');
  assert.match(await json(page), /"name": "blank"/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a failed import changes nothing and says where the problem is', async () => {
  const { page, errors } = await fresh();
  const before = await json(page);
  await page.setInputFiles('input[type=file]', { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{\n  "entities": [\n    }\n') });
  const alert = await page.waitForSelector('[data-testid=import-error]');
  assert.match(await alert.textContent(), /Could not import “broken\.json”: line 3, column 5: .*Your model is unchanged/);
  assert.equal(await json(page), before);
  assert.equal(await page.isDisabled('[data-testid=undo]'), true, 'nothing to undo');
  // A file dropped on the card goes the same way: valid JSON, invalid model.
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['{"entities": [{"name": "x", "count": -1}]}'], 'dropped.json', { type: 'application/json' }));
    document.querySelector('.model-card').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await page.waitForSelector('text=Could not import “dropped.json”');
  assert.match(await page.textContent('[data-testid=import-error]'), /\$\.entities\[0\]\.count/);
  assert.equal(await json(page), before);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the preset chooser: cards with lessons, the loaded one marked, keyboard and Escape', async () => {
  const { page, errors } = await fresh();
  await page.click('#choose-preset');
  await page.waitForSelector('.chooser');
  // 17 presets, the blank model and "Start from your data".
  assert.equal(await page.$$eval('.preset-card', (cs) => cs.length), 19);
  const loaded = await page.$$eval('.preset-card[aria-current="true"]', (cs) => cs.map((c) => c.dataset.preset));
  assert.deepEqual(loaded, ['social-feed']);
  // The loaded card has the focus.
  await page.waitForFunction(() => document.activeElement?.dataset?.preset === 'social-feed');
  await page.screenshot({ path: `${SHOTS}/editor-chooser.png` });
  // The dialog is modal: Tab from its last control wraps to its first (the close button),
  // Shift+Tab from the first wraps to the last, never to the page behind it.
  const active = () => page.evaluate(() => document.activeElement?.dataset?.preset ?? document.activeElement?.getAttribute('aria-label'));
  await page.focus('.preset-cards li:last-child .preset-card');
  const last = await active();
  await page.keyboard.press('Tab');
  assert.equal(await active(), 'Close');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await active(), last);
  await page.keyboard.press('Escape');
  await page.waitForSelector('.chooser', { state: 'detached' });
  await page.waitForFunction(() => document.activeElement?.id === 'choose-preset');
  // Keyboard only: open, move to another card, open it.
  await page.keyboard.press('Enter');
  await page.waitForSelector('.chooser');
  await page.focus('.preset-card[data-preset="shopping-cart"]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.chooser', { state: 'detached' });
  assert.match(await json(page), /"name": "shopping-cart"/);
  assert.deepEqual(errors, []);
  await page.close();
});
