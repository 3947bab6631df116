// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(infer-barriers))' | FileCheck %s
// Barriers between a kernel's own writes and reads of shared buffers.

// A write then a read of another thread's element: one barrier between them.
// CHECK-LABEL: gpu.func @raw
// CHECK: memref.store
// CHECK: gpu.barrier {phobos.barrier = "inferred: threads read buf, which other threads wrote before"}
// CHECK-NEXT: memref.load
gpu.module @m {
  gpu.func @raw(%x: f32, %y: memref<64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c63 = arith.constant 63 : index
    %buf = "tile.alloc"() {name = "buf", shape = array<i64: 64>} : () -> memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %x, %buf[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    %r = arith.subi %c63, %t : index
    %v = memref.load %buf[%r] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %y[%t] : memref<64xf32>
    gpu.return
  }
}

// -----

// A CTA collective between them orders them already: no barrier.
// CHECK-LABEL: gpu.func @ordered
// CHECK-NOT: gpu.barrier
gpu.module @m {
  gpu.func @ordered(%x: f32, %y: memref<64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %buf = "tile.alloc"() {name = "buf", shape = array<i64: 64>} : () -> memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %x, %buf[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    %s = "cta.reduce"(%x) {kind = "sum"} : (f32) -> f32
    %v = memref.load %buf[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    %w = arith.addf %v, %s : f32
    memref.store %w, %y[%t] : memref<64xf32>
    gpu.return
  }
}

// -----

// In a loop, the read of one iteration meets the write of the next (WAR) and the write the
// read (RAW): a barrier before each.
// CHECK-LABEL: gpu.func @loop
// CHECK: scf.for
// CHECK-NEXT: gpu.barrier {phobos.barrier = "inferred: threads write buf, which other threads read before"}
// CHECK-NEXT: memref.store
// CHECK-NEXT: gpu.barrier {phobos.barrier = "inferred: threads read buf, which other threads wrote before"}
// CHECK-NEXT: memref.load
gpu.module @m {
  gpu.func @loop(%x: f32, %y: memref<64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c63 = arith.constant 63 : index
    %buf = "tile.alloc"() {name = "buf", shape = array<i64: 64>} : () -> memref<64xf32, #gpu.address_space<workgroup>>
    %r = arith.subi %c63, %t : index
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %x, %buf[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      %v = memref.load %buf[%r] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %y[%t] : memref<64xf32>
    }
    gpu.return
  }
}

// -----

// The read is under control that differs between threads; the write is before it: the
// barrier goes before the divergent scf.if, where every thread reaches it.
// CHECK-LABEL: gpu.func @hoisted
// CHECK: memref.store
// CHECK: gpu.barrier
// CHECK-NEXT: scf.if
// CHECK-NOT: gpu.barrier
gpu.module @m {
  gpu.func @hoisted(%x: f32, %y: memref<64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c32 = arith.constant 32 : index
    %c63 = arith.constant 63 : index
    %buf = "tile.alloc"() {name = "buf", shape = array<i64: 64>} : () -> memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %x, %buf[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    %low = arith.cmpi ult, %t, %c32 : index
    scf.if %low {
      %r = arith.subi %c63, %t : index
      %v = memref.load %buf[%r] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %y[%t] : memref<64xf32>
    }
    gpu.return
  }
}

// -----

// Both under the same divergent control: no barrier can order them.
gpu.module @m {
  gpu.func @divergent(%x: f32, %y: memref<64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c32 = arith.constant 32 : index
    %c31 = arith.constant 31 : index
    %buf = "tile.alloc"() {name = "buf", shape = array<i64: 64>} : () -> memref<64xf32, #gpu.address_space<workgroup>>
    %low = arith.cmpi ult, %t, %c32 : index
    // expected-note @below {{the control that differs between threads}}
    scf.if %low {
      // expected-note @below {{the write}}
      memref.store %x, %buf[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      %r = arith.subi %c31, %t : index
      // expected-error @below {{this read of buf needs a barrier after the write of another thread, but both are under control that differs between threads, where no barrier can go}}
      %v = memref.load %buf[%r] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %y[%t] : memref<64xf32>
    }
    gpu.return
  }
}

// -----

// Staging that synchronises itself (phobos.synchronized) is left alone.
// CHECK-LABEL: gpu.func @synchronized
// CHECK-NOT: gpu.barrier
gpu.module @m {
  gpu.func @synchronized(%x: f32, %y: memref<64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %buf = "tile.alloc"() {name = "s", phobos.synchronized, shape = array<i64: 64>} : () -> memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %x, %buf[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %buf[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %y[%t] : memref<64xf32>
    gpu.return
  }
}
