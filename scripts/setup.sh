#!/usr/bin/env bash
# Installs everything Squillion needs to build, serve and test, from the package registries
# only, and skips what is already there (a second run takes seconds).
#
#   Rust: the wasm32 target, Trunk 0.21.14, wasm-bindgen-cli at exactly the Cargo.lock version,
#         cargo-fuzz
#   npm:  wasm-opt (binaryen 132), playwright-core, the peers bson and mingo, and ajv (export
#         check) (package-lock.json)
#   apt:  chromium and chromium-driver (Debian's; Playwright never downloads a browser), and
#         fonts-wqy-zenhei so that the articles' Chinese text renders in screenshots
#   pip:  pymongo (its `bson` module is the peer for exact sizes)
#
# Source it (`. scripts/setup.sh`) to also get the environment it sets: PATH with npm's tools,
# CARGO_TARGET_DIR outside the clone (so repeated CI runs on one machine reuse builds) and the
# variables that keep Trunk offline.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

TRUNK_VERSION="0.21.14"
WASM_BINDGEN_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"

export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/squillion/target}"
export TRUNK_SKIP_VERSION_CHECK=true
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"

step() { printf '\n==> %s\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

step "Rust toolchain and the wasm32 target"
rustup show active-toolchain >/dev/null # installs the pinned toolchain of rust-toolchain.toml
rustup target list --installed | grep -qx wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown

step "Trunk $TRUNK_VERSION"
if have trunk && trunk --version | grep -q " $TRUNK_VERSION\$"; then
  echo "already installed"
else
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

step "wasm-bindgen-cli $WASM_BINDGEN_VERSION (the Cargo.lock version)"
if have wasm-bindgen && wasm-bindgen --version | grep -q " $WASM_BINDGEN_VERSION\$"; then
  echo "already installed"
else
  # Without --locked: its own lockfile names a crate version the registry no longer serves.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

step "cargo-fuzz (the fuzz smoke runs of the test command)"
if cargo fuzz --version >/dev/null 2>&1; then
  echo "already installed"
else
  cargo install cargo-fuzz --locked
fi

step "Chromium, ChromeDriver and a CJK font for screenshots (Debian)"
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && [ -d /usr/share/fonts/truetype/wqy ]; then
  echo "already installed"
else
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium chromium-driver fonts-wqy-zenhei
fi

# Each folder with a package-lock.json: the root (tools and peers) and the engine's differential
# harness against mingo (tests/differential).
for dir in . tests/differential; do
  step "npm dev dependencies ($dir/package-lock.json)"
  lock_hash="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
  if [ "$(cat "$dir/node_modules/.squillion-lock" 2>/dev/null)" = "$lock_hash" ]; then
    echo "already installed"
  else
    npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
    echo "$lock_hash" > "$dir/node_modules/.squillion-lock"
  fi
done

step "pymongo (the bson peer)"
if python3 -c 'import bson, pymongo' 2>/dev/null; then
  echo "already installed"
else
  python3 -m pip install --quiet --disable-pip-version-check pymongo
fi

step "Rust crates"
cargo fetch --locked # every target's dependencies: Trunk builds offline

echo
echo "setup complete (target dir: $CARGO_TARGET_DIR)"
