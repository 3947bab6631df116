// RUN: phobos-opt %s --split-input-file --convert-layout-to-arith | FileCheck %s

// Powers of two: shifts and masks; the outermost digit takes no mask; stride 1 no multiply.
// (4,8):(8,1): x = i + 4j -> 8i + j.
// CHECK-LABEL: func.func @pow2
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[I:.*]] = arith.andi %arg0, %[[C3]]
// CHECK: %[[I8:.*]] = arith.shli %[[I]], %[[C3]]
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[J:.*]] = arith.shrui %arg0, %[[C2]]
// CHECK: %[[R:.*]] = arith.addi %[[I8]], %[[J]]
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: return %[[R]]
func.func @pow2(%x: index) -> index {
  %v = "layout.apply"(%x) {layout = "(4,8):(8,1)"} : (index) -> index
  return %v : index
}

// -----
// Coarsest digits first: ((2,2),3):((1,2),4) is 12:1, so the apply is the coordinate itself.
// CHECK-LABEL: func.func @coalesced
// CHECK-NEXT: return %arg0
func.func @coalesced(%x: index) -> index {
  %v = "layout.apply"(%x) {layout = "((2,2),3):((1,2),4)"} : (index) -> index
  return %v : index
}

// -----
// Other extents divide and take remainders; stride 0 (broadcast) costs nothing.
// (3,5,7):(5,0,1): x -> 5(x mod 3) + x / 15.
// CHECK-LABEL: func.func @general
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[A:.*]] = arith.remui %arg0, %[[C3]]
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// CHECK: %[[B:.*]] = arith.muli %[[A]], %[[C5]]
// CHECK: %[[C15:.*]] = arith.constant 15 : index
// CHECK: %[[D:.*]] = arith.divui %arg0, %[[C15]]
// CHECK: %[[R:.*]] = arith.addi %[[B]], %[[D]]
// CHECK-NEXT: return %[[R]]
func.func @general(%x: index) -> index {
  %v = "layout.apply"(%x) {layout = "(3,5,7):(5,0,1)"} : (index) -> index
  return %v : index
}

// -----
// Constant coordinates fold: blocked(4,3) at 5 = thread 1, item 1 = 4.
// CHECK-LABEL: func.func @folded
// CHECK-NOT: arith.{{(muli|addi|divui|remui|andi|shrui|shli)}}
// CHECK: %[[C:.*]] = arith.constant 4 : index
// CHECK-NEXT: return %[[C]]
func.func @folded() -> index {
  %c5 = arith.constant 5 : index
  %v = "layout.apply"(%c5) {layout = "blocked(4,3)"} : (index) -> index
  return %v : index
}

// -----
// Per-mode coordinates: each mode coalesced on its own, no split of the coordinates.
// CHECK-LABEL: func.func @per_mode
// CHECK: %[[T:.*]] = arith.shli %arg1, %{{.*}}
// CHECK: %[[R:.*]] = arith.addi %arg0, %[[T]]
// CHECK-NEXT: return %[[R]]
func.func @per_mode(%t: index, %i: index) -> index {
  %v = "layout.apply"(%t, %i) {layout = "(32,(2,2)):(1,(32,64))"} : (index, index) -> index
  return %v : index
}

// -----
// A restriction: thread %t's slice of blocked(4,3) is 3t + i.
// CHECK-LABEL: func.func @restrict
// CHECK: %[[T:.*]] = arith.muli %arg0, %{{.*}}
// CHECK: %[[R:.*]] = arith.addi %[[T]], %arg1
// CHECK-NEXT: return %[[R]]
func.func @restrict(%t: index, %i: index) -> index {
  %v = "layout.restrict"(%t, %i) {layout = "blocked(4,3)", fixed = array<i64: 0>} : (index, index) -> index
  return %v : index
}

// -----
// A composite is emitted naively: B's value, split into A's digits (here powers of two).
// CHECK-LABEL: func.func @composite
// CHECK: %[[B:.*]] = arith.addi
// CHECK: arith.andi %[[B]]
// CHECK: arith.shrui %[[B]]
// CHECK: return
func.func @composite(%x: index) -> index {
  %v = "layout.apply"(%x) {layout = "compose((2,3):(1,10),(2,3):(3,1))"} : (index) -> index
  return %v : index
}

// -----
// Swizzle<3,4,3> after (8,64):(64,1): xor bits 7..9 into bits 4..6.
// CHECK-LABEL: func.func @swizzle
// CHECK-DAG: %[[MASK:.*]] = arith.constant 896 : index
// CHECK: %[[B:.*]] = arith.andi %[[O:.*]], %[[MASK]]
// CHECK: %[[S:.*]] = arith.shrui %[[B]]
// CHECK: %[[R:.*]] = arith.xori %[[O]], %[[S]]
// CHECK-NEXT: return %[[R]]
func.func @swizzle(%x: index) -> index {
  %v = "layout.apply"(%x) {layout = "swizzle(3,4,3,(8,64):(64,1))"} : (index) -> index
  return %v : index
}

// -----
// Named axes: S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] over the row-major (8,16) index
// x = 16i + j: laneid = 4i + j/2 mod 4, warpid = j/8 mod 2, reg = j mod 2; shifts and masks only,
// no mask on the outermost digit (i = x >> 4).
// CHECK-LABEL: func.func @place
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[REG:.*]] = arith.andi %arg0, %[[C1]]
// CHECK: %[[J2:.*]] = arith.shrui %arg0, %[[C1]]
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[LO:.*]] = arith.andi %[[J2]], %[[C3]]
// CHECK: %[[J8:.*]] = arith.shrui %arg0, %[[C3]]
// CHECK: %[[WARP:.*]] = arith.andi %[[J8]], %[[C1]]
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[I:.*]] = arith.shrui %arg0, %[[C4]]
// CHECK: %[[I4:.*]] = arith.shli %[[I]]
// CHECK: %[[LANE:.*]] = arith.addi %[[LO]], %[[I4]]
// CHECK: return %[[LANE]], %[[WARP]], %[[REG]]
func.func @place(%x: index) -> (index, index, index) {
  %l, %w, %r = "layout.place"(%x) {layout = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]"} : (index) -> (index, index, index)
  return %l, %w, %r : index, index, index
}

// -----
// Inside a kernel, as phobos-to-simt runs it (gpu.module anchor).
// CHECK-LABEL: gpu.func @k
// CHECK-NOT: layout.
// CHECK: gpu.return
gpu.module @m {
  gpu.func @k(%out: memref<128xindex>) kernel {
    %t = gpu.thread_id x
    %v = "layout.apply"(%t) {layout = "warp_striped(64,2,32)", from = "thread-value", into = "logical"} : (index) -> index
    memref.store %v, %out[%t] : memref<128xindex>
    gpu.return
  }
}
