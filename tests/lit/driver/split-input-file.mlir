// RUN: %expect-exit 1 phobos-opt %s --split-input-file 2>&1 | FileCheck %s
// Each chunk is processed on its own; line numbers are the file's; a near-miss separator warns;
// the good chunks are still printed, separated by // -----.

// CHECK: split-input-file.mlir:[[# @LINE + 9]]:7: warning: near miss with file split marker
// CHECK: split-input-file.mlir:[[# @LINE + 12]]:10: error: 'lane.reduce' op width must be a power of two from 1 to 32, got 10
// CHECK: gpu.module @first
// CHECK: // -----
// CHECK: gpu.module @third
gpu.module @first {
}

// -----
// ---- (a near miss, not a separator)

gpu.module @second {
  gpu.func @k(%x: f32) kernel {
    %0 = "lane.reduce"(%x) {kind = "sum", width = 10 : i32} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @third {
}
