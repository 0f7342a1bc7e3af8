// What the end-to-end tests compare the page with: the release CLI's JSON, either written
// beforehand for every preset and design (target/expected, by scripts/expected-evals.mjs) or
// asked of the CLI during the test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where scripts/test.sh writes the CLI's JSON of every preset and design. */
export const EXPECTED = process.env.SQUILLION_EXPECTED ?? 'target/expected';

/** The release CLI: SQUILLION_BIN, else $CARGO_TARGET_DIR/release/squillion. */
export const BIN = process.env.SQUILLION_BIN ?? join(process.env.CARGO_TARGET_DIR ?? 'target', 'release', 'squillion');

/** Returns the JSON file at `EXPECTED/...parts` (`index.json`, `blog/normalized.json`). */
export function readExpected(...parts) {
  const file = join(EXPECTED, ...parts);
  assert.ok(existsSync(file), `${file} is missing: run node scripts/expected-evals.mjs BIN ${EXPECTED} (scripts/test.sh does)`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Runs `squillion ARGS` and returns its JSON output (exit 1, an error-severity warning, is
 * still a result). */
export function cliJson(args) {
  assert.ok(existsSync(BIN), `${BIN} is missing: cargo build --release --bin squillion (scripts/test.sh does)`);
  const run = spawnSync(BIN, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.ok(run.status === 0 || run.status === 1, `${args.join(' ')}: exit ${run.status}\n${run.stderr}`);
  return JSON.parse(run.stdout);
}
