// RUN: phobos-opt %s --split-input-file --verify-diagnostics
// Every verifier message of the lane dialect, IRDL's and the Rust verifiers'.

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{width must be a power of two from 1 to 32, got 3}}
    %0 = "lane.reduce"(%x) {kind = "sum", width = 3 : i32} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{width must be a power of two from 1 to 32, got 64}}
    %0 = "lane.reduce"(%x) {kind = "max", width = 64 : i32} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{width must be a power of two from 1 to 32, got 0}}
    %0 = "lane.argmax"(%x) {width = 0 : i32} : (f32) -> i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{width must be a power of two from 1 to 32, got 48}}
    %0 = "lane.argmin"(%x) {width = 48 : i32} : (f32) -> i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%c: i1) kernel {
    // IRDL: a condition has no smallest lane to find.
    // expected-error @below {{does not satisfy the constraint}}
    %0 = "lane.argmin"(%c) : (i1) -> i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // IRDL: the lane is an i32.
    // expected-error @below {{expected 'i32' but got 'f32'}}
    %0 = "lane.argmin"(%x) : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{width must be an integer, got "8"}}
    %0 = "lane.reduce"(%x) {kind = "sum", width = "8"} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{'"prod"' does not satisfy the constraint}}
    %0 = "lane.reduce"(%x) {kind = "prod"} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{attribute "kind" is expected but not provided}}
    %0 = "lane.reduce"(%x) : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{expected 'f32' but got 'i32'}}
    %0 = "lane.reduce"(%x) {kind = "sum"} : (f32) -> i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{any folds conditions (i1), got f32}}
    %0 = "lane.reduce"(%x) {kind = "any"} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%c: i1) kernel {
    // expected-error @below {{sum folds numbers, not conditions (i1); use any or all}}
    %0 = "lane.reduce"(%c) {kind = "sum"} : (i1) -> i1
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: vector<4xf32>) kernel {
    // expected-error @below {{does not satisfy the constraint}}
    %0 = "lane.reduce"(%x) {kind = "sum"} : (vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    %c8 = arith.constant 8 : i32
    // expected-error @below {{xor mask 8 is not below the width 8}}
    %0 = "lane.shuffle"(%x, %c8) {mode = "xor", width = 8 : i32} : (f32, i32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    %c = arith.constant 32 : i32
    // expected-error @below {{xor mask 32 is not below the width 32}}
    %0 = "lane.shuffle"(%x, %c) {mode = "xor"} : (f32, i32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32, %o: i32) kernel {
    // expected-error @below {{'"rotate"' does not satisfy the constraint}}
    %0 = "lane.shuffle"(%x, %o) {mode = "rotate"} : (f32, i32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32, %o: i64) kernel {
    // expected-error @below {{expected 'i32' but got 'i64'}}
    %0 = "lane.shuffle"(%x, %o) {mode = "down"} : (f32, i64) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{needs a combine: a region or `combine = @f`}}
    %0 = "lane.reduce_with"(%x) ({}) : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{combine region must take two f32 arguments}}
    %0 = "lane.reduce_with"(%x) ({
    ^bb0(%a: f32):
      gpu.yield %a : f32
    }) : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{combine region must end in gpu.yield of one f32}}
    %0 = "lane.reduce_with"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %i = arith.fptosi %a : f32 to i32
      gpu.yield %i : i32
    }) : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{has both a combine region and `combine`; give one}}
    %0 = "lane.reduce_with"(%x) ({
    ^bb0(%a: f32, %b: f32):
      gpu.yield %a : f32
    }) {combine = @f} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{combine must be a symbol (@f), got "f"}}
    %0 = "lane.reduce_with"(%x) ({}) {combine = "f"} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{width must be a power of two from 1 to 32, got 6}}
    %0 = "lane.scan"(%x) {kind = "sum", width = 6 : i32} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i1) kernel {
    // expected-error @below {{'i1' does not satisfy the constraint}}
    %0 = "lane.scan"(%x) {kind = "sum"} : (i1) -> i1
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{'"any"' does not satisfy the constraint}}
    %0 = "lane.scan"(%x) {kind = "any"} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{combine region must take two f32 arguments}}
    %0 = "lane.scan_with"(%x) ({
    ^bb0(%a: f32):
      gpu.yield %a : f32
    }) : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{combine region must have one block}}
    %0 = "lane.reduce_with"(%x) ({
    ^bb0(%a: f32, %b: f32):
      cf.br ^bb1(%a : f32)
    ^bb1(%c: f32):
      gpu.yield %c : f32
    }) : (f32) -> f32
    gpu.return
  }
}
