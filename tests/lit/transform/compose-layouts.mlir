// RUN: phobos-opt %s --split-input-file --compose-layouts | FileCheck %s

// Blocked thread-value to logical, then the logical (3,4) row-major tile: the identity, in its
// coarsest form 12:1; the spaces are the first's from and the second's into.
// CHECK-LABEL: func.func @identity
// CHECK-NEXT: %[[V:.*]] = "layout.apply"(%arg0) {from = "thread-value", into = "physical", layout = "12:1"}
// CHECK-NEXT: return %[[V]]
func.func @identity(%x: index) -> index {
  %u = "layout.apply"(%x) {layout = "blocked(4,3)", from = "thread-value", into = "logical"} : (index) -> index
  %v = "layout.apply"(%u) {layout = "(3,4):(4,1)", from = "logical", into = "physical"} : (index) -> index
  return %v : index
}

// -----
// Three in a chain fold into one: the first two compose to the identity 12:1, so the result is
// the third layout.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[V:.*]] = "layout.apply"(%arg0) {layout = "(4,3):(16,1)"}
// CHECK-NEXT: return %[[V]]
func.func @chain(%x: index) -> index {
  %a = "layout.apply"(%x) {layout = "(4,3):(3,1)"} : (index) -> index
  %b = "layout.apply"(%a) {layout = "(3,4):(4,1)"} : (index) -> index
  %c = "layout.apply"(%b) {layout = "(4,3):(16,1)"} : (index) -> index
  return %c : index
}

// -----
// The first is a bijection onto [0, 6), but its digits (3 then 2) do not line up with the
// second's (2 then 3): the composite is no layout, so it is kept as the pair.
// CHECK-LABEL: func.func @composite
// CHECK-NEXT: "layout.apply"(%arg0) {into = "physical", layout = "compose((2,3):(1,10),(2,3):(3,1))"}
func.func @composite(%x: index) -> index {
  %u = "layout.apply"(%x) {layout = "(2,3):(3,1)"} : (index) -> index
  %v = "layout.apply"(%u) {layout = "(2,3):(1,10)", into = "physical"} : (index) -> index
  return %v : index
}

// -----
// Per-mode coordinates keep the first layout's modes: coalesced mode by mode.
// CHECK-LABEL: func.func @per_mode
// CHECK-NEXT: "layout.apply"(%arg0, %arg1) {layout = "(4,3):(3,1)"}
func.func @per_mode(%t: index, %i: index) -> index {
  %u = "layout.apply"(%t, %i) {layout = "(4,3):(3,1)"} : (index, index) -> index
  %v = "layout.apply"(%u) {layout = "12:1"} : (index) -> index
  return %v : index
}

// -----
// Not compositions: the inner apply has another user (it stays), an apply of arithmetic, and an
// apply taking per-mode coordinates of which one is an apply.
// CHECK-LABEL: func.func @kept
// CHECK: %[[A:.*]] = "layout.apply"(%arg0) {layout = "(4,3):(3,1)"}
// CHECK: "layout.apply"(%arg0) {layout = "12:1"}
// CHECK: "layout.apply"(%[[A]], %arg0) {layout = "(12,2):(1,12)"}
func.func @kept(%x: index) -> (index, index, index) {
  %a = "layout.apply"(%x) {layout = "(4,3):(3,1)"} : (index) -> index
  %b = "layout.apply"(%a) {layout = "(3,4):(4,1)"} : (index) -> index
  %c = "layout.apply"(%a, %x) {layout = "(12,2):(1,12)"} : (index, index) -> index
  return %a, %b, %c : index, index, index
}
