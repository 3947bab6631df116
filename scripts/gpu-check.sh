#!/usr/bin/env bash
# The GPU check, for a machine with an NVIDIA GPU and its driver but no Rust, no LLVM and no
# network (build the bundle here with scripts/build-gpu-bundle.sh).
#
#   bash gpu-check.sh phobos.xz SUMMARY.txt
#
# Unpacks the binary (xz, or Python's lzma where xz is missing), checks its shared libraries,
# runs every example kernel on the GPU against the CPU reference and the simulator
# (`phobos selftest --gpu`: each case in its own process, so one fault or hang does not poison
# the rest), then the benchmarks (`phobos bench`, each row in its own process), then the Python
# package's tests when python.tar.xz is beside it (each test file in its own pytest process),
# and writes the summary (pass and fail counts, the benchmark table) to SUMMARY.txt. Every log
# (selftest.log, bench.log, python.log) is written beside SUMMARY.txt, as each step runs.
#
# The whole check ends within GPU_CHECK_BUDGET seconds (default 540: a device call may run 600):
# each step gets its share of what is left, and a step past its share is killed (TERM, then
# KILL 5 s later) and reported as timed out. Exit 0 when everything passed.
set -uo pipefail
bundle="${1:?usage: gpu-check.sh phobos.xz SUMMARY.txt}"
summary="${2:?usage: gpu-check.sh phobos.xz SUMMARY.txt}"
budget="${GPU_CHECK_BUDGET:-540}"
here="$(cd "$(dirname "$0")" && pwd)"
logs="$(cd "$(dirname "$summary")" && pwd)"
start=$SECONDS
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Seconds left of the budget, less a margin for what follows the step.
left() { echo $((budget - (SECONDS - start) - ${1:-0})); }
# step SECONDS LOG CMD...: runs CMD with its output in LOG, killed after SECONDS (at most what is
# left); returns CMD's status, 124 when it was killed.
step() {
  local t="$1" log="$2"; shift 2
  local l; l=$(left 10)
  [ "$t" -gt "$l" ] && t="$l"
  if [ "$t" -le 0 ]; then
    echo "gpu-check: no time left for: $*" >> "$log"
    return 124
  fi
  timeout --kill-after=5 "$t" "$@" >> "$log" 2>&1
  local s=$?
  # timeout exits 124 when it sent TERM, 137 when it had to KILL.
  if [ $s = 124 ] || [ $s = 137 ]; then
    echo "gpu-check: killed after ${t} s: $*" >> "$log"
    return 124
  fi
  return $s
}

if command -v xz >/dev/null; then
  xz -dc "$bundle" > "$work/phobos"
else
  python3 -c 'import lzma,sys; open(sys.argv[2],"wb").write(lzma.open(sys.argv[1]).read())' "$bundle" "$work/phobos"
fi
chmod +x "$work/phobos"
: > "$summary"
{
  echo "== $(date -u +%FT%TZ) $(uname -n), budget ${budget} s"
  "$work/phobos" --version
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || true
  if ldd "$work/phobos" | grep -q "not found"; then
    echo "missing shared libraries:"; ldd "$work/phobos" | grep "not found"
  fi
} >> "$summary" 2>&1
status=0

# 1. The self-test: at most a third of the budget; each case at most 60 s.
: > "$logs/selftest.log"
step $((budget / 3)) "$logs/selftest.log" "$work/phobos" selftest --gpu --case-timeout 60 --summary "$logs/selftest.txt"
s=$?
[ $s = 0 ] || status=1
[ $s = 124 ] && echo "selftest: timed out (see selftest.log)" >> "$summary"
cat "$logs/selftest.txt" >> "$summary" 2>/dev/null || tail -n 40 "$logs/selftest.log" >> "$summary"

# 2. The benchmark: at most half of what is left when Python's tests follow, else all of it.
: > "$logs/bench.log"
share=$(left 10)
[ -f "$here/python.tar.xz" ] && share=$((share / 2))
step "$share" "$logs/bench.log" "$work/phobos" bench --case-timeout 90 --summary "$logs/bench.txt"
s=$?
[ $s = 0 ] || status=1
[ $s = 124 ] && echo "bench: timed out (see bench.log)" >> "$summary"
cat "$logs/bench.txt" >> "$summary" 2>/dev/null || tail -n 40 "$logs/bench.log" >> "$summary"

# 3. The Python package on the GPU, when the bundle carries it: the unpacked release wheel on
# PYTHONPATH beside the machine's NumPy/PyTorch/CuPy, then python/tests (test_gpu.py runs
# there, the rest on the simulator) a file at a time, or the quickstart where there is no
# pytest.
if [ -f "$here/python.tar.xz" ]; then
  log="$logs/python.log"
  : > "$log"
  mkdir -p "$work/py" && tar -xJf "$here/python.tar.xz" -C "$work/py"
  export PYTHONPATH="$work/py/site"
  if python3 -c "import pytest" 2>/dev/null; then
    # pytest-timeout, where installed, also bounds each test.
    per_test=()
    python3 -c "import pytest_timeout" 2>/dev/null && per_test=(--timeout=60)
    # test_gpu.py first: it is what only this machine can run.
    files=$(cd "$work/py" && ls python/tests/test_gpu.py; ls python/tests/test_*.py | grep -v test_gpu.py)
    for f in $files; do
      (cd "$work/py" && step 120 "$log" python3 -m pytest -q -rs -p no:cacheprovider --import-mode=importlib "${per_test[@]}" "$f")
      s=$?
      # 5: every test of the file was deselected or skipped.
      if [ $s != 0 ] && [ $s != 5 ]; then
        status=1
        echo "python: $f failed$([ $s = 124 ] && echo ' (timed out)')" >> "$summary"
      fi
    done
    grep -E "^(FAILED|ERROR|SKIPPED)|passed|failed" "$log" >> "$summary"
  else
    echo "python: no pytest on this machine; the quickstart only" >> "$summary"
    step 120 "$log" python3 "$work/py/examples/python/quickstart.py" || status=1
    tail -n 20 "$log" >> "$summary"
  fi
  unset PYTHONPATH
fi
echo "gpu-check: $([ $status = 0 ] && echo PASS || echo FAIL) in $((SECONDS - start)) s" >> "$summary"
cat "$summary"
exit $status
