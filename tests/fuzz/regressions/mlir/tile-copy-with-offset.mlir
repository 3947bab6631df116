

// A tensor of sizes known only at launch: the chunk is checked against the edge, and at the
// edge each element is read only when inside (zero otherwise). An unproven start gives 1-wide
// chunks. The element's test is marked phobos.masked (lanes that fail it hold a masked
// element); the chunk's test is not.
// CHECK-LABEL: gpu.func @edge
// CHECK: scf.for
// CHECK: %[[IN:.*]] = arith.cmpi ult
// CHECK: scf.if %{{.*}} -> (vector<1xf32>) {
// CHECK: vector.load {{.*}} vector<1xf32>
// CHECK: } else {
// CHECK: scf.if {{.*}} -> (f32) {
// CHECK: memref.load
// CHECK: } else {
// CHECK: scf.yield %{{.*}} : f32
// CHECK-NEXT: x) } {phobos.masked}
// CHECK: vector.from_elements
// CHECK: vector.store
// CHECK-NEXT: }{{$}}
gpu.module @m {
  gpu.func @edge(%x: memref<4096xf32>, %y: memref<4096xf32>, %n: index, %start: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %xs = "tile.copy"(%x, %start, %n) {name = "xs", offset = 16 : i64, shape = array<i64: 64>} : (memref<4096xf32>, index, index) -> memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %xs[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %y[%c0] : memref<4096xf32>
    gpu.return
  }
}

