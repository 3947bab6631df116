// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(convert-tile-to-gpu))'

gpu.module @m {
  gpu.func @k(%x: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %n = arith.constant 4096 : index
    // expected-error @below {{has no planned offset; run tile-plan-shared-memory first}}
    %t = "tile.copy"(%x, %c0, %n) {shape = array<i64: 32>} : (memref<4096xf32>, index, index) -> memref<32xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: memref<4096xf32>) kernel {
    %c0 = arith.constant 0 : index
    %n = arith.constant 4096 : index
    // expected-error @below {{a tile copy needs a known block size (known_block_size on the gpu.func)}}
    %t = "tile.copy"(%x, %c0, %n) {offset = 0 : i64, shape = array<i64: 32>} : (memref<4096xf32>, index, index) -> memref<32xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A copy marked for TMA (tile-tma) whose source is no kernel parameter.
gpu.module @m {
  gpu.func @local(%n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %buf = memref.alloca() : memref<4096xf16>
    // expected-error @+1 {{tma = 0 but TMA cannot make the copy: its source is no tensor parameter of the kernel}}
    %as = "tile.copy"(%buf, %c0, %c0, %n, %n) {name = "as", offset = 0 : i64, shape = array<i64: 64, 64>, tma = 0 : i64} : (memref<4096xf16>, index, index, index, index) -> memref<64x64xf16, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A TMA mark whose span is not the tile's layout (row-major here, marked as the 128-byte swizzle).
gpu.module @m {
  gpu.func @span(%a: memref<1099511627776xf16> {llvm.align = 16 : i64, phobos.tensor = "A", phobos.dims = ["M", "64"]}, %m: i64 {phobos.dim = "M"}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %mi = arith.index_cast %m : i64 to index
    // expected-error @+1 {{tma = 128 but the tile's layout is TMA's 0-byte swizzle}}
    %as = "tile.copy"(%a, %c0, %c0, %mi, %c64) {name = "as", offset = 0 : i64, shape = array<i64: 64, 64>, tma = 128 : i64} : (memref<1099511627776xf16>, index, index, index, index) -> memref<64x64xf16, #gpu.address_space<workgroup>>
    gpu.return
  }
}
