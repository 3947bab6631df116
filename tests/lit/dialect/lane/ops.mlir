// RUN: phobos-opt %s | FileCheck %s
// RUN: phobos-opt %s | phobos-opt | FileCheck %s
// Every lane op form round-trips (IRDL ops print in generic form).

// CHECK-LABEL: gpu.func @reduce_kinds
gpu.module @m {
  gpu.func @reduce_kinds(%x: f32, %i: i32, %c: i1, %d: f64, %h: f16, %b: i8, %q: i64) kernel {
    // CHECK: "lane.reduce"(%{{.*}}) {kind = "sum"} : (f32) -> f32
    %0 = "lane.reduce"(%x) {kind = "sum"} : (f32) -> f32
    // CHECK: "lane.reduce"(%{{.*}}) {kind = "max", width = 8 : i32} : (i32) -> i32
    %1 = "lane.reduce"(%i) {kind = "max", width = 8 : i32} : (i32) -> i32
    // CHECK: "lane.reduce"(%{{.*}}) {kind = "min", width = 1 : i32} : (f64) -> f64
    %2 = "lane.reduce"(%d) {kind = "min", width = 1 : i32} : (f64) -> f64
    // CHECK: "lane.reduce"(%{{.*}}) {kind = "any"} : (i1) -> i1
    %3 = "lane.reduce"(%c) {kind = "any"} : (i1) -> i1
    // CHECK: "lane.reduce"(%{{.*}}) {kind = "all", width = 16 : i32} : (i1) -> i1
    %4 = "lane.reduce"(%c) {kind = "all", width = 16 : i32} : (i1) -> i1
    // CHECK: "lane.reduce"(%{{.*}}) {kind = "sum"} : (f16) -> f16
    %5 = "lane.reduce"(%h) {kind = "sum"} : (f16) -> f16
    // CHECK: "lane.reduce"(%{{.*}}) {kind = "sum", width = 4 : i32} : (i8) -> i8
    %6 = "lane.reduce"(%b) {kind = "sum", width = 4 : i32} : (i8) -> i8
    // CHECK: "lane.reduce"(%{{.*}}) {kind = "max"} : (i64) -> i64
    %7 = "lane.reduce"(%q) {kind = "max"} : (i64) -> i64
    gpu.return
  }
}

// CHECK-LABEL: gpu.func @argmax_and_custom
gpu.module @n {
  func.func private @mx(%a: f32, %b: f32) -> f32 {
    %m = arith.maximumf %a, %b : f32
    return %m : f32
  }
  gpu.func @argmax_and_custom(%x: f32) kernel {
    // CHECK: "lane.argmax"(%{{.*}}) : (f32) -> i32
    %0 = "lane.argmax"(%x) : (f32) -> i32
    // CHECK: "lane.argmax"(%{{.*}}) {width = 8 : i32} : (f32) -> i32
    %1 = "lane.argmax"(%x) {width = 8 : i32} : (f32) -> i32
    // CHECK: "lane.argmin"(%{{.*}}) : (f32) -> i32
    %n0 = "lane.argmin"(%x) : (f32) -> i32
    // CHECK: "lane.argmin"(%{{.*}}) {width = 2 : i32} : (f32) -> i32
    %n1 = "lane.argmin"(%x) {width = 2 : i32} : (f32) -> i32
    // CHECK: "lane.reduce_with"(%{{.*}}) ({
    // CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
    // CHECK: arith.maximumf %[[A]], %[[B]] : f32
    // CHECK: gpu.yield
    // CHECK: }) {width = 16 : i32} : (f32) -> f32
    %2 = "lane.reduce_with"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.maximumf %a, %b : f32
      gpu.yield %m : f32
    }) {width = 16 : i32} : (f32) -> f32
    // CHECK: "lane.reduce_with"(%{{.*}}) ({
    // CHECK: }) {combine = @mx} : (f32) -> f32
    %3 = "lane.reduce_with"(%x) ({}) {combine = @mx} : (f32) -> f32
    gpu.return
  }
}

// CHECK-LABEL: gpu.func @shuffles
gpu.module @s {
  gpu.func @shuffles(%x: f32, %o: i32, %q: i64) kernel {
    // CHECK: "lane.shuffle"(%{{.*}}, %{{.*}}) {mode = "from"} : (f32, i32) -> f32
    %0 = "lane.shuffle"(%x, %o) {mode = "from"} : (f32, i32) -> f32
    // CHECK: "lane.shuffle"(%{{.*}}, %{{.*}}) {mode = "xor", width = 8 : i32} : (f32, i32) -> f32
    %1 = "lane.shuffle"(%x, %o) {mode = "xor", width = 8 : i32} : (f32, i32) -> f32
    // CHECK: "lane.shuffle"(%{{.*}}, %{{.*}}) {mode = "down"} : (i64, i32) -> i64
    %2 = "lane.shuffle"(%q, %o) {mode = "down"} : (i64, i32) -> i64
    // CHECK: "lane.shuffle"(%{{.*}}, %{{.*}}) {mode = "up", width = 2 : i32} : (f32, i32) -> f32
    %3 = "lane.shuffle"(%x, %o) {mode = "up", width = 2 : i32} : (f32, i32) -> f32
    gpu.return
  }
}
