// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(merge-repeated-checks))' | FileCheck %s
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(merge-repeated-checks,cse))' | FileCheck %s --check-prefix=CSE

// A run read twice: its two checks come once, and CSE then merges the two loads.
// CHECK-LABEL: gpu.func @run_read_twice
// CHECK-COUNT-2: cf.assert
// CHECK-NOT: cf.assert
// CSE-LABEL: gpu.func @run_read_twice
// CSE-COUNT-1: vector.load
// CSE-NOT: vector.load
gpu.module @m {
  gpu.func @run_read_twice(%a: memref<64xi8>, %i: index, %n: index) kernel {
    %c16 = arith.constant 16 : index
    %in = arith.cmpi ult, %i, %n : index
    %e = arith.addi %i, %c16 : index
    %fits = arith.cmpi ule, %e, %n : index
    cf.assert %in, "A: subscript 0 (a) is outside [0, N)" {phobos.bounds}
    cf.assert %fits, "A: the run a :+ 16 leaves [0, N)" {phobos.bounds}
    %v0 = vector.load %a[%i] : memref<64xi8>, vector<16xi8>
    cf.assert %in, "A: subscript 0 (a) is outside [0, N)" {phobos.bounds}
    cf.assert %fits, "A: the run a :+ 16 leaves [0, N)" {phobos.bounds}
    %v1 = vector.load %a[%i] : memref<64xi8>, vector<16xi8>
    %s = arith.addi %v0, %v1 : vector<16xi8>
    vector.store %s, %a[%c16] : memref<64xi8>, vector<16xi8>
    gpu.return
  }
}

// -----

// An assert inside a region follows the outer one: merged. Another condition is kept.
// CHECK-LABEL: gpu.func @nested_after_outer
// CHECK: cf.assert %[[C:.*]], "x"
// CHECK: scf.if
// CHECK-NOT: cf.assert %[[C]]
// CHECK: cf.assert %{{.*}}, "other"
gpu.module @m {
  gpu.func @nested_after_outer(%a: i32, %b: i32) kernel {
    %c = arith.cmpi slt, %a, %b : i32
    %d = arith.cmpi sgt, %a, %b : i32
    cf.assert %c, "x"
    scf.if %d {
      cf.assert %c, "x"
      cf.assert %d, "other"
    }
    gpu.return
  }
}

// -----

// Negative: an assert inside one branch does not cover the code after the branch, nor the
// other branch (neither dominates it): all three stay.
// CHECK-LABEL: gpu.func @negative_branch_does_not_dominate
// CHECK: scf.if
// CHECK: cf.assert
// CHECK: } else {
// CHECK: cf.assert
// CHECK: }
// CHECK: cf.assert
gpu.module @m {
  gpu.func @negative_branch_does_not_dominate(%a: i32, %b: i32, %p: i1) kernel {
    %c = arith.cmpi slt, %a, %b : i32
    scf.if %p {
      cf.assert %c, "x"
    } else {
      cf.assert %c, "x"
    }
    cf.assert %c, "x"
    gpu.return
  }
}

// -----

// Negative: the same comparison computed twice (two SSA values) is two checks until CSE has
// made them one value; the pipeline runs cse first.
// CHECK-LABEL: gpu.func @negative_distinct_values
// CHECK-COUNT-2: cf.assert
gpu.module @m {
  gpu.func @negative_distinct_values(%a: i32, %b: i32) kernel {
    %c = arith.cmpi slt, %a, %b : i32
    cf.assert %c, "x"
    %c2 = arith.cmpi slt, %a, %b : i32
    cf.assert %c2, "x"
    gpu.return
  }
}
