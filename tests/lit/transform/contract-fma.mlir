// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(contract-fma))' | FileCheck %s
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(contract-fma{contract=false}))' | FileCheck %s --check-prefix=OFF
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(phobos-to-ptx)' --emit=ptx | FileCheck %s --check-prefix=ASM
// Float products and sums whose ops carry `contract` become one math.fma; then no op keeps
// the flag, so LLVM never contracts on its own.

// CHECK-LABEL: gpu.func @forms
// CHECK-SAME: (%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32
// CHECK: %[[F1:.*]] = math.fma %[[A]], %[[B]], %[[C]] : f32
// CHECK: %[[F2:.*]] = math.fma %[[A]], %[[B]], %[[C]] : f32
// CHECK: %[[NA:.*]] = arith.negf %[[A]] : f32
// CHECK: %[[F3:.*]] = math.fma %[[NA]], %[[B]], %[[C]] : f32
// CHECK: %[[NC:.*]] = arith.negf %[[C]] : f32
// CHECK: %[[F4:.*]] = math.fma %[[A]], %[[B]], %[[NC]] : f32
// CHECK-NOT: arith.mulf
// CHECK-NOT: contract
// OFF-LABEL: gpu.func @forms
// OFF-COUNT-4: arith.mulf %{{.*}}, %{{.*}} : f32
// OFF-NOT: contract
// OFF-NOT: math.fma
// ASM-LABEL: .entry forms
// ASM-NOT: mul.rn.f32
// ASM-COUNT-3: fma.rn.f32
// ASM-NOT: mul.rn.f32
// ASM: ret;
gpu.module @m {
  gpu.func @forms(%a: f32, %b: f32, %c: f32, %out: memref<4xf32>) kernel {
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %i2 = arith.constant 2 : index
    %i3 = arith.constant 3 : index
    %p1 = arith.mulf %a, %b fastmath<contract> : f32
    %r1 = arith.addf %p1, %c fastmath<contract> : f32
    %p2 = arith.mulf %a, %b fastmath<contract> : f32
    %r2 = arith.addf %c, %p2 fastmath<contract> : f32
    %p3 = arith.mulf %a, %b fastmath<contract> : f32
    %r3 = arith.subf %c, %p3 fastmath<contract> : f32
    %p4 = arith.mulf %a, %b fastmath<contract> : f32
    %r4 = arith.subf %p4, %c fastmath<contract> : f32
    memref.store %r1, %out[%i0] : memref<4xf32>
    memref.store %r2, %out[%i1] : memref<4xf32>
    memref.store %r3, %out[%i2] : memref<4xf32>
    memref.store %r4, %out[%i3] : memref<4xf32>
    gpu.return
  }
}

// -----

// Negative cases: no flag on either op, a product used twice, other flags kept.
// CHECK-LABEL: gpu.func @negative_kept_apart
// CHECK: %[[P1:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf %[[P1]], %{{.*}} : f32
// CHECK: %[[P2:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf %[[P2]], %{{.*}} : f32
// CHECK: %[[P3:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<nnan> : f32
// CHECK: arith.addf %[[P3]], %{{.*}} fastmath<nnan> : f32
// CHECK: arith.addf %[[P3]], %{{.*}} fastmath<nnan> : f32
// CHECK-NOT: math.fma
// ASM-LABEL: .entry negative_kept_apart
// ASM-NOT: fma.rn.f32
// ASM: mul.rn.f32
// ASM-NOT: fma.rn.f32
gpu.module @m {
  gpu.func @negative_kept_apart(%a: f32, %b: f32, %c: f32, %out: memref<4xf32>) kernel {
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %i2 = arith.constant 2 : index
    %p1 = arith.mulf %a, %b : f32
    %r1 = arith.addf %p1, %c fastmath<contract> : f32
    %p2 = arith.mulf %a, %b fastmath<contract> : f32
    %r2 = arith.addf %p2, %c : f32
    %p3 = arith.mulf %a, %b fastmath<nnan,contract> : f32
    %r3 = arith.addf %p3, %c fastmath<nnan,contract> : f32
    %r4 = arith.addf %p3, %a fastmath<nnan,contract> : f32
    memref.store %r1, %out[%i0] : memref<4xf32>
    memref.store %r2, %out[%i1] : memref<4xf32>
    memref.store %r3, %out[%i2] : memref<4xf32>
    memref.store %r4, %out[%i2] : memref<4xf32>
    gpu.return
  }
}
