// RUN: phobos-opt %s --split-input-file --verify-diagnostics --convert-layout-to-arith -o /dev/null
// Bad layouts never reach convert-layout-to-arith: the layout dialect's verifier rejects them after parsing
// (tests/lit/dialect/layout-invalid.mlir has every verifier error).

func.func @bad(%x: index) -> index {
  // expected-error @below {{'layout.apply' op does not map into logical space: 8:2 is not a bijection onto [0, 8): coordinate 4 maps to 8, outside it}}
  %v = "layout.apply"(%x) {layout = "8:2", into = "logical"} : (index) -> index
  return %v : index
}
