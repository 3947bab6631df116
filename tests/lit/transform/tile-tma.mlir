// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tile-tma{chip=sm_90a}))' | FileCheck %s
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tile-tma{chip=sm_90a}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tile-tma{chip=sm_90}))' | FileCheck %s --check-prefix=SM90
// On sm_90a a tile copy of a kernel tensor is marked for TMA (tma = the swizzle span, 0 for
// none) where TMA can make it; a remark says so, or why not. Before sm_90a nothing is marked.

// SM90-NOT: tma =
// REMARK: :[[@LINE+10]]:11: remark: tile as: copied by TMA (cp.async.bulk.tensor), in the 128-byte swizzle
// REMARK: :[[@LINE+10]]:11: remark: tile bs: copied by TMA (cp.async.bulk.tensor), row-major
// CHECK-LABEL: gpu.func @marked
// CHECK: "tile.copy"{{.*}}name = "as"{{.*}}tma = 128 : i64
// CHECK: "tile.copy"{{.*}}name = "bs"{{.*}}tma = 0 : i64
gpu.module @m {
  gpu.func @marked(%a: memref<1099511627776xf16> {llvm.align = 16 : i64, phobos.tensor = "A", phobos.dims = ["M", "K"]}, %m: i64 {phobos.dim = "M"}, %k: i64 {phobos.dim = "K", phobos.divisibility = 64 : i64}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %mi = arith.index_cast %m : i64 to index
    %ki = arith.index_cast %k : i64 to index
    %as = "tile.copy"(%a, %c0, %c0, %mi, %ki) {name = "as", shape = array<i64: 64, 64>, swizzle = array<i64: 3, 3, 3>} : (memref<1099511627776xf16>, index, index, index, index) -> memref<64x64xf16, 3>
    %bs = "tile.copy"(%a, %c0, %c0, %mi, %ki) {name = "bs", shape = array<i64: 32, 32>} : (memref<1099511627776xf16>, index, index, index, index) -> memref<32x32xf16, 3>
    gpu.return
  }
}

// -----

// Each reason a copy is not TMA's: the row stride unproven, a nonzero fill, a box past 256, a
// swizzle none of TMA's modes, sizes other than the tensor's, rows under 16 bytes.
// REMARK: :[[@LINE+14]]:{{[0-9]+}}: remark: tile s: not copied by TMA: the tensor's row stride (K x 2 bytes) is not a proven multiple of 16 bytes (@aligned(K = 8) proves it)
// REMARK: :[[@LINE+14]]:{{[0-9]+}}: remark: tile f: not copied by TMA: a nonzero fill value (TMA fills with zero)
// REMARK: :[[@LINE+14]]:{{[0-9]+}}: remark: tile big: not copied by TMA: an extent of 512; TMA's box is at most 256 per dimension
// REMARK: :[[@LINE+14]]:{{[0-9]+}}: remark: tile w: not copied by TMA: its swizzle Swizzle<3, 3, 4> of 256-byte rows is none of TMA's modes
// REMARK: :[[@LINE+14]]:{{[0-9]+}}: remark: tile o: not copied by TMA: size 1 of the copy is not the tensor's dimension K
// REMARK: :[[@LINE+14]]:{{[0-9]+}}: remark: tile n: not copied by TMA: its rows are 8 bytes, not a multiple of 16
// CHECK-LABEL: gpu.func @unmarked
// CHECK-NOT: tma =
gpu.module @m {
  gpu.func @unmarked(%a: memref<1099511627776xf16> {llvm.align = 16 : i64, phobos.tensor = "A", phobos.dims = ["M", "K"]}, %m: i64 {phobos.dim = "M"}, %k: i64 {phobos.dim = "K"}, %k8: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %fill = arith.constant 15360 : index
    %mi = arith.index_cast %m : i64 to index
    %ki = arith.index_cast %k : i64 to index
    %s = "tile.copy"(%a, %c0, %c0, %mi, %ki) {name = "s", shape = array<i64: 64, 64>} : (memref<1099511627776xf16>, index, index, index, index) -> memref<64x64xf16, 3>
    %f = "tile.copy"(%a, %c0, %c0, %mi, %c0, %fill) {name = "f", shape = array<i64: 64, 64>} : (memref<1099511627776xf16>, index, index, index, index, index) -> memref<64x64xf16, 3>
    %big = "tile.copy"(%a, %c0, %c0, %c0, %mi) {name = "big", shape = array<i64: 512, 8>} : (memref<1099511627776xf16>, index, index, index, index) -> memref<512x8xf16, 3>
    %w = "tile.copy"(%a, %c0, %c0, %mi, %c0) {name = "w", shape = array<i64: 64, 128>, swizzle = array<i64: 3, 3, 4>} : (memref<1099511627776xf16>, index, index, index, index) -> memref<64x128xf16, 3>
    %o = "tile.copy"(%a, %c0, %c0, %mi, %k8) {name = "o", shape = array<i64: 64, 64>} : (memref<1099511627776xf16>, index, index, index, index) -> memref<64x64xf16, 3>
    %n = "tile.copy"(%a, %c0, %c0, %mi, %c0) {name = "n", shape = array<i64: 64, 4>} : (memref<1099511627776xf16>, index, index, index, index) -> memref<64x4xf16, 3>
    gpu.return
  }
}

// -----

// A tensor the kernel writes keeps cp.async (TMA reads through the async proxy).
// REMARK: :[[@LINE+8]]:10: remark: tile t: not copied by TMA: the kernel writes its tensor too (TMA reads it through another proxy)
// CHECK-LABEL: gpu.func @written
// CHECK-NOT: tma =
gpu.module @m {
  gpu.func @written(%a: memref<1099511627776xf16> {llvm.align = 16 : i64, phobos.tensor = "A", phobos.dims = ["M", "64"]}, %m: i64 {phobos.dim = "M"}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %mi = arith.index_cast %m : i64 to index
    %t = "tile.copy"(%a, %c0, %c0, %mi, %c64) {name = "t", shape = array<i64: 64, 64>} : (memref<1099511627776xf16>, index, index, index, index) -> memref<64x64xf16, 3>
    %v = memref.load %t[%c0, %c0] : memref<64x64xf16, 3>
    memref.store %v, %a[%c0] : memref<1099511627776xf16>
    gpu.return
  }
}
