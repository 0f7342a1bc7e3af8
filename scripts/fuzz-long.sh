#!/usr/bin/env bash
# Long fuzzing by hand: every target (or the ones named) for FUZZ_SECONDS each (default 600),
# with ASan when SANITIZER=address (slower, catches less in safe Rust; default none).
# What the fuzzer learns is kept in fuzz/corpus-long/<target> (not committed) and reused by
# the next long run; crashes land in fuzz/artifacts/<target>/. See docs/hardening.md.
#
#   scripts/fuzz-long.sh                       # all targets, 10 minutes each
#   FUZZ_SECONDS=3600 scripts/fuzz-long.sh model
#   FUZZ_SECONDS=3600 scripts/fuzz-long.sh engine   # the engine (command sequences)
#   FUZZ_JOBS=2 scripts/fuzz-long.sh ejson_document   # two processes on one target
#
# To turn a crash into a regression test: reproduce it with
#   RUSTC_BOOTSTRAP=1 cargo fuzz run --fuzz-dir fuzz <target> fuzz/artifacts/<target>/crash-…
# fix the core, and add the input to tests/fixtures/hostile/ (with its line in expected.tsv).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

SECONDS_EACH="${FUZZ_SECONDS:-600}"
SANITIZER="${SANITIZER:-none}"
JOBS="${FUZZ_JOBS:-1}"
export RUSTC_BOOTSTRAP=1

if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked || cargo install cargo-fuzz
fi

TARGET_ARGS=()
if [[ -n "${CARGO_TARGET_DIR:-}" ]]; then
  TARGET_ARGS=(--target-dir "$CARGO_TARGET_DIR/fuzz")
fi

if [[ $# -gt 0 ]]; then
  TARGETS=("$@")
else
  mapfile -t TARGETS < <(cargo fuzz list --fuzz-dir fuzz)
fi

status=0
for t in "${TARGETS[@]}"; do
  mkdir -p "fuzz/corpus-long/$t"
  dict=()
  case "$t" in
    model) dict=(-dict=fuzz/dicts/model.dict) ;;
    ejson_* | shell_*) dict=(-dict=fuzz/dicts/ejson.dict) ;;
  esac
  jobs=()
  if [[ "$JOBS" -gt 1 ]]; then
    jobs=(-jobs="$JOBS" -workers="$JOBS")
  fi
  echo "==> $t for ${SECONDS_EACH} s (sanitizer $SANITIZER, $JOBS job(s))"
  if ! cargo fuzz run --fuzz-dir fuzz --sanitizer "$SANITIZER" --debug-assertions \
    "${TARGET_ARGS[@]}" "$t" "fuzz/corpus-long/$t" "fuzz/corpus/$t" -- \
    -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
    -print_final_stats=1 "${jobs[@]}" "${dict[@]}"; then
    echo "CRASH in $t: see fuzz/artifacts/$t/"
    status=1
  fi
done
exit $status
