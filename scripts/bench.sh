#!/usr/bin/env bash
# Benchmarks (not tests): Squillion against its peers on the same data in the same run.
# Prints ratios; absolute times drift on shared machines.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=setup.sh
source scripts/setup.sh >/dev/null
cargo build --locked --profile bench-native --bin squillion
trunk build --release --locked
node scripts/precompress.mjs dist
node bench/sizes.mjs "$CARGO_TARGET_DIR/bench-native/squillion" dist
node bench/query.mjs "$CARGO_TARGET_DIR/bench-native/squillion" dist
node bench/eval.mjs "$CARGO_TARGET_DIR/bench-native/squillion" dist
node bench/infer.mjs "$CARGO_TARGET_DIR/bench-native/squillion" dist
node bench/advise.mjs "$CARGO_TARGET_DIR/bench-native/squillion" dist
node bench/load.mjs dist
