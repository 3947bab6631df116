// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(lower-fma{disable-patterns=math.fma}))'
// Legality: a math.fma the pass leaves behind is an error at the op, naming the pass.

gpu.module @m {
  gpu.func @k(%a: f32, %out: memref<1xf32>) kernel {
    // expected-error @below {{'math.fma' op was not lowered by lower-fma: failed to legalize this operation}}
    %r = math.fma %a, %a, %a : f32
    %i = arith.constant 0 : index
    memref.store %r, %out[%i] : memref<1xf32>
    gpu.return
  }
}
