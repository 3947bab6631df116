// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(lower-fma))' | FileCheck %s
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(phobos-to-ptx)' --emit=ptx | FileCheck %s --check-prefix=ASM

// CHECK-LABEL: gpu.func @fused
// CHECK-SAME: (%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32
// CHECK-NOT: math.fma
// CHECK: %[[R:.*]] = llvm.intr.fma(%[[A]], %[[B]], %[[C]]) : (f32, f32, f32) -> f32
// CHECK: memref.store %[[R]]
// ASM-LABEL: .entry fused
// ASM: fma.rn.f32
// ASM-NOT: __nv_fmaf
gpu.module @m {
  gpu.func @fused(%a: f32, %b: f32, %c: f32, %out: memref<4xf32>) kernel {
    %r = math.fma %a, %b, %c : f32
    %i = arith.constant 0 : index
    memref.store %r, %out[%i] : memref<4xf32>
    gpu.return
  }
}

// -----

// A separate multiply and add stay apart: the pass fuses nothing itself.
// CHECK-LABEL: gpu.func @negative_separate
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: llvm.intr.fma
gpu.module @m {
  gpu.func @negative_separate(%a: f32, %b: f32, %c: f32, %out: memref<4xf32>) kernel {
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %c : f32
    %i = arith.constant 0 : index
    memref.store %r, %out[%i] : memref<4xf32>
    gpu.return
  }
}
