// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-tile-to-gpu{chip=sm_90a}))' 2>/dev/null | FileCheck %s
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-tile-to-gpu{chip=sm_90a}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-tile-to-gpu{chip=sm_90}))' 2>&1 | FileCheck %s --check-prefix=SM90
// tile.dot on sm_90a's warpgroup tensor cores where the product allows: the warp grid is
// warpgroups along M (16 rows per warp), f16/bf16 into f32, both tiles in shared memory in the
// canonical swizzle of their 32-, 64- or 128-byte rows. Each warpgroup's descriptors: the
// tile's address / 16 (A's 64 rows of the warpgroup on), LBO 1, SBO 8 rows (1024 bytes for
// 128-byte rows: 64 << 32), the swizzle mode in bits 62-63 (1: 128 bytes, 2: 64, 3: 32). Per k
// step of 16 the start moves 32 bytes along a K-major row (+2), 16 rows of an MN-major tile
// (+128 for 128-byte rows). The dynamic shared memory is aligned to 1024 bytes. A proxy fence
// (fence.proxy.async.shared::cta) goes before the barrier before the product (the writers'
// side) and before the product (the reader's). Other targets
// take mma.sync; on sm_90a, other products too, with a remark that says why.

// A 128 x 64 x 32 product on 8 warps (2 warpgroups), A 64-byte rows (swizzle mode 2, SBO
// 512), B 32 x 64 MN-major (128-byte rows: mode 1, SBO 1024, "row" = transposed in PTX).
// REMARK: remark: tile.dot: wgmma.mma_async m64n64k16 (f16 into f32), 128 x 64 x 32 on 8 x 1 warps of 16 x 64: 2 warpgroups, 2 per warpgroup and k step of 32
// CHECK: memref.global @__phobos_dynamic_smem : memref<0xi8, #gpu.address_space<workgroup>> {alignment = 1024 : i64}
// CHECK-LABEL: gpu.func @two_groups
// The writers' proxy fence, before the barrier that follows the tiles' writes:
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: %[[GROUP:.*]] = arith.divui %{{.*}}, %c128
// CHECK: %[[ROWS:.*]] = arith.muli %[[GROUP]], %c4096
// CHECK-DAG: %[[A_BITS:.*]] = arith.constant -9223371899415756800 : i64
// CHECK-DAG: %[[B_BITS:.*]] = arith.constant 4611686293305360384 : i64
// CHECK-DAG: arith.ori %{{.*}}, %[[A_BITS]] : i64
// CHECK-DAG: arith.ori %{{.*}}, %[[B_BITS]] : i64
// CHECK: nvvm.fence.proxy
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK: arith.addi %{{.*}}, %c2_i64 : i64
// CHECK: arith.addi %{{.*}}, %c128_i64 : i64
// CHECK: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: tile.dot
// SM90: remark: tile.dot: mma.sync m16n8k16 (f16 into f32), 128 x 64 x 32 on 8 x 1 warps of 16 x 64: 8 per warp and k step of 16
// SM90-NOT: (not wgmma
// SM90-NOT: nvvm.wgmma
// SM90: nvvm.mma.sync
gpu.module @m {
  memref.global @__phobos_dynamic_smem : memref<0xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
  gpu.func @two_groups(%c: vector<32xf32>, %out: memref<32xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %smem = memref.get_global @__phobos_dynamic_smem : memref<0xi8, #gpu.address_space<workgroup>>
    %c0i = arith.constant 0 : index
    %c8192 = arith.constant 8192 : index
    %a = memref.view %smem[%c0i][] : memref<0xi8, #gpu.address_space<workgroup>> to memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = memref.view %smem[%c8192][] : memref<0xi8, #gpu.address_space<workgroup>> to memref<32x64xf16, #gpu.address_space<workgroup>>
    gpu.barrier
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 8, 1>, swizzle_a = array<i64: 2, 3, 3>, swizzle_b = array<i64: 3, 3, 3>} : (memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, vector<32xf32>) -> vector<32xf32>
    %c0 = arith.constant 0 : index
    vector.store %d, %out[%c0] : memref<32xf32>, vector<32xf32>
    gpu.return
  }
}

// -----

// B transposed (N x K, K-major: "col"), bf16, 32-byte rows (mode 3, SBO 256); N = 128.
// REMARK: remark: tile.dot: wgmma.mma_async m64n128k16 (bf16 into f32), 64 x 128 x 16 on 4 x 1 warps of 16 x 128: 1 warpgroup, 1 per warpgroup and k step of 16
// CHECK-LABEL: gpu.func @transposed
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>, <wrapped>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
gpu.module @m {
  gpu.func @transposed(%c: vector<64xf32>, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %a = "tile.alloc"() {name = "a", shape = array<i64: 64, 16>, offset = 0 : i64} : () -> memref<64x16xbf16, #gpu.address_space<workgroup>>
    %b = "tile.alloc"() {name = "b", shape = array<i64: 128, 16>, offset = 2048 : i64} : () -> memref<128x16xbf16, #gpu.address_space<workgroup>>
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 4, 1>, transpose_b, swizzle_a = array<i64: 1, 3, 3>, swizzle_b = array<i64: 1, 3, 3>} : (memref<64x16xbf16, #gpu.address_space<workgroup>>, memref<128x16xbf16, #gpu.address_space<workgroup>>, vector<64xf32>) -> vector<64xf32>
    %c0 = arith.constant 0 : index
    vector.store %d, %out[%c0] : memref<64xf32>, vector<64xf32>
    gpu.return
  }
}

// -----

