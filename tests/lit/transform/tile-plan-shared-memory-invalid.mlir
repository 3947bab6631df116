// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(tile-plan-shared-memory{chip=sm_80}))'
// Overflowing the chip's shared memory is a compile error naming every buffer and its bytes.

gpu.module @m {
  memref.global "private" @scratch : memref<32xf32, #gpu.address_space<workgroup>> = uninitialized {alignment = 16 : i64} // expected-note {{@scratch: 128 bytes (static)}}
  // expected-error @below {{needs 180352 bytes of shared memory (128 static, 180224 dynamic), more than sm_80 allows (49152 static, 166912 in all)}}
  gpu.func @big(%x: memref<1000000xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %n = arith.constant 1000000 : index
    %a = "tile.copy"(%x, %c0, %n) {name = "a", shape = array<i64: 40960>} : (memref<1000000xf32>, index, index) -> memref<40960xf32, #gpu.address_space<workgroup>> // expected-note {{tile 'a': 163840 bytes}} expected-remark {{shared 'a': offset 0, 163840 bytes (40960 of f32)}}
    %b = "tile.copy"(%x, %c0, %n) {name = "b", shape = array<i64: 4096>} : (memref<1000000xf32>, index, index) -> memref<4096xf32, #gpu.address_space<workgroup>> // expected-note {{tile 'b': 16384 bytes}} expected-remark {{shared 'b': offset 163840, 16384 bytes (4096 of f32)}}
    %va = memref.load %a[%c0] : memref<40960xf32, #gpu.address_space<workgroup>>
    %vb = memref.load %b[%c0] : memref<4096xf32, #gpu.address_space<workgroup>>
    %s = arith.addf %va, %vb : f32
    memref.store %s, %x[%c0] : memref<1000000xf32>
    gpu.return
  }
}
