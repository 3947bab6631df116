// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tile-plan-shared-memory))' 2>/dev/null | FileCheck %s
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tile-plan-shared-memory))' 2>&1 >/dev/null | FileCheck %s --check-prefix=DIAG
// RUN: not phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tile-plan-shared-memory{chip=sm_75}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=SM75
// Stages the compiler chooses (phobos.pipeline = 0, the frontend's bare `@pipeline`): the most,
// up to 4, whose plan fits half the chip's shared memory (two CTAs per SM); else 2 where they
// fit the whole (one CTA per SM); else 1, the attribute removed. The choice is written on the
// loop for tile-pipeline and stated in a remark. Before sm_80 no loop is pipelined (and the
// last tile, 131072 bytes, is past sm_75's shared memory).
// SM75-COUNT-3: remark: @pipeline chose 1 stage (not pipelined): asynchronous copies (cp.async) need sm_80 or later; the target is sm_75
// SM75: error: 'gpu.func' op needs 131072 bytes of shared memory
// DIAG: remark: @pipeline chose 4 stages: 1024 bytes of shared memory, within half of sm_90's 232448
// DIAG: remark: shared 't': offset 0, {{[0-9]+}} bytes (4x64 of f32)
// CHECK-LABEL: gpu.func @small
// CHECK: } {phobos.pipeline = 4 : i64}
gpu.module @m {
  gpu.func @small(%x: memref<65536xf32>, %y: memref<65536xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %n step %c64 {
      %t = "tile.copy"(%x, %i, %n) {name = "t", shape = array<i64: 64>} : (memref<65536xf32>, index, index) -> memref<64xf32, #gpu.address_space<workgroup>>
      %v = memref.load %t[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %y[%i] : memref<65536xf32>
    } {phobos.pipeline = 0 : i64}
    gpu.return
  }
}

// -----

// DIAG: remark: @pipeline chose 3 stages: 98304 bytes of shared memory, within half of sm_90's 232448; 4 would need 131072
// DIAG: remark: shared 't': offset 0, {{[0-9]+}} bytes (3x8192 of f32)
// CHECK-LABEL: gpu.func @mid
// CHECK: } {phobos.pipeline = 3 : i64}
gpu.module @m {
  gpu.func @mid(%x: memref<65536xf32>, %y: memref<65536xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %n step %c64 {
      %t = "tile.copy"(%x, %i, %n) {name = "t", shape = array<i64: 8192>} : (memref<65536xf32>, index, index) -> memref<8192xf32, #gpu.address_space<workgroup>>
      %v = memref.load %t[%c0] : memref<8192xf32, #gpu.address_space<workgroup>>
      memref.store %v, %y[%i] : memref<65536xf32>
    } {phobos.pipeline = 0 : i64}
    gpu.return
  }
}

// -----

// DIAG: remark: @pipeline chose 2 stages: 131072 bytes of shared memory, more than half of sm_90's 232448 (one CTA per SM)
// DIAG: remark: shared 't': offset 0, {{[0-9]+}} bytes (2x16384 of f32)
// CHECK-LABEL: gpu.func @big
// CHECK: } {phobos.pipeline = 2 : i64}
gpu.module @m {
  gpu.func @big(%x: memref<65536xf32>, %y: memref<65536xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %n step %c64 {
      %t = "tile.copy"(%x, %i, %n) {name = "t", shape = array<i64: 16384>} : (memref<65536xf32>, index, index) -> memref<16384xf32, #gpu.address_space<workgroup>>
      %v = memref.load %t[%c0] : memref<16384xf32, #gpu.address_space<workgroup>>
      memref.store %v, %y[%i] : memref<65536xf32>
    } {phobos.pipeline = 0 : i64}
    gpu.return
  }
}

// -----

// DIAG: remark: @pipeline chose 1 stage (not pipelined): 2 stages need 262144 bytes of shared memory, more than sm_90's 232448
// DIAG: remark: shared 't': offset 0, {{[0-9]+}} bytes (32768 of f32)
// CHECK-LABEL: gpu.func @huge
// CHECK-NOT: phobos.pipeline
// CHECK: gpu.return
gpu.module @m {
  gpu.func @huge(%x: memref<65536xf32>, %y: memref<65536xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %n step %c64 {
      %t = "tile.copy"(%x, %i, %n) {name = "t", shape = array<i64: 32768>} : (memref<65536xf32>, index, index) -> memref<32768xf32, #gpu.address_space<workgroup>>
      %v = memref.load %t[%c0] : memref<32768xf32, #gpu.address_space<workgroup>>
      memref.store %v, %y[%i] : memref<65536xf32>
    } {phobos.pipeline = 0 : i64}
    gpu.return
  }
}

// -----

// A loop with no copy has nothing to choose: the attribute goes, silently.
// DIAG-NOT: remark
// CHECK-LABEL: gpu.func @nothing
// CHECK-NOT: phobos.pipeline
// CHECK: gpu.return
gpu.module @m {
  gpu.func @nothing(%y: memref<64xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f32
    scf.for %i = %c0 to %n step %c1 {
      memref.store %f, %y[%c0] : memref<64xf32>
    } {phobos.pipeline = 0 : i64}
    gpu.return
  }
}
