// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-cta-to-gpu))' | FileCheck %s --check-prefix=LANE
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-cta-to-gpu,convert-lane-to-gpu))' | FileCheck %s

// convert-cta-to-gpu folds each warp with the lane dialect (lowered by convert-lane-to-gpu,
// which the pipeline runs next): a full-warp lane.reduce, then one over the warps' results.
// LANE-LABEL: gpu.func @sum_4warps
// LANE: "lane.reduce"(%{{.*}}) {kind = "sum", width = 32 : i32} : (f32) -> f32
// LANE: gpu.barrier
// LANE: gpu.barrier
// LANE: "lane.reduce"(%{{.*}}) {kind = "sum", width = 4 : i32} : (f32) -> f32
// LANE-NOT: "cta.

// A CTA sum over 4 warps: a 5-step butterfly per warp, three barriers around the scratch
// (before the write, after the write, after the read), then a 2-step butterfly over the 4 warps'
// results (lanes past the last warp hold 0).
// CHECK-LABEL: gpu.module @m
// CHECK: memref.global "private" @__phobos_cta_scratch_f32 : memref<32xf32, #gpu.address_space<workgroup>> = uninitialized {alignment = 16 : i64}
// CHECK-LABEL: gpu.func @sum_4warps
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK: %[[BUF:.*]] = memref.get_global @__phobos_cta_scratch_f32
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[BUF]][%{{.*}}]
// CHECK: gpu.barrier
// CHECK-NEXT: memref.load %[[BUF]]
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK-COUNT-2: gpu.shuffle  xor
// CHECK-NEXT: arith.addf
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @m {
  gpu.func @sum_4warps(%x: f32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %0 = "cta.reduce"(%x) {kind = "sum"} : (f32) -> f32
    gpu.return
  }
}

// -----

// 3 warps: the second butterfly covers 4 lanes (2 steps); lane 3 of each piece holds the
// identity, so the fold is exact for a warp count that is not a power of two.
// CHECK-LABEL: gpu.func @max_3warps
// CHECK: %[[N:.*]] = arith.constant 3 : index
// CHECK: %[[POS:.*]] = arith.andi %{{.*}}, %{{.*}} : index
// CHECK: %[[HAS:.*]] = arith.cmpi ult, %[[POS]], %[[N]] : index
// CHECK-COUNT-2: gpu.barrier
// CHECK: arith.constant -2147483648 : i32
// CHECK: arith.select %[[HAS]]
// CHECK-COUNT-2: arith.maxsi
// CHECK: gpu.barrier
gpu.module @m {
  gpu.func @max_3warps(%x: i32) kernel attributes {known_block_size = array<i32: 96, 1, 1>} {
    %0 = "cta.reduce"(%x) {kind = "max"} : (i32) -> i32
    gpu.return
  }
}

// -----

// 5 warps: the second butterfly covers 8 lanes (3 steps).
// CHECK-LABEL: gpu.func @min_5warps
// CHECK: arith.constant 5 : index
// CHECK: arith.constant 7 : index
// CHECK-COUNT-5: gpu.shuffle
// CHECK-COUNT-2: gpu.barrier
// CHECK: arith.constant 0x7F800000 : f32
// CHECK-COUNT-3: gpu.shuffle
// CHECK-NEXT: arith.minimumf
// CHECK-NEXT: gpu.barrier
gpu.module @m {
  gpu.func @min_5warps(%x: f32) kernel attributes {known_block_size = array<i32: 160, 1, 1>} {
    %0 = "cta.reduce"(%x) {kind = "min"} : (f32) -> f32
    gpu.return
  }
}

// -----

// A 2-D block: the warp comes from the linear thread id; conditions are stored as bytes.
// CHECK-LABEL: gpu.func @any_2d
// CHECK-DAG: gpu.thread_id  y
// CHECK-DAG: gpu.block_dim  x
// CHECK: arith.extui %{{.*}} : i1 to i8
// CHECK: memref.get_global @__phobos_cta_scratch_i8
// CHECK: arith.trunci %{{.*}} : i8 to i1
gpu.module @m {
  gpu.func @any_2d(%c: i1) kernel attributes {known_block_size = array<i32: 32, 4, 1>} {
    %0 = "cta.reduce"(%c) {kind = "any"} : (i1) -> i1
    gpu.return
  }
}

// -----

// argmax over the CTA gives the thread: value and thread id move together (10 shuffles per
// warp, then 2 x log2(4) = 4), through two scratches.
// CHECK-LABEL: gpu.func @argmax
// CHECK: %[[TID:.*]] = gpu.thread_id  x
// CHECK: arith.index_cast %[[TID]] : index to i32
// CHECK-COUNT-10: gpu.shuffle
// CHECK: memref.get_global @__phobos_cta_scratch_f32
// CHECK: memref.get_global @__phobos_cta_scratch_idx
// CHECK-COUNT-2: gpu.barrier
// CHECK: arith.constant 2147483647 : i32
// CHECK-COUNT-4: gpu.shuffle
// CHECK: gpu.barrier
gpu.module @m {
  gpu.func @argmax(%x: f32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %0 = "cta.argmax"(%x) : (f32) -> i32
    gpu.return
  }
}

// -----

// A user combine has no identity: the warps' results are folded in order, the combine copied
// into each step.
// CHECK-LABEL: gpu.func @custom
// CHECK-COUNT-5: arith.maximumf
// CHECK-COUNT-2: gpu.barrier
// CHECK: memref.load
// CHECK: memref.load
// CHECK: arith.maximumf
// CHECK: memref.load
// CHECK: arith.maximumf
// CHECK-NEXT: gpu.barrier
gpu.module @m {
  gpu.func @custom(%x: f32) kernel attributes {known_block_size = array<i32: 96, 1, 1>} {
    %0 = "cta.reduce_with"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.maximumf %a, %b : f32
      gpu.yield %m : f32
    }) : (f32) -> f32
    gpu.return
  }
}

// -----

// Two folds of one type share one scratch (barrier 1 orders the second write after the first
// fold's reads).
// CHECK-LABEL: gpu.module @m
// CHECK-COUNT-1: memref.global
// CHECK-NOT: memref.global
// CHECK-LABEL: gpu.func @two
// CHECK-COUNT-6: gpu.barrier
gpu.module @m {
  gpu.func @two(%x: f32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %0 = "cta.reduce"(%x) {kind = "sum"} : (f32) -> f32
    %1 = "cta.reduce"(%0) {kind = "max"} : (f32) -> f32
    gpu.return
  }
}

// -----

// Negative: without a known block size the warp count is computed (no error for built-in kinds).
// CHECK-LABEL: gpu.func @negative_unknown_block
// CHECK: gpu.block_dim  z
// CHECK: arith.divui
// CHECK-COUNT-5: gpu.shuffle
gpu.module @m {
  gpu.func @negative_unknown_block(%x: f32) kernel {
    %0 = "cta.reduce"(%x) {kind = "sum"} : (f32) -> f32
    gpu.return
  }
}
