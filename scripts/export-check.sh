#!/usr/bin/env bash
# Exports every preset (its own design, at its sample) and the three social-feed designs at
# 1,000 users, then checks them with npm's bson, ajv and node --check
# (scripts/export-check.mjs). Run from scripts/test.sh after `source scripts/setup.sh`; alone:
# `bash scripts/export-check.sh` (docs/testing.md).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
# The CLI: SQUILLION_BIN (scripts/test.sh passes the one its native tests built, optimized in the
# `ci` profile), else that same build, made here. A debug binary would take minutes.
if [[ -n "${SQUILLION_BIN:-}" ]]; then
  BIN="$SQUILLION_BIN"
else
  cargo build --locked --quiet --profile ci --bin squillion
  BIN="${CARGO_TARGET_DIR:-target}/ci/squillion"
fi
dirs=()
for p in presets/*.json; do
  name="$(basename "$p" .json)"
  # Exit 1 only says a document is over 16 MiB: the files are still written and checked.
  "$BIN" export --preset "$name" --out "$OUT/$name" >/dev/null || [ $? -eq 1 ]
  dirs+=("$OUT/$name")
done
for d in normalized denormalized bucketed; do
  "$BIN" export --preset social-feed --design "$d" --scale 1000 --max-documents 5000 \
    --out "$OUT/social-feed-$d" >/dev/null
  dirs+=("$OUT/social-feed-$d")
done
# A native time series (createCollection with timeseries) and a case-insensitive index
# (createIndex with a collation).
for pd in host-logs:time-series game-inventory:case_insensitive; do
  "$BIN" export --preset "${pd%%:*}" --design "${pd#*:}" --out "$OUT/${pd/:/-}" >/dev/null
  dirs+=("$OUT/${pd/:/-}")
done
node scripts/export-check.mjs "${dirs[@]}"
