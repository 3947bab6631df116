// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t && %npy range %t/X.npy 64 float32
// RUN: %expect-exit 2 phobos run %s --kernel raw --grid 1 --arg X=%t/X.npy --out %t/o 2>&1 | FileCheck %s --check-prefix=RAW
// RUN: %expect-exit 2 phobos run %s --kernel war --grid 1 --arg X=%t/X.npy --out %t/o 2>&1 | FileCheck %s --check-prefix=WAR
// RUN: phobos run %s --kernel ordered --grid 1 --arg X=%t/X.npy --out %t/o
// RUN: phobos run %s --kernel own --grid 1 --arg X=%t/X.npy --out %t/o
// A shared-memory read of what another warp wrote with no barrier between (and a write over
// what another warp read) is a race; with the barrier, or reading one's own writes, it is not.

gpu.module @m {
  memref.global "private" @s : memref<64xf32, #gpu.address_space<workgroup>> = uninitialized {alignment = 16 : i64}
// RAW: sanitizer-race.mlir:[[# @LINE + 8]]:10: error: shared-memory race: read after a write by thread (0, 0, 0) of shared byte 0 with no barrier between them
// RAW-NEXT: in kernel raw, CTA (0, 0, 0), thread (32, 0, 0)
  gpu.func @raw(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %s = memref.get_global @s : memref<64xf32, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c0f = arith.constant 0.0 : f32
    memref.store %c0f, %s[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %s[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
// WAR: sanitizer-race.mlir:[[# @LINE + 10]]:7: error: shared-memory race: write after a read by thread (0, 0, 0) of shared byte 0 with no barrier between them
// WAR-NEXT: in kernel war, CTA (0, 0, 0), thread (32, 0, 0)
  gpu.func @war(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %s = memref.get_global @s : memref<64xf32, #gpu.address_space<workgroup>>
    %c32 = arith.constant 32 : index
    %v = memref.load %s[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    %hi = arith.cmpi uge, %t, %c32 : index
    scf.if %hi {
      %j = arith.subi %t, %c32 : index
      memref.store %v, %s[%j] : memref<64xf32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
  gpu.func @ordered(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %s = memref.get_global @s : memref<64xf32, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    memref.store %f, %s[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %v = memref.load %s[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %x[%t] : memref<1099511627776xf32>
    gpu.return
  }
  gpu.func @own(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %s = memref.get_global @s : memref<64xf32, #gpu.address_space<workgroup>>
    %f = arith.constant 2.0 : f32
    memref.store %f, %s[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %s[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %x[%t] : memref<1099511627776xf32>
    gpu.return
  }
}
