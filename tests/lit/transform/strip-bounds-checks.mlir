// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(strip-bounds-checks))' | FileCheck %s
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(phobos-simt-to-llvm)' | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: gpu.func @subscript_checks
// CHECK-NOT: cf.assert
// CHECK: memref.load
// LLVM-LABEL: llvm.func @subscript_checks
// LLVM-NOT: llvm.call @abort
// LLVM-NOT: llvm.icmp
// LLVM: llvm.load
gpu.module @m {
  gpu.func @subscript_checks(%a: memref<16xf32>, %i: index, %n: index) kernel {
    %ok = arith.cmpi ult, %i, %n : index
    cf.assert %ok, "A: subscript 0 (i) is outside [0, N)" {phobos.bounds}
    %v = memref.load %a[%i] : memref<16xf32>
    memref.store %v, %a[%i] : memref<16xf32>
    gpu.return
  }
}

// -----

// An assert of the user's (no phobos.bounds) is not a subscript check: it stays.
// CHECK-LABEL: gpu.func @negative_other_assert
// CHECK: cf.assert %{{.*}}, "kept"
gpu.module @m {
  gpu.func @negative_other_assert(%c: i1) kernel {
    cf.assert %c, "kept"
    gpu.return
  }
}
