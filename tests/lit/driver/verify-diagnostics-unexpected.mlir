// RUN: %expect-exit 1 phobos-opt %s --verify-diagnostics 2>&1 | FileCheck %s
// A diagnostic nobody expected fails the run (exit 1).

// CHECK: verify-diagnostics-unexpected.mlir:[[# @LINE + 3]]:10: error: unexpected error: 'lane.reduce' op width must be a power of two from 1 to 32, got 12
gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    %0 = "lane.reduce"(%x) {kind = "sum", width = 12 : i32} : (f32) -> f32
    gpu.return
  }
}
