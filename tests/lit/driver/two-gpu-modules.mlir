// REQUIRES: numpy
// A module with two gpu.modules: PTX output holds one module (ptxas rejects two concatenated),
// so `phobos compile --emit=ptx` and `phobos-opt --emit=ptx` refuse it, located at the second;
// the IR levels keep both; `phobos run` finds a kernel in either module.
// RUN: %expect-exit 1 phobos compile %s --emit=ptx 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: phobos compile %s --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: %expect-exit 1 phobos-opt %s --phobos-to-ptx=chip=sm_80 --emit=ptx 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: rm -rf %t && mkdir -p %t && %npy range %t/X.npy 32 float32
// RUN: phobos run %s --kernel add1 --grid 1 --arg X=%t/X.npy --out %t/a && %npy print %t/a/X.npy | FileCheck %s --check-prefix=ADD
// RUN: phobos run %s --kernel dbl --grid 1 --arg X=%t/X.npy --out %t/b && %npy print %t/b/X.npy | FileCheck %s --check-prefix=DBL
// RUN: %expect-exit 1 phobos run %s --kernel nope --grid 1 --arg X=%t/X.npy --out %t/c 2>&1 | FileCheck %s --check-prefix=NOPE
// RUN: %expect-exit 1 phobos run %s --grid 1 --arg X=%t/X.npy --out %t/c 2>&1 | FileCheck %s --check-prefix=PICK

// LLVM: gpu.module @a
// LLVM: llvm.func @add1
// LLVM: gpu.module @b
// LLVM: llvm.func @dbl
// OPT: phobos-opt: error: --emit=ptx needs one gpu.binary, the module has 2 (a, b): a PTX file holds one module
// ADD: 1.0 2.0 3.0 4.0 
// DBL: 0.0 2.0 4.0 6.0 
// NOPE: no kernel named 'nope' (the module has: add1, dbl)
// PICK: the module has several kernels; pick one with --kernel (add1, dbl)

gpu.module @a {
  gpu.func @add1(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %one = arith.constant 1.0 : f32
    %v = memref.load %x[%t] : memref<1099511627776xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %x[%t] : memref<1099511627776xf32>
    gpu.return
  }
}
// PTX: two-gpu-modules.mlir:[[# @LINE + 1]]:1: error: a second gpu.module ('b', after 'a'): a PTX file holds one module, so PTX output takes one gpu.module; put every kernel in one, or compile each module from its own file
gpu.module @b {
  gpu.func @dbl(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1099511627776xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %x[%t] : memref<1099511627776xf32>
    gpu.return
  }
}
