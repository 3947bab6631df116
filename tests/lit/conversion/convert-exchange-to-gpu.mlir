// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(convert-exchange-to-gpu))' | FileCheck %s
// One case per mechanism: the cheapest the two layouts allow, and the remark that says so.

// 1. Identity: blocked spelled out is blocked; the value is used as is.
// CHECK-LABEL: gpu.func @identity
// CHECK-NOT: cta.exchange
// CHECK: vector.store %arg0
gpu.module @m {
  gpu.func @identity(%v: vector<4xf32>, %y: memref<4xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-remark @below {{exchange<"blocked(64,4)", "(64,4):(4,1)">: identity (no shuffles, 0 shared bytes, 0 barriers)}}
    %0 = "cta.exchange"(%v) {from = "blocked(64,4)", to = "(64,4):(4,1)"} : (vector<4xf32>) -> vector<4xf32>
    %c0 = arith.constant 0 : index
    vector.store %0, %y[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// 2. No value changes thread: items 1 and 2 swap in registers; no shuffle, no shared memory.
// CHECK-LABEL: gpu.func @registers
// CHECK-NOT: gpu.shuffle
// CHECK: %[[A:.*]] = vector.extract %arg0[0]
// CHECK: %[[B:.*]] = vector.extract %arg0[2]
// CHECK: %[[C:.*]] = vector.extract %arg0[1]
// CHECK: %[[D:.*]] = vector.extract %arg0[3]
// CHECK: vector.from_elements %[[A]], %[[B]], %[[C]], %[[D]] : vector<4xf32>
// CHECK-NOT: tile.alloc
// CHECK-NOT: gpu.barrier
gpu.module @m {
  gpu.func @registers(%v: vector<4xf32>, %y: memref<4xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-remark @below {{registers (no shuffles, 0 shared bytes, 0 barriers)}}
    %0 = "cta.exchange"(%v) {from = "blocked(64,4)", to = "(64,(2,2)):(4,(2,1))"} : (vector<4xf32>) -> vector<4xf32>
    %c0 = arith.constant 0 : index
    vector.store %0, %y[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// 3a. Values stay in their warp, one item per thread: one shuffle from the lane a layout of
// the thread index names.
// CHECK-LABEL: gpu.func @shuffle
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[L:.*]] = "layout.apply"(%[[T]]) {layout = "(2,16,2):(16,1,0)"}
// CHECK: %[[L32:.*]] = arith.index_cast %[[L]] : index to i32
// CHECK: gpu.shuffle idx %{{.*}}, %[[L32]]
// CHECK-NOT: tile.alloc
// CHECK-NOT: gpu.barrier
gpu.module @m {
  gpu.func @shuffle(%v: vector<1xf32>, %y: memref<4xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-remark @below {{within warps by shuffles (1 shuffle, 0 selects, 0 shared bytes, 0 barriers; cost 2 against 5 staged)}}
    %0 = "cta.exchange"(%v) {from = "blocked(64,1)", to = "((2,16,2),1):((16,1,32),1)"} : (vector<1xf32>) -> vector<1xf32>
    %c0 = arith.constant 0 : index
    vector.store %0, %y[%c0] : memref<4xf32>, vector<1xf32>
    gpu.return
  }
}

// -----

// 3b. blocked to warp_striped, 2 items: values stay in their warp. By shuffles (the cost
// model: 2 shuffles and 4 selects, 9.5 issue slots, against 12 for padded staging): a thread
// swaps its items where bit 0 of a(t) = t/16 mod 2 is set, shuffles item k from lane
// (2,16,2):(16,1,0) xor 16k, and swaps them back where bit 0 of c(t) = t mod 2 is set.
// CHECK-LABEL: gpu.func @warp
// CHECK-DAG: %[[V0:.*]] = vector.extract %arg0[0]
// CHECK-DAG: %[[V1:.*]] = vector.extract %arg0[1]
// CHECK: %[[A:.*]] = "layout.apply"(%{{.*}}) {layout = "(16,2,2):(0,1,0)"}
// CHECK: %[[AB:.*]] = arith.andi %[[A]], %c1
// CHECK: %[[AS:.*]] = arith.cmpi ne, %[[AB]], %c0
// CHECK: %[[S0:.*]] = arith.select %[[AS]], %[[V1]], %[[V0]]
// CHECK: %[[S1:.*]] = arith.select %[[AS]], %[[V0]], %[[V1]]
// CHECK: %[[L:.*]] = "layout.apply"(%{{.*}}) {layout = "(2,16,2):(16,1,0)"}
// CHECK: %[[L0:.*]] = arith.index_cast %[[L]] : index to i32
// CHECK: %[[R0:.*]], %{{.*}} = gpu.shuffle idx %[[S0]], %[[L0]]
// CHECK: %[[LX:.*]] = arith.xori %[[L]], %c16
// CHECK: %[[L1:.*]] = arith.index_cast %[[LX]] : index to i32
// CHECK: %[[R1:.*]], %{{.*}} = gpu.shuffle idx %[[S1]], %[[L1]]
// CHECK: %[[C:.*]] = "layout.apply"(%{{.*}}) {layout = "(2,32):(1,0)"}
// CHECK: %[[CB:.*]] = arith.andi %[[C]]
// CHECK: %[[CS:.*]] = arith.cmpi ne, %[[CB]]
// CHECK: %[[O0:.*]] = arith.select %[[CS]], %[[R1]], %[[R0]]
// CHECK: %[[O1:.*]] = arith.select %[[CS]], %[[R0]], %[[R1]]
// CHECK: vector.from_elements %[[O0]], %[[O1]] : vector<2xf32>
// CHECK-NOT: tile.alloc
// CHECK-NOT: nvvm.bar.warp.sync
gpu.module @m {
  gpu.func @warp(%v: vector<2xf32>, %y: memref<4xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-remark @below {{exchange<"blocked(64,2)", "warp_striped(64,2,32)">: within warps by shuffles (2 shuffles, 4 selects, 0 shared bytes, 0 barriers; cost 9.5 against 12 staged)}}
    %0 = "cta.exchange"(%v) {from = "blocked(64,2)", to = "warp_striped(64,2,32)"} : (vector<2xf32>) -> vector<2xf32>
    %c0 = arith.constant 0 : index
    vector.store %0, %y[%c0] : memref<4xf32>, vector<2xf32>
    gpu.return
  }
}

// -----

// 4. blocked to striped crosses warps: staging between CTA barriers.
// CHECK-LABEL: gpu.func @cta
// CHECK: %[[BUF:.*]] = "tile.alloc"() {name = "exchange staging", phobos.synchronized, shape = array<i64: 131>}
// CHECK: gpu.barrier {phobos.barrier = "kept: the exchange overwrites its staging buffer
// CHECK-COUNT-2: memref.store %{{.*}}, %[[BUF]]
// CHECK: gpu.barrier {phobos.barrier = "kept: threads read items of the staging buffer that other threads wrote"}
// CHECK-COUNT-2: memref.load %[[BUF]]
// CHECK-NOT: nvvm.bar.warp.sync
gpu.module @m {
  gpu.func @cta(%v: vector<2xf32>, %y: memref<4xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-remark @below {{across warps through shared memory (0 shuffles, 524 shared bytes, 1 element of padding per 32, 2 barriers, 0 bank conflicts per CTA)}}
    %0 = "cta.exchange"(%v) {from = "blocked(64,2)", to = "striped(64,2)"} : (vector<2xf32>) -> vector<2xf32>
    %c0 = arith.constant 0 : index
    vector.store %0, %y[%c0] : memref<4xf32>, vector<2xf32>
    gpu.return
  }
}

// -----

// 5. Scatter by rank (i1 staged as bytes): each rank is checked (a phobos.bounds assert, for the
// simulator) and each store carries its item, so the simulator can name a repeated rank.
// CHECK-LABEL: gpu.func @scatter
// CHECK: %[[BUF:.*]] = "tile.alloc"() {name = "exchange staging", phobos.synchronized, shape = array<i64: 128>} : () -> memref<128xi8
// CHECK: gpu.barrier
// CHECK: arith.extui %{{.*}} : i1 to i8
// CHECK: cf.assert %{{.*}}, "scatter: the rank of item 0 is outside [0, 128)" {phobos.bounds}
// CHECK: memref.store %{{.*}}, %[[BUF]][%{{.*}}] {phobos.scatter_item = 0 : i64}
// CHECK: cf.assert %{{.*}}, "scatter: the rank of item 1 is outside [0, 128)" {phobos.bounds}
// CHECK: memref.store %{{.*}}, %[[BUF]][%{{.*}}] {phobos.scatter_item = 1 : i64}
// CHECK: gpu.barrier
// CHECK: "layout.apply"(%{{.*}}) {layout = "blocked(64,2)"}
// CHECK: arith.trunci %{{.*}} : i8 to i1
gpu.module @m {
  gpu.func @scatter(%v: vector<2xi1>, %r: vector<2xi32>, %y: memref<4xi1>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-remark @below {{scatter<"blocked(64,2)">: by rank through shared memory (0 shuffles, 128 shared bytes, no padding, 2 barriers, 0 bank conflicts on the layout side per CTA)}}
    %0 = "cta.scatter"(%v, %r) {to = "blocked(64,2)"} : (vector<2xi1>, vector<2xi32>) -> vector<2xi1>
    %c0 = arith.constant 0 : index
    vector.store %0, %y[%c0] : memref<4xi1>, vector<2xi1>
    gpu.return
  }
}

// -----

// 5b. Gather by rank: stores under the layout, loads at the ranks.
// CHECK-LABEL: gpu.func @gather
// CHECK: "layout.apply"(%{{.*}}) {layout = "striped(64,2)"}
// CHECK: gpu.barrier
// CHECK: cf.assert %{{.*}}, "gather: the rank of item 0 is outside [0, 128)" {phobos.bounds}
// CHECK: memref.load
gpu.module @m {
  gpu.func @gather(%v: vector<2xf64>, %r: vector<2xi32>, %y: memref<4xf64>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-remark @below {{gather<"striped(64,2)">: by rank through shared memory}}
    %0 = "cta.gather"(%v, %r) {from = "striped(64,2)"} : (vector<2xf64>, vector<2xi32>) -> vector<2xf64>
    %c0 = arith.constant 0 : index
    vector.store %0, %y[%c0] : memref<4xf64>, vector<2xf64>
    gpu.return
  }
}
