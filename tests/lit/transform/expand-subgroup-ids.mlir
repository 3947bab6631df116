// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(expand-subgroup-ids))' | FileCheck %s

// A 1-D block of known size: the warp is thread_id x / 32 and the warp count a constant.
// CHECK-LABEL: gpu.func @known_1d
// CHECK: %[[T:.*]] = gpu.thread_id  x
// CHECK: %[[W:.*]] = arith.divui %[[T]], %{{.*}} : index
// CHECK: arith.constant 4 : index
// CHECK: arith.constant 32 : index
// CHECK-NOT: gpu.subgroup
gpu.module @m {
  gpu.func @known_1d(%o: memref<3xindex>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %w = gpu.subgroup_id : index
    %n = gpu.num_subgroups : index
    %s = gpu.subgroup_size : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    memref.store %w, %o[%c0] : memref<3xindex>
    memref.store %n, %o[%c1] : memref<3xindex>
    memref.store %s, %o[%c2] : memref<3xindex>
    gpu.return
  }
}

// -----

// A block of unknown size: linear thread id from x, y, z and the block dims.
// CHECK-LABEL: gpu.func @unknown
// CHECK-DAG: gpu.thread_id  y
// CHECK-DAG: gpu.thread_id  z
// CHECK-DAG: gpu.block_dim  x
// CHECK: arith.divui
// CHECK: gpu.block_dim  z
// CHECK-NOT: gpu.subgroup
gpu.module @m {
  gpu.func @unknown(%o: memref<2xindex>) kernel {
    %w = gpu.subgroup_id : index
    %n = gpu.num_subgroups : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %w, %o[%c0] : memref<2xindex>
    memref.store %n, %o[%c1] : memref<2xindex>
    gpu.return
  }
}

// -----

// Negative: other gpu ids are left alone.
// CHECK-LABEL: gpu.func @negative_lane_id
// CHECK: gpu.lane_id
// CHECK: gpu.thread_id  x
gpu.module @m {
  gpu.func @negative_lane_id(%o: memref<2xindex>) kernel {
    %l = gpu.lane_id
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %l, %o[%c0] : memref<2xindex>
    memref.store %t, %o[%c1] : memref<2xindex>
    gpu.return
  }
}
