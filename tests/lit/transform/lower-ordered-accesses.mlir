// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(lower-ordered-accesses))' | FileCheck %s
// Ordered accesses become LLVM atomic loads and stores at GPU scope on the element's address.

// CHECK-LABEL: gpu.func @global
// CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[B:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: %[[A:.*]] = llvm.getelementptr %[[B]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK: llvm.load %[[A]] atomic syncscope("device") acquire {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: llvm.store %{{.*}}, %{{.*}} atomic syncscope("device") release {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK-NOT: phobos.ordering
gpu.module @m {
  gpu.func @global(%x: memref<1024xi32>, %i: index) kernel {
    %c0 = arith.constant 0 : i32
    %v = memref.atomic_rmw ori %c0, %x[%i] {phobos.ordering = "acquire"} : (i32, memref<1024xi32>) -> i32
    memref.store %v, %x[%i] {phobos.ordering = "release"} : memref<1024xi32>
    gpu.return
  }
}

// -----

// Shared memory keeps its address space; a 2-D buffer's offset is row-major.
// CHECK-LABEL: gpu.func @shared
// CHECK: arith.muli %arg0, %{{.*}} : index
// CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK: llvm.load %{{.*}} atomic syncscope("device") acquire {alignment = 8 : i64} : !llvm.ptr<3> -> i64
gpu.module @m {
  gpu.func @shared(%i: index, %j: index) kernel {
    %buf = memref.alloca() : memref<4x8xi64, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : i64
    %v = memref.atomic_rmw ori %c0, %buf[%i, %j] {phobos.ordering = "acquire"} : (i64, memref<4x8xi64, #gpu.address_space<workgroup>>) -> i64
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @bytes(%x: memref<1024xi8>, %i: index, %v: i8) kernel {
    // expected-error @below {{an ordered access reads or writes 4 or 8 bytes, not i8}}
    memref.store %v, %x[%i] {phobos.ordering = "release"} : memref<1024xi8>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @wrong(%x: memref<1024xi32>, %i: index) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @below {{phobos.ordering "release" is not one Phobos emits here}}
    %v = memref.atomic_rmw ori %c0, %x[%i] {phobos.ordering = "release"} : (i32, memref<1024xi32>) -> i32
    gpu.return
  }
}

// -----

// A compare-and-swap becomes one cmpxchg at GPU scope, relaxed (as CUDA's atomicCAS).
// CHECK-LABEL: gpu.func @cas
// CHECK: %[[X:.*]] = llvm.cmpxchg %{{.*}}, %arg2, %arg3 syncscope("device") monotonic monotonic {alignment = 4 : i64} : !llvm.ptr, i32
// CHECK: llvm.extractvalue %[[X]][0]
// CHECK-NOT: generic_atomic_rmw
gpu.module @m {
  gpu.func @cas(%x: memref<1024xi32>, %i: index, %e: i32, %d: i32) kernel {
    %old = memref.generic_atomic_rmw %x[%i] : memref<1024xi32> {
    ^bb0(%cur: i32):
      %eq = arith.cmpi eq, %cur, %e : i32
      %new = arith.select %eq, %d, %cur : i32
      memref.atomic_yield %new : i32
    }
    memref.store %old, %x[%i] : memref<1024xi32>
    gpu.return
  }
}

// -----

// Any other generic_atomic_rmw is left to MLIR.
// CHECK-LABEL: gpu.func @other
// CHECK: memref.generic_atomic_rmw
gpu.module @m {
  gpu.func @other(%x: memref<1024xi32>, %i: index, %e: i32) kernel {
    %old = memref.generic_atomic_rmw %x[%i] : memref<1024xi32> {
    ^bb0(%cur: i32):
      %s = arith.muli %cur, %e : i32
      memref.atomic_yield %s : i32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @dynamic(%x: memref<?xi32>, %i: index, %v: i32) kernel {
    // expected-error @below {{an ordered access needs a static shape, got memref<?xi32>}}
    memref.store %v, %x[%i] {phobos.ordering = "release"} : memref<?xi32>
    gpu.return
  }
}
