// RUN: %expect-exit 1 phobos-opt %s --convert-lane-to-gpu 2>&1 | FileCheck %s
// An invalid width is a located error before any pass runs; exit 1.

// CHECK: invalid-width.mlir:[[# @LINE + 4]]:10: error: 'lane.reduce' op width must be a power of two from 1 to 32, got 48
// CHECK-NOT: error
gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    %0 = "lane.reduce"(%x) {kind = "sum", width = 48 : i32} : (f32) -> f32
    gpu.return
  }
}
