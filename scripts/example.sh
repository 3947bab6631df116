#!/usr/bin/env bash
# The main job: builds Phobos, compiles the example kernel to PTX for sm_90, writes the IR after
# every pass, and checks the PTX with ptxas. Installs what is missing first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash third_party/install.sh >/dev/null
cargo build --quiet --bin phobos
out="$root/target/example"
rm -rf "$out" && mkdir -p "$out"
./target/debug/phobos compile examples/lane_sum.mlir --chip sm_90 --dump-ir-dir "$out/ir" -o "$out/lane_sum.ptx"
ptxas="$root/.tools/cuda/nvidia/cuda_nvcc/bin/ptxas"
"$ptxas" -arch=sm_90 -v "$out/lane_sum.ptx" -o /dev/null 2>&1 | sed 's/^/  /'
echo "PTX:        $out/lane_sum.ptx ($(grep -c 'shfl.sync.bfly' "$out/lane_sum.ptx") shfl.sync.bfly)"
echo "IR by pass: $out/ir/"
ls "$out/ir" | sed 's/^/  /'
