#!/usr/bin/env bash
# expect-exit.sh CODE CMD ARGS...: runs CMD and fails unless it exits with exactly CODE.
# Its stdout and stderr pass through, so a pipe into FileCheck still sees them.
want="$1"; shift
"$@"
got=$?
if [ "$got" != "$want" ]; then
  echo "expect-exit: '$*' exited with $got, expected $want" >&2
  exit 1
fi
exit 0
