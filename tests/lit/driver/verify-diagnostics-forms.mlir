// RUN: phobos-opt %s --split-input-file --verify-diagnostics
// The expectation forms: @below, @above, @+N, @-N, same line.

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    %0 = "lane.reduce"(%x) {kind = "sum", width = 5 : i32} : (f32) -> f32
    // expected-error @above {{got 5}}
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @+2 {{got 6}}
    // (a comment in between)
    %0 = "lane.reduce"(%x) {kind = "sum", width = 6 : i32} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    %0 = "lane.reduce"(%x) {kind = "sum", width = 7 : i32} : (f32) -> f32
    // (a comment in between)
    // expected-error @-2 {{got 7}}
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    %0 = "lane.reduce"(%x) {kind = "sum", width = 9 : i32} : (f32) -> f32 // expected-error {{got 9}}
    gpu.return
  }
}
