// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(convert-tile-to-gpu{disable-patterns=tile.copy}))'
// Legality: a tile op the conversion leaves behind is an error at the op, naming the pass.

gpu.module @m {
  gpu.func @k(%x: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    // expected-error @below {{'tile.copy' op was not lowered by convert-tile-to-gpu: failed to legalize this operation}}
    %t = "tile.copy"(%x, %c64, %c64, %c0, %c0) {shape = array<i64: 8, 64>, offset = 0 : i64, name = "t"} : (memref<4096xf32>, index, index, index, index) -> memref<8x64xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
