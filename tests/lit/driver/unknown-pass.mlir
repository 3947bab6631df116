// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(gpu.module(no-such-pass))' 2>&1 | FileCheck %s
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(convert-lane-to-gpu)' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(convert-gpu-to-nvvm)' 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='gpu.module(convert-lane-to-gpu)' 2>&1 | FileCheck %s --check-prefix=TOP
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='convert-lane-to-gpu' 2>&1 | FileCheck %s --check-prefix=UNANCHORED
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu' 2>&1 | FileCheck %s --check-prefix=PAREN
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(gpu.module(gpu-lower-to-nvvm-pipeline))' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(gpu.module(gpu.func(gpu-lower-to-nvvm-pipeline)))' 2>&1 | FileCheck %s --check-prefix=FUNC
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu)))' 2>&1 | FileCheck %s --check-prefix=EXTRA
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu) canonicalize)' 2>&1 | FileCheck %s --check-prefix=COMMA
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=1)' 2>&1 | FileCheck %s --check-prefix=BRACE
// Pipeline mistakes are located in the pipeline text and exit 1; none reaches MLIR's aborts. A
// pipeline anchored on another op than the input's fails at that op, as in mlir-opt.

// CHECK: <pass-pipeline>:1:27: error: 'no-such-pass' does not refer to a registered pass or pass pipeline
// ANCHOR: <pass-pipeline>:1:16: error: pass 'convert-lane-to-gpu' runs on 'gpu.module' ops, not on 'builtin.module'; nest it: gpu.module(convert-lane-to-gpu)
// UPSTREAM: <pass-pipeline>:1:16: error: Can't add pass 'ConvertGpuOpsToNVVMOps' restricted to 'gpu.module'
// TOP: unknown-pass.mlir:0:0: error: can't run 'gpu.module' pass manager on 'builtin.module' op
// UNANCHORED: <pass-pipeline>:1:1: error: expected pass pipeline to be wrapped with the anchor operation type
// PAREN: <pass-pipeline>:1:26: error: encountered unbalanced parentheses while parsing pipeline
// NESTED: <pass-pipeline>:1:27: error: pipeline 'gpu-lower-to-nvvm-pipeline' runs on 'builtin.module', not on 'gpu.module'
// EXTRA: <pass-pipeline>:1:48: error: encountered extra closing ')' creating unbalanced parentheses while parsing pipeline
// COMMA: <pass-pipeline>:1:48: error: expected ',' after parsing pipeline
// BRACE: <pass-pipeline>:1:28: error: missing closing '}' while processing pass options
// FUNC: <pass-pipeline>:1:36: error: pipeline 'gpu-lower-to-nvvm-pipeline' runs on 'builtin.module', not on 'gpu.func'
// NESTED-NOT: internal error
gpu.module @m {
}
