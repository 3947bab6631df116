gpu.module @m {
  gpu.func @k(%a: memref<16xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    gpu.return
  }
}
