// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(lower-masked-loads))' | FileCheck %s
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(phobos-to-ptx)' --emit=ptx | FileCheck %s --check-prefix=ASM

// Each element: its index where its mask bit is set, index 0 where not, then a select against
// the pass-through element.
// CHECK-LABEL: gpu.func @run
// CHECK-SAME: (%[[M:.*]]: memref<64xf32>, %[[I:.*]]: index, %[[K:.*]]: vector<2xi1>, %[[P:.*]]: vector<2xf32>
// CHECK-NOT: vector.maskedload
// CHECK-DAG: %[[Z:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[B0:.*]] = vector.extract %[[K]][0]
// CHECK: %[[S0:.*]] = arith.select %[[B0]], %[[I]], %[[Z]] : index
// CHECK: %[[X0:.*]] = memref.load %[[M]][%[[S0]]]
// CHECK: %[[P0:.*]] = vector.extract %[[P]][0]
// CHECK: %[[Y0:.*]] = arith.select %[[B0]], %[[X0]], %[[P0]] : f32
// CHECK: %[[B1:.*]] = vector.extract %[[K]][1]
// CHECK: %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: %[[S1:.*]] = arith.select %[[B1]], %[[I1]], %[[Z]] : index
// CHECK: %[[X1:.*]] = memref.load %[[M]][%[[S1]]]
// CHECK: %[[Y1:.*]] = arith.select %[[B1]], %[[X1]], %{{.*}} : f32
// CHECK: vector.from_elements %[[Y0]], %[[Y1]] : vector<2xf32>
// ASM-LABEL: .entry run
// ASM-NOT: bra
// ASM: ret;
gpu.module @m {
  gpu.func @run(%m: memref<64xf32>, %i: index, %k: vector<2xi1>, %p: vector<2xf32>, %out: memref<2xf32>) kernel {
    %v = vector.maskedload %m[%i], %k, %p : memref<64xf32>, vector<2xi1>, vector<2xf32> into vector<2xf32>
    %z = arith.constant 0 : index
    vector.store %v, %out[%z] : memref<2xf32>, vector<2xf32>
    gpu.return
  }
}

// -----

// A plain vector.load is not the pass's: it stays.
// CHECK-LABEL: gpu.func @negative_plain_load
// CHECK: vector.load
// CHECK-NOT: arith.select
gpu.module @m {
  gpu.func @negative_plain_load(%m: memref<64xf32>, %i: index, %out: memref<2xf32>) kernel {
    %v = vector.load %m[%i] : memref<64xf32>, vector<2xf32>
    %z = arith.constant 0 : index
    vector.store %v, %out[%z] : memref<2xf32>, vector<2xf32>
    gpu.return
  }
}
