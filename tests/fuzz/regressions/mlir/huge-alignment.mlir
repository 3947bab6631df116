gpu.module @m {
  memref.global "private" @s : memref<1xf32, #gpu.address_space<workgroup>> = uninitialized {alignment = 4294967296 : i64}
  gpu.func @k() kernel attributes {known_block_size = array<i32: 32, 1, 1>} { gpu.return }
}
