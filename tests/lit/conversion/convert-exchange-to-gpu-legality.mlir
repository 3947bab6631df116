// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(convert-exchange-to-gpu{disable-patterns=cta.exchange}))'
// Legality: a redistribution the conversion leaves behind is an error at the op, naming the pass.

gpu.module @m {
  gpu.func @k(%v: vector<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{'cta.exchange' op was not lowered by convert-exchange-to-gpu: failed to legalize this operation}}
    %0 = "cta.exchange"(%v) {from = "blocked(32,4)", to = "striped(32,4)"} : (vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}
