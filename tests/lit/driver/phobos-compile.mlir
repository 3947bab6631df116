// RUN: phobos compile %s --emit=ptx --chip=sm_80 | FileCheck %s --check-prefix=PTX
// RUN: phobos compile %s --emit=simt | FileCheck %s --check-prefix=SIMT
// RUN: phobos compile %s --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: phobos compile %s --emit=l1 | FileCheck %s --check-prefix=L1
// RUN: rm -rf %t.dump && phobos compile %s -o %t.ptx --dump-ir-dir %t.dump && ls %t.dump | FileCheck %s --check-prefix=DUMP
// RUN: %expect-exit 1 phobos compile %s --chip=sm_13 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: %expect-exit 1 phobos compile %s.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: %expect-exit 1 phobos compile %s --emit=nope 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: %expect-exit 1 env PHOBOS_LGO=1 phobos compile %s 2>&1 | FileCheck %s --check-prefix=ENV

// PTX: .target sm_80
// PTX-COUNT-5: shfl.sync.bfly.b32
// SIMT: gpu.shuffle  xor
// SIMT-NOT: lane.reduce
// LLVM: llvm.func @k
// LLVM: nvvm.shfl.sync bfly
// L1: "lane.reduce"
// DUMP: 00-l1-input.mlir
// DUMP-NEXT: 01-simt-verify-uniformity.mlir
// DUMP-NEXT: 02-simt-contract-fma.mlir
// DUMP-NEXT: 03-simt-lower-fast-math.mlir
// DUMP-NEXT: 04-simt-convert-exchange-to-gpu.mlir
// DUMP-NEXT: 05-simt-tile-plan-shared-memory.mlir
// DUMP-NEXT: 06-simt-infer-barriers.mlir
// DUMP-NEXT: 07-simt-compose-layouts.mlir
// DUMP-NEXT: 08-simt-convert-layout-to-arith.mlir
// DUMP-NEXT: 09-simt-convert-cta-to-gpu.mlir
// DUMP-NEXT: 10-simt-tile-swizzle.mlir
// DUMP-NEXT: 11-simt-tile-tma.mlir
// DUMP-NEXT: 12-simt-tile-plan-shared-memory.mlir
// DUMP-NEXT: 13-simt-tile-pipeline.mlir
// DUMP-NEXT: 14-simt-convert-tile-to-gpu.mlir
// DUMP-NEXT: 15-simt-convert-lane-to-gpu.mlir
// DUMP: {{[0-9]+}}-llvm-nvvm-attach-target.mlir
// DUMP: {{[0-9]+}}-llvm-convert-gpu-to-nvvm.mlir
// DUMP: {{[0-9]+}}-ptx-gpu-module-to-binary.mlir
// CHIP: phobos: error: unsupported chip 'sm_13'
// MISSING: phobos: error: {{.*}}.missing: No such file or directory
// USAGE: phobos: error: invalid value 'nope' for '--emit <EMIT>'
// ENV: error: unknown environment variable PHOBOS_LGO
gpu.module @kernels {
  gpu.func @k(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32
    memref.store %r, %x[%t] : memref<1024xf32>
    gpu.return
  }
}
