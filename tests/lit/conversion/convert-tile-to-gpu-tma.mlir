// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-tile-to-gpu{chip=sm_90a}))' | FileCheck %s
// A copy tile-tma marked (tma = swizzle span) is one TMA copy: the kernel gains a tensor-map
// parameter (after the others, naming the tensor, the box, the swizzle and the sizes fixed at
// compile time), acquired for the tensormap proxy at the entry, where thread 0 also initialises
// the copy's mbarrier once. At the copy: an async-proxy fence and a barrier (every thread's
// accesses of the bytes come first); thread 0 invalidates and re-initialises the mbarrier for
// one arrival, arrives expecting the tile's bytes and issues cp.async.bulk.tensor (coordinates
// innermost first, i32); after a barrier every thread waits for phase 0, and no barrier follows.
// The dynamic shared memory is 1024-byte aligned.

// CHECK: memref.global "private" @__phobos_mbarriers0 : memref<1xi64, #gpu.address_space<workgroup>>
// CHECK: memref.global @__phobos_dynamic_smem : memref<0xi8, #gpu.address_space<workgroup>> {alignment = 1024 : i64}
// CHECK-LABEL: gpu.func @staged
// CHECK-SAME: %[[MAP:arg[0-9]+]]: i64 {phobos.box = array<i64: 64, 64>, phobos.global_dims = array<i64: -1, 64>, phobos.swizzle = 128 : i64, phobos.tensor_map = "A"}
// CHECK: scf.if
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: nvvm.mbarrier.init
// CHECK: %[[MP:.*]] = llvm.inttoptr %[[MAP]] : i64 to !llvm.ptr
// CHECK: nvvm.fence.proxy.acquire <sys> %[[MP]], %{{.*}}
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier {phobos.barrier = "kept: every thread's accesses of the bytes of as come before its TMA copy writes them"}
// CHECK: scf.if
// CHECK: nvvm.mbarrier.inval %[[BAR:.*]] : !llvm.ptr<3>
// CHECK-NEXT: nvvm.mbarrier.init %[[BAR]], %{{.*}} : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK: %[[BYTES:.*]] = arith.constant 8192 : i32
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[BAR]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK: %[[DST:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %[[MP]], %[[BAR]], box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK: gpu.barrier {phobos.barrier = "kept: every thread sees the mbarrier of the TMA copy of as initialised before it waits on it"}
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: nvvm.mbarrier.try_wait.parity %[[BAR]], %[[ZERO]], %{{.*}} : !llvm.ptr<3>, i32, i32
// CHECK-NOT: gpu.barrier
// CHECK: memref.load
gpu.module @m {
  gpu.func @staged(%a: memref<1099511627776xf16> {llvm.align = 16 : i64, phobos.tensor = "A", phobos.dims = ["M", "64"]}, %m: i64 {phobos.dim = "M"}) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %mi = arith.index_cast %m : i64 to index
    %as = "tile.copy"(%a, %c0, %c0, %mi, %c64) {name = "as", offset = 0 : i64, shape = array<i64: 64, 64>, swizzle = array<i64: 3, 3, 3>, tma = 128 : i64} : (memref<1099511627776xf16>, index, index, index, index) -> memref<64x64xf16, #gpu.address_space<workgroup>>
    %v = memref.load %as[%c0, %c0] : memref<64x64xf16, #gpu.address_space<workgroup>>
    gpu.return
  }
}

