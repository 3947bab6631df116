// RUN: phobos-opt %s --split-input-file --verify-diagnostics

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{a CTA collective takes no width}}
    %0 = "cta.reduce"(%x) {kind = "sum", width = 8 : i32} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{all folds conditions (i1), got f32}}
    %0 = "cta.reduce"(%x) {kind = "all"} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i1) kernel {
    // expected-error @below {{'i1' does not satisfy the constraint}}
    %0 = "cta.argmax"(%x) : (i1) -> i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{needs a combine: a region or `combine = @f`}}
    %0 = "cta.reduce_with"(%x) ({}) : (f32) -> f32
    gpu.return
  }
}
