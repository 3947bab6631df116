// wgmma.mma_async from hand-written descriptors (tests/lit/run/wgmma.test): a zero 64 x 64
// product of shared memory nobody wrote, for the simulator's checks of descriptors and waits.
gpu.module @m {
  memref.global "private" @tiles : memref<16384xi8, #gpu.address_space<workgroup>> {alignment = 1024 : i64}
  gpu.func @k(%out: memref<128xf32> {phobos.tensor = "out"}, %da: i64 {phobos.scalar = "da"}, %db: i64 {phobos.scalar = "db"}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %z = llvm.mlir.poison : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    nvvm.wgmma.fence.aligned
    %r = nvvm.wgmma.mma_async %da, %db, %z, #nvvm.shape<m = 64, n = 64, k = 16>, D[<f32>, <zero>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    %v = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %t = gpu.thread_id x
    memref.store %v, %out[%t] : memref<128xf32>
    gpu.return
  }
}
