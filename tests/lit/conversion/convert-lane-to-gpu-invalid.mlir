// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu))'

gpu.module @m {
  gpu.func @k(%x: i32) kernel {
    // expected-error @below {{combine @nope is not a func.func in this gpu.module}}
    %0 = "lane.reduce_with"(%x) ({}) {combine = @nope} : (i32) -> i32
    gpu.return
  }
}

// -----

gpu.module @m {
  func.func private @f(%a: f32, %b: f32) -> f32 {
    return %a : f32
  }
  gpu.func @k(%x: i32) kernel {
    // expected-error @below {{combine @f must have type (i32, i32) -> i32, has (f32, f32) -> f32}}
    %0 = "lane.reduce_with"(%x) ({}) {combine = @f} : (i32) -> i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32, %y: f32) kernel {
    // expected-error @below {{combine region uses a value defined outside it}}
    %0 = "lane.reduce_with"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %y : f32
      gpu.yield %s : f32
    }) : (f32) -> f32
    gpu.return
  }
}
