// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu{foo=1}))' 2>&1 | FileCheck %s
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(phobos-to-ptx{chip=sm_10})' 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(phobos-to-ptx{O=7})' 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(phobos-to-ptx{libdevice=/nope.bc})' 2>&1 | FileCheck %s --check-prefix=LIBDEVICE
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(gpu.module(phobos-to-simt))' 2>&1 | FileCheck %s --check-prefix=NESTED

// CHECK: <pass-pipeline>:1:27: error: 'convert-lane-to-gpu' takes no options, got 'foo'
// CHIP: <pass-pipeline>:1:16: error: unsupported chip 'sm_10' (supported: sm_70,
// OPT: <pass-pipeline>:1:16: error: O must be 0 to 3, got '7'
// LIBDEVICE: error: libdevice '/nope.bc' does not exist
// NESTED: error: pipeline 'phobos-to-simt' runs on 'builtin.module', not on 'gpu.module'
gpu.module @m {
}
