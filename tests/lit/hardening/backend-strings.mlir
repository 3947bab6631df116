// A string the NVPTX back end trusts (it aborts on a bad syncscope) is checked first: a located
// error, exit 1, from phobos compile and from any phobos-opt pipeline that reaches NVPTX.
// RUN: phobos-opt %s --verify-diagnostics --pass-pipeline='builtin.module(phobos-to-ptx)' -o /dev/null
// RUN: %expect-exit 1 phobos compile %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: backend-strings.mlir:12:5: error: 'llvm.fence' has syncscope("bogus"), which NVPTX does not know; the scopes are "", "singlethread", "block", "cluster", "device"
// CHECK-NOT: internal error
gpu.module @m {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // Known scopes pass.
    llvm.fence syncscope("block") acquire
    // expected-error @+1 {{'llvm.fence' has syncscope("bogus"), which NVPTX does not know}}
    llvm.fence syncscope("bogus") seq_cst
    gpu.return
  }
}
