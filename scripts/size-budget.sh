#!/usr/bin/env bash
# Checks the shipped page (dist/, after `trunk build --release`) against its byte budgets
# (scripts/size-budgets.tsv): every wasm and js file and every translation file (zh-CN.json),
# gzip -9, each within its budget; a file without a budget fails too. Bytes are deterministic
# for a given source and toolchain, so this is a test, not a timing. docs/size.md, "Budgets".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIST="${1:-$ROOT/dist}"
BUDGETS="$ROOT/scripts/size-budgets.tsv"
status=0
shopt -s nullglob
files=("$DIST"/*.wasm "$DIST"/*.js "$DIST"/*.json)
if [ ${#files[@]} -eq 0 ]; then
  echo "size budgets: no wasm or js file in $DIST (build the page first: trunk build --release --locked)" >&2
  exit 1
fi
printf '%-26s %12s %12s  %s\n' file "gzip -9 B" "budget B" verdict
for f in "${files[@]}"; do
  name=$(basename "$f")
  size=$(gzip -9 -c "$f" | wc -c)
  budget=$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$BUDGETS")
  if [ -z "$budget" ]; then
    printf '%-26s %12s %12s  %s\n' "$name" "$size" "-" "NO BUDGET: add one to scripts/size-budgets.tsv"
    status=1
  elif [ "$size" -gt "$budget" ]; then
    printf '%-26s %12s %12s  %s\n' "$name" "$size" "$budget" "OVER by $((size - budget)) B"
    status=1
  else
    printf '%-26s %12s %12s  %s\n' "$name" "$size" "$budget" "within ($((budget - size)) B to spare)"
  fi
done
if [ "$status" -ne 0 ]; then
  echo "size budgets: a shipped file passed its budget; shrink it, or raise the budget in scripts/size-budgets.tsv with its reason in docs/size.md" >&2
fi
exit "$status"
