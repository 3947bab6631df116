// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(lower-ordered-accesses{disable-patterns=memref.store}))'
// Legality: an ordered access the pass leaves behind (here: its pattern disabled) is an error at
// the op, naming the pass; plain accesses are not its business, and the others are lowered.

gpu.module @m {
  gpu.func @k(%x: memref<1024xi32>, %i: index) kernel {
    %c0 = arith.constant 0 : i32
    %v = memref.atomic_rmw ori %c0, %x[%i] {phobos.ordering = "acquire"} : (i32, memref<1024xi32>) -> i32
    memref.store %v, %x[%i] : memref<1024xi32>
    // expected-error @below {{'memref.store' op was not lowered by lower-ordered-accesses: failed to legalize this operation}}
    memref.store %v, %x[%i] {phobos.ordering = "release"} : memref<1024xi32>
    gpu.return
  }
}
