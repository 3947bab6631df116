// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(convert-exchange-to-gpu))'

gpu.module @m {
  gpu.func @k(%v: vector<4xf32>) kernel {
    // expected-error @below {{needs a known block size (known_block_size on the gpu.func)}}
    %0 = "cta.exchange"(%v) {from = "blocked(32,4)", to = "striped(32,4)"} : (vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: vector<4xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @below {{its layouts are for 32 threads; the CTA has 64}}
    %0 = "cta.exchange"(%v) {from = "blocked(32,4)", to = "striped(32,4)"} : (vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: vector<4xf32>, %r: vector<4xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{to: layout "(32,4):(0,1)" is not a bijection onto [0, 128)}}
    %0 = "cta.scatter"(%v, %r) {to = "(32,4):(0,1)"} : (vector<4xf32>, vector<4xi32>) -> vector<4xf32>
    gpu.return
  }
}