// Products wgmma does not take, each with its reason; they run on mma.sync (a tile that is
// no planned tile copy or buffer, a kernel argument here, has no known alignment). Every product's
// remark states its instruction, shape, warp grid and instructions per warp and k step.
// REMARK: remark: tile.dot: mma.sync m16n8k16 (f16 into f32), 64 x 64 x 64 on 4 x 1 warps of 16 x 64: 8 per warp and k step of 16 (not wgmma: A is not a planned shared tile (a tile copy or buffer): its alignment is unknown)
// REMARK: remark: tile.dot: mma.sync m16n8k16 (f16 into f32), 64 x 64 x 64 on 2 x 2 warps of 32 x 32: 8 per warp and k step of 16 (not wgmma: wgmma needs warpgroups along M with 16 rows per warp: the warp grid 4 x 1 ("mma_c(64, 64, 128, 4, 1)" when M = 16 x warps), got 2 x 2)
// REMARK: remark: tile.dot: mma.sync m16n8k16 (f16 into f32), 64 x 64 x 64 on 4 x 1 warps of 16 x 64: 8 per warp and k step of 16 (not wgmma: B is not stored in wgmma's 128-byte swizzle)
// REMARK: remark: tile.dot: mma.sync m16n8k16 (f16 into f32), 64 x 128 x 64 on 4 x 1 warps of 16 x 128: 16 per warp and k step of 16 (not wgmma: B's rows are 256 bytes; wgmma reads swizzled rows of 32, 64 or 128 bytes)
// REMARK: remark: tile.dot: mma.sync m16n8k16 (f16 into f16), 64 x 64 x 64 on 4 x 1 warps of 16 x 64: 8 per warp and k step of 16 (not wgmma: wgmma is used for f16 and bf16 products into f32; this one is f16 into f16)
// CHECK-LABEL: gpu.func @not_wgmma
// CHECK-NOT: nvvm.wgmma
// CHECK: nvvm.mma.sync
gpu.module @m {
  gpu.func @not_wgmma(%arg: memref<64x64xf16, #gpu.address_space<workgroup>>, %c: vector<32xf32>, %h: vector<32xf16>, %c2: vector<64xf32>, %out: memref<32xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %a = "tile.alloc"() {name = "a", shape = array<i64: 64, 64>, offset = 0 : i64} : () -> memref<64x64xf16, #gpu.address_space<workgroup>>
    %b = "tile.alloc"() {name = "b", shape = array<i64: 64, 64>, offset = 8192 : i64} : () -> memref<64x64xf16, #gpu.address_space<workgroup>>
    %w = "tile.alloc"() {name = "w", shape = array<i64: 64, 128>, offset = 16384 : i64} : () -> memref<64x128xf16, #gpu.address_space<workgroup>>
    %x = "tile.dot"(%arg, %b, %c) {warps = array<i64: 4, 1>, swizzle_a = array<i64: 3, 3, 3>, swizzle_b = array<i64: 3, 3, 3>} : (memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>, vector<32xf32>) -> vector<32xf32>
    %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 2, 2>, swizzle_a = array<i64: 3, 3, 3>, swizzle_b = array<i64: 3, 3, 3>} : (memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>, vector<32xf32>) -> vector<32xf32>
    %e = "tile.dot"(%a, %b, %d) {warps = array<i64: 4, 1>, swizzle_a = array<i64: 3, 3, 3>} : (memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>, vector<32xf32>) -> vector<32xf32>
    %f = "tile.dot"(%a, %w, %c2) {warps = array<i64: 4, 1>, swizzle_a = array<i64: 3, 3, 3>, swizzle_b = array<i64: 3, 3, 4>} : (memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x128xf16, #gpu.address_space<workgroup>>, vector<64xf32>) -> vector<64xf32>
    %g = "tile.dot"(%a, %b, %h) {warps = array<i64: 4, 1>, swizzle_a = array<i64: 3, 3, 3>, swizzle_b = array<i64: 3, 3, 3>} : (memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>, vector<32xf16>) -> vector<32xf16>
    %c0 = arith.constant 0 : index
    vector.store %e, %out[%c0] : memref<32xf32>, vector<32xf32>
    gpu.return
  }
}

// -----

// Under an if (control that may differ between warps): mma.sync, which lets each warp run its
// own; wgmma needs a warpgroup's four warps together.
// REMARK: remark: tile.dot: mma.sync m16n8k16 (f16 into f32), 64 x 64 x 64 on 4 x 1 warps of 16 x 64: 8 per warp and k step of 16 (not wgmma: the product is under control that may differ between warps, and a warpgroup's four warps run each wgmma together)
// CHECK-LABEL: gpu.func @under_if
// CHECK-NOT: nvvm.wgmma
// CHECK: nvvm.mma.sync
gpu.module @m {
  gpu.func @under_if(%c: vector<32xf32>, %p: i1, %out: memref<32xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %a = "tile.alloc"() {name = "a", shape = array<i64: 64, 64>, offset = 0 : i64} : () -> memref<64x64xf16, #gpu.address_space<workgroup>>
    %b = "tile.alloc"() {name = "b", shape = array<i64: 64, 64>, offset = 8192 : i64} : () -> memref<64x64xf16, #gpu.address_space<workgroup>>
    scf.if %p {
      %d = "tile.dot"(%a, %b, %c) {warps = array<i64: 4, 1>, swizzle_a = array<i64: 3, 3, 3>, swizzle_b = array<i64: 3, 3, 3>} : (memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>, vector<32xf32>) -> vector<32xf32>
      %c0 = arith.constant 0 : index
      vector.store %d, %out[%c0] : memref<32xf32>, vector<32xf32>
    }
    gpu.return
  }
}
