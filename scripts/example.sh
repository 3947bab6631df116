#!/usr/bin/env bash
# The main job: compile the example kernel lanes_matvec (examples/lanes_matvec.phobos) to PTX for
# sm_90 with the IR of every pass written out, check the PTX with ptxas, then run the kernel on
# random data (N = 1000, K = 512) on the best backend here (a GPU if usable, else the simulator)
# and compare y with NumPy's W @ x. Installs what is missing first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash third_party/install.sh >/dev/null
cargo build --quiet --bin phobos
phobos="$root/target/debug/phobos"
out="$root/target/example"
rm -rf "$out" && mkdir -p "$out"
export PYTHONPATH="$root/.tools/python"
npy="python3 $root/tests/lit/tools/npy.py"

echo "== compile examples/lanes_matvec.phobos -> $out/lanes_matvec.ptx"
"$phobos" compile examples/lanes_matvec.phobos --chip sm_90 --dump-ir-dir "$out/ir" --manifest "$out/manifest.json" \
  -o "$out/lanes_matvec.ptx" --stats
"$root/.tools/cuda/nvidia/cuda_nvcc/bin/ptxas" -arch=sm_90 "$out/lanes_matvec.ptx" -o /dev/null && echo "ptxas: accepted for sm_90"

echo "== run on N = 1000, K = 512"
$npy rand "$out/W.npy" 1000x512 float32 1
$npy rand "$out/x.npy" 1x512 float32 2
$npy fill "$out/y.npy" 1x1000 float32 nan
"$phobos" run examples/lanes_matvec.phobos --grid 250 --arg W="$out/W.npy" --arg x="$out/x.npy" --arg y="$out/y.npy" \
  --out "$out/result" --stats
$npy matvec "$out/W.npy" "$out/x.npy" "$out/result/y.npy"

echo "== where things went"
echo "PTX:          $out/lanes_matvec.ptx"
echo "ABI:          $out/manifest.json"
echo "outputs:      $out/result/{W,x,y}.npy"
echo "IR by pass:   $out/ir/"
ls "$out/ir" | sed 's/^/  /'
