#!/usr/bin/env bash
# Installs what Phobos needs to build and test, and only what is missing:
#   - LLVM/MLIR 22 from Debian's packages (apt), for melior, mlir-opt, FileCheck and lit;
#   - ptxas + libdevice from the PyPI wheel nvidia-cuda-nvcc-cu12, into .tools/cuda (git-ignored);
#   - Debian's chromium, for the browser test of `phobos explain`'s pages (a failure to install
#     it is a warning: that test then skips and says why).
# Idempotent: a second run only checks (well under a second). Prints the tool paths it settled on.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LLVM=/usr/lib/llvm-22
CUDA_WHEEL="nvidia-cuda-nvcc-cu12==12.9.86"
TOOLS="$root/.tools"
PKGS="llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools libclang-22-dev clang-22 libpolly-22-dev libzstd-dev zlib1g-dev lld-22"

missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "third_party: installing Debian packages:$missing" >&2
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing >&2
fi
for t in mlir-opt FileCheck lit ld.lld; do
  [ -x "$LLVM/bin/$t" ] || { echo "third_party: $LLVM/bin/$t missing after install" >&2; exit 1; }
done

if ! command -v chromium >/dev/null 2>&1; then
  echo "third_party: installing Debian's chromium (headless browser tests)" >&2
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  { $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium; } >&2 \
    || echo "third_party: warning: chromium could not be installed; the browser test will skip" >&2
fi

ptxas="$TOOLS/cuda/nvidia/cuda_nvcc/bin/ptxas"
if [ ! -x "$ptxas" ]; then
  echo "third_party: installing $CUDA_WHEEL into $TOOLS/cuda" >&2
  mkdir -p "$TOOLS"
  python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$TOOLS/cuda" "$CUDA_WHEEL" >&2
fi
# NumPy, for the lit tests that check `phobos run` outputs against a NumPy reference.
if ! PYTHONPATH="$TOOLS/python" python3 -c "import numpy" 2>/dev/null; then
  echo "third_party: installing numpy==2.4.6 into $TOOLS/python" >&2
  python3 -m pip install --quiet --disable-pip-version-check --target "$TOOLS/python" numpy==2.4.6 >&2
fi
libdevice="$TOOLS/cuda/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc"
[ -f "$libdevice" ] || { echo "third_party: $libdevice missing" >&2; exit 1; }
echo "llvm: $LLVM"
echo "ptxas: $ptxas"
echo "libdevice: $libdevice"
echo "numpy: $TOOLS/python"
echo "chromium: $(command -v chromium || echo 'none (the browser test skips)')"
