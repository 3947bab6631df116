// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t && %npy range %t/X.npy 64 float32
// RUN: %expect-exit 2 phobos run %s --kernel half_barrier --grid 1 --arg X=%t/X.npy --out %t/o 2>&1 | FileCheck %s --check-prefix=BAR
// RUN: %expect-exit 2 phobos run %s --kernel warp_barrier --grid 1 --arg X=%t/X.npy --out %t/o 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: %expect-exit 2 phobos run %s --kernel half_shuffle --grid 1 --arg X=%t/X.npy --out %t/o 2>&1 | FileCheck %s --check-prefix=SHFL
// RUN: %expect-exit 2 phobos run %s --kernel narrow_shuffle --grid 1 --arg X=%t/X.npy --out %t/o 2>&1 | FileCheck %s --check-prefix=NARROW
// RUN: %expect-exit 2 phobos run %s --kernel spin --grid 1 --arg X=%t/X.npy --out %t/o --max-warp-instructions 5000 2>&1 | FileCheck %s --check-prefix=SPIN
// RUN: phobos run %s --kernel uniform --grid 1 --arg X=%t/X.npy --out %t/o
// Barriers and shuffles reached by part of their CTA or warp, and a spin loop that never ends,
// are faults (exit 2); the same ops under uniform control run.

gpu.module @m {
// BAR: sanitizer-divergence.mlir:[[# @LINE + 6]]:7: error: divergent barrier: reached by lanes 0-15 of warp 0 but not by lanes 16-31: a barrier needs every thread of the CTA
  gpu.func @half_barrier(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %l = gpu.lane_id
    %c16 = arith.constant 16 : index
    %c = arith.cmpi ult, %l, %c16 : index
    scf.if %c {
      gpu.barrier
    }
    gpu.return
  }
// WARPS: error: divergent barrier: warps 0 wait at this barrier while warps 1 have returned
  gpu.func @warp_barrier(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c32 = arith.constant 32 : index
    %c = arith.cmpi ult, %t, %c32 : index
    scf.if %c {
      gpu.barrier
    }
    gpu.return
  }
// SHFL: sanitizer-divergence.mlir:[[# @LINE + 9]]:17: error: divergent shuffle: its member mask 0xffffffff names lanes 16-31 of warp 0, which do not execute it
  gpu.func @half_shuffle(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %l = gpu.lane_id
    %c16 = arith.constant 16 : index
    %c = arith.cmpi ult, %l, %c16 : index
    %v = memref.load %x[%l] : memref<1099511627776xf32>
    %one = arith.constant 1 : i32
    %w = arith.constant 32 : i32
    scf.if %c {
      %s, %ok = gpu.shuffle xor %v, %one, %w : f32
    }
    gpu.return
  }
// NARROW: error: divergent shuffle: lanes 16-31 of warp 0 execute it but are not in its member mask 0x0000ffff
  gpu.func @narrow_shuffle(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %l = gpu.lane_id
    %v = memref.load %x[%l] : memref<1099511627776xf32>
    %one = arith.constant 1 : i32
    %w = arith.constant 16 : i32
    %s, %ok = gpu.shuffle xor %v, %one, %w : f32
    gpu.return
  }
// SPIN: sanitizer-divergence.mlir:59:5: error: deadlock: warp 0 ran 5000 instructions in this loop without finishing: a spin loop that never ends, or a wait on a CTA that is not resident
  gpu.func @spin(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %big = arith.constant 1.0e9 : f32
    scf.while : () -> () {
      %flag = memref.load %x[%c0] : memref<1099511627776xf32>
      %wait = arith.cmpf olt, %flag, %big : f32
      scf.condition(%wait)
    } do {
      scf.yield
    }
    gpu.return
  }
  gpu.func @uniform(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1099511627776xf32>
    %one = arith.constant 1 : i32
    %w = arith.constant 32 : i32
    %s, %ok = gpu.shuffle xor %v, %one, %w : f32
    gpu.barrier
    memref.store %s, %x[%t] : memref<1099511627776xf32>
    gpu.return
  }
}
