#!/usr/bin/env bash
# The Python package (python/): builds its wheel with maturin (the dev profile, sharing cargo's
# target/), installs it into a fresh venv with NumPy and pytest, and runs python/tests and the
# quickstart example there. Build tools live in .tools/pybuild (git-ignored), made once.
# Usage: scripts/test-python.sh [--release] [pytest args...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
profile=dev
if [ "${1:-}" = "--release" ]; then profile=release; shift; fi
build="$root/.tools/pybuild"
# Pinned: the wheel and the tests are the same on every machine.
MATURIN="maturin==1.16.0"; NUMPY="numpy==2.4.6"; PYTEST="pytest==8.4.2"
if ! "$build/bin/maturin" --version >/dev/null 2>&1 || ! "$build/bin/python" -c "import numpy, pytest" 2>/dev/null; then
  echo "test-python: installing $MATURIN, $NUMPY, $PYTEST into $build" >&2
  python3 -m venv "$build"
  "$build/bin/pip" install --quiet --disable-pip-version-check "$MATURIN" "$NUMPY" "$PYTEST" >&2
fi
wheels="$root/target/wheels"
rm -f "$wheels"/phobos_kernels-*.whl
# A plain linux wheel: the native module needs the system's libzstd.so.1, as LLVM does.
"$build/bin/maturin" build --quiet --profile "$profile" -m python/Cargo.toml --out "$wheels" \
  --compatibility linux --auditwheel skip </dev/null >&2
wheel="$(ls "$wheels"/phobos_kernels-*.whl)"
# A fresh venv each run: the wheel must install and import on its own.
venv="$root/target/py-venv"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "$wheel" "$NUMPY" "$PYTEST" >&2
echo "test-python: $(basename "$wheel") installed in $venv" >&2
# From the repository root with importlib mode: the tests import the installed package, never
# python/phobos from the source tree.
"$venv/bin/pytest" -q -rs -p no:cacheprovider --import-mode=importlib python/tests "$@"
