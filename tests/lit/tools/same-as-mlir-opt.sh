#!/usr/bin/env bash
# same-as-mlir-opt.sh ARGS...: runs `mlir-opt ARGS` and `phobos-opt ARGS`; their stdout, stderr
# and exit codes must be byte for byte the same (a diff is printed, exit 1, otherwise).
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
mlir-opt "$@" > "$tmp/want.out" 2> "$tmp/want.err"; echo "exit $?" >> "$tmp/want.out"
phobos-opt "$@" > "$tmp/got.out" 2> "$tmp/got.err"; echo "exit $?" >> "$tmp/got.out"
ok=0
for s in out err; do
  if ! cmp -s "$tmp/want.$s" "$tmp/got.$s"; then
    echo "std$s differs (< mlir-opt, > phobos-opt) for: $*"
    diff "$tmp/want.$s" "$tmp/got.$s" | head -20
    ok=1
  fi
done
exit $ok
