// wgmma.mma_async that a warpgroup's warps do not issue together (tests/lit/run/wgmma.test):
// only warp 0 runs it, each warp gives its own descriptor, each lane its own, a CTA of one warp
// (no warpgroup); and a type the simulator does not run.
gpu.module @m {
  memref.global "private" @tiles : memref<16384xi8, #gpu.address_space<workgroup>> {alignment = 1024 : i64}
  gpu.func @only_warp0(%out: memref<128xf32> {phobos.tensor = "out"}, %da: i64 {phobos.scalar = "da"}, %db: i64 {phobos.scalar = "db"}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %c32 = arith.constant 32 : index
    %first = arith.cmpi ult, %t, %c32 : index
    scf.if %first {
      %z = llvm.mlir.poison : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %z, #nvvm.shape<m = 64, n = 64, k = 16>, D[<f32>, <zero>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %v = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      memref.store %v, %out[%t] : memref<128xf32>
    }
    gpu.return
  }
  gpu.func @per_warp(%out: memref<128xf32> {phobos.tensor = "out"}, %da: i64 {phobos.scalar = "da"}, %db: i64 {phobos.scalar = "db"}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %c32 = arith.constant 32 : index
    %w = arith.divui %t, %c32 : index
    %wi = arith.index_cast %w : index to i64
    %c64 = arith.constant 64 : i64
    %skip = arith.muli %wi, %c64 : i64
    %dw = arith.addi %da, %skip : i64
    %z = llvm.mlir.poison : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    nvvm.wgmma.fence.aligned
    %r = nvvm.wgmma.mma_async %dw, %db, %z, #nvvm.shape<m = 64, n = 64, k = 16>, D[<f32>, <zero>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    %v = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    memref.store %v, %out[%t] : memref<128xf32>
    gpu.return
  }
  gpu.func @per_lane(%out: memref<128xf32> {phobos.tensor = "out"}, %da: i64 {phobos.scalar = "da"}, %db: i64 {phobos.scalar = "db"}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %ti = arith.index_cast %t : index to i64
    %dl = arith.addi %da, %ti : i64
    %z = llvm.mlir.poison : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %r = nvvm.wgmma.mma_async %dl, %db, %z, #nvvm.shape<m = 64, n = 64, k = 16>, D[<f32>, <zero>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    gpu.return
  }
  gpu.func @one_warp(%out: memref<128xf32> {phobos.tensor = "out"}, %da: i64 {phobos.scalar = "da"}, %db: i64 {phobos.scalar = "db"}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %z = llvm.mlir.poison : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %r = nvvm.wgmma.mma_async %da, %db, %z, #nvvm.shape<m = 64, n = 64, k = 16>, D[<f32>, <zero>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    gpu.return
  }
  gpu.func @tf32(%out: memref<128xf32> {phobos.tensor = "out"}, %da: i64 {phobos.scalar = "da"}, %db: i64 {phobos.scalar = "db"}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %z = llvm.mlir.poison : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %r = nvvm.wgmma.mma_async %da, %db, %z, #nvvm.shape<m = 64, n = 64, k = 8>, D[<f32>, <zero>, <wrapped>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    gpu.return
  }
}
