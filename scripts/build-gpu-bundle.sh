#!/usr/bin/env bash
# Builds what scripts/gpu-check.sh carries to a GPU machine that has no Rust, no LLVM and no
# network: the release `phobos` binary, stripped and xz-compressed, the check script itself, and
# the Python package's release wheel with its tests (python.tar.xz).
# Output: target/gpu-bundle/{phobos.xz,gpu-check.sh,python.tar.xz}. Installs what is missing first.
# The bundle runs on glibc 2.36 and GCC 12's libstdc++ or newer (Debian 12; not Ubuntu 22.04 or
# RHEL 9): scripts/check-glibc-floor.sh fails the build when a newer symbol creeps in.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash third_party/install.sh >/dev/null
cargo build --release --quiet --bin phobos
out="$root/target/gpu-bundle"
rm -rf "$out" && mkdir -p "$out"
strip -o "$out/phobos" target/release/phobos
# The oldest Linux the bundle runs on (glibc 2.36, GCC 12's libstdc++): fail here, not there.
bash scripts/check-glibc-floor.sh "$out/phobos"
xz -9 -T0 -c "$out/phobos" > "$out/phobos.xz"
rm "$out/phobos"
cp scripts/gpu-check.sh "$out/"
# The Python package (release wheel) with its tests and the kernels they read, unless
# --no-python (a call carries 64 MiB in all).
if [ "${1:-}" != "--no-python" ]; then
  wheel="$(bash scripts/test-python.sh --release --wheel-only)"
  stage="$(mktemp -d)"
  # Unpacked: xz shrinks the native module 6x, the wheel's zip barely at all.
  mkdir -p "$stage/site" && (cd "$stage/site" && python3 -m zipfile -e "$wheel" .)
  bash scripts/check-glibc-floor.sh "$stage"/site/phobos/*.so
  tar -cf - python/tests examples/*.phobos examples/tutorials examples/python | tar -xf - -C "$stage"
  tar -cf - -C "$stage" . | xz -9 -T0 > "$out/python.tar.xz"
  rm -rf "$stage"
fi
ls -l "$out"
echo "carry $out to the GPU machine and run: bash gpu-check.sh phobos.xz SUMMARY.txt"
