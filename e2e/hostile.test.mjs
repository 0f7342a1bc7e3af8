// End-to-end: the hostile corpus of tests/suite/hostile.rs (tests/fixtures/hostile/), fed through
// the page — the document sizer, the console, the playground's model editor and share links.
// Every input must get a clear error shown on the page or a correct result; the page must stay
// alive (no panic banner, still answering) and log no console error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { openPage, openPreset, useSite, SHOTS } from './browser.mjs';
import { useExamples } from './console.mjs';

const site = useSite();

const HOSTILE = 'tests/fixtures/hostile';

/** expected.tsv: case → { outcome, text }, as tests/suite/hostile.rs reads it. */
const EXPECTED = new Map(
  readFileSync(`${HOSTILE}/expected.tsv`, 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [name, outcome, ...text] = l.split('\t');
      return [name, { outcome, text: text.join('\t') }];
    }),
);

/** The files of one corpus folder, read as the page would receive them (lossy UTF-8). */
function corpus(folder) {
  return readdirSync(`${HOSTILE}/${folder}`)
    .sort()
    .map((file) => ({
      name: `${folder}/${file}`,
      text: new TextDecoder('utf-8').decode(readFileSync(`${HOSTILE}/${folder}/${file}`)),
    }));
}

/** A share-link payload, as src/share.rs encodes it: raw deflate, base64url without padding. */
const payload = (bytes) => deflateRawSync(Buffer.from(bytes), { level: 9 }).toString('base64url');

/** Asserts the page has not panicked and logged no error. */
async function alive(page, errors, what) {
  assert.equal(await page.$('#panic-banner'), null, `${what}: the page panicked`);
  assert.deepEqual(errors, [], `${what}: console errors`);
}

const thousands = (n) => Number(n).toLocaleString('en-US');

/**
 * Puts `text` into a text field as a paste does: the value, then one input event. (Playwright's
 * fill() types text through the editing machinery: 40 s for the 468 KB of deep-fields.json.)
 */
