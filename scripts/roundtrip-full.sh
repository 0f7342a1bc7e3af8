#!/usr/bin/env bash
# Issue #18's whole round trip: for every preset, `squillion export --scale` with nothing cut
# (no --max-documents, arrays whole), then `squillion infer` of the files, compared with the
# preset (tests/suite/infer_roundtrip.rs, every_preset_round_trips_whole). Too long for
# scripts/test.sh (15 to 35 minutes on 2 cores: 33 on a busy one; the largest sample,
# social-graph's 50,000,000 followers of one user, is 7 GB of Extended JSON, written to a
# temporary folder and removed): run it by hand after a change to export or infer.
#
#   scripts/roundtrip-full.sh                          # every preset
#   SQUILLION_PRESETS=host-logs,blog scripts/roundtrip-full.sh
#
# TMPDIR chooses where the files go (about 25 GB free needed for message-attachments).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

cargo build --release --locked --bin squillion
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
SQUILLION_BIN="$TARGET/release/squillion" \
  cargo test --locked --test suite -- --ignored --nocapture infer_roundtrip::every_preset_round_trips_whole
