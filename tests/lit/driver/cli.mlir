// RUN: phobos-opt --list-passes | FileCheck %s --check-prefix=LIST
// RUN: phobos-opt --help | FileCheck %s --check-prefix=HELP
// RUN: phobos-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: phobos-opt < %s | FileCheck %s --check-prefix=STDIN
// RUN: %expect-exit 1 phobos-opt --no-such-flag 2>&1 | FileCheck %s --check-prefix=BADFLAG
// RUN: %expect-exit 1 phobos-opt %s --emit=ptx 2>&1 | FileCheck %s --check-prefix=NOPTX

// LIST: Passes:
// LIST: --canonicalize {{.*}}- Canonicalize operations
// LIST-NEXT: --disable-patterns=<string>
// LIST: --convert-gpu-to-nvvm
// LIST: Phobos passes:
// LIST: --convert-lane-to-gpu {{.*}}[on gpu.module]
// LIST: --expand-subgroup-ids
// LIST: Pipelines:
// LIST: --phobos-to-ptx
// HELP: --split-input-file
// HELP: --verify-diagnostics
// HELP: --mlir-print-ir-tree-dir <DIR>
// HELP: --convert-lane-to-gpu[=<OPTIONS>]
// VERSION: phobos-opt 0.1.0
// STDIN: gpu.module @m
// BADFLAG: phobos-opt: error: unexpected argument '--no-such-flag'
// NOPTX: error: no gpu.binary to emit PTX from
gpu.module @m {
}
