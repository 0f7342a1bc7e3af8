// What the end-to-end tests compare the page with: the CLI's JSON, either the golden evaluations
// checked in under tests/golden/ (`squillion eval --json` of every preset and design, kept equal
// to the CLI by `cargo test --test suite golden::`) or asked of the CLI during the test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The golden evaluations: tests/golden/presets.json and tests/golden/presets/NAME/DESIGN.json. */
export const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), '..', 'tests', 'golden');

/** The CLI: SQUILLION_BIN (scripts/test.sh sets it to the native tests' optimized build,
 * $CARGO_TARGET_DIR/ci/squillion: the release build's output, sooner), else
 * $CARGO_TARGET_DIR/release/squillion. */
export const BIN = process.env.SQUILLION_BIN ?? join(process.env.CARGO_TARGET_DIR ?? 'target', 'release', 'squillion');

/** Returns `squillion presets --json` as checked in (tests/golden/presets.json). */
export function readPresets() {
  return readGolden('presets.json');
}

/** Returns `squillion eval --preset NAME --design DESIGN --json` as checked in
 * (`readExpected('blog', 'normalized.json')`). */
export function readExpected(name, file) {
  return readGolden('presets', name, file);
}

function readGolden(...parts) {
  const file = join(GOLDEN, ...parts);
  assert.ok(existsSync(file), `${file} is missing: SQUILLION_BLESS=1 cargo test --test suite golden:: writes it`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Runs `squillion ARGS` and returns its JSON output (exit 1, an error-severity warning, is
 * still a result). */
export function cliJson(args) {
  assert.ok(existsSync(BIN), `${BIN} is missing: cargo build --release --bin squillion (or set SQUILLION_BIN; docs/testing.md)`);
  const run = spawnSync(BIN, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.ok(run.status === 0 || run.status === 1, `${args.join(' ')}: exit ${run.status}\n${run.stderr}`);
  return JSON.parse(run.stdout);
}
