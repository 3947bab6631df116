// The inner step of a tensor-core GEMM, as the lowering will emit it: one warp stages A (16x16
// f16, row-major) and B (16x8 f16, row-major: k rows of n) in shared memory; ldmatrix.x4 reads
// A's fragment (its quadrants in the order a0..a3), ldmatrix.x2.trans reads B's (k rows 0-7, then
// 8-15), and mma.sync m16n8k16 computes D = A B, stored row-major (tests/lit/run/ldmatrix.test).
gpu.module @m {
  memref.global "private" @sa : memref<256xf16, 3> {alignment = 16 : i64}
  memref.global "private" @sb : memref<128xf16, 3> {alignment = 16 : i64}
  gpu.func @gemm_step(%A: memref<256xf16> {phobos.tensor = "A"}, %B: memref<128xf16> {phobos.tensor = "B"}, %D: memref<128xf32> {phobos.tensor = "D"}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %lane = gpu.lane_id
    %sa = memref.get_global @sa : memref<256xf16, 3>
    %sb = memref.get_global @sb : memref<128xf16, 3>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %fa = arith.muli %lane, %c8 : index
    %fb = arith.muli %lane, %c4 : index
    scf.for %e = %c0 to %c8 step %c1 {
      %i = arith.addi %fa, %e : index
      %v = memref.load %A[%i] : memref<256xf16>
      memref.store %v, %sa[%i] : memref<256xf16, 3>
    }
    scf.for %e = %c0 to %c4 step %c1 {
      %i = arith.addi %fb, %e : index
      %v = memref.load %B[%i] : memref<128xf16>
      memref.store %v, %sb[%i] : memref<128xf16, 3>
    }
    gpu.barrier
    // A: lane l gives row r = l % 8 of quadrant m = l / 8 (rows (m % 2) * 8 + r, columns (m / 2) * 8).
    %m = arith.divui %lane, %c8 : index
    %r = arith.remui %lane, %c8 : index
    %mlo = arith.remui %m, %c2 : index
    %mhi = arith.divui %m, %c2 : index
    %r8 = arith.muli %mlo, %c8 : index
    %row = arith.addi %r8, %r : index
    %rowe = arith.muli %row, %c16 : index
    %cole = arith.muli %mhi, %c8 : index
    %ea = arith.addi %rowe, %cole : index
    %ba = arith.muli %ea, %c2 : index
    %pa0 = memref.extract_aligned_pointer_as_index %sa : memref<256xf16, 3> -> index
    %pa1 = arith.index_cast %pa0 : index to i64
    %pa2 = llvm.inttoptr %pa1 : i64 to !llvm.ptr<3>
    %ba64 = arith.index_cast %ba : index to i64
    %pa = llvm.getelementptr %pa2[%ba64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    %fra = nvvm.ldmatrix %pa {num = 4 : i32, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
    // B: lanes 0-15 give k rows 0-15 (16 bytes each); x2.trans gives each lane b(2t, g), b(2t+1, g), ...
    %k = arith.remui %lane, %c16 : index
    %bb = arith.muli %k, %c16 : index
    %pb0 = memref.extract_aligned_pointer_as_index %sb : memref<128xf16, 3> -> index
    %pb1 = arith.index_cast %pb0 : index to i64
    %pb2 = llvm.inttoptr %pb1 : i64 to !llvm.ptr<3>
    %bb64 = arith.index_cast %bb : index to i64
    %pb = llvm.getelementptr %pb2[%bb64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    %frb = nvvm.ldmatrix %pb {num = 2 : i32, layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
    %a0i = llvm.extractvalue %fra[0] : !llvm.struct<(i32, i32, i32, i32)>
    %a1i = llvm.extractvalue %fra[1] : !llvm.struct<(i32, i32, i32, i32)>
    %a2i = llvm.extractvalue %fra[2] : !llvm.struct<(i32, i32, i32, i32)>
    %a3i = llvm.extractvalue %fra[3] : !llvm.struct<(i32, i32, i32, i32)>
    %b0i = llvm.extractvalue %frb[0] : !llvm.struct<(i32, i32)>
    %b1i = llvm.extractvalue %frb[1] : !llvm.struct<(i32, i32)>
    %a0 = llvm.bitcast %a0i : i32 to vector<2xf16>
    %a1 = llvm.bitcast %a1i : i32 to vector<2xf16>
    %a2 = llvm.bitcast %a2i : i32 to vector<2xf16>
    %a3 = llvm.bitcast %a3i : i32 to vector<2xf16>
    %b0 = llvm.bitcast %b0i : i32 to vector<2xf16>
    %b1 = llvm.bitcast %b1i : i32 to vector<2xf16>
    %z = arith.constant 0.0 : f32
    %d = nvvm.mma.sync A[%a0, %a1, %a2, %a3] B[%b0, %b1] C[%z, %z, %z, %z]
      {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
      : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    // D(g, 2t + {0,1}), D(g + 8, 2t + {0,1}).
    %g = arith.divui %lane, %c4 : index
    %t = arith.remui %lane, %c4 : index
    %t2 = arith.muli %t, %c2 : index
    %g8 = arith.addi %g, %c8 : index
    %s0 = arith.muli %g, %c8 : index
    %s8 = arith.muli %g8, %c8 : index
    %o0 = arith.addi %s0, %t2 : index
    %o1 = arith.addi %o0, %c1 : index
    %o2 = arith.addi %s8, %t2 : index
    %o3 = arith.addi %o2, %c1 : index
    %d0 = llvm.extractvalue %d[0] : !llvm.struct<(f32, f32, f32, f32)>
    %d1 = llvm.extractvalue %d[1] : !llvm.struct<(f32, f32, f32, f32)>
    %d2 = llvm.extractvalue %d[2] : !llvm.struct<(f32, f32, f32, f32)>
    %d3 = llvm.extractvalue %d[3] : !llvm.struct<(f32, f32, f32, f32)>
    memref.store %d0, %D[%o0] : memref<128xf32>
    memref.store %d1, %D[%o1] : memref<128xf32>
    memref.store %d2, %D[%o2] : memref<128xf32>
    memref.store %d3, %D[%o3] : memref<128xf32>
    gpu.return
  }
}
