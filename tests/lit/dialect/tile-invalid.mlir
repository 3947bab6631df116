// RUN: phobos-opt %s --split-input-file --verify-diagnostics
// The tile dialect's verifier.

gpu.module @m {
  gpu.func @k(%x: memref<4096xf32>, %i: index) kernel {
    // expected-error @below {{takes the source, then a start and a size per dimension: 3 operands for rank 1, got 2}}
    %t = "tile.copy"(%x, %i) {shape = array<i64: 32>} : (memref<4096xf32>, index) -> memref<32xf32, 3>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: memref<4096xf32>, %i: index) kernel {
    // expected-error @below {{shape must list positive extents, got [0]}}
    %t = "tile.copy"(%x, %i, %i) {shape = array<i64: 0>} : (memref<4096xf32>, index, index) -> memref<0xf32, 3>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: memref<4096xf32>, %i: index) kernel {
    // expected-error @below {{the result's shape must be the tile's [32], got memref<16xf32, 3>}}
    %t = "tile.copy"(%x, %i, %i) {shape = array<i64: 32>} : (memref<4096xf32>, index, index) -> memref<16xf32, 3>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: memref<4096xf32>, %i: index) kernel {
    // expected-error @below {{the tile's element type f16 differs from the source's f32}}
    %t = "tile.copy"(%x, %i, %i) {shape = array<i64: 32>} : (memref<4096xf32>, index, index) -> memref<32xf16, 3>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: memref<4096xf32>, %i: index) kernel {
    // expected-error @below {{the tile must live in workgroup memory, got memref<32xf32>}}
    %t = "tile.copy"(%x, %i, %i) {shape = array<i64: 32>} : (memref<4096xf32>, index, index) -> memref<32xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: memref<64x64xf32>, %i: index) kernel {
    // expected-error @below {{the source must be a 1-D memref (the tensor's buffer), got memref<64x64xf32>}}
    %t = "tile.copy"(%x, %i, %i) {shape = array<i64: 32>} : (memref<64x64xf32>, index, index) -> memref<32xf32, 3>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: memref<4096xf32>, %i: index) kernel {
    // expected-error @below {{attribute "shape" is expected but not provided}}
    %t = "tile.copy"(%x, %i, %i) : (memref<4096xf32>, index, index) -> memref<32xf32, 3>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    // expected-error @below {{shape must list positive extents, got [0]}}
    %t = "tile.alloc"() {shape = array<i64: 0>} : () -> memref<0xf32, 3>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    // expected-error @below {{the buffer must be a workgroup memref of the shape [32], got memref<32xf32>}}
    %t = "tile.alloc"() {shape = array<i64: 32>} : () -> memref<32xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: memref<4096xf32>, %i: index) kernel {
    // expected-error @below {{shape must be an array<i64: ...>}}
    %t = "tile.copy"(%x, %i, %i) {shape = array<i8: 32>} : (memref<4096xf32>, index, index) -> memref<32xf32, 3>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    // expected-error @below {{shape must be an array<i64: ...>}}
    %t = "tile.alloc"() {shape = array<i8: 32>} : () -> memref<32xf32, 3>
    gpu.return
  }
}
