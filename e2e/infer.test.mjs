// End-to-end: "Start from your data" (docs/page.md): files given to the dialog are inferred in
// a worker, and the model the page opens is the model `squillion infer` prints for the same
// files; the summary shows the relationships found and the lines skipped; bad input changes
// nothing the user had.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPage, useSite, SHOTS } from './browser.mjs';
import { cliJson } from './cli.mjs';

const site = useSite();
const SMALL = { width: 1280, height: 720 };
const AXE = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');
let dir;

/** A 24-hex ObjectId whose timestamp is `seconds` and whose tail is `n`. */
const oid = (seconds, n) => seconds.toString(16).padStart(8, '0') + n.toString(16).padStart(16, '0');

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'squillion-infer-'));
  const day = 86_400;
  const t0 = 1_700_000_000;
  const users = [];
  for (let i = 0; i < 40; i++) {
    users.push(JSON.stringify({
      _id: { $oid: oid(t0 + i * day, i) },
      name: `user ${i} ${'x'.repeat(i % 7)}`,
      email: `user${i}@example.com`,
      plan: ['free', 'pro', 'team'][i % 3],
      addresses: Array.from({ length: i % 3 }, (_, k) => ({ city: `city ${k}`, zip: `${10000 + k}` })),
    }));
  }
  const orders = [];
  for (let i = 0; i < 120; i++) {
    const user = (i * 7) % 40;
    orders.push(JSON.stringify({
      _id: { $oid: oid(t0 + i * day / 3, 1000 + i) },
      user_id: { $oid: oid(t0 + user * day, user) },
      total: { $numberDecimal: `${(i * 3.7).toFixed(2)}` },
      items: i % 5 + 1,
    }));
    // One malformed line, the 11th.
    if (i === 9) orders.push('{"_id": {"$oid": "oops"}, "total": ');
  }
  writeFileSync(join(dir, 'users.json'), users.join('\n') + '\n');
  writeFileSync(join(dir, 'orders.json'), orders.join('\n') + '\n');
  writeFileSync(join(dir, 'schema.sql'), `
CREATE TABLE authors (id INTEGER PRIMARY KEY, name VARCHAR(80) NOT NULL, bio TEXT);
CREATE TABLE books (
  id INTEGER PRIMARY KEY,
  author_id INTEGER NOT NULL REFERENCES authors(id),
  title VARCHAR(200) NOT NULL,
  published DATE
);
CREATE TABLE tags (id INTEGER PRIMARY KEY, label VARCHAR(40) NOT NULL UNIQUE);
CREATE TABLE book_tags (
  book_id INTEGER NOT NULL REFERENCES books(id),
  tag_id INTEGER NOT NULL REFERENCES tags(id), added DATE,
  PRIMARY KEY (book_id, tag_id)
);
CREATE INDEX books_title ON books (title);
INSERT INTO authors VALUES (1, 'Ann', NULL), (2, 'Bo', 'A bio');
INSERT INTO books VALUES (1, 1, 'One', '2020-01-01'), (2, 1, 'Two', NULL), (3, 2, 'Three', '2021-05-05');
INSERT INTO tags VALUES (1, 'x'), (2, 'y');
INSERT INTO book_tags VALUES (1, 1, '2024-01-01'), (2, 1, '2024-01-02'), (3, 2, NULL);
`);
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function fresh() {
  const opened = await openPage(site.browser, `${site.server.url}#playground`, SMALL);
  await opened.page.waitForSelector('.collection');
  return opened;
}

/** Opens the dialog from the preset chooser's "Start from your data" card. */
async function openDialog(page) {
  await page.click('#choose-preset');
  await page.click('.preset-card[data-preset="infer"]');
  await page.waitForSelector('.infer-dialog');
}

/** Runs axe's WCAG 2.1 A and AA rules on the page as it is; returns one line per violation. */
async function audit(page) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() =>
    // eslint-disable-next-line no-undef
    axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }),
  );
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const model = async (page) => JSON.parse(await page.inputValue('#model-input'));

