// mlir-opt's spellings: long options with one dash, and --allow-unregistered-dialect (which
// the parse error suggests) accepting ops of dialects no registry knows.
// RUN: phobos-opt %s -split-input-file -allow-unregistered-dialect -mlir-print-op-generic | FileCheck %s
// RUN: phobos-opt %s --allow-unregistered-dialect | FileCheck %s --check-prefix=PRETTY
// RUN: %expect-exit 1 phobos-opt %s 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: phobos-opt %S/../../../examples/lane_sum.mlir -convert-lane-to-gpu | FileCheck %s --check-prefix=PASS
// Upstream passes as flags too, nested under the op they run on (as mlir-opt's implicit nesting).
// RUN: phobos-opt %S/../../../examples/lane_sum.mlir -convert-lane-to-gpu -canonicalize -convert-gpu-to-nvvm | FileCheck %s --check-prefix=UPSTREAM
// An unknown option after one dash is still refused (exit 1).
// RUN: %expect-exit 1 phobos-opt -no-such-option %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// CHECK: "foo.bar"() : () -> ()
// CHECK: "func.return"() : () -> ()
// PRETTY: func.func @f
// PRETTY: "foo.bar"() : () -> ()
// REFUSED: mlir-opt-spellings.mlir:{{[0-9]+}}:{{[0-9]+}}: error: operation being parsed with an unregistered dialect
// PASS-NOT: lane.reduce
// PASS: gpu.shuffle
// UPSTREAM-NOT: gpu.shuffle
// UPSTREAM: nvvm.shfl.sync
// UNKNOWN: phobos-opt: error: unknown command line argument '-no-such-option' (not an option, nor a pass: --list-passes lists them)
func.func @f() {
  "foo.bar"() : () -> ()
  return
}
