//! Math functions and conversions for `api::build` (re-exported there): the same `math` ops and
//! conversion rules as the language's built-ins and casts (docs/language.md), so a frontend
//! that builds a kernel gets what a `.phobos` source gets.

use super::{misuse, Scalar};
use crate::Error;
use phobos_ir::{Builder, Val};
use phobos_math::MathFn;

/// A math function: of one float (`f16` is computed in `f32` and rounded back), `Abs` of an
/// integer too; `Atan2`, `Pow` and `CopySign` take two values of one float type, `Fma` three.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Math {
    /// e^x
    Exp,
    /// 2^x
    Exp2,
    /// The natural logarithm.
    Log,
    /// The base-2 logarithm.
    Log2,
    /// The base-10 logarithm.
    Log10,
    /// ln(1 + x), accurate near 0.
    Log1p,
    /// e^x - 1, accurate near 0.
    Expm1,
    /// The square root (correctly rounded).
    Sqrt,
    /// 1 / sqrt(x).
    Rsqrt,
    /// The cube root.
    Cbrt,
    /// Sine (radians).
    Sin,
    /// Cosine.
    Cos,
    /// Tangent.
    Tan,
    /// Hyperbolic tangent.
    Tanh,
    /// Hyperbolic sine.
    Sinh,
    /// Hyperbolic cosine.
    Cosh,
    /// Arc sine.
    Asin,
    /// Arc cosine.
    Acos,
    /// Arc tangent.
    Atan,
    /// The error function.
    Erf,
    /// 1 - erf(x), accurate for large x.
    Erfc,
    /// Round down.
    Floor,
    /// Round up.
    Ceil,
    /// Half away from zero (CUDA's `roundf`).
    Round,
    /// Round toward zero.
    Trunc,
    /// `|x|` of a float or an integer (the most negative integer stays itself).
    Abs,
    /// `-x` of a float (`arith.negf`).
    Neg,
    /// atan(y / x) in the right quadrant, of (y, x).
    Atan2,
    /// x^y.
    Pow,
    /// |x| with the sign of y.
    CopySign,
    /// `x * y + z` with one rounding.
    Fma,
}

impl Math {
    /// The table's function (`phobos_math`), for those that are one.
    fn function(self) -> Option<MathFn> {
        use Math::*;
        Some(match self {
            Exp => MathFn::Exp,
            Exp2 => MathFn::Exp2,
            Log => MathFn::Log,
            Log2 => MathFn::Log2,
            Log10 => MathFn::Log10,
            Log1p => MathFn::Log1p,
            Expm1 => MathFn::Expm1,
            Sqrt => MathFn::Sqrt,
            Rsqrt => MathFn::Rsqrt,
            Cbrt => MathFn::Cbrt,
            Sin => MathFn::Sin,
            Cos => MathFn::Cos,
            Tan => MathFn::Tan,
            Tanh => MathFn::Tanh,
            Sinh => MathFn::Sinh,
            Cosh => MathFn::Cosh,
            Asin => MathFn::Asin,
            Acos => MathFn::Acos,
            Atan => MathFn::Atan,
            Erf => MathFn::Erf,
            Erfc => MathFn::Erfc,
            Floor => MathFn::Floor,
            Ceil => MathFn::Ceil,
            Round => MathFn::Round,
            Trunc => MathFn::Trunc,
            Atan2 => MathFn::Atan2,
            Pow => MathFn::Pow,
            CopySign => MathFn::CopySign,
            Abs | Neg | Fma => return None,
        })
    }
    /// The `math` op and its operand count.
    fn op(self) -> (&'static str, usize) {
        match (self, self.function()) {
            (_, Some(f)) => (f.op(), f.arity()),
            (Math::Abs, _) => ("math.absf", 1),
            (Math::Neg, _) => ("arith.negf", 1),
            _ => ("math.fma", 3),
        }
    }
}

