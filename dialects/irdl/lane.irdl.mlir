// The `lane` dialect: collectives and shuffles among the 32 lanes of a warp.
// Source of truth for the ops' operands, results and required attributes. What IRDL cannot say
// (a width that is a power of two from 1 to 32, a constant xor mask below the width, any/all of
// conditions only, the combine region's shape) is checked by the Rust verifiers in src/lane.rs.
// Optional attribute: `width` (integer, default 32): the op works on each width-lane piece.
irdl.dialect @lane {
  // A fold over the lanes of each piece; every lane gets its piece's result.
  //   %r = "lane.reduce"(%x) {kind = "sum", width = 8 : i32} : (f32) -> f32
  irdl.operation @reduce {
    %i1 = irdl.is i1
    %i8 = irdl.is i8
    %i16 = irdl.is i16
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %f16 = irdl.is f16
    %bf16 = irdl.is bf16
    %f32 = irdl.is f32
    %f64 = irdl.is f64
    %t = irdl.any_of(%i1, %i8, %i16, %i32, %i64, %f16, %bf16, %f32, %f64)
    %sum = irdl.is "sum"
    %max = irdl.is "max"
    %min = irdl.is "min"
    %any = irdl.is "any"
    %all = irdl.is "all"
    %kind = irdl.any_of(%sum, %max, %min, %any, %all)
    irdl.operands(value: %t)
    irdl.results(result: %t)
    irdl.attributes { "kind" = %kind }
  }

  // The lane of the piece holding the largest value (the smallest lane on a tie), as i32.
  //   %l = "lane.argmax"(%x) {width = 32 : i32} : (f32) -> i32
  irdl.operation @argmax {
    %i8 = irdl.is i8
    %i16 = irdl.is i16
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %f16 = irdl.is f16
    %bf16 = irdl.is bf16
    %f32 = irdl.is f32
    %f64 = irdl.is f64
    %t = irdl.any_of(%i8, %i16, %i32, %i64, %f16, %bf16, %f32, %f64)
    %r = irdl.is i32
    irdl.operands(value: %t)
    irdl.results(lane: %r)
  }

  // The lane of the piece holding the smallest value (the smallest lane on a tie), as i32.
  //   %l = "lane.argmin"(%x) {width = 8 : i32} : (f32) -> i32
  irdl.operation @argmin {
    %i8 = irdl.is i8
    %i16 = irdl.is i16
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %f16 = irdl.is f16
    %bf16 = irdl.is bf16
    %f32 = irdl.is f32
    %f64 = irdl.is f64
    %t = irdl.any_of(%i8, %i16, %i32, %i64, %f16, %bf16, %f32, %f64)
    %r = irdl.is i32
    irdl.operands(value: %t)
    irdl.results(lane: %r)
  }

  // A fold by a user combine function, associative and commutative: either the region
  // (one block (a, b) ending in gpu.yield) or, with an empty region, `combine = @f` naming a
  // func.func (T, T) -> T in the same module.
  irdl.operation @reduce_with {
    %i1 = irdl.is i1
    %i8 = irdl.is i8
    %i16 = irdl.is i16
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %f16 = irdl.is f16
    %bf16 = irdl.is bf16
    %f32 = irdl.is f32
    %f64 = irdl.is f64
    %t = irdl.any_of(%i1, %i8, %i16, %i32, %i64, %f16, %bf16, %f32, %f64)
    %body = irdl.region
    irdl.operands(value: %t)
    irdl.results(result: %t)
    irdl.regions(combine: %body)
  }

  // An inclusive prefix fold within each piece: lane i of a piece gets the fold of the piece's
  // lanes 0..=i, combined as f(earlier, later). Its result varies by lane.
  //   %r = "lane.scan"(%x) {kind = "sum", width = 16 : i32} : (i32) -> i32
  irdl.operation @scan {
    %i8 = irdl.is i8
    %i16 = irdl.is i16
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %f16 = irdl.is f16
    %bf16 = irdl.is bf16
    %f32 = irdl.is f32
    %f64 = irdl.is f64
    %t = irdl.any_of(%i8, %i16, %i32, %i64, %f16, %bf16, %f32, %f64)
    %sum = irdl.is "sum"
    %max = irdl.is "max"
    %min = irdl.is "min"
    %kind = irdl.any_of(%sum, %max, %min)
    irdl.operands(value: %t)
    irdl.results(result: %t)
    irdl.attributes { "kind" = %kind }
  }

  // An inclusive prefix fold by a user combine, associative (not necessarily commutative),
  // applied as combine(earlier, later): the region (one block (a, b) ending in gpu.yield) or,
  // with an empty region, `combine = @f`.
  irdl.operation @scan_with {
    %i1 = irdl.is i1
    %i8 = irdl.is i8
    %i16 = irdl.is i16
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %f16 = irdl.is f16
    %bf16 = irdl.is bf16
    %f32 = irdl.is f32
    %f64 = irdl.is f64
    %t = irdl.any_of(%i1, %i8, %i16, %i32, %i64, %f16, %bf16, %f32, %f64)
    %body = irdl.region
    irdl.operands(value: %t)
    irdl.results(result: %t)
    irdl.regions(combine: %body)
  }

  // Moves one value between lanes. `operand` is the source lane (from), the xor mask (xor) or
  // the distance (down, up); it may differ per lane. A source outside the lane's piece reads the
  // lane's own value.
  //   %r = "lane.shuffle"(%v, %m) {mode = "xor", width = 32 : i32} : (f32, i32) -> f32
  irdl.operation @shuffle {
    %i1 = irdl.is i1
    %i8 = irdl.is i8
    %i16 = irdl.is i16
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %f16 = irdl.is f16
    %bf16 = irdl.is bf16
    %f32 = irdl.is f32
    %f64 = irdl.is f64
    %t = irdl.any_of(%i1, %i8, %i16, %i32, %i64, %f16, %bf16, %f32, %f64)
    %o = irdl.is i32
    %from = irdl.is "from"
    %xor = irdl.is "xor"
    %down = irdl.is "down"
    %up = irdl.is "up"
    %mode = irdl.any_of(%from, %xor, %down, %up)
    irdl.operands(value: %t, operand: %o)
    irdl.results(result: %t)
    irdl.attributes { "mode" = %mode }
  }
}
