// End-to-end (issue 18's "Done when"): files DROPPED on "Start from your data" (a drop event
// carrying the files, as a desktop's file manager sends it, not the file picker) are inferred
// in the worker, and the model the page opens is the model `squillion infer` prints for the
// same files: a reference, growth from ObjectId timestamps, and a GridFS bucket recognized as
// the message's attachment.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPage, useSite, SHOTS, dropFiles } from './browser.mjs';
import { cliJson } from './cli.mjs';

const site = useSite();
/** The archive peer of tests/suite/infer_archives.rs. */
const PEER = join(dirname(fileURLToPath(import.meta.url)), '..', 'tests', 'suite', 'common', 'mongodump_archive.py');

/** Drops `files` on the dialog's drop zone, checking that the zone shows the drag over it. */
const drop = (page, files) =>
  dropFiles(page, files, async () => {
    assert.ok(await page.$('.infer-drop.dropping'), 'the drop zone shows the drag over it');
  });

let dir;

/** A 24-hex ObjectId whose timestamp is `seconds` and whose tail is `n`. */
const oid = (seconds, n) => seconds.toString(16).padStart(8, '0') + n.toString(16).padStart(16, '0');
const FILES = ['conversation.json', 'message.json', 'fs.files.json', 'fs.chunks.json'];

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'squillion-infer-drop-'));
  const day = 86_400;
  const t0 = 1_700_000_000;
  const conversations = [];
  for (let i = 0; i < 12; i++) {
    conversations.push({ _id: { $oid: oid(t0 + i * day, i) }, title: `conversation ${i}` });
  }
  // 60 files of 1 to 700,000 bytes (1 to 3 chunks of 261,120), each in its chunks.
  const files = [];
  const chunks = [];
  for (let f = 0; f < 60; f++) {
    const length = 1 + ((f * 7_919 * 13) % 700_000);
    const id = oid(t0 + f * day, 5_000 + f);
    files.push({
      _id: { $oid: id },
      length: { $numberLong: String(length) },
      chunkSize: { $numberInt: '261120' },
      uploadDate: { $date: { $numberLong: String((t0 + f * day) * 1000) } },
      filename: `file-${f}.bin`,
    });
    for (let n = 0; n * 261_120 < length; n++) {
      // The chunk's bytes are not read (the layout computes them): a few stand for them.
      chunks.push({
        _id: { $oid: oid(t0 + f * day, 9_000 + chunks.length) },
        files_id: { $oid: id },
        n: { $numberInt: String(n) },
        data: { $binary: { base64: 'AAECAw==', subType: '00' } },
      });
    }
  }
  // 200 messages in the 12 conversations; every third names a file.
  const messages = [];
  for (let i = 0; i < 200; i++) {
    const c = (i * i) % 12;
    messages.push({
      _id: { $oid: oid(t0 + i * day / 4, 1_000 + i) },
      conversationId: { $oid: oid(t0 + c * day, c) },
      text: `message ${i} ${'x'.repeat(i % 50)}`,
      ...(i % 3 === 0 && i / 3 < 60 ? { attachmentFileId: { $oid: oid(t0 + (i / 3) * day, 5_000 + i / 3) } } : {}),
    });
  }
  const write = (name, docs) => writeFileSync(join(dir, name), docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
  write('conversation.json', conversations);
  write('message.json', messages);
  write('fs.files.json', files);
  write('fs.chunks.json', chunks);
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('files dropped on the dialog: the model squillion infer prints, GridFS recognized', async () => {
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.collection');
  await page.click('#choose-preset');
  await page.click('.preset-card[data-preset="infer"]');
  await page.waitForSelector('.infer-drop');
  // A drop event whose DataTransfer holds the four files, after a dragover, on the drop zone.
  await drop(page, FILES.map((name) => ({ name, bytes: [...readFileSync(join(dir, name))] })));
  assert.match(await page.textContent('.infer-files'), /fs\.files\.json documents → fs\.files/);
  await page.fill('.infer-counts', 'conversation=1000000, message=50000000');
  await page.click('#infer-run');
  await page.waitForSelector('[data-testid=infer-summary]', { timeout: 60_000 });
  const cli = cliJson([
    'infer',
    ...FILES.map((f) => join(dir, f)),
    '--count', 'conversation=1000000', '--count', 'message=50000000', '--json',
  ]);
  const model = JSON.parse(await page.inputValue('#model-input'));
  assert.deepEqual(model, cli.model);
  // What the CLI found is what the page opened: the bucket as message.attachment in GridFS,
  // no fs.* entity, the conversation's messages a reference in the child.
  assert.deepEqual(cli.model.design.fields, [{ pattern: 'gridfs', entity: 'message', field: 'attachment' }]);
  assert.deepEqual(cli.model.entities.map((e) => e.name), ['conversation', 'message']);
  const attachment = cli.model.entities[1].fields.attachment;
  assert.equal(attachment.type, 'binData');
  assert.equal(attachment.presence, 0.3);
  assert.equal(cli.report.gridfs[0].files_read, 60);
  const rels = await page.textContent('[data-testid=infer-relationships]');
  assert.match(rels, /conversation → message \(reference conversationId in the child\)/);
  assert.match(rels, /message\.attachment: a binData file stored in GridFS \(fs\.files: 60 files, chunks in fs\.chunks, named by attachmentFileId\), present 30\.0%/);
  await page.screenshot({ path: `${SHOTS}/infer-drop.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a gzipped mongodump archive dropped: every collection in it, the model of the same files', async () => {
  // The same documents as one archive of database chat (mongodump --archive --gzip), written by
  // the peer of tests/suite/infer_archives.rs.
  const lines = FILES.flatMap((name) =>
    readFileSync(join(dir, name), 'utf8').trim().split('\n')
      .map((doc) => `{"ns": "chat.${name.replace(/\.json$/, '')}", "doc": ${doc}}`));
  const archive = join(dir, 'chat.archive.gz');
  const peer = spawnSync('python3', [PEER, archive, '--gzip'],
    { input: lines.join('\n') + '\n', encoding: 'utf8' });
  assert.equal(peer.status, 0, peer.stderr);
  const { page, errors } = await openPage(site.browser, `${site.server.url}#playground`, { width: 1280, height: 720 });
  await page.waitForSelector('.collection');
  await page.click('#choose-preset');
  await page.click('.preset-card[data-preset="infer"]');
  await page.waitForSelector('.infer-drop');
  await drop(page, [{ name: 'chat.archive.gz', bytes: [...readFileSync(archive)] }]);
  assert.match(await page.textContent('.infer-files'), /chat\.archive\.gz mongodump archive: every collection in it/);
  await page.fill('.infer-counts', 'conversation=1000000, message=50000000');
  await page.click('#infer-run');
  await page.waitForSelector('[data-testid=infer-summary]', { timeout: 60_000 });
  const counts = ['--count', 'conversation=1000000', '--count', 'message=50000000', '--json'];
  const cli = cliJson(['infer', archive, ...counts]);
  const files = cliJson(['infer', ...FILES.map((f) => join(dir, f)), ...counts]);
  const model = JSON.parse(await page.inputValue('#model-input'));
  assert.deepEqual(model, cli.model, 'the page reads the archive as squillion infer does');
  assert.deepEqual(cli.model, files.model, 'the archive gives the model of its documents as files');
  assert.deepEqual(cli.report.sources.map((s) => [s.collection, s.documents]),
    files.report.sources.map((s) => [s.collection, s.documents]));
  await page.screenshot({ path: `${SHOTS}/infer-archive.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
