gpu.module @kernels {
  gpu.func @sum32(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32
    %r8 = "lane.reduce"(%r) {kind = "max", width = 8 : i32} : (f32) -> f32
    memref.store %r8, %x[%t] : memref<1024xf32>
    gpu.return
  }
}
