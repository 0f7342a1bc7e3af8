// End-to-end: documents pasted into "Start from your data" as mongosh prints them (a
// pretty-printed array, each document over several lines, shell forms such as ObjectId('…'))
// give the page the same model as `squillion infer` of the same text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPage, useSite, SHOTS } from './browser.mjs';
import { cliJson } from './cli.mjs';

const site = useSite();
let dir;

/** What `db.users.find()` prints in mongosh: two documents in a pretty-printed array. */
const PASTED = `[
  {
    _id: ObjectId('65a1b2c3d4e5f60718293a4b'),
    name: 'Ann { ] "quoted"',
    joined: ISODate('2024-01-01T10:00:00.000Z'),
    tags: [ 'a', 'b' ],
    address: { city: 'Lyon', zip: '69001' }
  },
  {
    _id: ObjectId('65a1b2c3d4e5f60718293a4c'),
    name: 'Bob',
    joined: ISODate('2024-01-05T10:00:00.000Z'),
    tags: []
  }
]
`;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'squillion-pasted-shell-'));
  writeFileSync(join(dir, 'pasted.json'), PASTED);
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('a pasted pretty-printed array: the page opens the model squillion infer prints', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.collection');
  await page.click('#infer-open');
  await page.waitForSelector('.infer-dialog');
  await page.fill('#infer-paste', PASTED);
  await page.fill('.infer-collection', 'users');
  await page.click('#infer-run');
  await page.waitForSelector('[data-testid=infer-summary]', { timeout: 60_000 });
  const cli = cliJson(['infer', `${join(dir, 'pasted.json')}:users`, '--json']);
  assert.equal(cli.report.sources[0].documents, 2);
  assert.equal(cli.report.skipped_lines, 0);
  assert.deepEqual(JSON.parse(await page.inputValue('#model-input')), cli.model);
  assert.match(await page.textContent('[data-testid=infer-entities]'), /users: 2 documents read/);
  await page.screenshot({ path: `${SHOTS}/infer-pasted-shell-summary.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
