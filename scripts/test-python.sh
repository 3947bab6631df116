#!/usr/bin/env bash
# The Python package (python/): builds its wheel with maturin (the dev profile, sharing cargo's
# target/), installs it into a fresh venv with NumPy and pytest, and runs python/tests and the
# quickstart example there. Build tools live in .tools/pybuild (git-ignored), made once.
# Usage: scripts/test-python.sh [--release] [--wheel-only] [pytest args...]
#   --release     the optimized wheel (what users and the GPU bundle get)
#   --wheel-only  build the wheel into target/wheels and stop
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
profile=dev
wheel_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --release) profile=release; shift ;;
    --wheel-only) wheel_only=1; shift ;;
    *) break ;;
  esac
done
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
[ "$wheel_only" = 1 ] && { echo "$wheel"; exit 0; }
# A fresh venv each run: the wheel must install and import on its own.
venv="$root/target/py-venv"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "$wheel" "$NUMPY" "$PYTEST" >&2
echo "test-python: $(basename "$wheel") installed in $venv" >&2
# From the repository root with importlib mode: the tests import the installed package, never
# python/phobos from the source tree.
"$venv/bin/pytest" -q -rs -p no:cacheprovider --import-mode=importlib python/tests "$@"
# One abi3 wheel for every CPython from 3.9: where pyenv has a 3.9, the tests run there too.
py39="$(ls -d "$HOME"/.pyenv/versions/3.9.*/bin/python 2>/dev/null | head -1 || true)"
if [ -n "$py39" ]; then
  venv39="$root/target/py39-venv"
  rm -rf "$venv39"
  "$py39" -m venv "$venv39"
  "$venv39/bin/pip" install --quiet --disable-pip-version-check "$wheel" "$PYTEST" >&2
  echo "test-python: the same wheel on $("$venv39/bin/python" --version)" >&2
  "$venv39/bin/pytest" -q -p no:cacheprovider --import-mode=importlib python/tests "$@"
fi
