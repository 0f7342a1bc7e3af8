#!/usr/bin/env bash
# Runs every cargo-fuzz target for a bounded time (FUZZ_SECONDS each, default 15) and fails on
# the first crash, hang or leak. Installs cargo-fuzz when missing. Stable Rust: the -Z flags
# cargo-fuzz needs are allowed with RUSTC_BOOTSTRAP=1. See docs/hardening.md.
#
#   scripts/fuzz-smoke.sh                  # every target, 15 s each
#   FUZZ_SECONDS=5 scripts/fuzz-smoke.sh model ejson_document
#   scripts/fuzz-smoke.sh engine           # the engine: command sequences and their invariants
#
# Targets (from `cargo fuzz list`): ejson_document, ejson_stream, shell_command, model,
# model_mutated, size_analyze, engine, infer_input. 8 × 15 s, two at a time, plus the build.
#
# With CARGO_TARGET_DIR set, the fuzz build goes to "$CARGO_TARGET_DIR/fuzz" (cached across
# runs); otherwise to fuzz/target.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

SECONDS_EACH="${FUZZ_SECONDS:-15}"
RSS_MB="${FUZZ_RSS_MB:-2048}"
export RUSTC_BOOTSTRAP=1

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "==> installing cargo-fuzz"
  cargo install cargo-fuzz --locked || cargo install cargo-fuzz
fi

TARGET_ARGS=()
if [[ -n "${CARGO_TARGET_DIR:-}" ]]; then
  TARGET_ARGS=(--target-dir "$CARGO_TARGET_DIR/fuzz")
fi
# 16 codegen units (cargo-fuzz's default in release is 1) and opt-level 1 (release's is 3): a
# build minutes shorter for slower runs, which a run bounded by time turns into fewer
# executions (a smoke run looks for what breaks at once; the long runs, scripts/fuzz-long.sh,
# keep one unit and opt-level 3). FUZZ_OPT_LEVEL=3 builds as they do.
TARGET_ARGS+=(--codegen-units "${FUZZ_CODEGEN_UNITS:-16}")
export CARGO_PROFILE_RELEASE_OPT_LEVEL="${FUZZ_OPT_LEVEL:-1}"

if [[ $# -gt 0 ]]; then
  TARGETS=("$@")
else
  mapfile -t TARGETS < <(cargo fuzz list --fuzz-dir fuzz)
fi

# One build for every target (the fuzz crate is its own workspace).
echo "==> building fuzz targets (release, debug assertions, sanitizer=none)"
t0=$SECONDS
cargo fuzz build --fuzz-dir fuzz --sanitizer none --debug-assertions "${TARGET_ARGS[@]}"
echo "    build: $((SECONDS - t0)) s"

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# Runs one target for SECONDS_EACH seconds; its log goes to $WORK/<target>.log.
fuzz_one() {
  local t="$1"
  # Seeds are read from the committed corpus; new inputs go to a scratch folder, so that a
  # smoke run never changes the working tree.
  mkdir -p "$WORK/$t"
  local dict=()
  case "$t" in
    model) dict=(-dict=fuzz/dicts/model.dict) ;;
    ejson_* | shell_*) dict=(-dict=fuzz/dicts/ejson.dict) ;;
  esac
  cargo fuzz run --fuzz-dir fuzz --sanitizer none --debug-assertions "${TARGET_ARGS[@]}" \
    "$t" "$WORK/$t" "fuzz/corpus/$t" -- \
    -max_total_time="$SECONDS_EACH" -rss_limit_mb="$RSS_MB" -timeout=10 \
    -max_len=65536 -print_final_stats=1 "${dict[@]}" >"$WORK/$t.log" 2>&1
}
# libFuzzer runs on one core: FUZZ_JOBS targets at a time (default 2, the machine's cores).
JOBS="${FUZZ_JOBS:-2}"
failed=()
for ((i = 0; i < ${#TARGETS[@]}; i += JOBS)); do
  batch=("${TARGETS[@]:i:JOBS}")
  echo "==> fuzzing ${batch[*]} for ${SECONDS_EACH} s"
  pids=()
  for t in "${batch[@]}"; do
    fuzz_one "$t" &
    pids+=($!)
  done
  for k in "${!batch[@]}"; do
    t="${batch[$k]}"
    if wait "${pids[$k]}"; then
      execs=$(grep -m1 'stat::number_of_executed_units' "$WORK/$t.log" | awk '{print $2}')
      echo "    $t ok: ${execs:-?} executions"
    else
      # The panic's message first (its backtrace would push it out of a plain tail), then
      # libFuzzer's report with the crashing input.
      grep -m 1 -A 12 'panicked at' "$WORK/$t.log" || true
      tail -n 25 "$WORK/$t.log"
      echo "    FAILED: $t (the crashing input is under fuzz/artifacts/$t/)"
      failed+=("$t")
    fi
  done
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz smoke: crashes in ${failed[*]}"
  exit 1
fi
echo "fuzz smoke: ${#TARGETS[@]} targets, ${SECONDS_EACH} s each, no crash"
