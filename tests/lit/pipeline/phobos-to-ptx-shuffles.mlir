// REQUIRES: ptxas
// Every shuffle mode, full-warp and segmented, and a 64-bit value (two words), through ptxas.
// RUN: phobos-opt %s --pass-pipeline='builtin.module(phobos-to-ptx{chip=sm_90})' --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas-check sm_90 %t.ptx
// RUN: phobos-opt %s --pass-pipeline='builtin.module(phobos-to-ptx{chip=sm_80})' --emit=ptx -o %t80.ptx
// RUN: %ptxas-check sm_80 %t80.ptx

// CHECK-LABEL: .entry shuffles(
// CHECK-DAG: shfl.sync.idx.b32
// CHECK-DAG: shfl.sync.down.b32 {{.*}}, 6175, -1;
// CHECK-DAG: shfl.sync.up.b32 {{.*}}, 7168, -1;
// CHECK-DAG: shfl.sync.bfly.b32
// CHECK-NOT: bar.sync
gpu.module @kernels {
  gpu.func @shuffles(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64},
                     %y: memref<1024xf64> {llvm.noalias, llvm.align = 16 : i64}, %o: i32) kernel {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %d = memref.load %y[%t] : memref<1024xf64>
    %c1 = arith.constant 1 : i32
    %a = "lane.shuffle"(%v, %o) {mode = "from"} : (f32, i32) -> f32
    %b = "lane.shuffle"(%a, %c1) {mode = "down", width = 8 : i32} : (f32, i32) -> f32
    %c = "lane.shuffle"(%b, %c1) {mode = "up", width = 4 : i32} : (f32, i32) -> f32
    %e = "lane.shuffle"(%d, %o) {mode = "xor", width = 16 : i32} : (f64, i32) -> f64
    %m = "lane.argmax"(%c) : (f32) -> i32
    %mf = arith.sitofp %m : i32 to f32
    %s = arith.addf %c, %mf : f32
    memref.store %s, %x[%t] : memref<1024xf32>
    memref.store %e, %y[%t] : memref<1024xf64>
    gpu.return
  }
}
