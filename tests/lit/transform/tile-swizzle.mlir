// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tile-swizzle))' | FileCheck %s
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tile-swizzle))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// Tiles that only tensor cores read are stored under an XOR swizzle: 64-byte rows (32 f16)
// under swizzle(2,3,3), 128-byte rows under swizzle(3,3,3), 256-byte rows under swizzle(3,3,4);
// the dot learns each operand's.

// REMARK: :[[@LINE+9]]:11: remark: tile 'as' (64x32, 64-byte rows) stored under swizzle(2,3,3): ldmatrix reads it with 0 bank conflicts (96 row-major)
// REMARK: :[[@LINE+9]]:11: remark: tile 'bs' (32x64, 128-byte rows) stored under swizzle(3,3,3): ldmatrix reads it with 0 bank conflicts (224 row-major)
// CHECK-LABEL: gpu.func @gemm
// CHECK: "tile.copy"{{.*}}name = "as"{{.*}}swizzle = array<i64: 2, 3, 3>
// CHECK: "tile.copy"{{.*}}name = "bs"{{.*}}swizzle = array<i64: 3, 3, 3>
// CHECK: "tile.dot"{{.*}}swizzle_a = array<i64: 2, 3, 3>, swizzle_b = array<i64: 3, 3, 3>
gpu.module @m {
  gpu.func @gemm(%a: memref<4096xf16>, %b: memref<4096xf16>, %c: vector<32xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %as = "tile.copy"(%a, %c0, %c0, %n, %n) {name = "as", shape = array<i64: 64, 32>} : (memref<4096xf16>, index, index, index, index) -> memref<64x32xf16, 3>
    %bs = "tile.copy"(%b, %c0, %c0, %n, %n) {name = "bs", shape = array<i64: 32, 64>} : (memref<4096xf16>, index, index, index, index) -> memref<32x64xf16, 3>
    %d = "tile.dot"(%as, %bs, %c) {warps = array<i64: 2, 2>} : (memref<64x32xf16, 3>, memref<32x64xf16, 3>, vector<32xf32>) -> vector<32xf32>
    gpu.return
  }
}

// -----

// A tile another op reads keeps its row-major order; so does one only 16 bytes wide (its
// eight rows already fill eight distinct bank groups).
// CHECK-LABEL: gpu.func @mixed
// CHECK: "tile.copy"
// CHECK-NOT: swizzle
// CHECK: "tile.dot"
// CHECK-NOT: swizzle
// CHECK: gpu.return
gpu.module @m {
  gpu.func @mixed(%a: memref<4096xf16>, %b: memref<4096xf16>, %c: vector<4xf32>, %n: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %as = "tile.copy"(%a, %c0, %c0, %n, %n) {name = "as", shape = array<i64: 16, 16>} : (memref<4096xf16>, index, index, index, index) -> memref<16x16xf16, 3>
    %bs = "tile.copy"(%b, %c0, %c0, %n, %n) {name = "bs", shape = array<i64: 16, 8>} : (memref<4096xf16>, index, index, index, index) -> memref<16x8xf16, 3>
    %d = "tile.dot"(%as, %bs, %c) {warps = array<i64: 1, 1>} : (memref<16x16xf16, 3>, memref<16x8xf16, 3>, vector<4xf32>) -> vector<4xf32>
    %x = memref.load %as[%c0, %c0] : memref<16x16xf16, 3>
    gpu.return
  }
}

// -----

// 256-byte rows: the chunk's bits xored with the row's own.
// CHECK-LABEL: gpu.func @wide
// CHECK: "tile.copy"{{.*}}swizzle = array<i64: 3, 3, 4>
gpu.module @m {
  gpu.func @wide(%a: memref<4096xf16>, %b: memref<4096xf16>, %c: vector<16xf32>, %n: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %as = "tile.copy"(%a, %c0, %c0, %n, %n) {name = "as", shape = array<i64: 16, 128>} : (memref<4096xf16>, index, index, index, index) -> memref<16x128xf16, 3>
    %bs = "tile.copy"(%b, %c0, %c0, %n, %n) {name = "bs", shape = array<i64: 128, 32>} : (memref<4096xf16>, index, index, index, index) -> memref<128x32xf16, 3>
    %d = "tile.dot"(%as, %bs, %c) {warps = array<i64: 1, 1>} : (memref<16x128xf16, 3>, memref<128x32xf16, 3>, vector<16xf32>) -> vector<16xf32>
    gpu.return
  }
}

// -----

// f32 tiles (tf32 operands) are read element by element; the swizzle is searched for those
// reads: A (64 x 32) gets swizzle(3,2,3), the column's bits 2-4 xored with the row's 0-2.
// REMARK: :[[@LINE+6]]:11: remark: tile 'af' (64x32, 128-byte rows) stored under swizzle(3,2,3): element-wise operand reads see it with 0 bank conflicts (448 row-major)
// CHECK-LABEL: gpu.func @tf32
// CHECK: "tile.dot"{{.*}}swizzle_a = array<i64: 3, 2, 3>, swizzle_b = array<i64: 2, 3, 2>
gpu.module @m {
  gpu.func @tf32(%a: memref<4096xf32>, %b: memref<4096xf32>, %c: vector<16xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %as = "tile.copy"(%a, %c0, %c0, %n, %n) {name = "af", shape = array<i64: 64, 32>} : (memref<4096xf32>, index, index, index, index) -> memref<64x32xf32, 3>
    %bs = "tile.copy"(%b, %c0, %c0, %n, %n) {name = "bf", shape = array<i64: 32, 32>} : (memref<4096xf32>, index, index, index, index) -> memref<32x32xf32, 3>
    %d = "tile.dot"(%as, %bs, %c) {warps = array<i64: 2, 2>} : (memref<64x32xf32, 3>, memref<32x32xf32, 3>, vector<16xf32>) -> vector<16xf32>
    gpu.return
  }
}
