// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(convert-cta-to-gpu))'

gpu.module @m {
  gpu.func @k(%x: f32) kernel attributes {known_block_size = array<i32: 100, 1, 1>} {
    // expected-error @below {{a CTA collective needs whole warps: the block size 100 is not a multiple of 32 up to 1024}}
    %0 = "cta.reduce"(%x) {kind = "sum"} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{a CTA fold with a combine function needs a known block size (known_block_size on the gpu.func)}}
    %0 = "cta.reduce_with"(%x) ({
    ^bb0(%a: f32, %b: f32):
      gpu.yield %a : f32
    }) : (f32) -> f32
    gpu.return
  }
}
