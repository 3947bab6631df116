// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(merge-adjacent-stores))' | FileCheck %s

// Four 4-byte stores at a, a + 4, a + 8, a + 12 (as store_word writes a 16-byte run): one
// 16-byte store at a, after the last one's value; the checks between them stay.
// CHECK-LABEL: gpu.func @words
// CHECK: cf.assert
// CHECK: %[[V:.*]] = vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK: %[[B:.*]] = vector.bitcast %[[V]] : vector<4xi32> to vector<16xi8>
// CHECK: vector.store %[[B]], %{{.*}}[%[[A:.*]]] : memref<64xi8>, vector<16xi8>
// CHECK-NOT: vector.store
gpu.module @m {
  gpu.func @words(%m: memref<64xi8> {llvm.align = 16 : i64}, %a: i32 {phobos.divisibility = 16 : i64}, %w0: vector<4xi8>, %w1: vector<4xi8>, %w2: vector<4xi8>, %w3: vector<4xi8>, %ok: i1) kernel {
    %c4 = arith.constant 4 : i32
    %c8 = arith.constant 8 : i32
    %c12 = arith.constant 12 : i32
    %i0 = arith.index_cast %a : i32 to index
    vector.store %w0, %m[%i0] : memref<64xi8>, vector<4xi8>
    %a1 = arith.addi %a, %c4 : i32
    %i1 = arith.index_cast %a1 : i32 to index
    cf.assert %ok, "checked"
    vector.store %w1, %m[%i1] : memref<64xi8>, vector<4xi8>
    %a2 = arith.addi %a, %c8 : i32
    %i2 = arith.index_cast %a2 : i32 to index
    vector.store %w2, %m[%i2] : memref<64xi8>, vector<4xi8>
    %a3 = arith.addi %a, %c12 : i32
    %i3 = arith.index_cast %a3 : i32 to index
    vector.store %w3, %m[%i3] : memref<64xi8>, vector<4xi8>
    gpu.return
  }
}

// -----

// Three consecutive 4-byte stores: the first two join (8 bytes), the third stays.
// CHECK-LABEL: gpu.func @three
// CHECK: vector.store %{{.*}} : memref<64xi8>, vector<8xi8>
// CHECK: vector.store %{{.*}} : memref<64xi8>, vector<4xi8>
gpu.module @m {
  gpu.func @three(%m: memref<64xi8> {llvm.align = 16 : i64}, %i: index {phobos.divisibility = 16 : i64}, %w0: vector<4xi8>, %w1: vector<4xi8>, %w2: vector<4xi8>) kernel {
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %i1 = arith.addi %i, %c4 : index
    %i2 = arith.addi %i, %c8 : index
    vector.store %w0, %m[%i] : memref<64xi8>, vector<4xi8>
    vector.store %w1, %m[%i1] : memref<64xi8>, vector<4xi8>
    vector.store %w2, %m[%i2] : memref<64xi8>, vector<4xi8>
    gpu.return
  }
}

// -----

// Negative: a load between the stores, a gap, another memref, a store already 16 bytes wide:
// nothing joins.
// CHECK-LABEL: gpu.func @negative_kept_apart
// CHECK-COUNT-8: vector.store %{{.*}} : memref<64xi8>, vector<4xi8>
// CHECK: vector.store %{{.*}} : memref<64xi8>, vector<16xi8>
// CHECK: vector.store %{{.*}} : memref<64xi8>, vector<16xi8>
gpu.module @m {
  gpu.func @negative_kept_apart(%m: memref<64xi8> {llvm.align = 16 : i64}, %n: memref<64xi8> {llvm.align = 16 : i64}, %i: index {phobos.divisibility = 16 : i64}, %w: vector<4xi8>, %x: vector<16xi8>) kernel {
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %i4 = arith.addi %i, %c4 : index
    %i8 = arith.addi %i, %c8 : index
    %i16 = arith.addi %i, %c16 : index
    vector.store %w, %m[%i] : memref<64xi8>, vector<4xi8>
    %r = vector.load %m[%i8] : memref<64xi8>, vector<4xi8>
    vector.store %r, %m[%i4] : memref<64xi8>, vector<4xi8>
    vector.store %w, %m[%i] : memref<64xi8>, vector<4xi8>
    vector.store %w, %m[%i8] : memref<64xi8>, vector<4xi8>
    vector.store %w, %m[%i] : memref<64xi8>, vector<4xi8>
    vector.store %w, %n[%i4] : memref<64xi8>, vector<4xi8>
    gpu.barrier
    vector.store %w, %m[%i] : memref<64xi8>, vector<4xi8>
    gpu.barrier
    vector.store %w, %m[%i4] : memref<64xi8>, vector<4xi8>
    vector.store %x, %m[%i] : memref<64xi8>, vector<16xi8>
    vector.store %x, %m[%i16] : memref<64xi8>, vector<16xi8>
    gpu.return
  }
}

// -----

// Scalar stores of consecutive elements join as one vector of them; a release store (an
// ordered access) and a scatter item keep their own.
// CHECK-LABEL: gpu.func @scalars
// CHECK: %[[V:.*]] = vector.from_elements %arg2, %arg3 : vector<2xf32>
// CHECK: vector.store %[[V]], %arg0[%arg1] : memref<64xf32>, vector<2xf32>
// CHECK: memref.store %arg2, %arg0[%{{.*}}] {phobos.ordering = "release"}
// CHECK: memref.store %arg3, %arg0[%{{.*}}] {phobos.scatter_item = 1 : i64}
gpu.module @m {
  gpu.func @scalars(%m: memref<64xf32> {llvm.align = 16 : i64}, %i: index {phobos.divisibility = 2 : i64}, %x: f32, %y: f32) kernel {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    memref.store %x, %m[%i] : memref<64xf32>
    %i1 = arith.addi %i, %c1 : index
    memref.store %y, %m[%i1] : memref<64xf32>
    %i2 = arith.addi %i, %c2 : index
    memref.store %x, %m[%i2] {phobos.ordering = "release"} : memref<64xf32>
    %i3 = arith.addi %i, %c3 : index
    memref.store %y, %m[%i3] {phobos.scatter_item = 1 : i64} : memref<64xf32>
    gpu.return
  }
}

// -----

// Not joined where the GPU could not join them: an index of unknown alignment (LLVM would split
// the wide access again).
// CHECK-LABEL: gpu.func @unaligned
// CHECK-COUNT-2: memref.store
// CHECK-NOT: vector.store
gpu.module @m {
  gpu.func @unaligned(%m: memref<64xf32> {llvm.align = 16 : i64}, %i: index, %x: f32, %y: f32) kernel {
    %c1 = arith.constant 1 : index
    memref.store %x, %m[%i] : memref<64xf32>
    %i1 = arith.addi %i, %c1 : index
    memref.store %y, %m[%i1] : memref<64xf32>
    gpu.return
  }
}
