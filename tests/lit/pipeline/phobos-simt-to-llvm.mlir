// RUN: phobos-opt %s --pass-pipeline='builtin.module(phobos-to-simt,phobos-simt-to-llvm{chip=sm_80 O=3})' | FileCheck %s
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(phobos-simt-to-llvm{bogus=1})' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(phobos-to-ptx{exchange=lanes})' 2>&1 | FileCheck %s --check-prefix=BAD-EXCHANGE
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(phobos-to-simt{exchange=lanes})' 2>&1 | FileCheck %s --check-prefix=BAD-SIMT
// The SIMT level to the LLVM dialect: the target attached, bare-pointer kernel arguments.

// CHECK: gpu.module @m [#nvvm.target<O = 3, chip = "sm_80", link = ["{{.*}}libdevice{{.*}}.bc"]>]
// CHECK: llvm.func @k(%{{.*}}: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias})
// CHECK: nvvm.shfl.sync bfly
// BAD: error: no option 'bogus' (options: chip, O, libdevice, fma, fast-math, exchange, lineinfo)
// BAD-EXCHANGE: <pass-pipeline>:1:16: error: exchange must be auto, shuffle or staging, got 'lanes'
// BAD-SIMT: <pass-pipeline>:1:16: error: 'phobos-to-simt': exchange must be auto, shuffle or staging, got 'lanes'
gpu.module @m {
  gpu.func @k(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %r = "lane.reduce"(%v) {kind = "sum", width = 2 : i32} : (f32) -> f32
    memref.store %r, %x[%t] : memref<1024xf32>
    gpu.return
  }
}
