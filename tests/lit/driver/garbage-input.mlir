// RUN: %expect-exit 1 phobos-opt %inputs/garbage.txt 2>&1 | FileCheck %s
// RUN: %expect-exit 1 phobos-opt %s.does-not-exist 2>&1 | FileCheck %s --check-prefix=MISSING
// Text that is not MLIR: a located parse error with the line and a caret, exit 1, no crash.

// CHECK: garbage.txt:1:1: error: custom op 'this' is unknown
// CHECK-NEXT: this is not MLIR {{[{][{]}} at all
// CHECK-NEXT: ^
// MISSING: phobos-opt: error: {{.*}}does-not-exist: No such file or directory
