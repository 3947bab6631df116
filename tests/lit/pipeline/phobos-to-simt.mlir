// RUN: phobos-opt %s --pass-pipeline='builtin.module(phobos-to-simt)' | FileCheck %s
// The SIMT level: only upstream dialects, constants folded and shared by canonicalize/cse.

// CHECK-LABEL: gpu.func @k
// CHECK-NOT: lane.
// CHECK-NOT: gpu.subgroup_id
// CHECK: gpu.shuffle  xor
// CHECK: gpu.return
gpu.module @m {
  gpu.func @k(%x: memref<128xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %w = gpu.subgroup_id : index
    %v = memref.load %x[%w] : memref<128xf32>
    %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32
    memref.store %r, %x[%w] : memref<128xf32>
    gpu.return
  }
}
