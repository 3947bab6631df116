// RUN: phobos-opt %s --split-input-file --verify-diagnostics --compose-layouts -o /dev/null
// Bad layouts never reach compose-layouts: the layout dialect's verifier rejects them after parsing
// (tests/lit/dialect/layout-invalid.mlir has every verifier error).

func.func @bad(%x: index) -> index {
  // expected-note @below {{the first layout is applied here}}
  %u = "layout.apply"(%x) {layout = "8:1"} : (index) -> index
  // expected-error @below {{cannot compose 8:1 then 12:1: the first's range misses coordinate 8 of the second's [0, 12)}}
  %v = "layout.apply"(%u) {layout = "12:1"} : (index) -> index
  return %v : index
}
