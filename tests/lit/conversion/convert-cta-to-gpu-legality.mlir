// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(convert-cta-to-gpu{disable-patterns=cta.argmax}))'
// Legality: a cta op the conversion leaves behind is an error at the op, naming the pass.

gpu.module @m {
  gpu.func @k(%x: f32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %s = "cta.reduce"(%x) {kind = "max"} : (f32) -> f32
    // expected-error @below {{'cta.argmax' op was not lowered by convert-cta-to-gpu: failed to legalize this operation}}
    %t = "cta.argmax"(%s) : (f32) -> i32
    gpu.return
  }
}
