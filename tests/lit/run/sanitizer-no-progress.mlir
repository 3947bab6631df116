// While loops that provably make no progress, reported at the loop instead of after the
// instruction bound (the check starts after a warp's first 100,000 instructions).
// RUN: %expect-exit 2 timeout 20 phobos run %s --kernel stuck --grid 1 --out %t.out 2>&1 | FileCheck %s
// RUN: %expect-exit 2 timeout 20 phobos run %s --kernel waits --grid 2 --out %t.out2 2>&1 | FileCheck %s --check-prefix=WAITS
gpu.module @m {
  // An iteration changes none of its carried values and reads no memory: it repeats forever.
  // CHECK: sanitizer-no-progress.mlir:[[@LINE+5]]:10: error: deadlock: warp 0 is in a loop that makes no progress: an iteration changed none of its loop-carried values and read no memory, so it repeats forever
  // CHECK-NEXT: in kernel stuck, CTA (0, 0, 0), thread (0, 0, 0)
  gpu.func @stuck() kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %t = arith.constant true
    %r = scf.while (%a = %c0) : (i32) -> i32 {
      scf.condition(%t) %a : i32
    } do {
    ^bb0(%b: i32):
      scf.yield %b : i32
    }
    gpu.return
  }
  // A spin on memory that no thread writes: when every live warp (two CTAs here) spins so,
  // nothing can change any more.
  // WAITS: sanitizer-no-progress.mlir:[[@LINE+6]]:5: error: deadlock: warp 0 spins in this loop on memory that no thread writes any more: every live warp of the resident CTAs is spinning or waiting at a barrier
  gpu.func @waits() kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %z = arith.constant 0 : i32
    %flag = memref.alloca() : memref<1xi32>
    memref.store %z, %flag[%c0] : memref<1xi32>
    scf.while : () -> () {
      %f = memref.load %flag[%c0] : memref<1xi32>
      %wait = arith.cmpi eq, %f, %z : i32
      scf.condition(%wait)
    } do {
      scf.yield
    }
    gpu.return
  }
}
