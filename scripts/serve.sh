#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and serves the app on http://127.0.0.1:8080,
# rebuilding on every change (reload the tab to see it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=setup.sh
source scripts/setup.sh
echo
echo "Serving Squillion on http://127.0.0.1:8080 (Ctrl+C to stop)"
# No auto-reload: Trunk would inject an inline script, which the page's Content-Security-Policy
# (index.html) rightly refuses. Rebuilds still happen on every change; reload the tab.
exec trunk serve --address 127.0.0.1 --port 8080 --no-autoreload "$@"
