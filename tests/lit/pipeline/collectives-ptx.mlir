// REQUIRES: ptxas
// Every collective and shuffle form through phobos-to-ptx, for sm_90 and sm_80: the shuffle and
// barrier counts the lowerings promise (64-bit values move as two words), no shared memory
// and no barrier for lane collectives, and ptxas accepts each with no spills.
// The CTA forms use 4 warps (128 threads): 5 + 2 shuffles per fold. convert-cta-to-gpu emits
// its three barriers (conversion/convert-cta-to-gpu.mlir counts them); here, alone in its
// kernel, elide-barriers drops the first (no shared access before it) and the last (none after
// it), and one barrier is left between the scratch's write and its read.
// RUN: phobos-opt %s --pass-pipeline='builtin.module(phobos-to-ptx{chip=sm_90})' --emit=ptx -o %t.sm90.ptx
// RUN: FileCheck %s < %t.sm90.ptx
// RUN: %ptxas-check sm_90 %t.sm90.ptx | FileCheck %s --check-prefix=PTXAS
// RUN: phobos-opt %s --pass-pipeline='builtin.module(phobos-to-ptx{chip=sm_80})' --emit=ptx -o %t.sm80.ptx
// RUN: FileCheck %s < %t.sm80.ptx
// RUN: %ptxas-check sm_80 %t.sm80.ptx | FileCheck %s --check-prefix=PTXAS

