// ldmatrix.mlir with two warps: warp 0 stages the tile, both read it with ldmatrix, then warp 1
// writes its first element with no barrier after the reads: a race (write after a read) that
// tests/lit/run/ldmatrix.test expects the simulator to report.
gpu.module @m {
  memref.global "private" @tile : memref<256xf16, 3> {alignment = 16 : i64}
  gpu.func @ldm(%X: memref<256xf16> {phobos.tensor = "X"}, %O: memref<128xi32> {phobos.tensor = "O"}) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %lane = gpu.lane_id
    %s = memref.get_global @tile : memref<256xf16, 3>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %first = arith.muli %lane, %c8 : index
    %tid = gpu.thread_id x
    %c32 = arith.constant 32 : index
    %warp0 = arith.cmpi ult, %tid, %c32 : index
    scf.if %warp0 {
    scf.for %e = %c0 to %c8 step %c1 {
      %i = arith.addi %first, %e : index
      %v = memref.load %X[%i] : memref<256xf16>
      memref.store %v, %s[%i] : memref<256xf16, 3>
    }
    }
    gpu.barrier
    // Lane l gives row r = l % 8 of matrix m = l / 8: tile row (m % 2) * 8 + r, column (m / 2) * 8.
    %m = arith.divui %lane, %c8 : index
    %r = arith.remui %lane, %c8 : index
    %mlo = arith.remui %m, %c2 : index
    %mhi = arith.divui %m, %c2 : index
    %r8 = arith.muli %mlo, %c8 : index
    %row = arith.addi %r8, %r : index
    %rowe = arith.muli %row, %c16 : index
    %cole = arith.muli %mhi, %c8 : index
    %elem = arith.addi %rowe, %cole : index
    %byte = arith.muli %elem, %c2 : index
    %base = memref.extract_aligned_pointer_as_index %s : memref<256xf16, 3> -> index
    %base64 = arith.index_cast %base : index to i64
    %byte64 = arith.index_cast %byte : index to i64
    %p0 = llvm.inttoptr %base64 : i64 to !llvm.ptr<3>
    %p = llvm.getelementptr %p0[%byte64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    %frag = nvvm.ldmatrix %p {num = 4 : i32, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
    %warp1 = arith.cmpi uge, %tid, %c32 : index
    scf.if %warp1 {
      %zero = arith.constant 0.0 : f16
      memref.store %zero, %s[%c0] : memref<256xf16, 3>
    }
    %out = arith.muli %lane, %c4 : index
    %f0 = llvm.extractvalue %frag[0] : !llvm.struct<(i32, i32, i32, i32)>
    %f1 = llvm.extractvalue %frag[1] : !llvm.struct<(i32, i32, i32, i32)>
    %f2 = llvm.extractvalue %frag[2] : !llvm.struct<(i32, i32, i32, i32)>
    %f3 = llvm.extractvalue %frag[3] : !llvm.struct<(i32, i32, i32, i32)>
    %o1 = arith.addi %out, %c1 : index
    %o2 = arith.addi %out, %c2 : index
    %c3 = arith.constant 3 : index
    %o3 = arith.addi %out, %c3 : index
    memref.store %f0, %O[%out] : memref<128xi32>
    memref.store %f1, %O[%o1] : memref<128xi32>
    memref.store %f2, %O[%o2] : memref<128xi32>
    memref.store %f3, %O[%o3] : memref<128xi32>
    gpu.return
  }
}
