// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' 2>&1 | FileCheck %s
// A failing upstream pass: its located error, and nothing more, as mlir-opt (a failure without
// an error of its own gets a line saying which pass failed on which op).
// (gpu.subgroup_id needs expand-subgroup-ids first; convert-gpu-to-nvvm rejects it.)

// CHECK: pass-failure.mlir:[[# @LINE + 5]]:10: error: failed to legalize operation 'gpu.subgroup_id'
// CHECK-NOT: phobos-opt: error: pass
gpu.module @kernels {
  gpu.func @k(%x: memref<32xindex>) kernel {
    %c0 = arith.constant 0 : index
    %w = gpu.subgroup_id : index
    memref.store %w, %x[%c0] : memref<32xindex>
    gpu.return
  }
}
