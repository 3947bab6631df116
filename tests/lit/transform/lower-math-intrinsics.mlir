// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(lower-math-intrinsics))' | FileCheck %s
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(phobos-to-ptx)' --emit=ptx | FileCheck %s --check-prefix=ASM
// math.trunc and math.absi, which convert-gpu-to-nvvm leaves, as LLVM intrinsics.

// CHECK-LABEL: gpu.func @trunc_abs
// CHECK-NOT: math.trunc
// CHECK-NOT: math.absi
// CHECK: llvm.intr.trunc(%{{.*}}) : (f32) -> f32
// CHECK: llvm.intr.trunc(%{{.*}}) : (f64) -> f64
// CHECK: "llvm.intr.abs"(%{{.*}}) <{is_int_min_poison = false}> : (i32) -> i32
// CHECK: "llvm.intr.abs"(%{{.*}}) <{is_int_min_poison = false}> : (i64) -> i64
// ASM-LABEL: .entry trunc_abs
// ASM: cvt.rzi.f32.f32
// ASM: cvt.rzi.f64.f64
// ASM: abs.s32
// ASM: abs.s64
gpu.module @m {
  gpu.func @trunc_abs(%a: f32, %b: f64, %c: i32, %d: i64, %o: memref<4xf32>, %p: memref<4xf64>, %q: memref<4xi32>, %r: memref<4xi64>) kernel {
    %i = arith.constant 0 : index
    %ta = math.trunc %a : f32
    %tb = math.trunc %b : f64
    %ac = math.absi %c : i32
    %ad = math.absi %d : i64
    memref.store %ta, %o[%i] : memref<4xf32>
    memref.store %tb, %p[%i] : memref<4xf64>
    memref.store %ac, %q[%i] : memref<4xi32>
    memref.store %ad, %r[%i] : memref<4xi64>
    gpu.return
  }
}

// -----

// Other math ops are left for convert-gpu-to-nvvm (libdevice).
// CHECK-LABEL: gpu.func @negative_others
// CHECK: math.floor
// CHECK: math.absf
// CHECK-NOT: llvm.intr
gpu.module @m {
  gpu.func @negative_others(%a: f32, %o: memref<4xf32>) kernel {
    %i = arith.constant 0 : index
    %f = math.floor %a : f32
    %g = math.absf %f : f32
    memref.store %g, %o[%i] : memref<4xf32>
    gpu.return
  }
}
