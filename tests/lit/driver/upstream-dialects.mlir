// RUN: %expect-exit 1 phobos-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(sccp))' 2>%t.err | FileCheck %s --check-prefix=OK
// RUN: FileCheck %s --check-prefix=OUTSIDE < %t.err
// phobos-opt reads the upstream dialects of a GPU kernel's levels (tensor among them) and runs
// upstream passes beyond Phobos's own (sccp); a dialect outside them (linalg) is a located
// error naming the dialects it reads, exit 1.

// OK-LABEL: func.func @folds
// OK: arith.constant dense<2.000000e+00> : tensor<4xf32>
func.func @folds() -> tensor<4xf32> {
  %0 = arith.constant dense<1.0> : tensor<4xf32>
  %1 = arith.addf %0, %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// OUTSIDE: upstream-dialects.mlir:[[@LINE+2]]:8: error: Dialect `linalg' not found for custom op 'linalg.abs'
func.func @outside(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.abs ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// OUTSIDE: note: Available dialects: affine, arith, bufferization, builtin, cf, complex, {{.*}}rocdl, {{.*}}tensor, {{.*}}vector
