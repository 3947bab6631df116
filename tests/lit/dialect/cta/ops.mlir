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

// Redistributions of register arrays round-trip.
// CHECK-LABEL: gpu.func @redistributions
gpu.module @m2 {
  gpu.func @redistributions(%v: vector<4xf32>, %r: vector<4xi32>) kernel {
    // CHECK: "cta.exchange"(%{{.*}}) {from = "blocked(32,4)", to = "(32,4):(1,32)"} : (vector<4xf32>) -> vector<4xf32>
    %0 = "cta.exchange"(%v) {from = "blocked(32,4)", to = "(32,4):(1,32)"} : (vector<4xf32>) -> vector<4xf32>
    // CHECK: "cta.scatter"(%{{.*}}, %{{.*}}) {to = "blocked(32,4)"} : (vector<4xf32>, vector<4xi32>) -> vector<4xf32>
    %1 = "cta.scatter"(%v, %r) {to = "blocked(32,4)"} : (vector<4xf32>, vector<4xi32>) -> vector<4xf32>
    // CHECK: "cta.gather"(%{{.*}}, %{{.*}}) {from = "warp_striped(32,4,32)"} : (vector<4xf32>, vector<4xi32>) -> vector<4xf32>
    %2 = "cta.gather"(%v, %r) {from = "warp_striped(32,4,32)"} : (vector<4xf32>, vector<4xi32>) -> vector<4xf32>
    // CHECK: "tile.alloc"() {name = "buf", shape = array<i64: 8, 64>} : () -> memref<8x64xf32, #gpu.address_space<workgroup>>
    %3 = "tile.alloc"() {name = "buf", shape = array<i64: 8, 64>} : () -> memref<8x64xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
