// Two warps stage X (256 f32) in shared memory with cp.async, 16 bytes a thread, from global
// addresses (memref.extract_aligned_pointer_as_index of X, llvm.inttoptr, llvm.addrspacecast to
// !llvm.ptr<1>, llvm.getelementptr); thread 63 reads only its first element (src-size 4: the
// other three are zero-filled). One group committed and waited for, a barrier, then thread t
// writes O[i] = tile[255 - i] for its four i: elements another warp copied.
// tests/lit/run/cp-async.test runs it, and variants with the wait or the barrier removed.
gpu.module @m {
  memref.global "private" @tile : memref<256xf32, 3> {alignment = 16 : i64}
  gpu.func @stage(%X: memref<256xf32> {phobos.tensor = "X"}, %O: memref<256xf32> {phobos.tensor = "O"}) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %s = memref.get_global @tile : memref<256xf32, 3>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c63 = arith.constant 63 : index
    %c255 = arith.constant 255 : index
    %byte = arith.muli %t, %c16 : index
    %byte64 = arith.index_cast %byte : index to i64
    %sb = memref.extract_aligned_pointer_as_index %s : memref<256xf32, 3> -> index
    %sb64 = arith.index_cast %sb : index to i64
    %sp0 = llvm.inttoptr %sb64 : i64 to !llvm.ptr<3>
    %sp = llvm.getelementptr %sp0[%byte64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    %xb = memref.extract_aligned_pointer_as_index %X : memref<256xf32> -> index
    %xb64 = arith.index_cast %xb : index to i64
    %xg = llvm.inttoptr %xb64 : i64 to !llvm.ptr
    %xp0 = llvm.addrspacecast %xg : !llvm.ptr to !llvm.ptr<1>
    %xp = llvm.getelementptr %xp0[%byte64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
    %last = arith.cmpi eq, %t, %c63 : index
    %c4i = arith.constant 4 : i32
    %c16i = arith.constant 16 : i32
    %n = arith.select %last, %c4i, %c16i : i32
    nvvm.cp.async.shared.global %sp, %xp, 16, cache = cg, %n : !llvm.ptr<3>, !llvm.ptr<1>, i32
    nvvm.cp.async.commit.group
    nvvm.cp.async.wait.group 0
    gpu.barrier
    %first = arith.muli %t, %c4 : index
    scf.for %e = %c0 to %c4 step %c1 {
      %i = arith.addi %first, %e : index
      %j = arith.subi %c255, %i : index
      %v = memref.load %s[%j] : memref<256xf32, 3>
      memref.store %v, %O[%i] : memref<256xf32>
    }
    gpu.return
  }
}
