#!/usr/bin/env bash
# differential.sh INPUT 'FLAGS' ...: runs `mlir-opt INPUT FLAGS` and `phobos-opt INPUT FLAGS`
# for each command line and compares their stdout, byte for byte, and exit codes; prints one
# line per command line and "same: N of N" at the end; exits 1 on any difference.
input="$1"; shift
same=0; total=0
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
for flags in "$@"; do
  total=$((total + 1))
  # shellcheck disable=SC2086
  mlir-opt "$input" $flags > "$tmp/want" 2>/dev/null; want_rc=$?
  # shellcheck disable=SC2086
  phobos-opt "$input" $flags > "$tmp/got" 2>/dev/null; got_rc=$?
  if cmp -s "$tmp/want" "$tmp/got" && [ "$want_rc" == "$got_rc" ]; then
    same=$((same + 1))
  else
    echo "differs: $flags (mlir-opt exit $want_rc, phobos-opt exit $got_rc)"
    diff "$tmp/want" "$tmp/got" | head -10
  fi
done
echo "same: $same of $total"
[ "$same" == "$total" ]
