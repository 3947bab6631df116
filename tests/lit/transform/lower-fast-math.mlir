// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(lower-fast-math))' | FileCheck %s
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(lower-fast-math{chip=sm_70}))' | FileCheck %s --check-prefix=SM70
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(lower-fast-math{all=true}))' | FileCheck %s --check-prefix=ALL
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(phobos-to-ptx{chip=sm_80})' --emit=ptx | FileCheck %s --check-prefix=ASM
// f32 math functions marked afn become the hardware's approximations.

// CHECK-LABEL: gpu.func @marked
// CHECK: "llvm.nvvm.ex2.approx.ftz.f"
// CHECK: arith.mulf
// CHECK: "llvm.nvvm.ex2.approx.ftz.f"
// CHECK: "llvm.nvvm.lg2.approx.ftz.f"
// CHECK: "llvm.nvvm.lg2.approx.ftz.f"
// CHECK: arith.mulf
// CHECK: "llvm.nvvm.rsqrt.approx.ftz.f"
// CHECK: "llvm.nvvm.sin.approx.ftz.f"
// CHECK: "llvm.nvvm.cos.approx.ftz.f"
// CHECK: llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f"
// CHECK-NOT: math.
// SM70-LABEL: gpu.func @marked
// SM70: math.tanh
// ASM-LABEL: .entry marked
// ASM: ex2.approx.ftz.f32
// ASM: lg2.approx.ftz.f32
// ASM: rsqrt.approx.ftz.f32
// ASM: sin.approx.ftz.f32
// ASM: cos.approx.ftz.f32
// ASM: tanh.approx.f32
gpu.module @m {
  gpu.func @marked(%x: f32, %out: memref<8xf32>) kernel {
    %i = arith.constant 0 : index
    %a = math.exp2 %x fastmath<afn> : f32
    %b = math.exp %a fastmath<afn> : f32
    %c = math.log2 %b fastmath<afn> : f32
    %d = math.log %c fastmath<afn> : f32
    %e = math.rsqrt %d fastmath<afn> : f32
    %f = math.sin %e fastmath<afn> : f32
    %g = math.cos %f fastmath<afn> : f32
    %h = math.tanh %g fastmath<afn> : f32
    memref.store %h, %out[%i] : memref<8xf32>
    gpu.return
  }
}

// -----

// Negative cases: unmarked, f64 and functions with no approximation stay (all=true takes the
// unmarked f32 ones).
// CHECK-LABEL: gpu.func @negative_unmarked
// CHECK: math.exp %{{.*}} : f32
// CHECK: math.exp %{{.*}} fastmath<afn> : f64
// CHECK: math.erf %{{.*}} fastmath<afn> : f32
// ALL-LABEL: gpu.func @negative_unmarked
// ALL: "llvm.nvvm.ex2.approx.ftz.f"
// ALL: math.exp %{{.*}} fastmath<afn> : f64
// ALL: math.erf
gpu.module @m {
  gpu.func @negative_unmarked(%x: f32, %y: f64, %out: memref<8xf32>, %out64: memref<8xf64>) kernel {
    %i = arith.constant 0 : index
    %a = math.exp %x : f32
    %b = math.exp %y fastmath<afn> : f64
    %c = math.erf %a fastmath<afn> : f32
    memref.store %c, %out[%i] : memref<8xf32>
    memref.store %b, %out64[%i] : memref<8xf64>
    gpu.return
  }
}
