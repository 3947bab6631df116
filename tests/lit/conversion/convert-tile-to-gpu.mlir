// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-tile-to-gpu{async=false}))' | FileCheck %s
// The copies through registers (before sm_80, or with async=false); cp.async: convert-tile-to-gpu-async.mlir.

// A tile inside a tensor of constant sizes: 16-byte chunks (4 f32), thread t copies chunks
// t, t + 128, ...; no edge code; one barrier after the copy.
// CHECK-LABEL: gpu.module @m
// CHECK: memref.global @__phobos_dynamic_smem : memref<0xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-LABEL: gpu.func @staged
// CHECK: %[[OFF:c0_[0-9]+]] = arith.constant 0 : index
// CHECK: %[[BASE:.*]] = memref.get_global @__phobos_dynamic_smem
// CHECK: %[[VIEW:.*]] = memref.view %[[BASE]][%[[OFF]]][] {phobos.name = "xs"} : memref<0xi8, #gpu.address_space<workgroup>> to memref<1x256xf32, #gpu.address_space<workgroup>>
// CHECK: %[[TID:.*]] = gpu.thread_id  x
// CHECK: %[[CHUNKS:.*]] = arith.constant 64 : index
// CHECK: %[[T:.*]] = arith.constant 128 : index
// CHECK: scf.for %{{.*}} = %[[TID]] to %[[CHUNKS]] step %[[T]] {
// CHECK: %[[V:.*]] = vector.load %{{.*}} : memref<4096xf32>, vector<4xf32>
// CHECK: vector.store %[[V]], %[[VIEW]]
// CHECK-NOT: scf.if
// CHECK: gpu.barrier {phobos.barrier = "kept: threads read the tile xs that other threads copied"}
// CHECK-NOT: tile.copy
gpu.module @m {
  gpu.func @staged(%x: memref<4096xf32>, %y: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %xs = "tile.copy"(%x, %c0, %c0, %c1, %c256) {name = "xs", offset = 0 : i64, shape = array<i64: 1, 256>} : (memref<4096xf32>, index, index, index, index) -> memref<1x256xf32, #gpu.address_space<workgroup>>
    %v = memref.load %xs[%c0, %c0] : memref<1x256xf32, #gpu.address_space<workgroup>>
    memref.store %v, %y[%c0] : memref<4096xf32>
    gpu.return
  }
}

// -----

// A tensor of sizes known only at launch: the chunk is checked against the edge, and at the
// edge each element is read only when inside (zero otherwise). An unproven start gives 1-wide
// chunks. The element's test is marked phobos.masked (lanes that fail it hold a masked
// element); the chunk's test is not.
// CHECK-LABEL: gpu.func @edge
// CHECK: scf.for
// CHECK: %[[IN:.*]] = arith.cmpi ult
// CHECK: scf.if %{{.*}} -> (vector<1xf32>) {
// CHECK: vector.load {{.*}} vector<1xf32>
// CHECK: } else {
// CHECK: scf.if {{.*}} -> (f32) {
// CHECK: memref.load
// CHECK: } else {
// CHECK: scf.yield %{{.*}} : f32
// CHECK-NEXT: } {phobos.masked}
// CHECK: vector.from_elements
// CHECK: vector.store
// CHECK-NEXT: }{{$}}
gpu.module @m {
  gpu.func @edge(%x: memref<4096xf32>, %y: memref<4096xf32>, %n: index, %start: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %xs = "tile.copy"(%x, %start, %n) {name = "xs", offset = 16 : i64, shape = array<i64: 64>} : (memref<4096xf32>, index, index) -> memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %xs[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %y[%c0] : memref<4096xf32>
    gpu.return
  }
}

// -----

// Inside a loop the copy overwrites the tile others read in the previous iteration: a barrier
// before it too.
// CHECK-LABEL: gpu.func @in_loop
// CHECK: scf.for
// CHECK: gpu.barrier {phobos.barrier = "kept: the copy of t overwrites the tile that other threads read in the previous iteration"}
// CHECK: scf.for
// CHECK: gpu.barrier {phobos.barrier = "kept: threads read the tile t that other threads copied"}
gpu.module @m {
  gpu.func @in_loop(%x: memref<4096xf32>, %y: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant 4096 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %t = "tile.copy"(%x, %c0, %n) {name = "t", offset = 0 : i64, shape = array<i64: 32>} : (memref<4096xf32>, index, index) -> memref<32xf32, #gpu.address_space<workgroup>>
      %v = memref.load %t[%i] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %v, %y[%i] : memref<4096xf32>
    }
    gpu.return
  }
}

// -----

