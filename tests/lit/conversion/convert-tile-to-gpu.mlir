// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-tile-to-gpu))' | FileCheck %s

// A tile inside a tensor of constant sizes: 16-byte chunks (4 f32), thread t copies chunks
// t, t + 128, ...; no edge code; one barrier after the copy.
// CHECK-LABEL: gpu.module @m
// CHECK: memref.global @__phobos_dynamic_smem : memref<0xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-LABEL: gpu.func @staged
// CHECK: %[[BASE:.*]] = memref.get_global @__phobos_dynamic_smem
// CHECK: %[[OFF:.*]] = arith.constant 0 : index
// CHECK: %[[VIEW:.*]] = memref.view %[[BASE]][%[[OFF]]][] {phobos.name = "xs"} : memref<0xi8, #gpu.address_space<workgroup>> to memref<1x256xf32, #gpu.address_space<workgroup>>
// CHECK: %[[TID:.*]] = gpu.thread_id  x
// CHECK: %[[CHUNKS:.*]] = arith.constant 64 : index
// CHECK: %[[T:.*]] = arith.constant 128 : index
// CHECK: scf.for %{{.*}} = %[[TID]] to %[[CHUNKS]] step %[[T]] {
// CHECK: %[[V:.*]] = vector.load %{{.*}} : memref<4096xf32>, vector<4xf32>
// CHECK: vector.store %[[V]], %[[VIEW]]
// CHECK-NOT: scf.if
// CHECK: gpu.barrier {phobos.barrier = "kept: threads read the tile xs that other threads copied"}
// CHECK-NOT: tile.copy
gpu.module @m {
  gpu.func @staged(%x: memref<4096xf32>, %y: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %xs = "tile.copy"(%x, %c0, %c0, %c1, %c256) {name = "xs", offset = 0 : i64, shape = array<i64: 1, 256>} : (memref<4096xf32>, index, index, index, index) -> memref<1x256xf32, #gpu.address_space<workgroup>>
    %v = memref.load %xs[%c0, %c0] : memref<1x256xf32, #gpu.address_space<workgroup>>
    memref.store %v, %y[%c0] : memref<4096xf32>
    gpu.return
  }
}

// -----

// A tensor of sizes known only at launch: the chunk is checked against the edge, and at the
// edge each element is read only when inside (zero otherwise). An unproven start gives 1-wide
// chunks. The element's test is marked phobos.masked (lanes that fail it hold a masked
// element); the chunk's test is not.
// CHECK-LABEL: gpu.func @edge
// CHECK: scf.for
// CHECK: %[[IN:.*]] = arith.cmpi ult
// CHECK: scf.if %{{.*}} -> (vector<1xf32>) {
// CHECK: vector.load {{.*}} vector<1xf32>
// CHECK: } else {
// CHECK: scf.if {{.*}} -> (f32) {
// CHECK: memref.load
// CHECK: } else {
// CHECK: scf.yield %{{.*}} : f32
// CHECK-NEXT: } {phobos.masked}
// CHECK: vector.from_elements
// CHECK: vector.store
// CHECK-NEXT: }{{$}}
gpu.module @m {
  gpu.func @edge(%x: memref<4096xf32>, %y: memref<4096xf32>, %n: index, %start: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %xs = "tile.copy"(%x, %start, %n) {name = "xs", offset = 16 : i64, shape = array<i64: 64>} : (memref<4096xf32>, index, index) -> memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %xs[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %y[%c0] : memref<4096xf32>
    gpu.return
  }
}

// -----

// Inside a loop the copy overwrites the tile others read in the previous iteration: a barrier
// before it too.
// CHECK-LABEL: gpu.func @in_loop
// CHECK: scf.for
// CHECK: gpu.barrier {phobos.barrier = "kept: the copy of t overwrites the tile that other threads read in the previous iteration"}
// CHECK: scf.for
// CHECK: gpu.barrier {phobos.barrier = "kept: threads read the tile t that other threads copied"}
gpu.module @m {
  gpu.func @in_loop(%x: memref<4096xf32>, %y: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant 4096 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %t = "tile.copy"(%x, %c0, %n) {name = "t", offset = 0 : i64, shape = array<i64: 32>} : (memref<4096xf32>, index, index) -> memref<32xf32, #gpu.address_space<workgroup>>
      %v = memref.load %t[%i] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %v, %y[%i] : memref<4096xf32>
    }
    gpu.return
  }
}

// -----

// A fill value (its bits as an index after the sizes): the elements outside hold it, back in the
// element type, where they would hold zero.
// CHECK-LABEL: gpu.func @fill
// CHECK-SAME: (%{{.*}}: memref<4096xf32>, %{{.*}}: memref<4096xf32>, %{{.*}}: index, %[[BITS:.*]]: index)
// CHECK: %[[I:.*]] = arith.index_castui %[[BITS]] : index to i32
// CHECK: %[[F:.*]] = arith.bitcast %[[I]] : i32 to f32
// CHECK: scf.if {{.*}} -> (f32)
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[F]] : f32
// CHECK-NOT: arith.constant 0.000000e+00 : f32
gpu.module @m {
  gpu.func @fill(%x: memref<4096xf32>, %y: memref<4096xf32>, %n: index, %bits: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %xs = "tile.copy"(%x, %c0, %n, %bits) {name = "xs", offset = 0 : i64, shape = array<i64: 64>} : (memref<4096xf32>, index, index, index) -> memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %xs[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %y[%c0] : memref<4096xf32>
    gpu.return
  }
}
