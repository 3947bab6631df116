#!/usr/bin/env bash
# Runs every test: installs what is missing (third_party/install.sh), then `cargo test`, which
# runs the unit tests, the lit suite (through driver/tests/suite.rs) and the end-to-end tests.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash third_party/install.sh
command -v cargo >/dev/null || { echo "scripts/test.sh: cargo not found (install Rust with rustup)" >&2; exit 1; }
cargo test --workspace "$@"
