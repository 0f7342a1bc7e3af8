#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs every test; fails on the first failure.
# Prints how long each stage took, the total against the 45-minute budget of a fresh 2-core
# machine (issue #32; past it the run says so and still passes: the machine's load varies) and,
# at the end, the gzip size of the shipped wasm + js (docs/size.md); each shipped file is held to
# its byte budget (scripts/size-budgets.tsv) right after the page is built. What each stage checks, how long it takes and how to run it alone: docs/testing.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
START=$SECONDS
declare -a TIMINGS=()

stage() {
  local name="$1"
  shift
  printf '\n==> %s\n' "$name"
  local t0=$SECONDS
  "$@"
  TIMINGS+=("$(printf '%5ss  %s' $((SECONDS - t0)) "$name")")
}

# shellcheck source=setup.sh
stage "setup" source scripts/setup.sh

stage "rustfmt" cargo fmt --all --check
stage "clippy (native)" cargo clippy --locked --all-targets -- -D warnings
stage "clippy (wasm32)" cargo clippy --locked --all-targets --target wasm32-unknown-unknown -- -D warnings
# The native tests in the `ci` profile (Cargo.toml): debug assertions and overflow checks as in
# a debug build, optimized, so that the slow ones (the infer round trip runs `squillion export`
# and `infer` per preset) take a fraction of their debug time. Its `squillion` binary is the one
# optimized CLI of the run: the export check and the end-to-end tests run it too.
stage "native tests (profile ci)" cargo test --locked --profile ci
export SQUILLION_BIN="$CARGO_TARGET_DIR/ci/squillion"
stage "export check: npm bson EJSON, ajv \$jsonSchema, node --check" bash scripts/export-check.sh
stage "migration scripts run on mingo: every planned preset pair" node scripts/migrate-check.mjs "$SQUILLION_BIN"
stage "fuzz smoke (every cargo-fuzz target, ${FUZZ_SECONDS:-15} s each)" bash scripts/fuzz-smoke.sh
stage "peer check: sizes against pymongo's bson" python3 scripts/peer_sizes.py --check
# The runner gives the whole suite 20 s by default; a debug build on a busy 2-core machine needs
# more (the playground tests evaluate on the page, without a worker).
stage "browser tests (wasm-bindgen-test, headless Chromium)" \
  env WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-300}" \
  cargo test --locked --target wasm32-unknown-unknown --test web
stage "trunk build --release" trunk build --release --locked
stage "size budgets: every shipped wasm, js and translation file, gzip -9" bash scripts/size-budget.sh
# Some end-to-end tests ask the CLI for the JSON of an edited model (the golden evaluations in
# tests/golden/ hold every preset's): SQUILLION_BIN, the native tests' optimized build, whose
# output is the release build's (the same code; only speed and size differ).
rm -f target/e2e-latency.txt
# Each test file serves dist/ on its own free port and launches its own Chromium with a fresh
# profile (e2e/browser.mjs, e2e/serve.mjs) and names its own screenshots, so files run side by
# side: node's default is one at a time on 2 cores (cores - 1).
E2E_CONCURRENCY="${E2E_CONCURRENCY:-2}"
stage "end-to-end tests (playwright-core, Chromium; $E2E_CONCURRENCY files at a time)" \
  node --test --test-concurrency="$E2E_CONCURRENCY" e2e/*.test.mjs
# The tests that time the page's main thread run alone, with no other browser beside them
# (e2e/solo/: inferring 590 KB leaves no task over 100 ms).
stage "end-to-end tests that time the page, alone (e2e/solo/)" node --test e2e/solo/

# What a visit sends of the page (wasm + js, gzip -9): every file but the tools module, the
# tools module (squillion-tools*), fetched the first time a tool is used, and the Chinese
# translation (zh-CN.json), fetched when 简体中文 is chosen; reported here, each file's budget
# checked by the "size budgets" stage (scripts/size-budget.sh, docs/size.md "Budgets").
report_size() {
  local first tools zh
  first=$(find dist -maxdepth 1 \( -name '*.wasm' -o -name '*.js' \) ! -name 'squillion-tools*' -exec cat {} + | gzip -9 | wc -c)
  tools=$(cat dist/squillion-tools* 2>/dev/null | gzip -9 | wc -c)
  zh=$(gzip -9 -c dist/zh-CN.json 2>/dev/null | wc -c)
  printf 'shipped size (gzip -9): %s bytes on every visit (%s KB), %s bytes more when a tool is first used (%s KB), %s bytes when 简体中文 is chosen (%s KB)\n' \
    "$first" $(((first + 999) / 1000)) "$tools" $(((tools + 999) / 1000)) "$zh" $(((zh + 999) / 1000))
}

# The budget: 45 minutes for the whole command on a fresh 2-core machine (issue #32).
BUDGET=$((45 * 60))
TOTAL=$((SECONDS - START))
printf '\n==> timings\n'
printf '%s\n' "${TIMINGS[@]}"
if [ "$TOTAL" -le "$BUDGET" ]; then
  printf '%5ss  total: within the 45-minute budget (%s s), %s s to spare\n\n' "$TOTAL" "$BUDGET" $((BUDGET - TOTAL))
else
  printf '%5ss  total: OVER the 45-minute budget (%s s) by %s s (reported, not failed: the machine'"'"'s load varies; docs/testing.md)\n\n' \
    "$TOTAL" "$BUDGET" $((TOTAL - BUDGET))
fi
# Measured by e2e/evaluation.test.mjs (a measurement, not an assertion; target < 100 ms).
cat target/e2e-latency.txt 2>/dev/null || echo "design-switch latency: not measured"
report_size
echo "all tests passed"
