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
  gpu.func @words(%m: memref<64xi8>, %a: i32, %w0: vector<4xi8>, %w1: vector<4xi8>, %w2: vector<4xi8>, %w3: vector<4xi8>, %ok: i1) kernel {
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
  gpu.func @three(%m: memref<64xi8>, %i: index, %w0: vector<4xi8>, %w1: vector<4xi8>, %w2: vector<4xi8>) kernel {
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
  gpu.func @negative_kept_apart(%m: memref<64xi8>, %n: memref<64xi8>, %i: index, %w: vector<4xi8>, %x: vector<16xi8>) kernel {
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
