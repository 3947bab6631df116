#!/usr/bin/env bash
# Builds what scripts/gpu-check.sh carries to a GPU machine that has no Rust, no LLVM and no
# network: the release `phobos` binary, stripped and xz-compressed, and the check script itself.
# Output: target/gpu-bundle/{phobos.xz,gpu-check.sh}. Installs what is missing first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash third_party/install.sh >/dev/null
cargo build --release --quiet --bin phobos
out="$root/target/gpu-bundle"
rm -rf "$out" && mkdir -p "$out"
strip -o "$out/phobos" target/release/phobos
xz -9 -T0 -c "$out/phobos" > "$out/phobos.xz"
rm "$out/phobos"
cp scripts/gpu-check.sh "$out/"
ls -l "$out"
echo "carry $out to the GPU machine and run: bash gpu-check.sh phobos.xz SUMMARY.txt"
