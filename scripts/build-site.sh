#!/usr/bin/env bash
# Builds the page for any static host: sets everything up (scripts/setup.sh), builds the
# optimized site into dist/ (with the offline service worker, dist/sw.js), and writes a
# precompressed .br and .gz beside every file a host may send compressed. Upload dist/ as it
# is; docs/hosting.md lists the headers a host should send. Arguments go to `trunk build`
# (`--public-url /squillion/` for a site under a path).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=setup.sh
source scripts/setup.sh >/dev/null
trunk build --release --locked "$@"
node scripts/precompress.mjs dist
echo "dist/ is ready for a static host (docs/hosting.md)"