// CHECK-LABEL: .entry lane_sum_f32_w32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-5: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry lane_max_f32_w32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-5: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry lane_min_i32_w32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-5: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry lane_sum_i32_w8(
// CHECK-NOT: bar.sync
// CHECK-COUNT-3: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry lane_max_f64_w32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-10: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry lane_sum_i64_w16(
// CHECK-NOT: bar.sync
// CHECK-COUNT-8: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry lane_min_f16_w32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-5: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry lane_sum_i8_w4(
// CHECK-NOT: bar.sync
// CHECK-COUNT-2: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry lane_sum_f32_w1(
// CHECK-NOT: bar.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry lane_any_w32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-5: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry lane_all_w8(
// CHECK-NOT: bar.sync
// CHECK-COUNT-3: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry lane_argmax_f32_w32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-10: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry lane_argmax_i32_w4(
// CHECK-NOT: bar.sync
// CHECK-COUNT-4: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry lane_argmin_f64_w16(
// CHECK-NOT: bar.sync
// CHECK-COUNT-12: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry lane_reduce_with_f32_w32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-5: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry shfl_from_w32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-1: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry shfl_xor_w32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-1: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry shfl_down_w32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-1: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry shfl_up_w32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-1: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry shfl_from_w8(
// CHECK-NOT: bar.sync
// CHECK-COUNT-1: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry shfl_xor_w8(
// CHECK-NOT: bar.sync
// CHECK-COUNT-1: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry shfl_down_w8(
// CHECK-NOT: bar.sync
// CHECK-COUNT-1: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry shfl_up_w8(
// CHECK-NOT: bar.sync
// CHECK-COUNT-1: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry shfl_down_f64_w32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-2: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry cta_sum_f32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-5: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK: st.shared
// CHECK: bar.sync
// CHECK: ld.shared
// CHECK-COUNT-2: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry cta_max_i32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-5: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK: st.shared
// CHECK: bar.sync
// CHECK: ld.shared
// CHECK-COUNT-2: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry cta_any(
// CHECK-NOT: bar.sync
// CHECK-COUNT-5: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK: st.shared
// CHECK: bar.sync
// CHECK: ld.shared
// CHECK-COUNT-2: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry cta_argmax_f32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-10: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK: st.shared
// CHECK: bar.sync
// CHECK: ld.shared
// CHECK-COUNT-4: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry cta_reduce_with_f32(
// CHECK-NOT: bar.sync
// CHECK-COUNT-5: shfl.sync
// CHECK-NOT: shfl.sync
// CHECK: st.shared
// CHECK: bar.sync
// CHECK: ld.shared
// CHECK-NOT: shfl.sync
// CHECK-NOT: bar.sync
// (ptxas-check.sh fails on any spill.)
// PTXAS: Used {{[0-9]+}} registers
gpu.module @kernels {
  gpu.func @lane_sum_f32_w32(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32
    memref.store %r, %y[%t] : memref<1024xf32>
    gpu.return
  }
  gpu.func @lane_max_f32_w32(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %r = "lane.reduce"(%v) {kind = "max"} : (f32) -> f32
    memref.store %r, %y[%t] : memref<1024xf32>
    gpu.return
  }
  gpu.func @lane_min_i32_w32(%x: memref<1024xi32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xi32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xi32>
    %r = "lane.reduce"(%v) {kind = "min"} : (i32) -> i32
    memref.store %r, %y[%t] : memref<1024xi32>
    gpu.return
  }
  gpu.func @lane_sum_i32_w8(%x: memref<1024xi32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xi32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xi32>
    %r = "lane.reduce"(%v) {kind = "sum", width = 8 : i32} : (i32) -> i32
    memref.store %r, %y[%t] : memref<1024xi32>
    gpu.return
  }
  gpu.func @lane_max_f64_w32(%x: memref<1024xf64> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf64> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf64>
    %r = "lane.reduce"(%v) {kind = "max"} : (f64) -> f64
    memref.store %r, %y[%t] : memref<1024xf64>
    gpu.return
  }
  gpu.func @lane_sum_i64_w16(%x: memref<1024xi64> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xi64> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xi64>
    %r = "lane.reduce"(%v) {kind = "sum", width = 16 : i32} : (i64) -> i64
    memref.store %r, %y[%t] : memref<1024xi64>
    gpu.return
  }
  gpu.func @lane_min_f16_w32(%x: memref<1024xf16> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf16> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf16>
    %r = "lane.reduce"(%v) {kind = "min"} : (f16) -> f16
    memref.store %r, %y[%t] : memref<1024xf16>
    gpu.return
  }
  gpu.func @lane_sum_i8_w4(%x: memref<1024xi8> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xi8> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xi8>
    %r = "lane.reduce"(%v) {kind = "sum", width = 4 : i32} : (i8) -> i8
    memref.store %r, %y[%t] : memref<1024xi8>
    gpu.return
  }
  gpu.func @lane_sum_f32_w1(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %r = "lane.reduce"(%v) {kind = "sum", width = 1 : i32} : (f32) -> f32
    memref.store %r, %y[%t] : memref<1024xf32>
    gpu.return
  }
  gpu.func @lane_any_w32(%x: memref<1024xi8> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xi8> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %raw = memref.load %x[%t] : memref<1024xi8>
    %z = arith.constant 0 : i8
    %v = arith.cmpi ne, %raw, %z : i8
    %r = "lane.reduce"(%v) {kind = "any"} : (i1) -> i1
    %rs = arith.extui %r : i1 to i8
    memref.store %rs, %y[%t] : memref<1024xi8>
    gpu.return
  }
  gpu.func @lane_all_w8(%x: memref<1024xi8> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xi8> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %raw = memref.load %x[%t] : memref<1024xi8>
    %z = arith.constant 0 : i8
    %v = arith.cmpi ne, %raw, %z : i8
    %r = "lane.reduce"(%v) {kind = "all", width = 8 : i32} : (i1) -> i1
    %rs = arith.extui %r : i1 to i8
    memref.store %rs, %y[%t] : memref<1024xi8>
    gpu.return
  }
  gpu.func @lane_argmax_f32_w32(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xi32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %r = "lane.argmax"(%v) : (f32) -> i32
    memref.store %r, %y[%t] : memref<1024xi32>
    gpu.return
  }
  gpu.func @lane_argmax_i32_w4(%x: memref<1024xi32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xi32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xi32>
    %r = "lane.argmax"(%v) {width = 4 : i32} : (i32) -> i32
    memref.store %r, %y[%t] : memref<1024xi32>
    gpu.return
  }
  gpu.func @lane_argmin_f64_w16(%x: memref<1024xf64> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xi32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf64>
    %r = "lane.argmin"(%v) {width = 16 : i32} : (f64) -> i32
    memref.store %r, %y[%t] : memref<1024xi32>
    gpu.return
  }
  gpu.func @lane_reduce_with_f32_w32(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %r = "lane.reduce_with"(%v) ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.maximumf %a, %b : f32
      gpu.yield %m : f32
    }) : (f32) -> f32
    memref.store %r, %y[%t] : memref<1024xf32>
    gpu.return
  }
  gpu.func @shfl_from_w32(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %k = arith.constant 1 : i32
    %r = "lane.shuffle"(%v, %k) {mode = "from"} : (f32, i32) -> f32
    memref.store %r, %y[%t] : memref<1024xf32>
    gpu.return
  }
  gpu.func @shfl_xor_w32(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %k = arith.constant 1 : i32
    %r = "lane.shuffle"(%v, %k) {mode = "xor"} : (f32, i32) -> f32
    memref.store %r, %y[%t] : memref<1024xf32>
    gpu.return
  }
  gpu.func @shfl_down_w32(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %k = arith.constant 1 : i32
    %r = "lane.shuffle"(%v, %k) {mode = "down"} : (f32, i32) -> f32
    memref.store %r, %y[%t] : memref<1024xf32>
    gpu.return
  }
  gpu.func @shfl_up_w32(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %k = arith.constant 1 : i32
    %r = "lane.shuffle"(%v, %k) {mode = "up"} : (f32, i32) -> f32
    memref.store %r, %y[%t] : memref<1024xf32>
    gpu.return
  }
  gpu.func @shfl_from_w8(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %k = arith.constant 1 : i32
    %r = "lane.shuffle"(%v, %k) {mode = "from", width = 8 : i32} : (f32, i32) -> f32
    memref.store %r, %y[%t] : memref<1024xf32>
    gpu.return
  }
  gpu.func @shfl_xor_w8(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %k = arith.constant 1 : i32
    %r = "lane.shuffle"(%v, %k) {mode = "xor", width = 8 : i32} : (f32, i32) -> f32
    memref.store %r, %y[%t] : memref<1024xf32>
    gpu.return
  }
  gpu.func @shfl_down_w8(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %k = arith.constant 1 : i32
    %r = "lane.shuffle"(%v, %k) {mode = "down", width = 8 : i32} : (f32, i32) -> f32
    memref.store %r, %y[%t] : memref<1024xf32>
    gpu.return
  }
  gpu.func @shfl_up_w8(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %k = arith.constant 1 : i32
    %r = "lane.shuffle"(%v, %k) {mode = "up", width = 8 : i32} : (f32, i32) -> f32
    memref.store %r, %y[%t] : memref<1024xf32>
    gpu.return
  }
  gpu.func @shfl_down_f64_w32(%x: memref<1024xf64> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf64> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf64>
    %k = arith.constant 1 : i32
    %r = "lane.shuffle"(%v, %k) {mode = "down"} : (f64, i32) -> f64
    memref.store %r, %y[%t] : memref<1024xf64>
    gpu.return
  }
  gpu.func @cta_sum_f32(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %r = "cta.reduce"(%v) {kind = "sum"} : (f32) -> f32
    memref.store %r, %y[%t] : memref<1024xf32>
    gpu.return
  }
  gpu.func @cta_max_i32(%x: memref<1024xi32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xi32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xi32>
    %r = "cta.reduce"(%v) {kind = "max"} : (i32) -> i32
    memref.store %r, %y[%t] : memref<1024xi32>
    gpu.return
  }
  gpu.func @cta_any(%x: memref<1024xi8> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xi8> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %raw = memref.load %x[%t] : memref<1024xi8>
    %z = arith.constant 0 : i8
    %v = arith.cmpi ne, %raw, %z : i8
    %r = "cta.reduce"(%v) {kind = "any"} : (i1) -> i1
    %rs = arith.extui %r : i1 to i8
    memref.store %rs, %y[%t] : memref<1024xi8>
    gpu.return
  }
  gpu.func @cta_argmax_f32(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xi32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %r = "cta.argmax"(%v) : (f32) -> i32
    memref.store %r, %y[%t] : memref<1024xi32>
    gpu.return
  }
  gpu.func @cta_reduce_with_f32(%x: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}, %y: memref<1024xf32> {llvm.noalias, llvm.align = 16 : i64}) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %r = "cta.reduce_with"(%v) ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.addf %a, %b : f32
      gpu.yield %m : f32
    }) : (f32) -> f32
    memref.store %r, %y[%t] : memref<1024xf32>
    gpu.return
  }
}
