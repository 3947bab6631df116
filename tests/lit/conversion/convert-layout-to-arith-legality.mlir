// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(convert-layout-to-arith{disable-patterns=layout.place})'
// Legality: a layout op the conversion leaves behind is an error at the op, naming the pass.

func.func @f(%x: index) -> index {
  %a = "layout.apply"(%x) {layout = "(4,8):(8,1)"} : (index) -> index
  // expected-error @below {{'layout.place' op was not lowered by convert-layout-to-arith: failed to legalize this operation}}
  %l, %w = "layout.place"(%a) {layout = "S[(4,8):(1@warpid,1@laneid)]"} : (index) -> (index, index)
  return %l : index
}
