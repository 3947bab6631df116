#!/usr/bin/env bash
# The GPU check, for a machine with an NVIDIA GPU and its driver but no Rust, no LLVM and no
# network (build the bundle here with scripts/build-gpu-bundle.sh).
#
#   bash gpu-check.sh phobos.xz SUMMARY.txt
#
# Unpacks the binary (xz, or Python's lzma where xz is missing), checks its shared libraries,
# runs every seed kernel on the GPU against the CPU reference and the simulator
# (`phobos selftest --gpu`), then the benchmarks (`phobos bench`), then the Python package's
# tests when python.tar.xz is beside it, and writes the summary (pass and fail counts, the
# benchmark table) to SUMMARY.txt. Exit 0 when everything passed.
set -uo pipefail
bundle="${1:?usage: gpu-check.sh phobos.xz SUMMARY.txt}"
summary="${2:?usage: gpu-check.sh phobos.xz SUMMARY.txt}"
work="$(mktemp -d)"
if command -v xz >/dev/null; then
  xz -dc "$bundle" > "$work/phobos"
else
  python3 -c 'import lzma,sys; open(sys.argv[2],"wb").write(lzma.open(sys.argv[1]).read())' "$bundle" "$work/phobos"
fi
chmod +x "$work/phobos"
: > "$summary"
{
  echo "== $(date -u +%FT%TZ) $(uname -n)"
  "$work/phobos" --version
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || true
  if ldd "$work/phobos" | grep -q "not found"; then
    echo "missing shared libraries:"; ldd "$work/phobos" | grep "not found"
  fi
} >> "$summary" 2>&1
status=0
timeout 240 "$work/phobos" selftest --gpu --summary "$work/selftest.txt" > "$work/selftest.log" 2>&1 || status=1
cat "$work/selftest.txt" >> "$summary" 2>/dev/null || cat "$work/selftest.log" >> "$summary"
timeout 240 "$work/phobos" bench --summary "$work/bench.txt" > "$work/bench.log" 2>&1 || status=1
cat "$work/bench.txt" >> "$summary" 2>/dev/null || cat "$work/bench.log" >> "$summary"
# The Python package on the GPU, when the bundle carries it: the unpacked release wheel on
# PYTHONPATH beside the machine's NumPy/PyTorch/CuPy, then python/tests (test_gpu.py runs
# there, the rest on the simulator), or the quickstart where there is no pytest.
here="$(cd "$(dirname "$0")" && pwd)"
if [ -f "$here/python.tar.xz" ]; then
  {
    mkdir -p "$work/py" && tar -xJf "$here/python.tar.xz" -C "$work/py"
    export PYTHONPATH="$work/py/site"
    if python3 -c "import pytest" 2>/dev/null; then
      (cd "$work/py" && timeout 240 python3 -m pytest -q -rs -p no:cacheprovider --import-mode=importlib python/tests) || status=1
    else
      echo "python: no pytest on this machine; the quickstart only"
      timeout 120 python3 "$work/py/examples/python/quickstart.py" || status=1
    fi
    unset PYTHONPATH
  } >> "$summary" 2>&1
fi
echo "gpu-check: $([ $status = 0 ] && echo PASS || echo FAIL)" >> "$summary"
cat "$summary"
exit $status
