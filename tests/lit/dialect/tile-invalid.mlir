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

// -----

// tile.dot's verifier.
gpu.module @m {
  gpu.func @k(%a: memref<16x16xf16, 3>, %b: memref<16x8xf16, 3>, %c: vector<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{warps must be array<i64: warps along M, warps along N>}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1>} : (memref<16x16xf16, 3>, memref<16x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<16x16xf16>, %b: memref<16x8xf16, 3>, %c: vector<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{A must be a static 2-D tile in workgroup memory, got memref<16x16xf16>}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x16xf16>, memref<16x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<16x16xf16, 3>, %b: memref<16x8xbf16, 3>, %c: vector<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{A and B must have one element type of f16, bf16, f32 (as tf32) or i8, got f16 and bf16}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x16xf16, 3>, memref<16x8xbf16, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<16x16xf16, 3>, %b: memref<32x8xf16, 3>, %c: vector<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{A is 16 x 16 and B is 32 x 8: A's columns must be B's rows}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x16xf16, 3>, memref<32x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<16x8xf16, 3>, %b: memref<8x8xf16, 3>, %c: vector<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{K = 8 must be a multiple of 16 (the instruction's K for f16)}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x8xf16, 3>, memref<8x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<16x16xf16, 3>, %b: memref<16x8xf16, 3>, %c: vector<4xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @below {{1 x 1 warps do not make the CTA's 2 warps}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x16xf16, 3>, memref<16x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<16x16xf16, 3>, %b: memref<16x8xf16, 3>, %c: vector<4xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @below {{a 16 x 8 accumulator over 2 x 1 warps needs rows a multiple of 32 and columns a multiple of 8}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 2, 1>} : (memref<16x16xf16, 3>, memref<16x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<16x16xf16, 3>, %b: memref<16x8xf16, 3>, %c: vector<8xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{the accumulator of a 16 x 8 product over 32 threads is vector<4xf32> or vector<4xf16> per thread, got vector<8xf32>}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x16xf16, 3>, memref<16x8xf16, 3>, vector<8xf32>) -> vector<8xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<16x16xf16, 3>, %b: memref<16x8xf16, 3>, %c: vector<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{the result must have the accumulator's type vector<4xf32>, got vector<4xf16>}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x16xf16, 3>, memref<16x8xf16, 3>, vector<4xf32>) -> vector<4xf16>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<16x8xi8, 3>, %b: memref<8x8xi8, 3>, %c: vector<4xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{K = 8 must be a multiple of 32 (the instruction's K for s8)}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x8xi8, 3>, memref<8x8xi8, 3>, vector<4xi32>) -> vector<4xi32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<16x32xi8, 3>, %b: memref<32x8xi8, 3>, %c: vector<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{the accumulator of a 16 x 8 product over 32 threads is vector<4xi32> per thread, got vector<4xf32>}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x32xi8, 3>, memref<32x8xi8, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<16x16xf16, 3>, %b: memref<16x8xf16, 3>, %c: vector<4xf32>) kernel {
    // expected-error @below {{warps must be 1 to 32 along each of M and N, got 4611686018427387904 x 4}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 4611686018427387904, 4>} : (memref<16x16xf16, 3>, memref<16x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<16x1073741824xf16, 3>, %b: memref<1073741824x8xf16, 3>, %c: vector<4xf32>) kernel {
    // expected-error @below {{A (memref<16x1073741824xf16, 3>) holds more elements than any chip's shared memory has bytes (232448)}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x1073741824xf16, 3>, memref<1073741824x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<16x16xf16, strided<[32, 1], offset: 16>, 3>, %b: memref<16x8xf16, 3>, %c: vector<4xf32>) kernel {
    // expected-error @below {{A must be a row-major tile (no layout), got memref<16x16xf16, strided<[32, 1], offset: 16>, 3>}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x16xf16, strided<[32, 1], offset: 16>, 3>, memref<16x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: memref<4096xf16>, %i: index) kernel {
    // expected-error @below {{swizzle must be array<i64: B, M, S> with B and M 0 to 8, S from B to 16, got array<i64: 1, 2, -3>}}
    %t = "tile.copy"(%x, %i, %i, %i, %i) {shape = array<i64: 16, 16>, swizzle = array<i64: 1, 2, -3>} : (memref<4096xf16>, index, index, index, index) -> memref<16x16xf16, 3>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: memref<4096xf16>, %i: index) kernel {
    // expected-error @below {{swizzle must be array<i64: B, M, S> that permutes within the 256 elements of the tile (blocks of 2^(B + M + S)), got array<i64: 3, 3, 3>}}
    %t = "tile.copy"(%x, %i, %i, %i, %i) {shape = array<i64: 16, 16>, swizzle = array<i64: 3, 3, 3>} : (memref<4096xf16>, index, index, index, index) -> memref<16x16xf16, 3>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: memref<4096xf16>, %b: memref<16x8xf16, 3>, %c: vector<4xf32>, %i: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = "tile.copy"(%x, %i, %i, %i, %i) {shape = array<i64: 16, 16>, swizzle = array<i64: 1, 2, 3>} : (memref<4096xf16>, index, index, index, index) -> memref<16x16xf16, 3>
    // expected-error @below {{swizzle_a must be the swizzle its tile is stored under ([1, 2, 3]), got none}}
    %d = "tile.dot"(%t, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x16xf16, 3>, memref<16x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<16x16xf16, 3>, %b: memref<8x32xf16, 3>, %c: vector<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{A is 16 x 16 and B (transposed) is 8 x 32: A's columns must be B's columns}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>, transpose_b} : (memref<16x16xf16, 3>, memref<8x32xf16, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: vector<8xf16>, %b: memref<16x8xf16, 3>, %c: vector<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{A in registers needs a_shape = array<i64: M, K>}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (vector<8xf16>, memref<16x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: vector<4xf16>, %b: memref<16x8xf16, 3>, %c: vector<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{A in registers, 16 x 16 over 32 threads, is vector<8xf16> per thread, got vector<4xf16>}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>, a_shape = array<i64: 16, 16>} : (vector<4xf16>, memref<16x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: vector<8xf32>, %b: memref<16x8xf32, 3>, %c: vector<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-error @below {{A in registers must hold f16 or bf16 (the A fragment of m16n8k16), got vector<8xf32>}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>, a_shape = array<i64: 16, 16>} : (vector<8xf32>, memref<16x8xf32, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: vector<4xf16>, %b: memref<16x16xf16, 3>, %c: vector<4xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @below {{A in registers needs the warp grid 1 x 1 (each warp's rows of A whole), got 1 x 2}}
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 2>, a_shape = array<i64: 16, 16>} : (vector<4xf16>, memref<16x16xf16, 3>, vector<4xf32>) -> vector<4xf32>
    gpu.return
  }
}
