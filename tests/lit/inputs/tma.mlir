// A TMA copy at the SIMT level: thread 0 initialises an mbarrier for one arrival, arrives on
// it expecting the box's 1024 bytes and issues cp.async.bulk.tensor of the 8 x 32 box at row 16
// of X (R x 32 f32, R = 20 in the tests: rows 20 to 23 lie outside and land as zero), stored
// under the 128-byte swizzle; after a barrier every thread waits for phase 0 and then writes
// O[i] = box[i / 32, i % 32] for its four i, unswizzling the offsets. The tensor map is the
// `phobos.tensor_map` parameter the launcher gives. tests/lit/run/tma.test runs it, and variants
// with the wait removed, skipped by a warp, or the wrong byte count.
gpu.module @m {
  memref.global "private" @bar : memref<1xi64, 3> {alignment = 16 : i64}
  memref.global "private" @tile : memref<256xf32, 3> {alignment = 1024 : i64}
  gpu.func @box(%X: memref<640xf32> {phobos.tensor = "X", phobos.dims = ["R", "32"]}, %O: memref<256xf32> {phobos.tensor = "O"}, %R: i64 {phobos.dim = "R"}, %map: i64 {phobos.tensor_map = "X", phobos.box = array<i64: 8, 32>, phobos.swizzle = 128 : i64, phobos.global_dims = array<i64: -1, 32>}) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %one = arith.constant 1 : i32
    %zero = arith.constant 0 : i32
    %row = arith.constant 16 : i32
    %bytes = arith.constant 1024 : i32
    %ticks = arith.constant 10000000 : i32
    %b = memref.get_global @bar : memref<1xi64, 3>
    %bb = memref.extract_aligned_pointer_as_index %b : memref<1xi64, 3> -> index
    %bb64 = arith.index_cast %bb : index to i64
    %bp = llvm.inttoptr %bb64 : i64 to !llvm.ptr<3>
    %s = memref.get_global @tile : memref<256xf32, 3>
    %sb = memref.extract_aligned_pointer_as_index %s : memref<256xf32, 3> -> index
    %sb64 = arith.index_cast %sb : index to i64
    %sp = llvm.inttoptr %sb64 : i64 to !llvm.ptr<3>
    %sc = llvm.addrspacecast %sp : !llvm.ptr<3> to !llvm.ptr<7>
    %mp = llvm.inttoptr %map : i64 to !llvm.ptr
    %first = arith.cmpi eq, %t, %c0 : index
    scf.if %first {
      nvvm.mbarrier.init %bp, %one : !llvm.ptr<3>, i32
      nvvm.fence.mbarrier.init
      nvvm.mbarrier.arrive.expect_tx %bp, %bytes : !llvm.ptr<3>, i32
      nvvm.cp.async.bulk.tensor.shared.cluster.global %sc, %mp, %bp, box[%zero, %row] : !llvm.ptr<7>, !llvm.ptr
    }
    gpu.barrier
    nvvm.mbarrier.try_wait.parity %bp, %zero, %ticks : !llvm.ptr<3>, i32, i32
    %base = arith.muli %t, %c4 : index
    scf.for %e = %c0 to %c4 step %c1 {
      %i = arith.addi %base, %e : index
      %byte = arith.muli %i, %c4 : index
      %line = arith.divui %byte, %c128 : index
      %lo = arith.andi %line, %c7 : index
      %x = arith.muli %lo, %c16 : index
      %sw = arith.xori %byte, %x : index
      %j = arith.divui %sw, %c4 : index
      %v = memref.load %s[%j] : memref<256xf32, 3>
      memref.store %v, %O[%i] : memref<256xf32>
    }
    gpu.return
  }
}
