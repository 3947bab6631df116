// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(prove-alignment))' | FileCheck %s

// @aligned(K = 128) (phobos.divisibility), a loop start 0 and step 128, and lane * 4: the
// index row * K + k + 4 * lane divides by 4 elements = 16 bytes.
// CHECK-LABEL: gpu.func @matvec_row
// CHECK: vector.load {{.*}} {alignment = 16 : i64} : memref<1024xf32>, vector<4xf32>
gpu.module @m {
  gpu.func @matvec_row(%w: memref<1024xf32> {llvm.align = 16 : i64}, %kk: i64 {phobos.divisibility = 128 : i64}, %row: i32) kernel {
    %k32 = arith.trunci %kk : i64 to i32
    %c0 = arith.constant 0 : i32
    %c128 = arith.constant 128 : i32
    %c4 = arith.constant 4 : i32
    scf.for %k = %c0 to %k32 step %c128 : i32 {
      %l = gpu.lane_id
      %li = arith.index_cast %l : index to i32
      %l4 = arith.muli %li, %c4 : i32
      %at = arith.addi %k, %l4 : i32
      %rk = arith.muli %row, %k32 : i32
      %lin = arith.addi %rk, %at : i32
      %i = arith.index_cast %lin : i32 to index
      %v = vector.load %w[%i] : memref<1024xf32>, vector<4xf32>
    }
    gpu.return
  }
}

// -----

// Negative: the row stride K has no divisibility promise, so the load keeps element alignment.
// CHECK-LABEL: gpu.func @negative_unknown_stride
// CHECK: vector.load %{{.*}}[%{{.*}}] : memref<1024xf32>, vector<4xf32>
gpu.module @m {
  gpu.func @negative_unknown_stride(%w: memref<1024xf32> {llvm.align = 16 : i64}, %kk: i32, %row: i32) kernel {
    %rk = arith.muli %row, %kk : i32
    %i = arith.index_cast %rk : i32 to index
    %v = vector.load %w[%i] : memref<1024xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// Negative: an offset of 3 elements is only element-aligned.
// CHECK-LABEL: gpu.func @negative_odd_offset
// CHECK: vector.load %{{.*}}[%{{.*}}] : memref<1024xf32>, vector<4xf32>
gpu.module @m {
  gpu.func @negative_odd_offset(%w: memref<1024xf32> {llvm.align = 16 : i64}) kernel {
    %c = arith.constant 3 : index
    %v = vector.load %w[%c] : memref<1024xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// An offset of 2 elements of f32 gives 8 bytes: the alignment says so (a narrower proof).
// CHECK-LABEL: gpu.func @partial
// CHECK: vector.load {{.*}} {alignment = 8 : i64}
gpu.module @m {
  gpu.func @partial(%w: memref<1024xf32> {llvm.align = 16 : i64}) kernel {
    %c = arith.constant 2 : index
    %v = vector.load %w[%c] : memref<1024xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// Negative: a base with no llvm.align proves nothing, whatever the index.
// CHECK-LABEL: gpu.func @negative_unaligned_base
// CHECK: vector.load %{{.*}}[%{{.*}}] : memref<1024xf32>, vector<4xf32>
gpu.module @m {
  gpu.func @negative_unaligned_base(%w: memref<1024xf32>) kernel {
    %c = arith.constant 0 : index
    %v = vector.load %w[%c] : memref<1024xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// A 2-D shared tile: the static stride 256 and the column lane * 4 prove 16 bytes; a store too.
// CHECK-LABEL: gpu.func @tile_2d
// CHECK: vector.load {{.*}} {alignment = 16 : i64} : memref<2x256xf32, 3>, vector<4xf32>
// CHECK: vector.store {{.*}} {alignment = 16 : i64} : memref<2x256xf32, 3>, vector<4xf32>
gpu.module @m {
  memref.global "private" @t : memref<2x256xf32, 3> = uninitialized {alignment = 16 : i64}
  gpu.func @tile_2d(%r: index) kernel {
    %g = memref.get_global @t : memref<2x256xf32, 3>
    %l = gpu.lane_id
    %c4 = arith.constant 4 : index
    %col = arith.muli %l, %c4 : index
    %v = vector.load %g[%r, %col] : memref<2x256xf32, 3>, vector<4xf32>
    vector.store %v, %g[%r, %col] : memref<2x256xf32, 3>, vector<4xf32>
    gpu.return
  }
}

// -----

// The claim never exceeds the access: a 2-element i8 vector at an aligned index gets 2.
// CHECK-LABEL: gpu.func @capped
// CHECK: vector.load {{.*}} {alignment = 2 : i64} : memref<1024xi8>, vector<2xi8>
gpu.module @m {
  gpu.func @capped(%w: memref<1024xi8> {llvm.align = 16 : i64}) kernel {
    %c = arith.constant 64 : index
    %v = vector.load %w[%c] : memref<1024xi8>, vector<2xi8>
    gpu.return
  }
}
