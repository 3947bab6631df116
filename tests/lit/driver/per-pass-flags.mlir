// RUN: phobos-opt %s --convert-lane-to-gpu | FileCheck %s
// RUN: phobos-opt %s --phobos-to-simt | FileCheck %s
// RUN: phobos-opt %s --phobos-to-ptx=chip=sm_80 --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: %expect-exit 1 phobos-opt %s --convert-lane-to-gpu --pass-pipeline='builtin.module()' 2>&1 | FileCheck %s --check-prefix=BOTH
// Per-pass flags nest implicitly under the pass's anchor, as mlir-opt's do.

// CHECK: gpu.shuffle  xor
// CHECK-NOT: lane.reduce
// PTX: .target sm_80
// PTX: shfl.sync.bfly
// BOTH: give either --pass-pipeline or pass flags, not both
gpu.module @m {
  gpu.func @k(%x: memref<32xf32>) kernel {
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<32xf32>
    %0 = "lane.reduce"(%v) {kind = "sum", width = 2 : i32} : (f32) -> f32
    memref.store %0, %x[%c0] : memref<32xf32>
    gpu.return
  }
}
