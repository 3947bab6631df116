// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(elide-barriers))' | FileCheck %s

// A barrier with no shared access before it (since the kernel's start or the previous barrier)
// and one with none after it before the kernel ends order nothing: elided, with a remark. The
// barrier between the write and the read of shared memory is kept and says why.
// CHECK-LABEL: gpu.func @cta_fold_alone
// CHECK: memref.store
// CHECK-NEXT: gpu.barrier {phobos.barrier = "kept: orders shared-memory accesses before and after it"}
// CHECK-NEXT: memref.load
// CHECK-NOT: gpu.barrier
gpu.module @m {
  memref.global "private" @s : memref<32xf32, #gpu.address_space<workgroup>> = uninitialized
  gpu.func @cta_fold_alone(%x: f32, %y: memref<1xf32>) kernel {
    %g = memref.get_global @s : memref<32xf32, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    gpu.barrier // expected-remark {{barrier elided: no shared-memory access since the previous barrier (or the kernel's start)}}
    memref.store %x, %g[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %v = memref.load %g[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.barrier // expected-remark {{barrier elided: no shared-memory access after it before the kernel ends}}
    memref.store %v, %y[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

// Negative: barriers inside a loop body are kept (the loop's back edge may bring accesses);
// two barriers in a row lose the second.
// CHECK-LABEL: gpu.func @negative_loop
// CHECK: scf.for
// CHECK-NEXT: gpu.barrier {phobos.barrier = "kept
// CHECK-NEXT: memref.store
// CHECK-NEXT: gpu.barrier {phobos.barrier = "kept
// CHECK-NEXT: memref.load
gpu.module @m {
  memref.global "private" @s : memref<32xf32, #gpu.address_space<workgroup>> = uninitialized
  gpu.func @negative_loop(%x: f32, %y: memref<4xf32>) kernel {
    %g = memref.get_global @s : memref<32xf32, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      gpu.barrier
      memref.store %x, %g[%i] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      gpu.barrier // expected-remark {{barrier elided: no shared-memory access since the previous barrier (or the kernel's start)}}
      %v = memref.load %g[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %v, %y[%i] : memref<4xf32>
    }
    gpu.return
  }
}

// -----

// An ldmatrix reads shared memory by address: the barrier between the stores and it is kept
// (an address computation alone, getelementptr, is no access).
// CHECK-LABEL: gpu.func @ldmatrix_reads
// CHECK: memref.store
// CHECK-NEXT: gpu.barrier {phobos.barrier = "kept: orders shared-memory accesses before and after it"}
// CHECK: nvvm.ldmatrix
gpu.module @m {
  memref.global "private" @s : memref<256xf16, #gpu.address_space<workgroup>> = uninitialized {alignment = 16 : i64}
  gpu.func @ldmatrix_reads(%x: f16, %y: memref<32xi32>) kernel {
    %g = memref.get_global @s : memref<256xf16, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    memref.store %x, %g[%c0] : memref<256xf16, #gpu.address_space<workgroup>>
    gpu.barrier
    %p0 = memref.extract_aligned_pointer_as_index %g : memref<256xf16, #gpu.address_space<workgroup>> -> index
    %p1 = arith.index_cast %p0 : index to i64
    %p2 = llvm.inttoptr %p1 : i64 to !llvm.ptr<3>
    %c16 = arith.constant 16 : i64
    %p = llvm.getelementptr %p2[%c16] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
    %f = nvvm.ldmatrix %p {num = 1 : i32, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : (!llvm.ptr<3>) -> i32
    memref.store %f, %y[%c0] : memref<32xi32>
    gpu.return
  }
}
