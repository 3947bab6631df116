// RUN: phobos-opt %s --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu,canonicalize))' --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: phobos-opt %s --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu,canonicalize))' --mlir-print-ir-before-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: phobos-opt %s --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu,canonicalize))' --mlir-print-ir-before=convert-lane-to-gpu --mlir-print-ir-after=canonicalize -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: phobos-opt %s --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu,cse))' --mlir-print-ir-after-change -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHANGE
// RUN: rm -rf %t.tree && phobos-opt %s --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu,canonicalize))' --mlir-print-ir-after-all --mlir-print-ir-tree-dir=%t.tree -o /dev/null && find %t.tree -name '*.mlir' | sort | FileCheck %s --check-prefix=TREE
// RUN: phobos-opt %s --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu))' --mlir-print-ir-after-all --mlir-print-ir-module-scope -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCOPE
// RUN: phobos-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// AFTER: // -----// IR Dump After ConvertLaneToGpu (convert-lane-to-gpu) //----- //
// AFTER: gpu.shuffle  xor
// AFTER: // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// BEFORE: // -----// IR Dump Before ConvertLaneToGpu (convert-lane-to-gpu) //----- //
// BEFORE-NEXT: gpu.module @m
// BEFORE: "lane.reduce"
// BEFORE: // -----// IR Dump Before Canonicalizer (canonicalize) //----- //
// NAMED: // -----// IR Dump Before ConvertLaneToGpu (convert-lane-to-gpu) //----- //
// NAMED: "lane.reduce"
// NAMED-NOT: IR Dump Before Canonicalizer
// NAMED: // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// CHANGE: IR Dump After ConvertLaneToGpu (convert-lane-to-gpu)
// CHANGE: IR Dump After CSE (cse)
// TREE: 0_convert-lane-to-gpu.mlir
// TREE: 1_canonicalize.mlir
// SCOPE: IR Dump After ConvertLaneToGpu (convert-lane-to-gpu) ('gpu.module' operation: @m)
// SCOPE-NEXT: module {
// GENERIC: "gpu.module"() <{sym_name = "m"}>
gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    %0 = "lane.reduce"(%x) {kind = "sum", width = 2 : i32} : (f32) -> f32
    gpu.return
  }
}
