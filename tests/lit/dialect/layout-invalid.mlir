// RUN: phobos-opt %s --split-input-file --verify-diagnostics
// The layout dialect's verifier: the layout attribute, the spaces, the operand count,
// and the composition rule (the first map's range is exactly the second's coordinate set).

func.func @f(%x: index) -> index {
  // expected-error @below {{'layout.apply' op layout "(4,3):(1,4": at column 11: expected ')', found the end in `(4,3):(1,4`}}
  %v = "layout.apply"(%x) {layout = "(4,3):(1,4"} : (index) -> index
  return %v : index
}

// -----
func.func @f(%x: index) -> index {
  // expected-error @below {{'layout.apply' op layout "compose(4:1,(2,3):(1,2))": compose(4:1, (2,3):(1,2)) is out of domain: (2,3):(1,2) maps x = 4 to 4, outside [0, 4), the domain of 4:1}}
  %v = "layout.apply"(%x) {layout = "compose(4:1,(2,3):(1,2))"} : (index) -> index
  return %v : index
}

// -----
func.func @f(%x: index) -> index {
  // expected-error @below {{'layout.apply' op does not map into logical space: (4,3):(1,3) is not a bijection onto [0, 12): coordinates 3 and 4 both map to 3}}
  %v = "layout.apply"(%x) {layout = "(4,3):(1,3)", into = "logical"} : (index) -> index
  return %v : index
}

// -----
func.func @f(%x: index) -> index {
  // expected-error @below {{'layout.apply' op does not map into thread-value space: (4,3):(1,5) is not a bijection onto [0, 12): coordinate 10 maps to 12, outside it}}
  %v = "layout.apply"(%x) {layout = "(4,3):(1,5)", into = "thread-value"} : (index) -> index
  return %v : index
}

// -----
func.func @f(%x: index) -> index {
  // expected-error @below {{'layout.apply' op does not map into physical space: (2,2):(1,1) aliases in physical space (only stride-0 modes may broadcast): coordinates 1 and 2 both map to 1}}
  %v = "layout.apply"(%x) {layout = "(2,2):(1,1)", into = "physical"} : (index) -> index
  return %v : index
}

// -----
func.func @f(%x: index) -> index {
  // expected-error @below {{'layout.apply' op maps from physical space: nothing maps out of a physical index}}
  %v = "layout.apply"(%x) {layout = "8:1", from = "physical"} : (index) -> index
  return %v : index
}

// -----
func.func @f(%x: index) -> index {
  // expected-error @below {{'layout.apply' op into must be "logical", "thread-value" or "physical", got "shared"}}
  %v = "layout.apply"(%x) {layout = "8:1", into = "shared"} : (index) -> index
  return %v : index
}

// -----
func.func @f(%x: index, %y: index, %z: index) -> index {
  // expected-error @below {{'layout.apply' op takes one flat coordinate or one per top-level mode of (4,3):(3,1) (2), got 3}}
  %v = "layout.apply"(%x, %y, %z) {layout = "(4,3):(3,1)"} : (index, index, index) -> index
  return %v : index
}

// -----
func.func @f(%x: index) -> index {
  // expected-error @below {{'layout.apply' op layout "S[(2,4):(1@warpid,1@laneid)]" is not a layout}}
  %v = "layout.apply"(%x) {layout = "S[(2,4):(1@warpid,1@laneid)]"} : (index) -> index
  return %v : index
}

// -----
func.func @f(%x: index) -> index {
  // IRDL checks the attribute's kind.
  // expected-error @below {{expected base attribute 'builtin.string' but got 'builtin.integer'}}
  %v = "layout.apply"(%x) {layout = 3 : i32} : (index) -> index
  return %v : index
}

// -----
// Composition: the first map's range must be exactly the second's coordinate set.
func.func @f(%x: index) -> index {
  // expected-note @below {{the first layout is applied here}}
  %u = "layout.apply"(%x) {layout = "blocked(4,3)", into = "thread-value"} : (index) -> index
  // expected-error @below {{'layout.apply' op cannot compose blocked(4,3) then (4,4):(4,1): the first's range misses coordinate 12 of the second's [0, 16)}}
  %v = "layout.apply"(%u) {layout = "(4,4):(4,1)"} : (index) -> index
  return %v : index
}

// -----
func.func @f(%x: index) -> index {
  // expected-note @below {{the first layout is applied here}}
  %u = "layout.apply"(%x) {layout = "(4,4):(4,1)"} : (index) -> index
  // expected-error @below {{'layout.apply' op cannot compose (4,4):(4,1) then 12:1: the first maps 3 to 12, outside the second's coordinates [0, 12)}}
  %v = "layout.apply"(%u) {layout = "12:1"} : (index) -> index
  return %v : index
}

// -----
func.func @f(%x: index) -> index {
  // expected-note @below {{the first layout is applied here}}
  %u = "layout.apply"(%x) {layout = "blocked(4,3)", into = "logical"} : (index) -> index
  // expected-error @below {{'layout.apply' op cannot compose blocked(4,3) then 12:1: the first maps into logical space but the second maps from thread-value space}}
  %v = "layout.apply"(%u) {layout = "12:1", from = "thread-value"} : (index) -> index
  return %v : index
}

// -----
func.func @f(%x: index) -> index {
  // expected-note @below {{the first layout is applied here}}
  %u = "layout.apply"(%x) {layout = "(4,3):(1,4)", into = "physical"} : (index) -> index
  // expected-error @below {{'layout.apply' op cannot compose (4,3):(1,4) then 12:1: the first maps into physical space, and nothing maps out of a physical index}}
  %v = "layout.apply"(%u) {layout = "12:1"} : (index) -> index
  return %v : index
}