// A fill value (its bits as an index after the sizes): the elements outside hold it, back in the
// element type, where they would hold zero.
// CHECK-LABEL: gpu.func @fill
// CHECK-SAME: (%{{.*}}: memref<4096xf32>, %{{.*}}: memref<4096xf32>, %{{.*}}: index, %[[BITS:.*]]: index)
// CHECK: %[[I:.*]] = arith.index_castui %[[BITS]] : index to i32
// CHECK: %[[F:.*]] = arith.bitcast %[[I]] : i32 to f32
// CHECK: scf.if {{.*}} -> (f32)
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[F]] : f32
// CHECK-NOT: arith.constant 0.000000e+00 : f32
gpu.module @m {
  gpu.func @fill(%x: memref<4096xf32>, %y: memref<4096xf32>, %n: index, %bits: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %xs = "tile.copy"(%x, %c0, %n, %bits) {name = "xs", offset = 0 : i64, shape = array<i64: 64>} : (memref<4096xf32>, index, index, index) -> memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %xs[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %y[%c0] : memref<4096xf32>
    gpu.return
  }
}

// -----

// tile.dot on one warp (16 x 8 x 32): per k step of 16, A's fragment by ldmatrix.x4 (lane l
// names row l % 16, column 8 (l / 16)), B's by ldmatrix.x2.trans (a last 8 columns), then
// mma.sync m16n8k16 on items 0-3 of the accumulator.
// CHECK-LABEL: gpu.func @dot_one_warp
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: llvm.inttoptr {{.*}} : i64 to !llvm.ptr<3>
// CHECK: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 2 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK: llvm.bitcast {{.*}} : i32 to vector<2xf16>
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: vector.insert {{.*}} [3] : f32 into vector<4xf32>
// CHECK: nvvm.ldmatrix
// CHECK: nvvm.ldmatrix
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: tile.dot
// CHECK: gpu.return
gpu.module @m {
  gpu.func @dot_one_warp(%a: memref<16x32xf16, 3>, %b: memref<32x8xf16, 3>, %c: vector<4xf32>, %out: memref<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x32xf16, 3>, memref<32x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    %c0 = arith.constant 0 : index
    vector.store %d, %out[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// B transposed (transpose_b: an 8 x 32 tile holding Bᵀ): read as A is, by plain ldmatrix (.x2
// for the last 8 rows), no .trans.
// CHECK-LABEL: gpu.func @dot_transposed_b
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 2 : i32
// CHECK-NOT: mma_layout<col>, num
// CHECK: nvvm.mma.sync
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 2 : i32
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
gpu.module @m {
  gpu.func @dot_transposed_b(%a: memref<16x32xf16, 3>, %b: memref<8x32xf16, 3>, %c: vector<4xf32>, %out: memref<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>, transpose_b} : (memref<16x32xf16, 3>, memref<8x32xf16, 3>, vector<4xf32>) -> vector<4xf32>
    %c0 = arith.constant 0 : index
    vector.store %d, %out[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// A in registers (a_shape: a 16 x 16 f16 fragment in the accumulator layout): its registers are
// the fragment's items packed in pairs (columns 2q, 2q + 1), no ldmatrix for A; B's ldmatrix
// as usual.
// CHECK-LABEL: gpu.func @dot_a_in_registers
// CHECK-NOT: nvvm.ldmatrix {{.*}}num = 4
// CHECK: vector.from_elements {{.*}} : vector<2xf16>
// CHECK: llvm.bitcast {{.*}} : vector<2xf16> to i32
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2 : i32
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
gpu.module @m {
  gpu.func @dot_a_in_registers(%a: vector<8xf16>, %b: memref<16x8xf16, 3>, %c: vector<4xf32>, %out: memref<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>, a_shape = array<i64: 16, 16>} : (vector<8xf16>, memref<16x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    %c0 = arith.constant 0 : index
    vector.store %d, %out[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// bf16 keeps its registers as i32; 16 columns of B are one ldmatrix.x4.trans; swizzled
// operands have their offsets xored (swizzle(1,3,3) on 32-byte rows: bit 6 into bit 3).
// CHECK-LABEL: gpu.func @dot_bf16_swizzled
// CHECK: arith.constant 64 : index
// CHECK: arith.andi
// CHECK: arith.shrui
// CHECK: arith.xori
// CHECK: nvvm.ldmatrix {{.*}}num = 4 : i32{{.*}} -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 4 : i32
// CHECK-NOT: llvm.bitcast
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>{{.*}} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>
// CHECK-NOT: nvvm.mma.sync
gpu.module @m {
  gpu.func @dot_bf16_swizzled(%a: memref<16x16xbf16, 3>, %b: memref<16x16xbf16, 3>, %c: vector<8xf32>, %out: memref<8xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>, swizzle_a = array<i64: 1, 3, 3>, swizzle_b = array<i64: 1, 3, 3>} : (memref<16x16xbf16, 3>, memref<16x16xbf16, 3>, vector<8xf32>) -> vector<8xf32>
    %c0 = arith.constant 0 : index
    vector.store %d, %out[%c0] : memref<8xf32>, vector<8xf32>
    gpu.return
  }
}

// -----

// tf32 and s8 operands are read element by element (ldmatrix moves 16-bit elements): each f32
// rounded by cvt.rna.tf32 into its register; four i8 bytes packed into one (first byte low).
// CHECK-LABEL: gpu.func @dot_tf32
// CHECK-NOT: nvvm.ldmatrix
// CHECK: memref.load {{.*}} : memref<16x8xf32, 3>
// CHECK: nvvm.convert.float.to.tf32 {{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
gpu.module @m {
  gpu.func @dot_tf32(%a: memref<16x8xf32, 3>, %b: memref<8x8xf32, 3>, %c: vector<4xf32>, %out: memref<4xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x8xf32, 3>, memref<8x8xf32, 3>, vector<4xf32>) -> vector<4xf32>
    %c0 = arith.constant 0 : index
    vector.store %d, %out[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @dot_s8
// CHECK-NOT: nvvm.ldmatrix
// CHECK: memref.load {{.*}} : memref<16x32xi8, 3>
// CHECK: arith.extui {{.*}} : i8 to i32
// CHECK: arith.shli
// CHECK: arith.ori
// CHECK: nvvm.mma.sync {{.*}}intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>{{.*}}multiplicandAPtxType = #nvvm.mma_type<s8>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT: nvvm.mma.sync
gpu.module @m {
  gpu.func @dot_s8(%a: memref<16x32xi8, 3>, %b: memref<32x8xi8, 3>, %c: vector<4xi32>, %out: memref<4xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x32xi8, 3>, memref<32x8xi8, 3>, vector<4xi32>) -> vector<4xi32>
    %c0 = arith.constant 0 : index
    vector.store %d, %out[%c0] : memref<4xi32>, vector<4xi32>
    gpu.return
  }
}

// -----

// A start and row length known only at launch, on a 16-byte-aligned tensor: versioned. Where
// both are multiples of 4 f32, 16-byte chunks with their alignment stated; else 1-wide chunks.
// CHECK-LABEL: gpu.func @versioned
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: arith.remui %{{.*}}, %[[C4]] : index
// CHECK: arith.remui %{{.*}}, %[[C4]] : index
// CHECK: %[[WHOLE:.*]] = arith.andi
// CHECK: scf.if %[[WHOLE]] {
// CHECK: vector.load {{.*}} {alignment = 16 : i64} : memref<4096xf32>, vector<4xf32>
// CHECK: vector.store {{.*}} {alignment = 16 : i64} : memref<8x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: } else {
// CHECK: vector.load {{.*}} : memref<4096xf32>, vector<1xf32>
// CHECK-NOT: alignment
// CHECK: gpu.barrier
gpu.module @m {
  gpu.func @versioned(%x: memref<4096xf32> {llvm.align = 16 : i64}, %y: memref<4096xf32>, %n: index, %start: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %xs = "tile.copy"(%x, %c0, %start, %n, %n) {name = "xs", offset = 0 : i64, shape = array<i64: 8, 64>} : (memref<4096xf32>, index, index, index, index) -> memref<8x64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %xs[%c0, %c0] : memref<8x64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %y[%c0] : memref<4096xf32>
    gpu.return
  }
}

// -----

// An f16 accumulator travels as two vector<2xf16> registers (c0 c1, c2 c3).
// CHECK-LABEL: gpu.func @dot_f16_acc
// CHECK: vector.from_elements {{.*}} : vector<2xf16>
// CHECK: vector.from_elements {{.*}} : vector<2xf16>
// CHECK: nvvm.mma.sync {{.*}} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
// CHECK: vector.insert {{.*}} [3] : f16 into vector<4xf16>
gpu.module @m {
  gpu.func @dot_f16_acc(%a: memref<16x16xf16, 3>, %b: memref<16x8xf16, 3>, %c: vector<4xf16>, %out: memref<4xf16>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 1, 1>} : (memref<16x16xf16, 3>, memref<16x8xf16, 3>, vector<4xf16>) -> vector<4xf16>
    %c0 = arith.constant 0 : index
    vector.store %d, %out[%c0] : memref<4xf16>, vector<4xf16>
    gpu.return
  }
}
