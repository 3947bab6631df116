// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(lower-masked-loads{disable-patterns=vector.maskedload}))'
// Legality: a vector.maskedload the pass leaves behind is an error at the op, naming the pass.

gpu.module @m {
  gpu.func @k(%m: memref<64xf32>, %i: index, %k: vector<2xi1>, %p: vector<2xf32>, %out: memref<2xf32>) kernel {
    // expected-error @below {{'vector.maskedload' op was not lowered by lower-masked-loads: failed to legalize this operation}}
    %v = vector.maskedload %m[%i], %k, %p : memref<64xf32>, vector<2xi1>, vector<2xf32> into vector<2xf32>
    %z = arith.constant 0 : index
    vector.store %v, %out[%z] : memref<2xf32>, vector<2xf32>
    gpu.return
  }
}
