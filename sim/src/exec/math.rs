//! The math functions (`math.exp`, ...): computed in f64 (musl's libm, through the `libm`
//! crate, within 1 ULP of the exact value) and rounded once to the type, so an f32 result is
//! within about half an f32 ULP of the exact value: inside every bound CUDA publishes for its
//! functions (docs/math.md). Exact functions (floor, ceil, round, trunc, copysign, sqrt) are
//! exact here too.

use super::*;

/// `f(x, y)` on the bits of `ty` (`y` is ignored by one-operand functions).
pub fn eval(f: MathFn, ty: Prim, x: u64, y: u64) -> u64 {
    fput(ty, f.apply(fget(ty, x), fget(ty, y)))
}

/// `f(x)` as the hardware's `.ftz` approximation sees it: a denormal input is zero (of its
/// sign), a denormal result is zero. The value is the accurate one (the hardware's is within
/// the PTX ISA's stated error of it; docs/math.md).
pub fn eval_ftz(f: MathFn, ty: Prim, x: u64) -> u64 {
    let flush = |v: f64| if v != 0.0 && v.abs() < f32::MIN_POSITIVE as f64 { 0.0f64.copysign(v) } else { v };
    fput(ty, flush(f.apply(flush(fget(ty, x)), 0.0)))
}
