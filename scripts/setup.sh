#!/usr/bin/env bash
# Installs everything Squillion needs to build, serve and test, from the package registries
# only, and skips what is already there (a second run takes seconds).
#
#   Rust: the wasm32 target, Trunk 0.21.14, wasm-bindgen-cli at exactly the Cargo.lock version,
#         cargo-fuzz 0.13.2
#   npm:  wasm-opt (binaryen 132), playwright-core, the peers bson and mingo, ajv (export
#         check) and marked (the documentation rendered into the site) (package-lock.json)
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
CARGO_FUZZ_VERSION="0.13.2"
WASM_BINDGEN_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"

export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/squillion/target}"
export TRUNK_SKIP_VERSION_CHECK=true
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"

# The tools compiled from crates.io (no registry ships them prebuilt): Trunk's own release profile
# is fat LTO with one codegen unit, most of its ~7 minutes on 2 cores, for a program that only
# starts cargo, wasm-bindgen and wasm-opt. Built without LTO, 16 codegen units and no debug
# information, each installs in a fraction of the time (docs/testing.md); versions stay pinned
# (Trunk and cargo-fuzz with their lockfiles, wasm-bindgen-cli at the Cargo.lock version).
# TOOL_OPT_LEVEL: 1, or 0 for Trunk, whose own work (copying files, minifying a little CSS
# and HTML) takes milliseconds at any level; wasm-bindgen rewrites the page's 5 MB wasm and the
# browser tests' larger one, and keeps opt-level 1.
tool_install() {
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    CARGO_PROFILE_RELEASE_OPT_LEVEL="${TOOL_OPT_LEVEL:-1}" CARGO_PROFILE_RELEASE_DEBUG=0 \
    CARGO_TARGET_DIR="$CARGO_TARGET_DIR/tools${TOOL_TARGET:+-$TOOL_TARGET}" cargo install "$@"
}

step() { printf '\n==> %s\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Debian's, npm's and PyPI's packages wait on the network and the disk, the Rust tools below on
# the CPU: the packages install in the background while the tools compile, and their output is
# printed once both are done (scripts/setup.sh fails if they failed).
system_packages() {
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
}
PACKAGES_LOG="$(mktemp)"
system_packages >"$PACKAGES_LOG" 2>&1 &
PACKAGES_PID=$!

step "Rust toolchain and the wasm32 target"
rustup show active-toolchain >/dev/null # installs the pinned toolchain of rust-toolchain.toml
rustup target list --installed | grep -qx wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown

# Trunk compiles in the background beside wasm-bindgen-cli and cargo-fuzz: each build ends on
# one crate and its link, one core busy, which the other build fills (its own target folder, so
# that neither waits for the other's lock). Its output is printed when it is done.
install_trunk() {
  step "Trunk $TRUNK_VERSION"
  if have trunk && trunk --version | grep -q " $TRUNK_VERSION\$"; then
    echo "already installed"
  else
    # Without its default features (TLS for downloading tools, the update check): Trunk never
    # downloads here (TRUNK_SKIP_VERSION_CHECK, and wasm-bindgen and wasm-opt on PATH), and
    # rustls with its crypto is a third of its build.
    TOOL_OPT_LEVEL=0 TOOL_TARGET=trunk tool_install trunk --version "$TRUNK_VERSION" --locked --no-default-features
  fi
}
TRUNK_LOG="$(mktemp)"
install_trunk >"$TRUNK_LOG" 2>&1 &
TRUNK_PID=$!

step "wasm-bindgen-cli $WASM_BINDGEN_VERSION (the Cargo.lock version)"
if have wasm-bindgen && wasm-bindgen --version | grep -q " $WASM_BINDGEN_VERSION\$"; then
  echo "already installed"
else
  # Without --locked: its own lockfile names a crate version the registry no longer serves.
  # Without its default features (rustls): the test runner speaks plain HTTP to the local
  # ChromeDriver.
  tool_install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force --no-default-features
fi

step "cargo-fuzz $CARGO_FUZZ_VERSION (the fuzz smoke runs of the test command)"
if cargo fuzz --version 2>/dev/null | grep -q " $CARGO_FUZZ_VERSION\$"; then
  echo "already installed"
else
  tool_install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi

step "Rust crates"
cargo fetch --locked # every target's dependencies: Trunk builds offline

if wait "$TRUNK_PID"; then
  cat "$TRUNK_LOG"
  rm -f "$TRUNK_LOG"
else
  cat "$TRUNK_LOG"
  rm -f "$TRUNK_LOG"
  echo "setup: installing Trunk failed (above)" >&2
  exit 1
fi

if wait "$PACKAGES_PID"; then
  cat "$PACKAGES_LOG"
  rm -f "$PACKAGES_LOG"
else
  cat "$PACKAGES_LOG"
  rm -f "$PACKAGES_LOG"
  echo "setup: installing the Debian, npm or PyPI packages failed (above)" >&2
  exit 1
fi

echo
echo "setup complete (target dir: $CARGO_TARGET_DIR)"
