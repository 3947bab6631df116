// REQUIRES: ptxas
// A full-warp f32 sum: five shfl.sync.bfly (16, 8, 4, 2, 1), no shared memory, no barrier;
// ptxas accepts it for sm_90 and sm_80 with no spills.
// RUN: phobos-opt %s --pass-pipeline='builtin.module(phobos-to-ptx{chip=sm_90})' --emit=ptx -o %t.sm90.ptx
// RUN: FileCheck %s < %t.sm90.ptx
// RUN: %ptxas-check sm_90 %t.sm90.ptx | FileCheck %s --check-prefix=PTXAS
// RUN: phobos-opt %s --pass-pipeline='builtin.module(phobos-to-ptx{chip=sm_80})' --emit=ptx -o %t.sm80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.sm80.ptx
// RUN: %ptxas-check sm_80 %t.sm80.ptx | FileCheck %s --check-prefix=PTXAS

// CHECK: .target sm_90
// CHECK: .visible .entry sum32(
// CHECK-NEXT: .param .u64 .ptr .align 16 sum32_param_0
// CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK-NOT: shfl.sync
// CHECK-NOT: bar.sync
// CHECK-NOT: st.shared
// SM80: .target sm_80
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
gpu.module @kernels {
  gpu.func @sum32(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32
    memref.store %r, %x[%t] : memref<1024xf32>
    gpu.return
  }
}
