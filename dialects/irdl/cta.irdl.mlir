// The `cta` dialect: collectives over every thread of a CTA.
// A CTA fold runs a lane butterfly per warp, then exchanges the warps' results through shared
// memory behind three barriers. It takes no width (checked in src/cta.rs, so that a frontend's
// `width` on a CTA fold is reported by the dialect), needs uniform control, and its result is
// uniform.
irdl.dialect @cta {
  //   %r = "cta.reduce"(%x) {kind = "sum"} : (f32) -> f32
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

  // The thread (linear id in the CTA) holding the largest value, the smallest on a tie.
  //   %t = "cta.argmax"(%x) : (f32) -> i32
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
    irdl.results(thread: %r)
  }

  // A fold by a user combine function (region or `combine = @f`), as lane.reduce_with.
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

  // Redistributions of register arrays (docs/language.md). The CTA's T threads hold n items
  // each (a vector<n x T>); a thread/value layout (a string in `phobos layout` notation) maps
  // index t + T*i of item i of thread t to a position in [0, T*n). The Rust verifier
  // (src/cta.rs) parses the layouts, checks them as bijections of shape (T, n), and the ranks'
  // type. Like every CTA collective they need uniform control.
  //   %s = "cta.exchange"(%v) {from = "blocked(128,4)", to = "striped(128,4)"} : (vector<4xf32>) -> vector<4xf32>
  // Item i of thread t of the result is the value at position to(t, i), held by v at from⁻¹(to(t, i)).
  irdl.operation @exchange {
    %v = irdl.base "!builtin.vector"
    %from = irdl.base "#builtin.string"
    %to = irdl.base "#builtin.string"
    irdl.operands(value: %v)
    irdl.results(result: %v)
    irdl.attributes { "from" = %from, "to" = %to }
  }

  // Item i of thread t of v goes to position ranks[i] (a permutation of [0, T*n)); the result
  // reads the positions under `to`.
  //   %r = "cta.scatter"(%v, %ranks) {to = "blocked(128,4)"} : (vector<4xf32>, vector<4xi32>) -> vector<4xf32>
  irdl.operation @scatter {
    %v = irdl.base "!builtin.vector"
    %r = irdl.base "!builtin.vector"
    %layout = irdl.base "#builtin.string"
    irdl.operands(value: %v, ranks: %r)
    irdl.results(result: %v)
    irdl.attributes { "to" = %layout }
  }

  // Item i of thread t of the result is the value at position ranks[i] of v, read under `from`
  // (ranks may repeat).
  //   %g = "cta.gather"(%v, %ranks) {from = "striped(128,4)"} : (vector<4xf32>, vector<4xi32>) -> vector<4xf32>
  irdl.operation @gather {
    %v = irdl.base "!builtin.vector"
    %r = irdl.base "!builtin.vector"
    %layout = irdl.base "#builtin.string"
    irdl.operands(value: %v, ranks: %r)
    irdl.results(result: %v)
    irdl.attributes { "from" = %layout }
  }
}
