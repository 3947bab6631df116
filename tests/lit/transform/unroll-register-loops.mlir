// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(unroll-register-loops))' | FileCheck %s
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(unroll-register-loops,canonicalize))' | FileCheck %s --check-prefix=FOLDED

// A loop of 4 iterations writing v[i]: four single-iteration clones, chained through the
// carried array; canonicalize inlines them and the positions become constants.
// CHECK-LABEL: gpu.func @fill
// CHECK: %[[A:.*]] = scf.for %{{.*}} = %c0_i32{{.*}} to %c1_i32{{.*}} step
// CHECK: %[[B:.*]] = scf.for %{{.*}} = %c1_i32{{.*}} to %c2_i32{{.*}} step {{.*}} iter_args(%{{.*}} = %[[A]])
// CHECK: %[[C:.*]] = scf.for %{{.*}} = %c2_i32{{.*}} to %c3_i32{{.*}} step {{.*}} iter_args(%{{.*}} = %[[B]])
// CHECK: %[[D:.*]] = scf.for %{{.*}} = %c3_i32{{.*}} to %c4_i32{{.*}} step {{.*}} iter_args(%{{.*}} = %[[C]])
// CHECK: vector.store %[[D]]
// FOLDED-LABEL: gpu.func @fill
// FOLDED-NOT: scf.for
// FOLDED: %[[E0:.*]] = memref.load %arg0[%c0]
// FOLDED: %[[E3:.*]] = memref.load %arg0[%c3]
// FOLDED: vector.from_elements %[[E0]], %{{.*}}, %{{.*}}, %[[E3]] : vector<4xf32>
gpu.module @m {
  gpu.func @fill(%x: memref<64xf32>, %y: memref<64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %z = arith.constant dense<0.0> : vector<4xf32>
    %v = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) : i32 {
      %ii = arith.index_cast %i : i32 to index
      %e = memref.load %x[%ii] : memref<64xf32>
      %n = vector.insert %e, %acc [%ii] : f32 into vector<4xf32>
      scf.yield %n : vector<4xf32>
    }
    %c0i = arith.constant 0 : index
    vector.store %v, %y[%c0i] : memref<64xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// Kept: bounds known only at run time, a loop that indexes no register array, and one of more
// than 64 iterations.
// CHECK-LABEL: gpu.func @kept
// CHECK-COUNT-3: scf.for
gpu.module @m {
  gpu.func @kept(%x: memref<64xf32>, %n: i32) kernel {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %c100 = arith.constant 100 : i32
    %z = arith.constant dense<0.0> : vector<4xf32>
    %f = arith.constant 1.0 : f32
    %a = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (vector<4xf32>) : i32 {
      %ii = arith.index_cast %i : i32 to index
      %m = vector.insert %f, %acc [%ii] : f32 into vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    scf.for %i = %c0 to %c4 step %c1 : i32 {
      %ii = arith.index_cast %i : i32 to index
      memref.store %f, %x[%ii] : memref<64xf32>
    }
    %b = scf.for %i = %c0 to %c100 step %c1 iter_args(%acc = %a) -> (vector<4xf32>) : i32 {
      %r = arith.remui %i, %c4 : i32
      %ii = arith.index_cast %r : i32 to index
      %m = vector.insert %f, %acc [%ii] : f32 into vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    %c0i = arith.constant 0 : index
    vector.store %b, %x[%c0i] : memref<64xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// A loop of 128 iterations stays a loop; the same loop marked phobos.unroll (the frontend's
// `for i, j in acc` over a tensor-core fragment) is unrolled: the accumulator must stay in
// registers.
// CHECK-LABEL: gpu.func @long
// CHECK-COUNT-1: scf.for
// CHECK-NOT: scf.for
// CHECK-LABEL: gpu.func @fragment
// CHECK-COUNT-128: scf.for
// CHECK-NOT: scf.for
// CHECK: gpu.return
gpu.module @m {
  gpu.func @long(%y: memref<128xf32>, %v: vector<128xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c128 = arith.constant 128 : i32
    scf.for %i = %c0 to %c128 step %c1 : i32 {
      %ii = arith.index_cast %i : i32 to index
      %e = vector.extract %v[%ii] : f32 from vector<128xf32>
      memref.store %e, %y[%ii] : memref<128xf32>
    }
    gpu.return
  }
  gpu.func @fragment(%y: memref<128xf32>, %v: vector<128xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c128 = arith.constant 128 : i32
    scf.for %i = %c0 to %c128 step %c1 : i32 {
      %ii = arith.index_cast %i : i32 to index
      %e = vector.extract %v[%ii] : f32 from vector<128xf32>
      memref.store %e, %y[%ii] : memref<128xf32>
    } {phobos.unroll}
    gpu.return
  }
}