async function paste(page, selector, text) {
  await page.$eval(selector, (e, t) => {
    e.value = t;
    e.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
}

// {"baseline_value": "xyz"}: 4 + 16 + 8 + 1 = 29 bytes, a size no hostile document has.
const BASELINE = '{"baseline_value": "xyz"}';

test('the sizer answers every hostile document with a size or a located error', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#documents`);
  await page.waitForSelector('[data-testid=size-bytes]');
  const summary = [];
  const problems = [];
  for (const { name, text } of corpus('documents')) {
    await page.fill('#doc-input', BASELINE);
    await page.waitForFunction(
      () => document.querySelector('[data-testid=size-bytes]')?.textContent === '29' && !document.querySelector('#doc-status .error'),
    );
    await paste(page, '#doc-input', text);
    await page.waitForFunction(
      () => document.querySelector('#doc-status .error') || document.querySelector('[data-testid=size-bytes]')?.textContent !== '29',
      null,
      { timeout: 20000 },
    );
    const error = await page.$eval('#doc-status', (e) => e.querySelector('.error')?.textContent ?? null);
    const size = await page.textContent('[data-testid=size-bytes]');
    const want = EXPECTED.get(name);
    assert.ok(want, `${name} has no line in expected.tsv`);
    if (error !== null) {
      // A clear error: where (line and column) and why.
      assert.match(error, /^Line \d+, column \d+\S*\s*\S/, `${name}: ${error}`);
      // Where the command line accepts every document of a one-document file, so does the page.
      if (want.outcome === 'exit 0') {
        assert.ok(!/\tline 1$/.test(want.text) || name.includes('bom-twice'), `${name}: the CLI sizes it, the page says ${error}`);
      }
      // The same reason as the command line gives, when the file holds one document.
      // The sizer takes one document: a file of several stops at the second one. The command
      // line's message (one of the file's documents) must be the page's when the page stops
      // on the same line; a top-level array is read by the command line as a list of
      // documents, whose brackets open one level before the sizer's.
      const several = /unexpected text after the value/.test(error);
      const m = want.text.match(/^line (\d+), column (\d+): (.*)$/);
      const line = Number(error.match(/^Line (\d+)/)[1]);
      if (m && !several && !text.startsWith('[') && Number(m[1]) === line) {
        if (!error.includes(m[3])) problems.push(`${name}: expected “${m[3]}”, the page says “${error}”`);
        if (!error.startsWith(`Line ${m[1]}, column ${m[2]}`)) problems.push(`${name}: CLI at ${m[1]}:${m[2]}, the page says ${error}`);
      }
      summary.push(`${name}: error ${error.slice(0, 90)}`);
    } else {
      assert.match(size, /^[\d,]+$/, `${name}: ${size}`);
      const m = want.text.match(/^(\d+)\t[\d.]+%\tline 1$/);
      if (want.outcome === 'exit 0' && m) {
        assert.equal(size, thousands(m[1]), `${name}: the CLI says ${m[1]} bytes`);
      }
      summary.push(`${name}: ${size} bytes`);
    }
    await alive(page, errors, name);
  }
  // Still answering.
  await page.fill('#doc-input', '{"a": 1}');
  await page.waitForFunction(() => document.querySelector('[data-testid=size-bytes]')?.textContent === '12');
  await page.screenshot({ path: `${SHOTS}/hostile-sizer.png`, fullPage: false });
  console.log(summary.join('\n'));
  assert.deepEqual(problems, []);
  await alive(page, errors, 'sizer');
  await page.close();
});

/** Types a command into the console and presses Enter; resolves to the new entry's text. */
async function runCommand(page, command) {
  const before = await page.$$eval('.entry', (es) => es.length);
  await page.fill('#console-input', command);
  await page.press('#console-input', 'Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length === n + 1, before, { timeout: 20000 });
  const entries = await page.$$('.entry');
  const entry = entries[entries.length - 1];
  return {
    error: await entry.$eval('.error', (e) => e.textContent).catch(() => null),
    text: await entry.textContent(),
  };
}

test('the console answers hostile commands and documents with a result or a clear error', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#console`, { width: 1280, height: 1000 });
  await page.waitForSelector('#console-input');
  await useExamples(page);
  const refused = [
    // Server-side JavaScript is never run.
    ['db.users.find({ $where: "while (true) {}" })', /never runs user code/],
    ['db.users.aggregate([{ $project: { x: { $function: { body: "function() {}", args: [], lang: "js" } } } }])', /never runs user code/],
    ['db.users.aggregate([{ $group: { _id: null, x: { $accumulator: { init: "function() {}" } } } }])', /never runs user code/],
    // `$`-prefixed and dotted field names, in wrong places.
    ['db.h.insertOne({ $set: { a: 1 } })', /\$/],
    ['db.h.updateOne({}, { $set: { "$a": 1 } }, { upsert: true })', /\$a|dollar|\$-prefixed|not valid/i],
    ['db.h.updateOne({}, { $bogus: { a: 1 } })', /\$bogus/],
    ['db.h.find({ a: { $foo: 1 } })', /\$foo/],
    // Numbers beyond int64, NaN in integers.
    ['db.h.insertOne({ a: NumberLong("99999999999999999999") })', /64 bits|int64|fit/i],
    ['db.h.insertOne({ a: NumberInt(2147483648) })', /32 bits|int32|fit/i],
    // Zero or negative counts where a count is wanted.
    ['db.h.find().limit(-1).skip(-5)', /./],
    // Truncated and deeply nested input.
    ['db.h.insertOne({ a: [1, 2', /Line 1, column \d+/],
    [`db.h.insertOne(${'{ "a": '.repeat(300)}1${' }'.repeat(300)})`, /nested|deep/i],
  ];
  for (const [command, why] of refused) {
    const r = await runCommand(page, command);
    if (r.error === null) {
      // An answer instead of an error must be a real result (a count or an acknowledgement).
      assert.match(r.text, /documents?|acknowledged|inserted|matched|\d/, `${command}: ${r.text}`);
    } else {
      assert.match(r.error, why, `${command}: ${r.error}`);
    }
    await alive(page, errors, command);
  }
  // Documents that are accepted with exact values: NaN, infinities, duplicate-free `$`-free
  // dotted names are refused or stored, never crash.
  for (const command of [
    'db.h.insertOne({ _id: 1, n: NaN, i: Infinity, m: -Infinity, d: NumberDecimal("NaN") })',
    'db.h.find({ n: NaN })',
    'db.h.find({ i: { $gt: 1e308 } })',
    'db.h.insertOne({ _id: 2, "a.b": 1 })',
    'db.h.insertOne({ _id: 3, big: 99999999999999999999999 })',
    'db.h.find({ big: { $gt: 9223372036854775807 } })',
    'db.h.updateOne({ _id: 1 }, { $inc: { n: 1 }, $mul: { i: -1 } })',
    'db.h.aggregate([{ $group: { _id: null, s: { $sum: "$n" }, a: { $avg: "$i" } } }])',
  ]) {
    const r = await runCommand(page, command);
    assert.ok(r.error === null || r.error.length > 10, `${command}: ${r.error}`);
    await alive(page, errors, command);
  }
  // The hostile document files, each inserted (small files; the console input is one line).
  for (const { name, text } of corpus('documents')) {
    if (text.length > 30000 || /\/\/|\/\*/.test(text)) continue;
    const one = text.replace(/\s*\n\s*/g, ' ');
    const r = await runCommand(page, `db.hostile.insertOne(${one})`);
    assert.ok(r.error === null || /\S/.test(r.error), `${name}: an empty error`);
    await alive(page, errors, name);
  }
  // Still answering.
  const ok = await runCommand(page, 'db.fresh.insertOne({ _id: 7 })');
  assert.equal(ok.error, null, ok.text);
  await page.screenshot({ path: `${SHOTS}/hostile-console.png`, fullPage: false });
  await alive(page, errors, 'console');
  await page.close();
});

/** Waits for the model editor to settle on `text`: a listed problem or a valid model. The
 * largest hostile models take seconds to validate, many more with another test file's page
 * evaluating beside them on 2 cores (a clean-clone run timed out at 30 s where the run before
 * it passed): a hang still fails, at two minutes. */
async function modelState(page) {
  await page.waitForFunction(
    () => document.querySelector('.model-card .model-errors') || document.querySelector('.model-card .hint'),
    null,
    { timeout: 120000 },
  );
  return page.$eval('.model-card .doc-status', (e) => e.textContent);
}

test('the model editor lists the problem of every hostile model, at its path', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`);
  await page.waitForSelector('.collection');
  for (const { name, text } of corpus('models')) {
    const want = EXPECTED.get(name);
    assert.ok(want, `${name} has no line in expected.tsv`);
    await paste(page, '#model-input', text);
    const state = await modelState(page);
    if (want.outcome === 'error') {
      // The same problem at the same place as the command line reports it.
      const where = want.text.replace(/^line (\d+), column (\d+)/, (_, l, c) => `line ${l}, column ${c}`);
      assert.ok(state.includes(where), `${name}: expected “${where}”, the page says “${state}”`);
    } else {
      assert.match(state, /Valid model/, `${name}: ${state}`);
      // Its designs are laid out or refused with a message, never a blank page.
      await page.waitForFunction(() => document.querySelector('.results .collection, .results > .error'), null, { timeout: 30000 });
      const shown = await page.$eval('.results', (r) => r.textContent);
      assert.ok(shown.trim().length > 0, `${name}: empty results`);
    }
    await alive(page, errors, name);
  }
  // Still answering: a preset opens and shows its collections.
  await openPreset(page, 'blog');
  await page.waitForSelector('.collection');
  assert.match(await page.textContent('.model-card'), /Blog/);
  await page.screenshot({ path: `${SHOTS}/hostile-model.png`, fullPage: false });
  await alive(page, errors, 'model editor');
  await page.close();
});

test('a share link carrying a hostile model shows its problem; a damaged link is refused', async () => {
  // Hostile models through a link: opened, and their problem listed like an edit's. The
  // editor's answer to every hostile model is checked above, and every one of them crosses a
  // link intact natively (tests/suite/hostile.rs, hostile_models_through_a_share_link): here the
  // page opens representatives, the first model with a problem, the first valid one and the
  // largest that fits a link, each encoded by Node's zlib as another tool would.
  const models = corpus('models').filter(({ text }) => text.length <= 200000);
  const largest = models.reduce((a, b) => (b.text.length > a.text.length ? b : a));
  const representatives = [
    models.find(({ name }) => EXPECTED.get(name)?.outcome === 'error'),
    models.find(({ name }) => EXPECTED.get(name)?.outcome !== 'error'),
    largest,
  ].filter((m, i, all) => m && all.indexOf(m) === i);
  assert.ok(representatives.length >= 2, 'representative hostile models');
  for (const { name, text } of representatives) {
    const want = EXPECTED.get(name);
    const { page, errors } = await openPage(site.browser, `${site.server.url}#playground&model=${payload(text)}`);
    const state = await modelState(page);
    if (want.outcome === 'error') {
      assert.match(await page.textContent('.model-card'), /Opened the model from the link/, name);
      const where = want.text;
      assert.ok(state.includes(where), `${name}: expected “${where}”, the page says “${state}”`);
    } else {
      assert.match(state, /Valid model/, `${name}: ${state}`);
    }
    await alive(page, errors, `link ${name}`);
    await page.close();
  }
  // Damaged links: each refused with its reason, the starter model kept and working.
  const damaged = [
    ['not base64url', '%%%not*base64%%%', /could not be opened: the link is damaged \(not base64url\)/],
    ['invalid UTF-8', payload([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), /could not be opened: the link does not hold text/],
    ['a deflate bomb', payload(Buffer.alloc(64 * 1024 * 1024, 0x20)), /could not be opened: the link is damaged or expands beyond/],
    ['over-long', 'A'.repeat(300 * 1024), /could not be opened: the link is \d+ characters long/],
    ['not deflate', Buffer.from('hello').toString('base64url'), /could not be opened: the link is damaged or expands beyond/],
  ];
  for (const [what, p, why] of damaged) {
    const { page, errors } = await openPage(site.browser, `${site.server.url}#playground&model=${p}`);
    const notice = await page.waitForSelector('.model-card > .error');
    assert.match(await notice.textContent(), why, what);
    assert.match(await notice.textContent(), /Your model is unchanged/, what);
    assert.match(await modelState(page), /Valid model/, what);
    await page.waitForSelector('.collection');
    if (what === 'invalid UTF-8') await page.screenshot({ path: `${SHOTS}/hostile-link.png`, fullPage: false });
    await alive(page, errors, `link: ${what}`);
    await page.close();
  }
});
