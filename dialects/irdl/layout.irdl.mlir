// The `layout` dialect: layouts (CuTe shape:stride, docs/layouts.md) as attributes on the ops that
// apply them to index coordinates. The `layout` attribute is an expression of the `phobos
// layout` language ("(4,3):(3,1)", "blocked(4,3)", "compose(A,B)", "swizzle(3,4,3,L)"), parsed
// and checked by the Rust verifier (src/layout.rs), which also checks what IRDL cannot say:
// the spaces (optional `from` and `into`: "logical", "thread-value", "physical"), the operand
// count, and that a composition (an apply of an apply) is legal (docs/layouts.md, "Spaces").
irdl.dialect @layout {
  // The layout's value at a coordinate: one flat index, or one index per top-level mode.
  //   %o = "layout.apply"(%x) {layout = "(4,8):(8,1)", from = "thread-value", into = "logical"}
  //     : (index) -> index
  // An apply whose one operand is another apply's result is their composition: the producer's
  // range must be exactly this layout's coordinate set [0, size).
  irdl.operation @apply {
    %idx = irdl.is index
    %str = irdl.base "#builtin.string"
    irdl.operands(coordinates: variadic %idx)
    irdl.results(result: %idx)
    irdl.attributes { "layout" = %str }
  }

  // A restriction: the layout with the top-level modes in `fixed` held at the first operands
  // (a thread's or a warp's slice), applied to the flat index of the other modes (last operand).
  //   %o = "layout.restrict"(%tid, %v) {layout = "(4,3):(3,1)", fixed = array<i64: 0>}
  //     : (index, index) -> index
  // A restriction is not composable: no layout op may take its result as a coordinate.
  irdl.operation @restrict {
    %idx = irdl.is index
    %str = irdl.base "#builtin.string"
    %arr = irdl.base "#builtin.dense_array"
    irdl.operands(coordinates: variadic %idx)
    irdl.results(result: %idx)
    irdl.attributes { "layout" = %str, "fixed" = %arr }
  }

  // A layout over named hardware axes: the row-major flat logical index's digits over
  // the extents (the last fastest), each adding stride × digit to its axis. One result per axis,
  // in order of first appearance, then `reg` when a stride is unnamed.
  //   %lane, %warp, %reg = "layout.place"(%x) {layout = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]"}
  //     : (index) -> (index, index, index)
  // Its results are physical coordinates: no layout maps out of them.
  irdl.operation @place {
    %idx = irdl.is index
    %str = irdl.base "#builtin.string"
    irdl.operands(index: %idx)
    irdl.results(axes: variadic %idx)
    irdl.attributes { "layout" = %str }
  }
}
