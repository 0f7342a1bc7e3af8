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
# model_mutated, size_analyze, engine, infer_input. 8 × 15 s plus the build keeps the stage
# near 3.5 minutes.
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
# 16 codegen units (cargo-fuzz's default in release is 1): a build several minutes shorter for
# somewhat slower runs, which a run bounded by time turns into fewer executions. The long runs
# (scripts/fuzz-long.sh) keep one unit.
TARGET_ARGS+=(--codegen-units "${FUZZ_CODEGEN_UNITS:-16}")

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
failed=()
for t in "${TARGETS[@]}"; do
  echo "==> fuzzing $t for ${SECONDS_EACH} s"
  # Seeds are read from the committed corpus; new inputs go to a scratch folder, so that a
  # smoke run never changes the working tree.
  mkdir -p "$WORK/$t"
  log="$WORK/$t.log"
  dict=()
  case "$t" in
    model) dict=(-dict=fuzz/dicts/model.dict) ;;
    ejson_* | shell_*) dict=(-dict=fuzz/dicts/ejson.dict) ;;
  esac
  if cargo fuzz run --fuzz-dir fuzz --sanitizer none --debug-assertions "${TARGET_ARGS[@]}" \
    "$t" "$WORK/$t" "fuzz/corpus/$t" -- \
    -max_total_time="$SECONDS_EACH" -rss_limit_mb="$RSS_MB" -timeout=10 \
    -max_len=65536 -print_final_stats=1 "${dict[@]}" >"$log" 2>&1; then
    execs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
    echo "    ok: ${execs:-?} executions"
  else
    tail -n 60 "$log"
    echo "    FAILED: $t (the crashing input is under fuzz/artifacts/$t/)"
    failed+=("$t")
  fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz smoke: crashes in ${failed[*]}"
  exit 1
fi
echo "fuzz smoke: ${#TARGETS[@]} targets, ${SECONDS_EACH} s each, no crash"
