// RUN: phobos-opt %s --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu))' --mlir-timing -o /dev/null 2>&1 | FileCheck %s
// phobos-opt --mlir-timing: MLIR's own report of each pass's wall time, on stderr.
// CHECK: Execution time report
// CHECK: ConvertLaneToGpu
// CHECK: Total
gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    %0 = "lane.reduce"(%x) {kind = "sum"} : (f32) -> f32
    gpu.return
  }
}