// -----
// A restriction (a thread's slice) is not composable.
func.func @f(%t: index, %i: index) -> index {
  // expected-note @below {{the restriction is here}}
  %r = "layout.restrict"(%t, %i) {layout = "(4,3):(3,1)", fixed = array<i64: 0>} : (index, index) -> index
  // expected-error @below {{'layout.apply' op composes a restriction: (4,3):(3,1) with modes [0] fixed is a slice, and a restriction is not composable; compose the whole layouts, then restrict}}
  %v = "layout.apply"(%r) {layout = "12:1"} : (index) -> index
  return %v : index
}

// -----
func.func @f(%t: index, %i: index) -> index {
  // expected-error @below {{'layout.restrict' op a restriction fixes some but not all of the 2 modes of (4,3):(3,1), got [0, 1]}}
  %r = "layout.restrict"(%t, %i) {layout = "(4,3):(3,1)", fixed = array<i64: 0, 1>} : (index, index) -> index
  return %r : index
}

// -----
func.func @f(%t: index, %i: index) -> index {
  // expected-error @below {{'layout.restrict' op fixed must list distinct modes of the rank-2 layout (4,3):(3,1), got [2]}}
  %r = "layout.restrict"(%t, %i) {layout = "(4,3):(3,1)", fixed = array<i64: 2>} : (index, index) -> index
  return %r : index
}

// -----
func.func @f(%t: index) -> index {
  // expected-error @below {{'layout.restrict' op takes a coordinate per fixed mode, then the flat index of the rest: 2 operands, got 1}}
  %r = "layout.restrict"(%t) {layout = "(4,3):(3,1)", fixed = array<i64: 0>} : (index) -> index
  return %r : index
}

// -----
func.func @f(%t: index, %i: index) -> index {
  // expected-error @below {{'layout.restrict' op restricts a layout, and compose((5,3):(7,1),7:1) is not one}}
  %r = "layout.restrict"(%t, %i) {layout = "compose((5,3):(7,1),7:1)", fixed = array<i64: 0>} : (index, index) -> index
  return %r : index
}

// -----
// layout.place: a layout over named axes, one result per axis, and no layout maps out of it.
func.func @f(%x: index) -> index {
  // expected-error @below {{'layout.place' op has one result per axis of S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] (laneid, warpid, reg), got 2}}
  %l, %w = "layout.place"(%x) {layout = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]"} : (index) -> (index, index)
  return %l : index
}

// -----
func.func @f(%x: index) -> index {
  // expected-error @below {{'layout.place' op places by a layout over named axes (S[...]); "(8,16):(16,1)" is not one}}
  %l = "layout.place"(%x) {layout = "(8,16):(16,1)"} : (index) -> index
  return %l : index
}

// -----
func.func @f(%x: index) -> index {
  // expected-note @below {{the placement is here}}
  %l, %w = "layout.place"(%x) {layout = "S[(8,4):(1@laneid,1@warpid)]"} : (index) -> (index, index)
  // expected-error @below {{'layout.apply' op maps out of a physical index: its coordinate is an axis of S[(8,4):(1@laneid,1@warpid)] (layout.place gives hardware coordinates)}}
  %v = "layout.apply"(%l) {layout = "8:1"} : (index) -> index
  return %v : index
}

// -----
func.func @f(%x: index) -> index {
  // expected-error @below {{'layout.place' op layout "S[(8,2):(1@laneid)]": S[...] has 2 extents but 1 strides}}
  %l = "layout.place"(%x) {layout = "S[(8,2):(1@laneid)]"} : (index) -> index
  return %l : index
}

// -----
func.func @f(%x: index) -> index {
  // expected-error @below {{'layout.place' op layout "S[(8,2,4,2):(4@laneid,1@warpid,2@laneid,1)]": S[(8,2,4,2):(4@laneid,1@warpid,2@laneid,1)] gives laneid values from 0 to 34, outside [0, 32)}}
  %l, %w, %r = "layout.place"(%x) {layout = "S[(8,2,4,2):(4@laneid,1@warpid,2@laneid,1)]"} : (index) -> (index, index, index)
  return %l : index
}

// -----
func.func @f(%x: index) -> index {
  // expected-error @below {{maps logical indices 8 and 16 to the same place (laneid=1, reg=0); make it injective, or broadcast with a stride-0 mode}}
  %l, %r = "layout.place"(%x) {layout = "S[(2,2,8):(1@laneid,1@laneid,1)]"} : (index) -> (index, index)
  return %l : index
}

// -----
// Warps stay within the kernel's CTA: 64 threads are 2 warps.
gpu.module @m {
  gpu.func @k(%x: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @below {{'layout.place' op in a CTA of 2 warps: S[(4,32):(1@warpid,1@laneid)] gives warpid values from 0 to 3, outside [0, 2)}}
    %w, %l = "layout.place"(%x) {layout = "S[(4,32):(1@warpid,1@laneid)]"} : (index) -> (index, index)
    gpu.return
  }
}

// -----
// A left inverse that no layout equals cannot be computed by a kernel.
func.func @f(%x: index) -> index {
  // expected-error @below {{'layout.apply' op layout "left_inverse((2,3):(5,3))": left_inverse((2,3):(5,3)) is a function no layout equals; a kernel cannot compute it}}
  %v = "layout.apply"(%x) {layout = "left_inverse((2,3):(5,3))"} : (index) -> index
  return %v : index
}

// -----
func.func @f(%t: index, %v: index) -> index {
  // expected-error @below {{fixed must be an array<i64: ...>}}
  %o = "layout.restrict"(%t, %v) {layout = "(4,3):(3,1)", fixed = array<i8: 0>} : (index, index) -> index
  return %o : index
}
