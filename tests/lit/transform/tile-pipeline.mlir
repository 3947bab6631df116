// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tile-plan-shared-memory,tile-pipeline))' 2>/dev/null | FileCheck %s
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tile-plan-shared-memory,tile-pipeline))' 2>&1 >/dev/null | FileCheck %s --check-prefix=DIAG
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tile-plan-shared-memory{chip=sm_75},tile-pipeline{chip=sm_75}))' 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: not phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tile-pipeline))' 2>&1 | FileCheck %s --check-prefix=UNPLANNED
// Software pipelining: a loop marked phobos.pipeline = 3 copies each iteration's tile 2
// iterations ahead into one of 3 buffers (planned as 3 x 256 bytes): after a barrier, a prologue issues
// iterations 0 and 1 (each guarded by its bound, each a commit group), every iteration waits
// for its own group (wait_group 1) and a barrier, issues iteration i + 2 into stage (i + 2) mod 3
// and reads stage i mod 3 through a view at a byte offset known at run time; nothing is in
// flight after the loop.

// DIAG: remark: shared 't': offset 0, 768 bytes (3x64 of f32)
// DIAG: remark: pipelined over 3 stages: t 3 x 256 bytes (768 bytes of shared memory); each iteration's tiles are copied 2 iterations ahead
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: phobos.dynamic_shared_bytes = 768
// CHECK: gpu.barrier {phobos.barrier = "kept: the pipeline's first copies overwrite shared memory that other threads may still read"}
// CHECK: scf.if
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.if
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %[[N:.*]] step %[[STEP:[^ ]*]]
// CHECK: %[[I:.*]] = arith.divui %{{.*}}, %[[STEP]]
// CHECK: %[[STAGE:.*]] = arith.remui %[[I]], %[[C3:.*]] : index
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier {phobos.barrier = "kept: every thread's pipelined copies of this iteration landed, and no thread still reads the stage the next copies overwrite"}
// CHECK: %[[AHEAD:.*]] = arith.addi %[[IV]], %{{.*}} : index
// CHECK: arith.cmpi slt, %[[AHEAD]], %[[N]]
// CHECK: scf.if
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: %[[OFF:.*]] = arith.muli %[[STAGE]], %{{.*}} : index
// CHECK: %[[BYTES:.*]] = arith.addi %{{.*}}, %[[OFF]] : index
// CHECK: %[[VIEW:.*]] = memref.view %{{.*}}[%[[BYTES]]][] {phobos.name = "t"}
// CHECK: memref.load %[[VIEW]]
// CHECK-NOT: tile.copy
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// SM75: remark: shared 't': offset 0, 256 bytes (64 of f32)
// SM75: warning: loop not pipelined: asynchronous copies (cp.async) need sm_80 or later; the target is sm_75
// SM75: "tile.copy"
// UNPLANNED: error: 'tile.copy' op has no planned offset; run tile-plan-shared-memory first
gpu.module @m {
  gpu.func @k(%x: memref<4096xf32>, %y: memref<4096xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %r = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %c0) -> (index) {
      %t = "tile.copy"(%x, %i, %n) {name = "t", shape = array<i64: 64>} : (memref<4096xf32>, index, index) -> memref<64xf32, #gpu.address_space<workgroup>>
      %v = memref.load %t[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %y[%i] : memref<4096xf32>
      scf.yield %acc : index
    } {phobos.pipeline = 3 : i64}
    gpu.return
  }
}

// -----

// A copy whose start the loop loads from memory cannot be issued an iteration ahead: a warning,
// and the copy stays as it is (one buffer).
// DIAG: remark: shared 'u': offset 0, 256 bytes (64 of f32)
// DIAG: warning: loop not pipelined: the copy of u depends on `memref.load` inside the loop, which cannot be computed an iteration ahead
// CHECK-LABEL: gpu.func @loaded
// CHECK: "tile.copy"
// CHECK-NOT: nvvm.cp.async
gpu.module @m {
  gpu.func @loaded(%x: memref<4096xf32>, %starts: memref<64xindex>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %s = memref.load %starts[%i] : memref<64xindex>
      %u = "tile.copy"(%x, %s, %n) {name = "u", shape = array<i64: 64>} : (memref<4096xf32>, index, index) -> memref<64xf32, #gpu.address_space<workgroup>>
      %v = memref.load %u[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %x[%i] : memref<4096xf32>
    } {phobos.pipeline = 2 : i64}
    gpu.return
  }
}

// -----

// A loop that copies no tile has nothing to pipeline: no warning, the mark dropped.
// DIAG-NOT: warning
// CHECK-LABEL: gpu.func @plain
// CHECK: scf.for
// CHECK-NOT: phobos.pipeline
// CHECK: gpu.return
gpu.module @m {
  gpu.func @plain(%x: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f = arith.constant 1.0 : f32
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %f, %x[%i] : memref<4096xf32>
    } {phobos.pipeline = 2 : i64}
    gpu.return
  }
}

// -----

