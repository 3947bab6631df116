// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(lower-math-intrinsics{disable-patterns=math.trunc}))'
// Legality: a math.trunc the pass leaves behind is an error at the op, naming the pass.

gpu.module @m {
  gpu.func @k(%a: f32, %out: memref<1xf32>) kernel {
    // expected-error @below {{'math.trunc' op was not lowered by lower-math-intrinsics: failed to legalize this operation}}
    %r = math.trunc %a : f32
    %i = arith.constant 0 : index
    memref.store %r, %out[%i] : memref<1xf32>
    gpu.return
  }
}
