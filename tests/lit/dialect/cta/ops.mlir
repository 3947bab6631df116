// RUN: phobos-opt %s | FileCheck %s
// RUN: phobos-opt %s | phobos-opt | FileCheck %s

// CHECK-LABEL: gpu.func @cta_forms
gpu.module @m {
  gpu.func @cta_forms(%x: f32, %c: i1, %i: i64) kernel {
    // CHECK: "cta.reduce"(%{{.*}}) {kind = "sum"} : (f32) -> f32
    %0 = "cta.reduce"(%x) {kind = "sum"} : (f32) -> f32
    // CHECK: "cta.reduce"(%{{.*}}) {kind = "all"} : (i1) -> i1
    %1 = "cta.reduce"(%c) {kind = "all"} : (i1) -> i1
    // CHECK: "cta.argmax"(%{{.*}}) : (i64) -> i32
    %2 = "cta.argmax"(%i) : (i64) -> i32
    // CHECK: "cta.reduce_with"(%{{.*}}) ({
    // CHECK: gpu.yield
    // CHECK: }) : (f32) -> f32
    %3 = "cta.reduce_with"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      gpu.yield %s : f32
    }) : (f32) -> f32
    gpu.return
  }
}
