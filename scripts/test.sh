#!/usr/bin/env bash
# Runs every test: installs what is missing (third_party/install.sh), checks the gates (rustfmt,
# clippy with warnings as errors, no pending snapshot), then `cargo test`, which runs the unit
# and property tests, the lit suite (through cli/tests/suite.rs), the end-to-end tests and a
# bounded fuzzing run; then the Python package's tests (scripts/test-python.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash third_party/install.sh
# Disk: CI's machines have had under 10 GB free. No incremental cache (0.9 GB) on a clean build.
export CARGO_INCREMENTAL=0
command -v cargo >/dev/null || { echo "scripts/test.sh: cargo not found (install Rust with rustup)" >&2; exit 1; }
# Gates: formatting, lints, and snapshots that were never reviewed.
cargo fmt --all --check </dev/null
cargo clippy --workspace --all-targets -- -D warnings </dev/null
# The embedding API is documented: rustdoc warnings (broken links, bad code blocks) fail.
# phobos-py is documented too so that its features (syn's visit-mut, for pyo3) unify with the
# test build's, sharing its build of melior's macros (375 MB) instead of making another.
RUSTDOCFLAGS="-D warnings" cargo doc -p phobos -p phobos-runtime -p phobos-compiler -p phobos-py --no-deps -q </dev/null
pending="$(git ls-files '*.snap.new' 2>/dev/null || true)"
if [ -n "$pending" ]; then
  echo "scripts/test.sh: a pending snapshot is committed ($pending); review it with cargo insta" >&2
  exit 1
fi
# A snapshot that differs fails the test instead of writing a .snap.new to bless later.
export INSTA_UPDATE=no
cargo test --workspace "$@" </dev/null
# The Python package: its wheel built and installed in a fresh venv, pytest there.
bash scripts/test-python.sh </dev/null
