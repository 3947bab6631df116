module {
  gpu.module @m {
    gpu.func @k(%a: i0) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
