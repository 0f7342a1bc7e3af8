// End-to-end: every error next to what caused it and in view, no endless state, forms that
// take values in any order, share links that keep what was on show (issue #16, items 3–5).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useSite, SHOTS, openPreset, showJson } from './browser.mjs';

const site = useSite();

/** Returns true when the element matching `selector` lies within the viewport. */
async function inViewport(page, selector) {
  return page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
  });
}

/** The model as the JSON tab holds it. */
const model = async (page) => JSON.parse(await page.inputValue('#model-input'));

/** Waits for the chosen design's evaluation to be done. */
const evaluated = (page) => page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });

test('a JSON syntax error: the editor scrolls to the line and marks it, the place said once', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await evaluated(page);
  await showJson(page);
  const lines = (await page.inputValue('#model-input')).split('\n');
  // A trailing comma deep in the model: on the last value before a closing brace past line 80.
  const at = lines.findIndex((l, i) => i >= 80 && /[0-9"e]$/.test(l) && /^\s*}/.test(lines[i + 1] ?? ''));
  assert.ok(at > 0, 'a line to break');
  lines[at] += ',';
  await page.fill('#model-input', lines.join('\n'));
  // Typing keeps the caret where it is; leaving the text goes to the error.
  await page.$eval('#model-input', (a) => { a.scrollTop = 0; a.blur(); });
  const message = await page.waitForSelector('.json-error');
  const line = Number(await message.getAttribute('data-line'));
  assert.ok(line === at + 1 || line === at + 2, `the error is at the broken line (${line}, broke ${at + 1})`);
  const text = await message.textContent();
  assert.match(text, new RegExp(`^line ${line}, column \\d+: trailing comma Show line ${line}$`));
  assert.equal(text.match(/line/gi).length, 2, `the place is said once (and on the button): ${text}`);
  await page.waitForSelector('.json-mark');
  assert.ok(await inViewport(page, '.json-mark'), 'the marked line is in view');
  assert.ok(await inViewport(page, '.json-error'), 'the message is in view');
  // The mark sits on the error's line of the text.
  const { markTop, lineTop, lineHeight } = await page.evaluate((n) => {
    const a = document.querySelector('#model-input');
    const s = getComputedStyle(a);
    const lh = parseFloat(s.lineHeight);
    const r = a.getBoundingClientRect();
    return {
      markTop: document.querySelector('.json-mark').getBoundingClientRect().top,
      lineTop: r.top + parseFloat(s.borderTopWidth) + parseFloat(s.paddingTop) + (n - 1) * lh - a.scrollTop,
      lineHeight: lh,
    };
  }, line);
  assert.ok(Math.abs(markTop - lineTop) < lineHeight / 2, `mark at ${markTop}, line at ${lineTop}`);
  await page.screenshot({ path: `${SHOTS}/states-json-error-1280x720.png` });

  // Scrolled away, the mark goes; "Show line" comes back to it with the caret there.
  await page.$eval('#model-input', (a) => { a.scrollTop = 0; a.dispatchEvent(new Event('scroll')); });
  await page.waitForSelector('.json-mark', { state: 'detached' });
  await page.click('.json-error button');
  await page.waitForSelector('.json-mark');
  assert.ok(await inViewport(page, '.json-mark'));
  const caretLine = await page.$eval('#model-input', (a) => a.value.slice(0, a.selectionStart).split('\n').length);
  assert.equal(caretLine, line);

  // The CLI's message says the place once too: the core's parse error is the reason alone.
  assert.equal(await page.$$eval('.model-errors li', (ls) => ls.map((l) => l.textContent).filter((t) => / at line /.test(t)).length), 0);
  // Fixed, the mark and the message go.
  lines[at] = lines[at].slice(0, -1);
  await page.fill('#model-input', lines.join('\n'));
  await page.waitForSelector('.json-error', { state: 'detached' });
  assert.equal(await page.$('.json-mark'), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an evaluation that fails says why in the status line, in the page’s words', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await evaluated(page);
  await showJson(page);
  // The model asks for a sample far past the memory budget.
  const m = await model(page);
  m.sample = { max_documents: 1000000 };
  await page.fill('#model-input', JSON.stringify(m, null, 2));
  const state = await page.waitForSelector('.eval-state[data-state="failed"]', { timeout: 180_000 });
  const text = await state.textContent();
  assert.match(text, /^Not evaluated: the sample is too big to evaluate \(about [\d,]+ documents, over the limit of [\d,]+\); at most [\d,]+ documents per entity fit\. Lower “Sample” beside the design bar\./);
  assert.doesNotMatch(text, /--|command line/);
  assert.equal(await page.$$eval('.eval-error', (es) => es.filter((e) => /--scale|command line/.test(e.textContent)).length), 0);
  await page.evaluate(() => scrollTo(0, 0));
  assert.ok(await inViewport(page, '.eval-state'), 'the status line is in view');
  await page.screenshot({ path: `${SHOTS}/states-eval-failed-1280x720.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the sample control clamps to what fits the memory budget and says the figure', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await evaluated(page);
  await page.fill('.scale-input', '1000000');
  await page.press('.scale-input', 'Enter');
  const notice = await page.waitForSelector('.scale-clamped[data-limit="budget"]');
  const text = await notice.textContent();
  const m = text.match(/^Clamped to ([\d,]+): at most ([\d,]+) per entity fits the memory budget of this design\.$/);
  assert.ok(m, text);
  assert.equal(m[1], m[2]);
  const fits = Number(m[1].replace(/,/g, ''));
  assert.ok(fits > 1 && fits < 1000000, text);
  assert.equal(Number(await page.inputValue('.scale-input')), fits);
  assert.equal(Number(await page.getAttribute('.scale-input', 'max')), fits);
  assert.ok(await inViewport(page, '.scale-clamped'));
  await page.screenshot({ path: `${SHOTS}/states-scale-clamped-1280x720.png` });
  // What fits evaluates: no failure.
  const done = await page.waitForSelector('.eval-state[data-state="done"], .eval-state[data-state="failed"]', { timeout: 300_000 });
  assert.equal(await done.getAttribute('data-state'), 'done', await done.textContent());
  assert.deepEqual(errors, []);
  await page.close();
});

test('a model without operations shows its sizes and says there is nothing to run', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await evaluated(page);
  await openPreset(page, 'blank');
  await page.waitForSelector('.eval-operations[data-state="done"] [data-testid="nothing-to-run"]', { timeout: 60_000 });
  assert.ok(await page.$('.collection[data-evaluated="true"] [data-metric="total_bytes"]'), 'the sizes are shown');
  await page.waitForFunction(() => /nothing to run/.test(document.querySelector('[data-chart="cost"]')?.textContent ?? ''), null, { timeout: 60_000 });
  await page.waitForFunction(() => !/Evaluating/.test(document.querySelector('[data-chart="storage"]')?.textContent ?? 'Evaluating'), null, { timeout: 60_000 });
  assert.doesNotMatch(await page.textContent('.results'), /Evaluating the designs/);
  await page.$eval('[data-testid="nothing-to-run"]', (e) => e.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: `${SHOTS}/states-no-operations-1280x720.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('choosing Custom marks nothing edited and adds no undo step until the user changes something', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await evaluated(page);
  await openPreset(page, 'blog');
  await showJson(page);
  const original = await page.inputValue('#model-input');
  const undoTitle = await page.getAttribute('[data-testid=undo]', 'title');
  await page.keyboard.press('2');
  await page.click('.design-button:has-text("Custom")');
  // Custom shows Denormalized (the design it came from), evaluated, yet the model is unchanged.
  assert.equal(await page.inputValue('#strategy-comments'), 'reference_in_child');
  assert.equal(await page.inputValue('#design-base'), 'denormalized');
  await page.waitForSelector('.eval-operations[data-state="done"]', { timeout: 180_000 });
  assert.equal(await page.inputValue('#model-input'), original);
  assert.doesNotMatch(await page.textContent('[data-testid=loaded-preset]'), /edited/);
  assert.equal(await page.getAttribute('[data-testid=undo]', 'title'), undoTitle, 'no undo step');
  // The first change writes the design it shows, with the change: one undo step.
  await page.selectOption('#strategy-comments', 'bucket');
  await page.waitForFunction(() => JSON.parse(document.querySelector('#model-input').value).design?.relationships?.comments);
  const design = (await model(page)).design;
  assert.equal(design.base, 'denormalized');
  assert.deepEqual(design.relationships, { comments: { strategy: 'bucket', size: 50 } });
  assert.match(await page.textContent('[data-testid=loaded-preset]'), /edited/);
  await page.click('[data-testid=undo]');
  await page.waitForFunction((t) => document.querySelector('#model-input').value === t, original);
  // Back at the preset's own design, Custom shows where it started again.
  assert.equal(await page.inputValue('#design-base'), 'denormalized');
  assert.doesNotMatch(await page.textContent('[data-testid=loaded-preset]'), /edited/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a share link keeps the design and the view on show; an old link still opens', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await evaluated(page);
  await openPreset(page, 'social-graph');
  await page.click('.design-button[data-design="tbc"]');
  await showJson(page);
  await page.click('button:has-text("Share link")');
  const url = await page.inputValue('.share-url input');
  assert.match(url, /#playground&design=tbc&view=json&model=[A-Za-z0-9_-]+$/);
  const text = await page.inputValue('#model-input');

  // Opened elsewhere (a fresh profile): the same model, design and view.
  const other = await openPage(site.browser, url, { width: 1280, height: 720 });
  await other.page.waitForSelector('.design-button[aria-pressed="true"]');
  assert.equal(await other.page.getAttribute('.design-button[aria-pressed="true"]', 'data-design'), 'tbc');
  assert.equal(await other.page.getAttribute('#tab-json', 'aria-selected'), 'true');
  assert.equal(await other.page.inputValue('#model-input'), text);
  await other.page.waitForSelector('.eval-operations[data-state="done"][data-design="tbc"]', { timeout: 180_000 });
  assert.deepEqual(other.errors, []);
  await other.page.close();

  // A link made before the design and view were kept: the model, on its first design.
  const old = url.replace('design=tbc&view=json&', '');
  const third = await openPage(site.browser, old, { width: 1280, height: 720 });
  await third.page.waitForSelector('.design-button[aria-pressed="true"]');
  assert.equal(await third.page.inputValue("#model-input"), text);
  assert.notEqual(await third.page.getAttribute('.design-button[aria-pressed="true"]', 'data-design'), 'tbc');
  assert.deepEqual(third.errors, []);
  await third.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

/** The number field `key` of the title's length in the blank model's form. */
const lengthField = (key) => `input[aria-label="${key} of the length of title"]`;

/** Commits `value` in the number field `key` of the title's length. */
async function typeIn(page, key, value) {
  await page.fill(lengthField(key), String(value));
  await page.press(lengthField(key), 'Enter');
}

test('a distribution takes its numbers in any order, for every shape', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await evaluated(page);
  await openPreset(page, 'blank');
  await page.click('#tab-form');
  const shape = 'select[aria-label="Shape of the length of title"]';
  const length = async () => JSON.parse(await page.evaluate(() => localStorage.getItem('squillion.model'))).entities[0].fields.title.length;
  // A new lognormal length, typical typed first and far above p99 and max.
  await page.selectOption(shape, 'default');
  await page.selectOption(shape, 'lognormal');
  assert.deepEqual(await length(), { shape: 'lognormal', typical: 50, p99: 100, max: 100 });
  await typeIn(page, 'typical', 200000);
  await page.waitForFunction(() => document.querySelector('.dist-moved'));
  assert.deepEqual(await length(), { shape: 'lognormal', typical: 200000, p99: 200000, max: 200000 });
  assert.equal(await page.textContent('.dist-moved'), 'p99 and max raised to 200,000 to stay at least typical.');
  assert.equal(await page.$('.model-errors'), null, 'the model stays valid');
  // The note is beside the fields, not far away.
  const gap = await page.evaluate(([f]) => {
    const a = document.querySelector(f).getBoundingClientRect();
    const b = document.querySelector('.dist-moved').getBoundingClientRect();
    return b.top - a.bottom;
  }, [lengthField('typical')]);
  assert.ok(gap >= 0 && gap < 60, `the note is ${gap}px below the field`);
  await page.$eval(shape, (s) => s.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: `${SHOTS}/states-form-any-order-1280x720.png` });
  await typeIn(page, 'max', 5000000);
  await typeIn(page, 'p99', 900000);
  assert.deepEqual(await length(), { shape: 'lognormal', typical: 200000, p99: 900000, max: 5000000 });

  // Every shape: each number far above, then far below, the others; the model stays valid.
  const keys = { uniform: ['min', 'max'], normal: ['mean', 'sd', 'min', 'max'], zipf: ['min', 'typical', 'p99', 'max'], lognormal: ['typical', 'p99', 'max'], fixed: ['value'] };
  for (const [name, ks] of Object.entries(keys)) {
    await page.selectOption(shape, name);
    for (const k of ks) {
      for (const v of [100000, 1]) {
        await typeIn(page, k, v);
        await page.waitForFunction(([k, v]) => JSON.parse(localStorage.getItem('squillion.model')).entities[0].fields.title.length[k] === v, [k, v]);
        assert.equal(await page.$('.model-errors'), null, `${name}: ${k} = ${v} keeps the model valid`);
      }
    }
  }

  // A problem stays beside its field: not a number, or a typical of 0 for a heavy tail.
  await page.selectOption(shape, 'lognormal');
  await typeIn(page, 'p99', 'lots');
  const refused = await page.waitForSelector(`label:has(${lengthField('p99')}) .field-problem`);
  assert.equal(await refused.textContent(), '“lots” is not a number.');
  await typeIn(page, 'typical', 0);
  const problem = await page.waitForSelector(`label:has(${lengthField('typical')}) .field-problem`);
  assert.match(await problem.textContent(), /typical must be greater than 0/);
  assert.equal(await page.getAttribute(lengthField('typical'), 'aria-invalid'), 'true');
  await page.$eval(shape, (s) => s.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: `${SHOTS}/states-field-problem-1280x720.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
