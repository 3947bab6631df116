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

// -----
// Redistributions (cta.exchange, cta.scatter, cta.gather).

gpu.module @m {
  gpu.func @k(%v: f32) kernel {
    // expected-error @below {{expected base type 'builtin.vector' but got 'builtin.f32'}}
    %0 = "cta.exchange"(%v) {from = "blocked(32,1)", to = "striped(32,1)"} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: vector<4xf32>) kernel {
    // expected-error @below {{expected base attribute 'builtin.string' but got 'builtin.integer'}}
    %0 = "cta.exchange"(%v) {from = "blocked(32,4)", to = 3 : i32} : (vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: vector<4xf32>) kernel {
    // expected-error @below {{to: layout "(32,4):(1,1)" is not a bijection onto [0, 128)}}
    %0 = "cta.exchange"(%v) {from = "blocked(32,4)", to = "(32,4):(1,1)"} : (vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: vector<4xf32>) kernel {
    // expected-error @below {{to: layout "(4,32):(32,1)" has shape (4,32); a thread/value layout of 32 threads with 4 items each has shape (32, 4)}}
    %0 = "cta.exchange"(%v) {from = "blocked(32,4)", to = "(4,32):(32,1)"} : (vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: vector<4xf32>) kernel {
    // expected-error @below {{the layouts disagree on the thread count: 32 and 64}}
    %0 = "cta.exchange"(%v) {from = "blocked(32,4)", to = "striped(64,4)"} : (vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: vector<4xf32>) kernel {
    // expected-error @below {{from: layout "blocked(32,4": }}
    %0 = "cta.exchange"(%v) {from = "blocked(32,4", to = "striped(32,4)"} : (vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: vector<4xf32>) kernel {
    // expected-error @below {{from: layout "(3,5):(5,1)" has 15 positions, not a multiple of 4 items}}
    %0 = "cta.exchange"(%v) {from = "(3,5):(5,1)", to = "striped(32,4)"} : (vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: vector<4xf32>) kernel {
    // expected-error @below {{expected 'vector<4xf32>' but got 'vector<4xi32>'}}
    %0 = "cta.exchange"(%v) {from = "blocked(32,4)", to = "striped(32,4)"} : (vector<4xf32>) -> vector<4xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: vector<4xf32>, %r: vector<4xi64>) kernel {
    // expected-error @below {{ranks must be a vector<4xi32> (one rank per item), got vector<4xi64>}}
    %0 = "cta.scatter"(%v, %r) {to = "blocked(32,4)"} : (vector<4xf32>, vector<4xi64>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: vector<4xf32>, %r: vector<2xi32>) kernel {
    // expected-error @below {{ranks must be a vector<4xi32> (one rank per item), got vector<2xi32>}}
    %0 = "cta.gather"(%v, %r) {from = "blocked(32,4)"} : (vector<4xf32>, vector<2xi32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

// Layouts travel with values: an exchange reads its operand under `from`, which must be the
// layout the operand was made in (through item writes), whatever its spelling.
gpu.module @m {
  gpu.func @k(%v: vector<4xf32>, %c: f32) kernel {
    // expected-note @below {{made in "striped(32,4)" here}}
    %a = "cta.exchange"(%v) {from = "blocked(32,4)", to = "striped(32,4)"} : (vector<4xf32>) -> vector<4xf32>
    %b = vector.insert %c, %a[0] : f32 into vector<4xf32>
    // expected-error @below {{reads its operand in layout "blocked(32,4)", but the operand holds its items in layout "striped(32,4)"}}
    %d = "cta.exchange"(%b) {from = "blocked(32,4)", to = "striped(32,4)"} : (vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

// The same layout spelled another way, or an operand of unknown layout (an argument): no error.
gpu.module @m {
  gpu.func @k(%v: vector<4xf32>, %r: vector<4xi32>) kernel {
    %a = "cta.exchange"(%v) {from = "blocked(32,4)", to = "striped(32,4)"} : (vector<4xf32>) -> vector<4xf32>
    %b = "cta.gather"(%a, %r) {from = "(32,4):(1,32)"} : (vector<4xf32>, vector<4xi32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: vector<2x2xf32>) kernel {
    // expected-error @below {{moves a 1-D vector (n items per thread), got vector<2x2xf32>}}
    %0 = "cta.exchange"(%v) {from = "blocked(32,4)", to = "striped(32,4)"} : (vector<2x2xf32>) -> vector<2x2xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: vector<4xf32>) kernel {
    // expected-error @below {{from: layout "blocked(32,3)" has shape (32,3); a thread/value layout of 24 threads with 4 items each has shape (24, 4) (threads, then items)}}
    %0 = "cta.exchange"(%v) {from = "blocked(32,3)", to = "blocked(32,3)"} : (vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}
