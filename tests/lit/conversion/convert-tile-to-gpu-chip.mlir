// RUN: phobos-opt %s --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(convert-tile-to-gpu{chip=sm_75}))'
// RUN: phobos-opt %s --pass-pipeline='builtin.module(gpu.module(convert-tile-to-gpu{chip=sm_80}))' | FileCheck %s
// Tensor-core products need sm_80 (mma.sync m16n8k16, ldmatrix): before it, a located error
// (LLVM cannot select them); from it on, the lowering.
// CHECK: nvvm.mma.sync
gpu.module @m {
  gpu.func @k(%a: memref<16x16xf16, 3>, %b: memref<16x8xf16, 3>, %c: vector<4xf32>, %o: memref<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{tensor-core products (mma.sync, ldmatrix) need sm_80 or later; the target is sm_75}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x16xf16, 3>, memref<16x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    %c0 = arith.constant 0 : index
    vector.store %d, %o[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}
