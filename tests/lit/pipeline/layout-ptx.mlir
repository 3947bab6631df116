// REQUIRES: ptxas
// A kernel that places each thread's values with layouts (warp-striped thread-value to logical,
// then a swizzled shared-style offset, and a thread's slice) compiles to PTX that ptxas accepts:
// powers of two only, so no division or remainder reaches PTX.
// RUN: phobos-opt %s --pass-pipeline='builtin.module(phobos-to-ptx{chip=sm_90})' --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas-check sm_90 %t.ptx | FileCheck %s --check-prefix=PTXAS

// CHECK: .visible .entry place(
// CHECK-NOT: div.
// CHECK-NOT: rem.
// CHECK: xor.b
// CHECK: ret;
// PTXAS: Used {{[0-9]+}} registers
gpu.module @kernels {
  gpu.func @place(%out: memref<512xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    // Item 0 and 1 of thread t under warp_striped(64, 2, 32), into a (8,16) logical tile.
    %x1 = arith.addi %t, %c64 : index
    %l0 = "layout.apply"(%t) {layout = "warp_striped(64,2,32)", from = "thread-value", into = "logical"} : (index) -> index
    %l1 = "layout.apply"(%x1) {layout = "warp_striped(64,2,32)", from = "thread-value", into = "logical"} : (index) -> index
    // The logical tile is row-major (8,16) in shared memory, swizzled to avoid bank conflicts.
    %p0 = "layout.apply"(%l0) {layout = "swizzle(2,2,3,(16,8):(1,16))", from = "logical", into = "physical"} : (index) -> index
    %p1 = "layout.apply"(%l1) {layout = "swizzle(2,2,3,(16,8):(1,16))", from = "logical", into = "physical"} : (index) -> index
    // Thread t's own slice of blocked(64, 2): items 0 and 1.
    %b0 = "layout.restrict"(%t, %c0) {layout = "blocked(64,2)", fixed = array<i64: 0>} : (index, index) -> index
    %b1 = "layout.restrict"(%t, %c1) {layout = "blocked(64,2)", fixed = array<i64: 0>} : (index, index) -> index
    %v0 = arith.index_cast %p0 : index to i32
    %v1 = arith.index_cast %p1 : index to i32
    memref.store %v0, %out[%b0] : memref<512xi32>
    memref.store %v1, %out[%b1] : memref<512xi32>
    gpu.return
  }
}
