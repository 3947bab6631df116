// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tile-plan-shared-memory))' | FileCheck %s
// The plan is a remark per buffer, once even when the pass runs twice (phobos-to-simt plans
// twice; phobos explain draws the plan from these remarks).
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tile-plan-shared-memory,tile-plan-shared-memory))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: :25:10: remark: shared 'a': offset 0, 1024 bytes (1x256 of f32)
// REMARK-NEXT: "tile.copy"
// REMARK-NEXT: ^
// REMARK-NEXT: :26:10: remark: shared 'b': offset 1024, 12 bytes (1x3 of f32)
// REMARK-NOT: shared 'a': offset 0, 1024 bytes
// REMARK: remark: shared 'c': offset 0, 256 bytes (1x64 of f32)
// REMARK-NOT: shared 'a': offset 0, 1024 bytes

// Two tiles alive at once get disjoint 16-byte-aligned offsets; a third, copied after the
// first two are dead, reuses offset 0. The kernel's dynamic shared memory is the high mark.
// CHECK-LABEL: gpu.func @reuse
// CHECK-SAME: phobos.dynamic_shared_bytes = 1036 : i64
// CHECK: "tile.copy"{{.*}} {name = "a", offset = 0 : i64
// CHECK: "tile.copy"{{.*}} {name = "b", offset = 1024 : i64
// CHECK: "tile.copy"{{.*}} {name = "c", offset = 0 : i64
gpu.module @m {
  gpu.func @reuse(%x: memref<4096xf32>, %y: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4096 = arith.constant 4096 : index
    %a = "tile.copy"(%x, %c0, %c0, %c1, %c4096) {name = "a", shape = array<i64: 1, 256>} : (memref<4096xf32>, index, index, index, index) -> memref<1x256xf32, #gpu.address_space<workgroup>>
    %b = "tile.copy"(%x, %c0, %c0, %c1, %c4096) {name = "b", shape = array<i64: 1, 3>} : (memref<4096xf32>, index, index, index, index) -> memref<1x3xf32, #gpu.address_space<workgroup>>
    %va = memref.load %a[%c0, %c0] : memref<1x256xf32, #gpu.address_space<workgroup>>
    %vb = memref.load %b[%c0, %c0] : memref<1x3xf32, #gpu.address_space<workgroup>>
    %s = arith.addf %va, %vb : f32
    memref.store %s, %y[%c0] : memref<4096xf32>
    %c = "tile.copy"(%x, %c0, %c0, %c1, %c4096) {name = "c", shape = array<i64: 1, 64>} : (memref<4096xf32>, index, index, index, index) -> memref<1x64xf32, #gpu.address_space<workgroup>>
    %vc = memref.load %c[%c0, %c0] : memref<1x64xf32, #gpu.address_space<workgroup>>
    memref.store %vc, %y[%c1] : memref<4096xf32>
    gpu.return
  }
}

// -----

// A tile read inside a loop stays alive for the whole loop: the next tile cannot reuse it.
// CHECK-LABEL: gpu.func @loop
// CHECK: "tile.copy"{{.*}} {name = "a", offset = 0 : i64
// CHECK: "tile.copy"{{.*}} {name = "b", offset = 16 : i64
gpu.module @m {
  gpu.func @loop(%x: memref<4096xf32>, %y: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c4096 = arith.constant 4096 : index
    %a = "tile.copy"(%x, %c0, %c4096) {name = "a", shape = array<i64: 4>} : (memref<4096xf32>, index, index) -> memref<4xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c4 step %c1 {
      %b = "tile.copy"(%x, %i, %c4096) {name = "b", shape = array<i64: 4>} : (memref<4096xf32>, index, index) -> memref<4xf32, #gpu.address_space<workgroup>>
      %va = memref.load %a[%i] : memref<4xf32, #gpu.address_space<workgroup>>
      %vb = memref.load %b[%i] : memref<4xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %va, %vb : f32
      memref.store %s, %y[%i] : memref<4096xf32>
    }
    gpu.return
  }
}

// -----

// Negative: a kernel without tiles gets no dynamic shared memory.
// CHECK-LABEL: gpu.func @negative_no_tiles
// CHECK-SAME: phobos.dynamic_shared_bytes = 0 : i64
gpu.module @m {
  gpu.func @negative_no_tiles() kernel {
    gpu.return
  }
}

// -----

// A kernel whose tiles were lowered already (views of the dynamic shared memory, as in the
// compiler's own dumps after convert-tile-to-gpu) keeps the plan it carries.
// CHECK-LABEL: gpu.func @lowered_tiles
// CHECK-SAME: phobos.dynamic_shared_bytes = 1024 : i64
gpu.module @m {
  memref.global @__phobos_dynamic_smem : memref<0xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
  gpu.func @lowered_tiles() kernel attributes {phobos.dynamic_shared_bytes = 1024 : i64} {
    %c0 = arith.constant 0 : index
    %base = memref.get_global @__phobos_dynamic_smem : memref<0xi8, #gpu.address_space<workgroup>>
    %v = memref.view %base[%c0][] : memref<0xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