// More than 8 stages (only hand-written IR can ask): a warning, the copy stays synchronous.
// DIAG: warning: loop not pipelined: phobos.pipeline asks for 100 stages; 2 to 8 are pipelined
// CHECK-LABEL: gpu.func @deep
// CHECK: "tile.copy"
gpu.module @m {
  gpu.func @deep(%x: memref<4096xf32>, %y: memref<4096xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %n step %c64 {
      %t = "tile.copy"(%x, %i, %n) {name = "t", shape = array<i64: 64>} : (memref<4096xf32>, index, index) -> memref<64xf32, #gpu.address_space<workgroup>>
      %v = memref.load %t[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %y[%i] : memref<4096xf32>
    } {phobos.pipeline = 100 : i64}
    gpu.return
  }
}

// -----

// The barrier infer-barriers put between a copy and its readers: after pipelining, only the
// next copies (into another stage) and arithmetic lie between it and the barrier after the
// iteration's wait, which orders the same accesses: elided (one barrier an iteration). A
// barrier with a shared-memory store before it is kept.
// DIAG: remark: barrier elided: the pipeline's barrier after this iteration's wait already orders its copies and their readers
// DIAG-NOT: barrier elided
// CHECK-LABEL: gpu.func @one_barrier
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier {phobos.barrier = "kept: every thread's pipelined copies
// CHECK-NOT: gpu.barrier
// CHECK: memref.load
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-LABEL: gpu.func @store_between
// CHECK: scf.for
// CHECK: gpu.barrier {phobos.barrier = "kept: every thread's pipelined copies
// CHECK: memref.store
// CHECK-NEXT: gpu.barrier {phobos.barrier = "inferred: threads write t
// CHECK: nvvm.cp.async.wait.group 0
gpu.module @m {
  gpu.func @one_barrier(%x: memref<4096xf32>, %y: memref<4096xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %n step %c64 {
      %t = "tile.copy"(%x, %i, %n) {name = "t", shape = array<i64: 64>} : (memref<4096xf32>, index, index) -> memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier {phobos.barrier = "inferred: threads write t, which other threads read after"}
      %v = memref.load %t[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %y[%i] : memref<4096xf32>
    } {phobos.pipeline = 2 : i64}
    gpu.return
  }
  gpu.func @store_between(%x: memref<4096xf32>, %y: memref<4096xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %f = arith.constant 1.0 : f32
    scf.for %i = %c0 to %n step %c64 {
      %t = "tile.copy"(%x, %i, %n) {name = "t", shape = array<i64: 64>} : (memref<4096xf32>, index, index) -> memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %f, %t[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier {phobos.barrier = "inferred: threads write t, which other threads read after"}
      %v = memref.load %t[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %y[%i] : memref<4096xf32>
    } {phobos.pipeline = 2 : i64}
    gpu.return
  }
}

// -----

// A copy tile-tma marked is pipelined with TMA: a tensor-map parameter, acquired at the entry,
// where thread 0 also initialises the loop's mbarriers once; after an async-proxy fence and the
// first barrier thread 0 re-initialises one mbarrier per stage (invalidated first: 3 at once)
// for the loop's one TMA copy and issues
// the prologue's copies (arrive.expect_tx of the tile's 8192 bytes, cp.async.bulk.tensor); a
// barrier; each iteration waits on its stage's mbarrier for parity (i / 3) mod 2, then the
// fence and barrier, then thread 0 issues iteration i + 2 on stage (i + 2) mod 3's mbarrier. No
// cp.async group is committed or waited for.
// DIAG: remark: pipelined over 3 stages: a 3 x 8192 bytes (24576 bytes of shared memory); each iteration's tiles are copied 2 iterations ahead
// CHECK-LABEL: gpu.func @tma
// CHECK-SAME: %[[MAP:arg[0-9]+]]: i64 {phobos.box = array<i64: 64, 64>, phobos.global_dims = array<i64: -1, 64>, phobos.swizzle = 128 : i64, phobos.tensor_map = "A"}
// CHECK: scf.if
// CHECK-COUNT-3: nvvm.mbarrier.init
// CHECK: %[[MP:.*]] = llvm.inttoptr %[[MAP]] : i64 to !llvm.ptr
// CHECK: nvvm.fence.proxy.acquire <sys> %[[MP]], %{{.*}}
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier {phobos.barrier = "kept: the pipeline's first copies overwrite shared memory that other threads may still read"}
// CHECK: scf.if
// CHECK: nvvm.mbarrier.inval
// CHECK-NEXT: nvvm.mbarrier.init
// CHECK: nvvm.mbarrier.init
// CHECK: nvvm.mbarrier.init
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: gpu.barrier {phobos.barrier = "kept: every thread sees the pipeline's mbarriers initialised before it waits on them"}
// CHECK: scf.for
// CHECK: %[[I:.*]] = arith.divui
// CHECK: %[[K:.*]] = arith.divui %[[I]], %{{.*}} : index
// CHECK: %[[P:.*]] = arith.andi %[[K]], %{{.*}} : index
// CHECK: %[[PI:.*]] = arith.index_cast %[[P]] : index to i32
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %[[PI]], %{{.*}} : !llvm.ptr<3>, i32, i32
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-NOT: nvvm.cp.async.commit.group
// CHECK-NOT: nvvm.cp.async.wait.group
// CHECK: gpu.return
gpu.module @m {
  gpu.func @tma(%a: memref<1099511627776xf16> {llvm.align = 16 : i64, phobos.tensor = "A", phobos.dims = ["M", "64"]}, %m: i64 {phobos.dim = "M"}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %mi = arith.index_cast %m : i64 to index
    scf.for %i = %c0 to %mi step %c64 {
      %t = "tile.copy"(%a, %i, %c0, %mi, %c64) {name = "a", shape = array<i64: 64, 64>, swizzle = array<i64: 3, 3, 3>, tma = 128 : i64} : (memref<1099511627776xf16>, index, index, index, index) -> memref<64x64xf16, #gpu.address_space<workgroup>>
      %v = memref.load %t[%c0, %c0] : memref<64x64xf16, #gpu.address_space<workgroup>>
    } {phobos.pipeline = 3 : i64}
    gpu.return
  }
}
