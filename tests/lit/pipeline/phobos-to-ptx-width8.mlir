// REQUIRES: ptxas
// Width 8: three shfl.sync.bfly with offsets 4, 2, 1 (never 8 or 16, so no piece is crossed);
// width 1: none.
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(phobos-to-ptx{chip=sm_90})' --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: csplit -s -z -f %t.part %t.ptx '/^\/\/ -----$/' && %ptxas-check sm_90 %t.part00 && %ptxas-check sm_90 %t.part01

// CHECK-LABEL: .entry min8(
// CHECK: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// CHECK: min.s32
// CHECK: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK-NOT: shfl.sync
gpu.module @kernels {
  gpu.func @min8(%x: memref<1024xi32> {llvm.noalias, llvm.align = 16 : i64}) kernel {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xi32>
    %r = "lane.reduce"(%v) {kind = "min", width = 8 : i32} : (i32) -> i32
    memref.store %r, %x[%t] : memref<1024xi32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry max1(
// CHECK-NOT: shfl.sync
// CHECK: ret;
gpu.module @kernels {
  gpu.func @max1(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %r = "lane.reduce"(%v) {kind = "max", width = 1 : i32} : (f32) -> f32
    memref.store %r, %x[%t] : memref<1024xf32>
    gpu.return
  }
}
