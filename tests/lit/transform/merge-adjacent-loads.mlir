// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(merge-adjacent-loads))' | FileCheck %s

// Four loads of consecutive f32 (an unrolled v[i] = X[t * 4 + i]) interleaved with the loads
// of another tensor: one 16-byte load of each at the first index, each load an extract; the
// later indices and their checks move before it, in their order.
// CHECK-LABEL: gpu.func @unrolled
// CHECK: cf.assert %{{.*}}, "0"
// CHECK: cf.assert %{{.*}}, "1"
// CHECK: cf.assert %{{.*}}, "2"
// CHECK: cf.assert %{{.*}}, "3"
// CHECK: %[[X:.*]] = vector.load %arg0[%[[I:.*]]] : memref<64xf32>, vector<4xf32>
// CHECK: %[[X0:.*]] = vector.extract %[[X]][0]
// CHECK: %[[X1:.*]] = vector.extract %[[X]][1]
// CHECK: %[[X3:.*]] = vector.extract %[[X]][3]
// CHECK: %[[Y:.*]] = vector.load %arg1[%[[I]]] : memref<64xf32>, vector<4xf32>
// CHECK: %[[V:.*]] = vector.from_elements %[[X0]], %[[X1]], %{{.*}}, %[[X3]]
// CHECK-NOT: memref.load
gpu.module @m {
  gpu.func @unrolled(%x: memref<64xf32> {llvm.align = 16 : i64}, %y: memref<64xf32> {llvm.align = 16 : i64}, %t: i32, %ok: i1) kernel {
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %a = arith.muli %t, %c4 : i32
    %i0 = arith.index_cast %a : i32 to index
    cf.assert %ok, "0"
    %x0 = memref.load %x[%i0] : memref<64xf32>
    %y0 = memref.load %y[%i0] : memref<64xf32>
    %a1 = arith.addi %a, %c1 : i32
    %i1 = arith.index_cast %a1 : i32 to index
    cf.assert %ok, "1"
    %x1 = memref.load %x[%i1] : memref<64xf32>
    %y1 = memref.load %y[%i1] : memref<64xf32>
    %a2 = arith.addi %a, %c2 : i32
    %i2 = arith.index_cast %a2 : i32 to index
    cf.assert %ok, "2"
    %x2 = memref.load %x[%i2] : memref<64xf32>
    %y2 = memref.load %y[%i2] : memref<64xf32>
    %a3 = arith.addi %a, %c3 : i32
    %i3 = arith.index_cast %a3 : i32 to index
    cf.assert %ok, "3"
    %x3 = memref.load %x[%i3] : memref<64xf32>
    %y3 = memref.load %y[%i3] : memref<64xf32>
    %v = vector.from_elements %x0, %x1, %x2, %x3 : vector<4xf32>
    %w = vector.from_elements %y0, %y1, %y2, %y3 : vector<4xf32>
    %s = arith.addf %v, %w : vector<4xf32>
    %c0 = arith.constant 0 : index
    vector.store %s, %x[%c0] : memref<64xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// Vector loads join through a strided slice each; three 8-byte loads join their first two.
// CHECK-LABEL: gpu.func @vectors
// CHECK: %[[J:.*]] = vector.load %arg0[%arg1] : memref<64xi16>, vector<8xi16>
// CHECK: vector.extract_strided_slice %[[J]] {offsets = [0], sizes = [4], strides = [1]}
// CHECK: vector.extract_strided_slice %[[J]] {offsets = [4], sizes = [4], strides = [1]}
// CHECK: vector.load %arg0[%{{.*}}] : memref<64xi16>, vector<4xi16>
gpu.module @m {
  gpu.func @vectors(%m: memref<64xi16> {llvm.align = 16 : i64}, %i: index {phobos.divisibility = 8 : i64}) kernel {
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %a = vector.load %m[%i] : memref<64xi16>, vector<4xi16>
    %i1 = arith.addi %i, %c4 : index
    %b = vector.load %m[%i1] : memref<64xi16>, vector<4xi16>
    %i2 = arith.addi %i, %c8 : index
    %c = vector.load %m[%i2] : memref<64xi16>, vector<4xi16>
    %s = arith.addi %a, %b : vector<4xi16>
    %t = arith.addi %s, %c : vector<4xi16>
    vector.store %t, %m[%i] : memref<64xi16>, vector<4xi16>
    gpu.return
  }
}

// -----

// Not joined: a store between the loads (memory may change), a gap in the elements, an index
// that depends on a joined load (an indirect load, of unknown alignment too), and more than 16
// bytes (f64: two by two).
// CHECK-LABEL: gpu.func @kept
// CHECK: memref.load %arg0
// CHECK: memref.store
// CHECK-COUNT-2: memref.load %arg0
// CHECK: %[[K:.*]] = memref.load %arg1[%arg2]
// CHECK: memref.load %arg1[%{{.*}}]
// CHECK: vector.load %arg3[%arg2] : memref<64xf64>, vector<2xf64>
// CHECK: vector.load %arg3[%{{.*}}] : memref<64xf64>, vector<2xf64>
gpu.module @m {
  gpu.func @kept(%m: memref<64xf32> {llvm.align = 16 : i64}, %n: memref<64xindex> {llvm.align = 16 : i64}, %i: index {phobos.divisibility = 4 : i64}, %d: memref<64xf64> {llvm.align = 16 : i64}) kernel {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %f = arith.constant 1.0 : f32
    %a = memref.load %m[%i] : memref<64xf32>
    memref.store %f, %m[%c3] : memref<64xf32>
    %i1 = arith.addi %i, %c1 : index
    %b = memref.load %m[%i1] : memref<64xf32>
    %i3 = arith.addi %i, %c3 : index
    %c = memref.load %m[%i3] : memref<64xf32>
    %k = memref.load %n[%i] : memref<64xindex>
    %k1 = arith.addi %k, %c1 : index
    %l = memref.load %n[%k1] : memref<64xindex>
    %d0 = memref.load %d[%i] : memref<64xf64>
    %d1 = memref.load %d[%i1] : memref<64xf64>
    %i2 = arith.addi %i, %c2 : index
    %d2 = memref.load %d[%i2] : memref<64xf64>
    %d3 = memref.load %d[%i3] : memref<64xf64>
    %s1 = arith.addf %a, %b : f32
    %s2 = arith.addf %s1, %c : f32
    memref.store %s2, %m[%l] : memref<64xf32>
    %e1 = arith.addf %d0, %d1 : f64
    %e2 = arith.addf %d2, %d3 : f64
    %e = arith.addf %e1, %e2 : f64
    memref.store %e, %d[%k] : memref<64xf64>
    gpu.return
  }
}

// -----

// Not joined where the GPU could not join them: a run starting at an element of unknown
// alignment; from a constant index, as far as its alignment allows (P[1], P[2]: 4 bytes apart
// from a 16-byte base, so P[1] alone, P[2..3] as 8 bytes).
// CHECK-LABEL: gpu.func @unaligned
// CHECK: memref.load %arg0[%arg1]
// CHECK: memref.load %arg0[%{{.*}}]
// CHECK: memref.load %arg0[%c1]
// CHECK: vector.load %arg0[%c2] : memref<64xf32>, vector<2xf32>
gpu.module @m {
  gpu.func @unaligned(%m: memref<64xf32> {llvm.align = 16 : i64}, %i: index) kernel {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %a = memref.load %m[%i] : memref<64xf32>
    %i1 = arith.addi %i, %c1 : index
    %b = memref.load %m[%i1] : memref<64xf32>
    %p1 = memref.load %m[%c1] : memref<64xf32>
    %p2 = memref.load %m[%c2] : memref<64xf32>
    %p3 = memref.load %m[%c3] : memref<64xf32>
    %s = arith.addf %a, %b : f32
    %t = arith.addf %p1, %p2 : f32
    %u = arith.addf %t, %p3 : f32
    %v = arith.addf %s, %u : f32
    memref.store %v, %m[%i] : memref<64xf32>
    gpu.return
  }
}
