// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-tile-to-gpu{chip=sm_80}))' | FileCheck %s
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-tile-to-gpu{chip=sm_75}))' | FileCheck %s --check-prefix=SM75
// RUN: not phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-tile-to-gpu{async=maybe}))' 2>&1 | FileCheck %s --check-prefix=BAD
// Tile copies as cp.async (sm_80 and later): the tile's and the tensor's base addresses as LLVM
// pointers, one nvvm.cp.async.shared.global per chunk (.cg for 16 bytes), one group committed
// and waited for before the barrier. Before sm_80 the copy goes through registers.
// BAD: convert-tile-to-gpu: async must be true or false, not 'maybe'
// SM75-NOT: nvvm.cp.async

// A tile inside a tensor of constant sizes: 16-byte copies with no source size.
// CHECK-LABEL: gpu.func @staged
// CHECK: %[[VIEW:.*]] = memref.view {{.*}} {phobos.name = "xs"}
// CHECK: %[[TI:.*]] = memref.extract_aligned_pointer_as_index %[[VIEW]]
// CHECK: %[[T64:.*]] = arith.index_cast %[[TI]] : index to i64
// CHECK: %[[TP:.*]] = llvm.inttoptr %[[T64]] : i64 to !llvm.ptr<3>
// CHECK: %[[XI:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[X64:.*]] = arith.index_cast %[[XI]] : index to i64
// CHECK: %[[XG:.*]] = llvm.inttoptr %[[X64]] : i64 to !llvm.ptr
// CHECK: %[[XP:.*]] = llvm.addrspacecast %[[XG]] : !llvm.ptr to !llvm.ptr<1>
// CHECK: scf.for
// CHECK: %[[FROM:.*]] = llvm.getelementptr %[[XP]][%{{.*}}] {{.*}}: (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK: %[[TO:.*]] = llvm.getelementptr %[[TP]][%{{.*}}] {{.*}}: (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: nvvm.cp.async.shared.global %[[TO]], %[[FROM]], 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NOT: vector.store
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier {phobos.barrier = "kept: threads read the tile xs that other threads copied"}
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

// Sizes known at launch, a proven start: 8-byte chunks (.ca) that copy the elements inside the
// tensor (src-size, the rest zero-filled by the hardware); a chunk wholly outside reads nothing
// from the tensor's start. No element-by-element code.
// CHECK-LABEL: gpu.func @edge
// CHECK: scf.for
// CHECK: %[[MIN:.*]] = arith.minui
// CHECK: %[[N:.*]] = arith.select %{{.*}}, %[[MIN]], %{{.*}} : index
// CHECK: %[[ANY:.*]] = arith.cmpi ne, %[[N]], %{{.*}} : index
// CHECK: %[[FROM:.*]] = arith.select %[[ANY]], %{{.*}}, %{{.*}} : !llvm.ptr<1>
// CHECK: %[[BYTES:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK: %[[SIZE:.*]] = arith.index_cast %[[BYTES]] : index to i32
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %[[FROM]], 8, cache = ca, %[[SIZE]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NOT: phobos.masked
// CHECK: nvvm.cp.async.commit.group
gpu.module @m {
  gpu.func @edge(%x: memref<4096xf32>, %y: memref<4096xf32>, %n: index, %i: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %start = arith.muli %i, %c2 : index
    %xs = "tile.copy"(%x, %start, %n) {name = "xs", offset = 16 : i64, shape = array<i64: 64>} : (memref<4096xf32>, index, index) -> memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %xs[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %y[%c0] : memref<4096xf32>
    gpu.return
  }
}

// -----

// A nonzero fill value: whole chunks are cp.async, a chunk at the edge is stored element by
// element with the fill outside (the hardware zero-fills only).
// CHECK-LABEL: gpu.func @fill
// CHECK: scf.if %{{.*}} {
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: } else {
// CHECK: scf.if {{.*}} -> (f32)
// CHECK: } {phobos.masked}
// CHECK: vector.store
// CHECK: nvvm.cp.async.commit.group
gpu.module @m {
  gpu.func @fill(%x: memref<4096xf32>, %y: memref<4096xf32>, %n: index, %bits: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %xs = "tile.copy"(%x, %c0, %n, %bits) {name = "xs", offset = 0 : i64, shape = array<i64: 64>} : (memref<4096xf32>, index, index, index) -> memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %xs[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %y[%c0] : memref<4096xf32>
    gpu.return
  }
}

// -----

// 2-byte chunks (f16 with no 4-byte alignment proven) have no cp.async: through registers.
// CHECK-LABEL: gpu.func @narrow
// CHECK-NOT: nvvm.cp.async
// CHECK: vector.store
// CHECK-NOT: nvvm.cp.async
// CHECK: gpu.barrier
gpu.module @m {
  gpu.func @narrow(%x: memref<4096xf16>, %y: memref<4096xf16>, %n: index, %start: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %xs = "tile.copy"(%x, %start, %n) {name = "xs", offset = 0 : i64, shape = array<i64: 64>} : (memref<4096xf16>, index, index) -> memref<64xf16, #gpu.address_space<workgroup>>
    %v = memref.load %xs[%c0] : memref<64xf16, #gpu.address_space<workgroup>>
    memref.store %v, %y[%c0] : memref<4096xf16>
    gpu.return
  }
}
