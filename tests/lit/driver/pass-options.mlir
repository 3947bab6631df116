// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu{foo=1}))' 2>&1 | FileCheck %s
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(phobos-to-ptx{chip=sm_10})' 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(phobos-to-ptx{O=7})' 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(phobos-to-ptx{libdevice=/nope.bc})' 2>&1 | FileCheck %s --check-prefix=LIBDEVICE
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(gpu.module(phobos-to-simt))' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(phobos-to-simt{chip="sm_80})' 2>&1 | FileCheck %s --check-prefix=QUOTE
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(phobos-to-simt{chip=sm_80 chip=sm_90})' 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(phobos-to-ptx{O=1 O=2})' 2>&1 | FileCheck %s --check-prefix=TWICE-O
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(gpu.module(tile-plan-shared-memory{chip=sm_1}))' 2>&1 | FileCheck %s --check-prefix=PASS-CHIP
// RUN: %expect-exit 1 phobos-opt %s --pass-pipeline='builtin.module(gpu.module(tile-plan-shared-memory{chip=sm_80 chip=sm_80}))' 2>&1 | FileCheck %s --check-prefix=PASS-TWICE
// RUN: %expect-exit 1 phobos compile %s --chip sm_1 2>&1 | FileCheck %s --check-prefix=CLI-CHIP
// RUN: PHOBOS_ANCHOR_VENV=/tmp/venv phobos-opt %s --pass-pipeline='builtin.module(phobos-to-simt{chip=sm_80})' | FileCheck %s --check-prefix=ANCHOR

// CHECK: <pass-pipeline>:1:27: error: 'convert-lane-to-gpu' has no option 'foo' (it has: disable-patterns)
// CHIP: <pass-pipeline>:1:16: error: unsupported chip 'sm_10' (supported: sm_70,
// OPT: <pass-pipeline>:1:16: error: O must be 0 to 3, got '7'
// LIBDEVICE: error: libdevice '/nope.bc' does not exist
// QUOTE: error: 'phobos-to-simt': unterminated quote in the value of option 'chip'
// TWICE: error: 'phobos-to-simt': option 'chip' is given twice
// TWICE-O: error: option 'O' is given twice
// PASS-CHIP: error: 'tile-plan-shared-memory': unsupported chip 'sm_1' (supported: sm_70,
// PASS-TWICE: error: option 'chip' is given twice
// CLI-CHIP: phobos: error: unsupported chip 'sm_1' (supported: sm_70,
// ANCHOR: gpu.module @m
// NESTED: error: pipeline 'phobos-to-simt' runs on 'builtin.module', not on 'gpu.module'
gpu.module @m {
}
