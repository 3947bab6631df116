// RUN: phobos compile %s --emit=ptx | FileCheck %s
// Every pass of the pipeline on a kernel with atomics (elide-barriers crashed on
// memref.atomic_rmw: it read the value operand as the memref).

// CHECK: bar.sync
// CHECK: atom.global.add.u32
// CHECK: atom.shared.add.u32
gpu.module @m {
  gpu.func @k(%x: memref<1024xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %c1 = arith.constant 1 : i32
    %c0 = arith.constant 0 : index
    %buf = memref.get_global @s : memref<32xi32, #gpu.address_space<workgroup>>
    memref.store %c1, %buf[%t] : memref<32xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %o = memref.atomic_rmw addi %c1, %x[%c0] : (i32, memref<1024xi32>) -> i32
    %s = memref.atomic_rmw addi %o, %buf[%c0] : (i32, memref<32xi32, #gpu.address_space<workgroup>>) -> i32
    memref.store %s, %x[%t] : memref<1024xi32>
    gpu.return
  }
  memref.global "private" @s : memref<32xi32, #gpu.address_space<workgroup>>
}
