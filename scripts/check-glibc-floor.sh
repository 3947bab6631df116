#!/usr/bin/env bash
# The oldest Linux a GPU bundle runs on: each ELF file given (the `phobos` binary, the Python
# module) may need at most glibc 2.36 (Debian 12; the static libstdc++ pulls in `arc4random`,
# new in 2.36), libstdc++ from GCC 12 (GLIBCXX_3.4.30, CXXABI_1.3.13: the Python module links it
# dynamically) and these shared libraries: libc, libm, libgcc_s, the loader, libstdc++ and
# libzstd.so.1 (LLVM's compression, for the Python module). Ubuntu 22.04 (glibc 2.35) and RHEL 9
# (2.34) are below the floor. Fails, naming the symbol versions or libraries, when a newer one
# creeps in. GLIBC_FLOOR, GLIBCXX_FLOOR and CXXABI_FLOOR override the floor (for the tests).
#   scripts/check-glibc-floor.sh FILE...
set -euo pipefail
glibc="${GLIBC_FLOOR:-2.36}"
glibcxx="${GLIBCXX_FLOOR:-3.4.30}"
cxxabi="${CXXABI_FLOOR:-1.3.13}"
allowed="libc.so.6 libm.so.6 libgcc_s.so.1 ld-linux-x86-64.so.2 libpthread.so.0 libdl.so.2 librt.so.1 libstdc++.so.6 libzstd.so.1 libz.so.1"
[ $# -gt 0 ] || { echo "usage: check-glibc-floor.sh FILE..." >&2; exit 2; }
# newer FLOOR VERSION: whether VERSION is newer than FLOOR.
newer() { [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1)" = "$2" ]; }
bad=0
for f in "$@"; do
  versions=$(objdump -T "$f" | grep -oE '\b(GLIBC|GLIBCXX|CXXABI)_[0-9.]+' | sort -u -V)
  for v in $versions; do
    name=${v%%_*}; num=${v#*_}
    case $name in GLIBC) floor=$glibc ;; GLIBCXX) floor=$glibcxx ;; CXXABI) floor=$cxxabi ;; esac
    if newer "$floor" "$num"; then
      users=$(objdump -T "$f" | grep -F "($v)" | awk '{print $NF}' | head -n 5 | tr '\n' ' ')
      echo "check-glibc-floor: $f needs $v, newer than the floor ${name}_$floor: $users" >&2
      bad=1
    fi
  done
  for lib in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    case " $allowed " in
      *" $lib "*) ;;
      *) echo "check-glibc-floor: $f needs $lib, which the GPU machine may not have" >&2; bad=1 ;;
    esac
  done
  top=$(echo "$versions" | grep '^GLIBC_' | tail -n 1)
  echo "check-glibc-floor: $f: newest ${top:-none}; floor GLIBC_$glibc, GLIBCXX_$glibcxx, CXXABI_$cxxabi"
done
exit $bad
