// RUN: phobos-opt %s --split-input-file --verify-diagnostics=only-expected --pass-pipeline='builtin.module(gpu.module(tile-plan-shared-memory,tile-pipeline))'
// tile-pipeline checks a copy's TMA mark as convert-tile-to-gpu does: a mark TMA cannot honour
// is an error at the copy, not a wrong transaction count on a GPU.

gpu.module @m {
  gpu.func @unmakeable(%x: memref<4096xf16>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %n step %c64 {
      // expected-error @+1 {{tma = 0 but TMA cannot make the copy: its tensor is not 16-byte aligned (a strided view)}}
      %t = "tile.copy"(%x, %i, %c0, %n, %c64) {name = "t", shape = array<i64: 64, 64>, tma = 0 : i64} : (memref<4096xf16>, index, index, index, index) -> memref<64x64xf16, #gpu.address_space<workgroup>>
      %v = memref.load %t[%c0, %c0] : memref<64x64xf16, #gpu.address_space<workgroup>>
    } {phobos.pipeline = 3 : i64}
    gpu.return
  }
}
