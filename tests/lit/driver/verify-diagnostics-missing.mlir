// RUN: %expect-exit 1 phobos-opt %s --verify-diagnostics 2>&1 | FileCheck %s
// An expected error that is not produced fails the run (exit 1) and says which.

// CHECK: verify-diagnostics-missing.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error: expected error "width must be a power of two" was not produced
gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{width must be a power of two}}
    %0 = "lane.reduce"(%x) {kind = "sum", width = 8 : i32} : (f32) -> f32
    gpu.return
  }
}
