// RUN: phobos-opt %s --split-input-file --verify-diagnostics
// A kernel's launch interface, checked after parsing (MLIR leaves these to the backend, where
// they are an abort in LLVM, PTX that ptxas rejects, or a failed launch).

gpu.module @m {
  // expected-error @below {{known_block_size must be three sizes x, y, z with 1 <= x, y <= 1024, 1 <= z <= 64 and at most 1024 threads in all; got array<i32: 0, 1, 1>}}
  gpu.func @k() kernel attributes {known_block_size = array<i32: 0, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{got array<i32: -32, 1, 1>}}
  gpu.func @k() kernel attributes {known_block_size = array<i32: -32, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{got array<i32: 2048, 1, 1>}}
  gpu.func @k() kernel attributes {known_block_size = array<i32: 2048, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{got array<i32: 64, 32, 1>}}
  gpu.func @k() kernel attributes {known_block_size = array<i32: 64, 32, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{got array<i32: 1, 1, 128>}}
  gpu.func @k() kernel attributes {known_block_size = array<i32: 1, 1, 128>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{kernel argument 1 has type i0: integers in a kernel's parameters have 1, 8, 16, 32 or 64 bits}}
  gpu.func @k(%a: memref<16xf32>, %n: i0) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{kernel argument 0 has type memref<4xi3>: integers in a kernel's parameters have 1, 8, 16, 32 or 64 bits}}
  gpu.func @k(%a: memref<4xi3>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{kernel argument 0: phobos.tensor = "../../escaped" is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*)}}
  gpu.func @k(%a: memref<16xf32> {phobos.tensor = "../../escaped"}) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{kernel argument 0: phobos.tensor = "/tmp/x" is not a plain identifier}}
  gpu.func @k(%a: memref<16xf32> {phobos.tensor = "/tmp/x"}) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{kernel argument 1: phobos.dim = 3 : i64 is not a plain identifier}}
  gpu.func @k(%a: memref<16xf32> {phobos.tensor = "A"}, %n: i32 {phobos.dim = 3}) kernel {
    gpu.return
  }
}

// -----

// Two parameters of one name: `phobos run` would bind both from one --arg and write one file.
gpu.module @m {
  // expected-error @below {{kernel arguments 0 and 1 are both named 'W': each parameter needs a name of its own}}
  gpu.func @k(%a: memref<16xf32> {phobos.tensor = "W"}, %b: memref<16xf32> {phobos.tensor = "W"}) kernel {
    gpu.return
  }
}

// -----

// A tensor and a dimension share one namespace; an unnamed parameter i is `argI`.
gpu.module @m {
  // expected-error @below {{kernel arguments 0 and 1 are both named 'N'}}
  gpu.func @k(%a: memref<16xf32> {phobos.tensor = "N"}, %n: i32 {phobos.dim = "N"}) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{kernel arguments 0 and 1 are both named 'arg1'}}
  gpu.func @k(%a: memref<16xf32> {phobos.tensor = "arg1"}, %b: memref<16xf32>) kernel {
    gpu.return
  }
}

// -----

// A valid interface: nothing to report.
gpu.module @m {
  gpu.func @k(%a: memref<16xf32> {phobos.tensor = "A_1"}, %n: i32 {phobos.dim = "_n"}) kernel attributes {known_block_size = array<i32: 32, 4, 8>} {
    gpu.return
  }
}
