// Helpers of the console's end-to-end tests (e2e/console.test.mjs, e2e/mongosh.test.mjs).
import { readFileSync } from 'node:fs';
import { EJSON } from 'bson';

/** The console's sample collection `name` (data/console/NAME.ndjson), as relaxed EJSON values. */
export const sample = (name) =>
  readFileSync(`data/console/${name}.ndjson`, 'utf8')
    .trim()
    .split('\n')
    .map((line) => EJSON.parse(line, { relaxed: true }));

/** Types a command into the console and presses Enter; resolves to the new entry. */
export async function runCommand(page, command) {
  const before = await page.$$eval('.entry', (es) => es.length);
  await page.fill('#console-input', command);
  await page.press('#console-input', 'Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length === n + 1, before);
  const entries = await page.$$('.entry');
  return entries[entries.length - 1];
}

/** Switches the console to the articles' examples (users, orders, movies, as
 * data/console/ holds them): the database the console's mongosh is checked on against mingo and
 * the data files. (It opens on the sample of the design on show in the playground.) */
export async function useExamples(page) {
  await page.check('input[name="console-source"][value="examples"]');
  await page.waitForSelector('.coll[data-collection="users"]');
}
