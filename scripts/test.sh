#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs every test; fails on the first failure.
# Prints how long each stage took and, at the end, the gzip size of the shipped wasm + js.
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
stage "native tests" cargo test --locked
stage "fuzz smoke (every cargo-fuzz target, ${FUZZ_SECONDS:-15} s each)" bash scripts/fuzz-smoke.sh
stage "peer check: sizes against pymongo's bson" python3 scripts/peer_sizes.py --check
stage "browser tests (wasm-bindgen-test, headless Chromium)" \
  cargo test --locked --target wasm32-unknown-unknown --test web
stage "trunk build --release" trunk build --release --locked
stage "end-to-end tests (playwright-core, Chromium)" node --test e2e/

report_size() {
  local wasm js
  wasm=$(ls dist/*.wasm | head -n 1)
  js=$(ls dist/*.js | grep -v boot.js | head -n 1)
  local gz_wasm gz_js
  gz_wasm=$(gzip -9 -c "$wasm" | wc -c)
  gz_js=$(gzip -9 -c "$js" dist/boot.js | wc -c)
  printf 'shipped size (gzip -9): wasm %s bytes + js %s bytes = %s bytes (%s KB)\n' \
    "$gz_wasm" "$gz_js" $((gz_wasm + gz_js)) $(((gz_wasm + gz_js + 999) / 1000))
}

printf '\n==> timings\n'
printf '%s\n' "${TIMINGS[@]}"
printf '%5ss  total\n\n' $((SECONDS - START))
report_size
echo "all tests passed"