test('two mongoexport files: the page opens the model squillion infer prints, with its summary', async () => {
  const { page, errors } = await fresh();
  await openDialog(page);
  assert.match(await page.textContent('.infer-dialog'), /nothing leaves it/);
  await page.setInputFiles('[data-testid=infer-files]', [join(dir, 'users.json'), join(dir, 'orders.json')]);
  assert.match(await page.textContent('.infer-files'), /users\.json documents → users/);
  await page.fill('.infer-counts', 'users=30000000, orders=90000000');
  await page.click('#infer-run');
  await page.waitForSelector('[data-testid=infer-summary]', { timeout: 60_000 });
  const cli = cliJson(['infer', join(dir, 'users.json'), join(dir, 'orders.json'), '--count', 'users=30000000', '--count', 'orders=90000000', '--json']);
  assert.deepEqual(await model(page), cli.model);
  // The summary: the reference and the embedded addresses, with their layout; the skipped line.
  const rels = await page.textContent('[data-testid=infer-relationships]');
  assert.match(rels, /users → orders \(reference user_id in the child\)/);
  assert.match(rels, /users → address\w* \(embedded array addresses\)/);
  assert.equal(cli.report.skipped_lines, 1);
  assert.equal(await page.textContent('[data-testid=infer-skipped-count]'), '1 line skipped');
  assert.match(await page.textContent('[data-testid=infer-skipped]'), /orders\.json: line 11: column \d+: /);
  assert.match(await page.textContent('[data-testid=infer-entities]'), /users: 40 documents read, count 30,000,000/);
  await page.screenshot({ path: `${SHOTS}/infer-summary.png` });
  // axe on the dialog with its summary.
  assert.deepEqual(await audit(page), []);
  // Done closes the dialog; the model stays, and one Ctrl+Z step brings the preset back.
  await page.click('#infer-done');
  await page.waitForSelector('.infer-dialog', { state: 'detached' });
  assert.match(await page.textContent('.notice'), /Imported “2 inputs”/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a large file: the progress bar counts its bytes and Cancel leaves the model as it was', async () => {
  // 320 MiB of documents: read in 4 MiB slices, long enough to be cancelled mid-way (the page
  // infers at about 100 MiB a second: 96 MiB once left the test about a second, too little on
  // a loaded machine).
  const line = JSON.stringify({ _id: 1, name: 'x'.repeat(200), tags: ['a', 'b', 'c'] }) + '\n';
  const big = join(dir, 'big.json');
  writeFileSync(big, line.repeat(Math.ceil((320 << 20) / line.length)));
  const { page, errors } = await fresh();
  const before = await page.inputValue('#model-input');
  await page.click('#infer-open');
  await page.setInputFiles('[data-testid=infer-files]', [big]);
  await page.click('#infer-run');
  await page.waitForSelector('.infer-progress progress');
  await page.waitForFunction(() => /Reading big\.json: .* of 320/.test(document.querySelector('.infer-progress')?.textContent ?? ''));
  await page.screenshot({ path: `${SHOTS}/infer-progress.png` });
  // The page answers while the worker reads.
  await page.click('#infer-cancel', { timeout: 2_000 });
  await page.waitForSelector('text=Cancelled. Your model is unchanged.');
  assert.equal(await page.inputValue('#model-input'), before);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a .sql schema: the same model as the CLI; a bad statement is skipped at its line, and SQL with no readable table leaves the model unchanged', async () => {
  const { page, errors } = await fresh();
  const before = await page.inputValue('#model-input');
  await page.click('#infer-open');
  await page.waitForSelector('.infer-dialog');
  // Pasted DDL whose only table has a mistake on its second line: nothing to infer, the error
  // at its line and column.
  await page.fill('#infer-paste', '-- one table, with a mistake\nCREATE TABLE b (id INTEGER PRIMARY KEY,, x INT);');
  await page.click('#infer-run');
  const error = await page.waitForSelector('[data-testid=infer-error]', { timeout: 60_000 });
  assert.match(await error.textContent(), /pasted: line 2, column \d+: .*Your model is unchanged/);
  assert.equal(await page.inputValue('#model-input'), before);
  // A good table before the bad one: the good one is inferred, the bad one skipped and
  // reported at its line with the parser's message (one statement never ends the file).
  await page.fill('#infer-paste', 'CREATE TABLE a (id INTEGER PRIMARY KEY);\nCREATE TABLE b (id INTEGER PRIMARY KEY,, x INT);');
  await page.click('#infer-run');
  await page.waitForSelector('[data-testid=infer-summary]', { timeout: 60_000 });
  const partial = await model(page);
  assert.deepEqual(partial.entities.map((e) => e.name), ['a']);
  assert.equal(await page.textContent('[data-testid=infer-skipped-count]'), '1 statement skipped');
  assert.match(
    await page.textContent('[data-testid=infer-skipped]'),
    /pasted: line 2: CREATE TABLE b \(id: not read \(line 2, column \d+: /,
  );
  // The schema file instead (the pasted text cleared).
  await page.fill('#infer-paste', '');
  await page.setInputFiles('[data-testid=infer-files]', [join(dir, 'schema.sql')]);
  await page.fill('.infer-counts', 'books=200000');
  await page.click('#infer-run');
  await page.waitForFunction(() => /books/.test(document.querySelector('[data-testid=infer-entities]')?.textContent ?? ''), null, { timeout: 60_000 });
  const cli = cliJson(['infer', join(dir, 'schema.sql'), '--count', 'books=200000', '--json']);
  assert.deepEqual(await model(page), cli.model);
  const rels = await page.textContent('[data-testid=infer-relationships]');
  assert.match(rels, /authors → books \(one-to-many, via books\.author_id\)/);
  assert.match(rels, /many-to-many, via book_tags/);
  // The rows give the figures: 2 and 1 books per author.
  assert.match(rels, /via books\.author_id\), 1\.50 children per parent \(rows: 1 to 2, median 1\)/);
  // book_tags' added: a link attribute the model does not carry.
  assert.match(
    await page.textContent('[data-testid=infer-link-attributes]'),
    /book_tags: added \(a many-to-many relationship carries no fields\)/,
  );
  assert.equal(await page.textContent('[data-testid=infer-skipped-count]'), '1 statement skipped');
  assert.match(
    await page.textContent('[data-testid=infer-skipped]'),
    /schema\.sql: line 15: CREATE INDEX books_title ON \(not a table: skipped\)/,
  );
  await page.screenshot({ path: `${SHOTS}/infer-sql.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.deepEqual(await audit(page), [], 'dark theme');
  // Each import is one undo step: the first brings back the model of table a, the second the
  // preset.
  await page.click('#infer-done');
  await page.click('[data-testid=undo]');
  await page.waitForFunction((m) => JSON.stringify(JSON.parse(document.querySelector('#model-input').value)) === m, JSON.stringify(partial));
  await page.click('[data-testid=undo]');
  await page.waitForFunction((b) => document.querySelector('#model-input').value === b, before);
  assert.deepEqual(errors, []);
  await page.close();
});
