#!/usr/bin/env bash
# ptxas-check.sh PTXAS ARCH FILE.ptx: assembles FILE with `ptxas -v` for ARCH; fails when ptxas
# rejects it or reports a spill. Prints ptxas's -v report so FileCheck can check registers.
set -euo pipefail
ptxas="$1"; arch="$2"; file="$3"
out=$("$ptxas" -arch="$arch" -v "$file" -o /dev/null 2>&1) || { echo "$out" >&2; echo "ptxas rejected $file for $arch" >&2; exit 1; }
echo "$out"
if echo "$out" | grep -E "[1-9][0-9]* bytes spill (stores|loads)" >/dev/null; then
  echo "ptxas reports spills in $file for $arch" >&2; exit 1
fi
