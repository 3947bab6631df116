// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t && %npy range %t/X.npy 64 float32
// RUN: %expect-exit 2 phobos run %s --kernel oob --grid 1 --arg X=%t/X.npy --out %t/o 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: phobos run %s --kernel inbounds --grid 1 --arg X=%t/X.npy --out %t/o
// RUN: %expect-exit 2 phobos run %s --kernel oob_shared --grid 1 --arg X=%t/X.npy --out %t/o 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: %expect-exit 2 phobos run %s --kernel misaligned --grid 1 --arg X=%t/X.npy --out %t/o 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: phobos run %s --kernel aligned --grid 1 --arg X=%t/X.npy --out %t/o
// RUN: %expect-exit 2 phobos run %s --kernel divzero --grid 1 --arg X=%t/X.npy --out %t/o 2>&1 | FileCheck %s --check-prefix=DIV
// Out-of-bounds global and shared accesses, a vector access off its proven alignment, and an
// integer division by zero fault (exit 2) at the op, naming the thread; the fixed kernels run.

// OOB: sanitizer-bounds.mlir:[[# @LINE + 8]]:10: error: out-of-bounds access: global read of 1 element at index 64 of X (64 elements)
// OOB-NEXT: in kernel oob, CTA (0, 0, 0), thread (1, 0, 0), at `memref.load`
gpu.module @m {
  memref.global "private" @s : memref<32xf32, #gpu.address_space<workgroup>> = uninitialized {alignment = 16 : i64}
  gpu.func @oob(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c = arith.constant 63 : index
    %i = arith.addi %t, %c : index
    %v = memref.load %x[%i] : memref<1099511627776xf32>
    gpu.return
  }
  gpu.func @inbounds(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1099511627776xf32>
    memref.store %v, %x[%t] : memref<1099511627776xf32>
    gpu.return
  }
// SHARED: sanitizer-bounds.mlir:[[# @LINE + 5]]:5: error: out-of-bounds access: shared write of 1 element at index 32 of @s (32 elements)
  gpu.func @oob_shared(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %s = memref.get_global @s : memref<32xf32, #gpu.address_space<workgroup>>
    %f = arith.constant 1.0 : f32
    memref.store %f, %s[%t] : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
// ALIGN: sanitizer-bounds.mlir:[[# @LINE + 3]]:10: error: misaligned access: vector read of 16 bytes at byte 4 of X, which is not a multiple of its proven alignment 16
  gpu.func @misaligned(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c1 = arith.constant 1 : index
    %v = vector.load %x[%c1] {alignment = 16 : i64} : memref<1099511627776xf32>, vector<4xf32>
    gpu.return
  }
  gpu.func @aligned(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c4 = arith.constant 4 : index
    %v = vector.load %x[%c4] {alignment = 16 : i64} : memref<1099511627776xf32>, vector<4xf32>
    gpu.return
  }
// DIV: sanitizer-bounds.mlir:[[# @LINE + 5]]:10: error: division by zero: integer division by zero (i32)
  gpu.func @divzero(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %l = gpu.lane_id
    %li = arith.index_cast %l : index to i32
    %z = arith.constant 0 : i32
    %d = arith.divsi %li, %z : i32
    gpu.return
  }
}
