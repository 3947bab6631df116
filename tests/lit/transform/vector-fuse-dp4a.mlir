// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(vector-fuse-dp4a))' | FileCheck %s

// sum(i32(a) * i32(b)) over 16 bytes: four dp4a on the packed words, each adding into the next.
// CHECK-LABEL: gpu.func @dot16
// CHECK-SAME: (%[[A:.*]]: vector<16xi8>, %[[B:.*]]: vector<16xi8>
// CHECK: %[[AW:.*]] = vector.bitcast %[[A]] : vector<16xi8> to vector<4xi32>
// CHECK: %[[BW:.*]] = vector.bitcast %[[B]] : vector<16xi8> to vector<4xi32>
// CHECK: %[[ACC0:.*]] = arith.constant 0 : i32
// CHECK: %[[A0:.*]] = vector.extract %[[AW]][0] : i32 from vector<4xi32>
// CHECK: %[[A0B:.*]] = llvm.bitcast %[[A0]] : i32 to vector<4xi8>
// CHECK: %[[D0:.*]] = nvvm.dot.accumulate.4way %[[A0B]] <signed>, %{{.*}} <signed>, %[[ACC0]]
// CHECK-COUNT-3: nvvm.dot.accumulate.4way
// CHECK-NOT: vector.reduction
gpu.module @m {
  gpu.func @dot16(%a: vector<16xi8>, %b: vector<16xi8>, %o: memref<1xi32>) kernel {
    %a32 = arith.extsi %a : vector<16xi8> to vector<16xi32>
    %b32 = arith.extsi %b : vector<16xi8> to vector<16xi32>
    %m = arith.muli %a32, %b32 : vector<16xi32>
    %s = vector.reduction <add>, %m : vector<16xi32> into i32
    %c0 = arith.constant 0 : index
    memref.store %s, %o[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

// sum(i32(a)) alone is a dp4a against ones; unsigned bytes keep their type.
// CHECK-LABEL: gpu.func @bytes
// CHECK: %[[ONES:.*]] = arith.constant dense<1> : vector<4xi8>
// CHECK: nvvm.dot.accumulate.4way %{{.*}} <unsigned>, %[[ONES]] <unsigned>
gpu.module @m {
  gpu.func @bytes(%a: vector<4xi8>, %o: memref<1xi32>) kernel {
    %a32 = arith.extui %a : vector<4xi8> to vector<4xi32>
    %s = vector.reduction <add>, %a32 : vector<4xi32> into i32
    %c0 = arith.constant 0 : index
    memref.store %s, %o[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

// Negative: 6 bytes are not whole words, and i16 products are not byte products.
// CHECK-LABEL: gpu.func @negative
// CHECK-COUNT-2: vector.reduction <add>
// CHECK-NOT: nvvm.dot.accumulate.4way
gpu.module @m {
  gpu.func @negative(%a: vector<6xi8>, %h: vector<4xi16>, %o: memref<2xi32>) kernel {
    %a32 = arith.extsi %a : vector<6xi8> to vector<6xi32>
    %m = arith.muli %a32, %a32 : vector<6xi32>
    %s = vector.reduction <add>, %m : vector<6xi32> into i32
    %h32 = arith.extsi %h : vector<4xi16> to vector<4xi32>
    %t = vector.reduction <add>, %h32 : vector<4xi32> into i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %s, %o[%c0] : memref<2xi32>
    memref.store %t, %o[%c1] : memref<2xi32>
    gpu.return
  }
}
