// The `tile` dialect: CTA-cooperative copies of tensor tiles into shared memory (staged once,
// then read by the lanes). The Rust verifier (src/tile.rs) checks what IRDL cannot say:
// the shape (positive extents), the operand count (a start and a size per dimension), and that
// the result is a static workgroup memref of the shape and the source's element type.
irdl.dialect @tile {
  // %xs = "tile.copy"(%x, %start0, %start1, %dim0, %dim1) {shape = array<i64: 1, 256>}
  //   : (memref<1099511627776xf32>, index, index, index, index) -> memref<1x256xf32, #gpu.address_space<workgroup>>
  // Copies x[start0 :+ 1, start1 :+ 256] of the row-major tensor of sizes (dim0, dim1) held in the
  // 1-D memref. Elements outside the tensor are not read; they are zero in the tile, or the fill
  // value when an index follows the sizes: the fill's bits, zero-extended (a float's through the
  // integer of its width; the same in every thread). An index, as IRDL's one variadic group of
  // operands has one type.
  //   "tile.copy"(%x, %start0, %start1, %dim0, %dim1, %fill_bits) {shape = array<i64: 1, 256>}
  // `swizzle = array<i64: B, M, S>` (set by tile-swizzle on a 2-D tile only tensor cores read)
  // stores element (i, j) at the offset Swizzle<B, M, S>(i * cols + j). `tma = SPAN : i64` (set by
  // tile-tma on sm_90a) makes the copy one TMA copy (cp.async.bulk.tensor) of the whole tile,
  // stored under TMA's SPAN-byte swizzle (0: row-major), 1024-byte aligned.
  irdl.operation @copy {
    %src = irdl.base "!builtin.memref"
    %idx = irdl.is index
    %dst = irdl.base "!builtin.memref"
    %shape = irdl.base "#builtin.dense_array"
    irdl.operands(source: %src, indices: variadic %idx)
    irdl.results(tile: %dst)
    irdl.attributes { "shape" = %shape }
  }

  // %buf = "tile.alloc"() {name = "buf", shape = array<i64: 8, 64>} : () -> memref<8x64xf32, #gpu.address_space<workgroup>>
  // A buffer in shared memory, one per CTA, that the kernel's threads write and read. Its
  // contents are undefined at the start. Placed by tile-plan-shared-memory like a tile;
  // `phobos.exclusive` (set by the exchange lowering for warp-synchronised staging) keeps its
  // bytes out of any other buffer's, since only a CTA barrier orders accesses across warps.
  irdl.operation @alloc {
    %dst = irdl.base "!builtin.memref"
    %shape = irdl.base "#builtin.dense_array"
    irdl.results(buffer: %dst)
    irdl.attributes { "shape" = %shape }
  }

  // %d = "tile.dot"(%as, %bs, %c) {warps = array<i64: 4, 2>}
  //   : (memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, vector<64xf32>) -> vector<64xf32>
  // D = A B + C on tensor cores, over the CTA: A (M x K) and B (K x N) are row-major shared
  // tiles of f16 or bf16 (both the same); C and D are the M x N f32 accumulator held in
  // registers, `vector<items x f32>` per thread, in the thread/value layout of the warp tiling
  // `warps` = [warps along M, warps along N] (phobos-layout's MmaTiling: m16n8 instructions,
  // warp w at (w % warps_m, w / warps_m)). Every thread of the CTA takes part. `swizzle_a`/`swizzle_b`,
  // when present (array<i64: B, M, S>), say A/B is stored under that swizzle of its row-major
  // element offsets (set by tile-swizzle, with the copy's `swizzle`). `transpose_b` (a unit
  // attribute): B is given as an N x K tile and the product is A Bᵀ.
  irdl.operation @dot {
    // One constraint per operand: IRDL makes operands that share one the same type. A is a
    // tile, or a fragment in registers (`a_shape = array<i64: M, K>`: f16/bf16 in the
    // accumulator layout of the M x K product on `warps_m x 1` warps).
    %tam = irdl.base "!builtin.memref"
    %tav = irdl.base "!builtin.vector"
    %ta = irdl.any_of(%tam, %tav)
    %tb = irdl.base "!builtin.memref"
    %acc = irdl.base "!builtin.vector"
    %res = irdl.base "!builtin.vector"
    %warps = irdl.base "#builtin.dense_array"
    irdl.operands(a: %ta, b: %tb, c: %acc)
    irdl.results(d: %res)
    irdl.attributes { "warps" = %warps }
  }
}
