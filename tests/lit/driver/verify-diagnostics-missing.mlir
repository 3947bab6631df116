// RUN: %expect-exit 1 phobos-opt %s --verify-diagnostics 2>&1 | FileCheck %s
// RUN: %expect-exit 1 phobos-opt %s --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu{disable-patterns=lane.reduce}))' 2>&1 | FileCheck %s --check-prefix=UNEXPECTED
// An expected error that is not produced fails the run (exit 1) and says which, with the
// comment's line and a caret under it as long as the expected text (as mlir-opt prints it);
// an unexpected one shows its line and a caret.

// CHECK: verify-diagnostics-missing.mlir:[[# @LINE + 8]]:8: error: {{expected}} error "width must be a power of two" was not produced
// CHECK-NEXT: {{^}}    // {{expected}}-error @below {{.*}}width must be a power of two{{.*$}}
// CHECK-NEXT: {{^}}       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~{{$}}
// UNEXPECTED: verify-diagnostics-missing.mlir:[[# @LINE + 6]]:10: error: unexpected error: 'lane.reduce' op was not lowered by convert-lane-to-gpu
// UNEXPECTED-NEXT: {{^}}    %0 = "lane.reduce"(%x) {kind = "sum", width = 8 : i32} : (f32) -> f32
// UNEXPECTED-NEXT: {{^}}         ^{{$}}
gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{width must be a power of two}}
    %0 = "lane.reduce"(%x) {kind = "sum", width = 8 : i32} : (f32) -> f32
    gpu.return
  }
}