/// `f(args)`: the `math` op of `f` on scalars of one type; an error for a wrong count, mixed
/// types, or an integer where a float is needed.
pub fn math<'a>(b: Builder<'a>, f: Math, args: &[Val<'a>]) -> Result<Val<'a>, Error> {
    let (op, n) = f.op();
    if args.len() != n {
        return Err(misuse(format!("{f:?} takes {n} value{}, got {}", if n == 1 { "" } else { "s" }, args.len())));
    }
    let t = args[0].ty();
    if args.iter().any(|a| a.ty() != t) || t.scalar().is_none() {
        let tys: Vec<String> = args.iter().map(|a| a.ty().to_string()).collect();
        return Err(misuse(format!("{f:?}: the values are {}; they must be one scalar type", tys.join(", "))));
    }
    if f == Math::Abs && t.is_integer() {
        return Ok(b.op_value("math.absi", args, t, &[]));
    }
    if !t.is_float() {
        return Err(misuse(format!("{f:?} takes floats, not {t}; convert first (build::convert)")));
    }
    // f16 and bf16 are computed in f32, as the language does it.
    if bits(t) == 16 {
        let f32t = Scalar::F32.ty(b);
        let wide: Vec<Val<'a>> = args.iter().map(|a| b.cast("arith.extf", *a, f32t)).collect();
        let r = b.op_value(op, &wide, f32t, &[]);
        return Ok(b.cast("arith.truncf", r, t));
    }
    Ok(b.op_value(op, args, t, &[]))
}

fn bits(t: phobos_ir::Ty) -> u32 {
    t.scalar().map(|s| s.bits()).unwrap_or(0)
}

/// Whether a float is NaN (an `i1`).
pub fn is_nan<'a>(b: Builder<'a>, x: Val<'a>) -> Result<Val<'a>, Error> {
    if !x.ty().is_float() {
        return Err(misuse(format!("is_nan takes a float, not {}", x.ty())));
    }
    Ok(b.cmpf("uno", x, x))
}

/// Whether a float is infinite (an `i1`).
pub fn is_inf<'a>(b: Builder<'a>, x: Val<'a>) -> Result<Val<'a>, Error> {
    if !x.ty().is_float() {
        return Err(misuse(format!("is_inf takes a float, not {}", x.ty())));
    }
    let a = b.op_value("math.absf", &[x], x.ty(), &[]);
    Ok(b.cmpf("oeq", a, b.const_float(x.ty(), f64::INFINITY)))
}

/// `x` converted to `to`, with the language's rules: integers widen by sign (a `Bool` by zero)
/// and narrow by truncation; floats to integers truncate toward zero (saturating, NaN to 0,
/// as the GPU's `cvt.rzi`); integers to floats and floats to floats round to nearest even;
/// anything to `Bool` is `x != 0`; `index` converts as a 64-bit integer.
pub fn convert<'a>(b: Builder<'a>, x: Val<'a>, to: Scalar) -> Result<Val<'a>, Error> {
    let from = x.ty();
    let tt = to.ty(b);
    if from.scalar().is_none() && !from.is_index() {
        return Err(misuse(format!("convert takes a scalar, not {from}")));
    }
    if from == tt {
        return Ok(x);
    }
    if to == Scalar::Bool {
        return Ok(if from.is_float() {
            b.cmpf("une", x, b.const_float(from, 0.0))
        } else {
            let zero = if from.is_index() { b.index(0) } else { b.const_int(from, 0) };
            b.cmpi("ne", x, zero)
        });
    }
    let bool_from = from.int_width() == Some(1);
    Ok(match (from.is_float(), tt.is_float()) {
        (true, true) => b.cast(if bits(from) < bits(tt) { "arith.extf" } else { "arith.truncf" }, x, tt),
        (true, false) => {
            if tt.is_index() {
                let i = b.cast("arith.fptosi", x, b.ctx.i(64));
                b.cast("arith.index_cast", i, tt)
            } else {
                b.cast("arith.fptosi", x, tt)
            }
        }
        (false, true) => {
            let x = if from.is_index() { b.cast("arith.index_cast", x, b.ctx.i(64)) } else { x };
            b.cast(if bool_from { "arith.uitofp" } else { "arith.sitofp" }, x, tt)
        }
        (false, false) => {
            if from.is_index() || tt.is_index() {
                b.cast(if bool_from { "arith.index_castui" } else { "arith.index_cast" }, x, tt)
            } else if bits(tt) > bits(from) {
                b.cast(if bool_from { "arith.extui" } else { "arith.extsi" }, x, tt)
            } else {
                b.cast("arith.trunci", x, tt)
            }
        }
    })
}
