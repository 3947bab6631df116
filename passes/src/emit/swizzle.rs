//! CuTe's `Swizzle<B, M, S>` on an element offset computed at run time, the function
//! `phobos_layout::map::swizzle` evaluates (`S >= 0`: the B bits at `M + S` xored into the B
//! bits at `M`).

use phobos_ir::{Builder, Val};

/// `x ^ ((x & (2^B - 1) << (M + S)) >> S)` on an `index`.
pub fn apply<'a>(b: Builder<'a>, x: Val<'a>, [bits, m, s]: [i64; 3]) -> Val<'a> {
    debug_assert!(s >= 0, "tile-swizzle makes S >= 0");
    let mask = ((1i64 << bits) - 1) << (m + s);
    let high = b.bin("arith.andi", x, b.index(mask));
    let moved = b.bin("arith.shrui", high, b.index(s));
    b.bin("arith.xori", x, moved)
}
