//! The arithmetic: integer and float ops, comparisons, casts and PTX shuffle semantics, as pure
//! functions of register bits.

use super::*;

#[inline(always)]
pub(super) fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

/// A float's value.
#[inline(always)]
pub fn fget(ty: Prim, v: u64) -> f64 {
    match ty {
        Prim::F32 => f32::from_bits(v as u32) as f64,
        Prim::F64 => f64::from_bits(v),
        Prim::F16 => half::f16::from_bits(v as u16).to_f64(),
        Prim::BF16 => half::bf16::from_bits(v as u16).to_f64(),
        _ => sext(v, ty.bits()) as f64,
    }
}

/// A float as bits of `ty`, correctly rounded (once, to nearest even, as PTX's `cvt.rn`).
#[inline(always)]
pub fn fput(ty: Prim, v: f64) -> u64 {
    match ty {
        Prim::F32 => (v as f32).to_bits() as u64,
        Prim::F64 => v.to_bits(),
        // `half`'s conversions from f64 go through f32 (two roundings) or drop low bits: round
        // here to a value the format holds exactly, which then converts exactly.
        Prim::F16 => half::f16::from_f64(round_to_format(v, 5, 10)).to_bits() as u64,
        Prim::BF16 => half::bf16::from_f64(round_to_format(v, 8, 7)).to_bits() as u64,
        _ => (v as i64 as u64) & ty.mask(),
    }
}

/// `v` rounded once, to nearest even, to a binary format with `exp_bits` of exponent and
/// `man_bits` of fraction (subnormals and overflow to infinity included), as an f64 (which holds
/// every value of such a format exactly).
pub fn round_to_format(v: f64, exp_bits: i32, man_bits: i32) -> f64 {
    if !v.is_finite() || v == 0.0 {
        return v;
    }
    let emax = (1 << (exp_bits - 1)) - 1;
    let emin = 1 - emax;
    let a = v.abs();
    // The exponent of `a` (a = m 2^e, 1 <= m < 2), from its bits: f64 subnormals are far below
    // any format here.
    let e = ((a.to_bits() >> 52) as i32 - 1023).max(emin);
    let quantum = 2f64.powi(e - man_bits);
    // Scaling by a power of two is exact, and so is the product back.
    let r = (a / quantum).round_ties_even() * quantum;
    let r = if r >= 2f64.powi(emax + 1) { f64::INFINITY } else { r };
    r.copysign(v)
}

/// `a * b + c` rounded once to `ty` (f32 and f64 exactly as `fma.rn`; f16 and bf16 through an
/// f64 fused multiply-add, then rounded).
pub fn fma(ty: Prim, a: u64, b: u64, c: u64) -> u64 {
    match ty {
        Prim::F32 => {
            let (x, y, z) = (f32::from_bits(a as u32), f32::from_bits(b as u32), f32::from_bits(c as u32));
            x.mul_add(y, z).to_bits() as u64
        }
        _ => fput(ty, fget(ty, a).mul_add(fget(ty, b), fget(ty, c))),
    }
}

pub(super) fn fmaximum(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a == b {
        if a.is_sign_negative() && b.is_sign_negative() {
            a
        } else {
            a.abs()
        }
    } else {
        a.max(b)
    }
}

pub(super) fn fminimum(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a == b {
        if a.is_sign_negative() || b.is_sign_negative() {
            -(a.abs())
        } else {
            a
        }
    } else {
        a.min(b)
    }
}

#[inline(always)]
pub(super) fn bin(op: BinOp, ty: Prim, a: u64, b: u64) -> Result<u64, ()> {
    let bits = ty.bits();
    let m = ty.mask();
    Ok(match op {
        BinOp::Add => a.wrapping_add(b) & m,
        BinOp::Sub => a.wrapping_sub(b) & m,
        BinOp::Mul => a.wrapping_mul(b) & m,
        BinOp::DivS => {
            if b & m == 0 {
                return Err(());
            }
            (sext(a, bits).wrapping_div(sext(b, bits)) as u64) & m
        }
        BinOp::DivU => {
            let d = b & m;
            if d == 0 {
                return Err(());
            }
            // Address arithmetic divides by powers of two: a shift, not a division (tens of cycles).
            if d.is_power_of_two() {
                (a & m) >> d.trailing_zeros()
            } else {
                ((a & m) / d) & m
            }
        }
        BinOp::RemS => {
            if b & m == 0 {
                return Err(());
            }
            (sext(a, bits).wrapping_rem(sext(b, bits)) as u64) & m
        }
        BinOp::RemU => {
            let d = b & m;
            if d == 0 {
                return Err(());
            }
            if d.is_power_of_two() {
                a & (d - 1)
            } else {
                ((a & m) % d) & m
            }
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => (a ^ b) & m,
        BinOp::Shl => {
            if b >= bits as u64 {
                0
            } else {
                (a << b) & m
            }
        }
        BinOp::ShrU => {
            if b >= bits as u64 {
                0
            } else {
                (a & m) >> b
            }
        }
        BinOp::ShrS => {
            let s = b.min(bits as u64 - 1);
            ((sext(a, bits) >> s) as u64) & m
        }
        BinOp::MaxS => {
            if sext(a, bits) >= sext(b, bits) {
                a
            } else {
                b
            }
        }
        BinOp::MinS => {
            if sext(a, bits) <= sext(b, bits) {
                a
            } else {
                b
            }
        }
        BinOp::MaxU => a.max(b),
        BinOp::MinU => a.min(b),
        _ => {
            let (x, y) = (fget(ty, a), fget(ty, b));
            let r = match op {
                BinOp::FAdd => x + y,
                BinOp::FSub => x - y,
                BinOp::FMul => x * y,
                BinOp::FDiv => x / y,
                BinOp::FRem => x % y,
                BinOp::FMax => fmaximum(x, y),
                BinOp::FMin => fminimum(x, y),
                BinOp::FMaxNum => x.max(y),
                BinOp::FMinNum => x.min(y),
                _ => unreachable!(),
            };
            // f32 arithmetic done in f64 and rounded once is correctly rounded.
            if ty == Prim::F32 {
                let r32 = match op {
                    BinOp::FAdd => (x as f32) + (y as f32),
                    BinOp::FSub => (x as f32) - (y as f32),
                    BinOp::FMul => (x as f32) * (y as f32),
                    BinOp::FDiv => (x as f32) / (y as f32),
                    _ => r as f32,
                };
                return Ok(r32.to_bits() as u64);
            }
            fput(ty, r)
        }
    })
}

#[inline(always)]
pub(super) fn cmp(pred: Pred, ty: Prim, a: u64, b: u64) -> bool {
    let bits = ty.bits();
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let (ua, ub) = (a & ty.mask(), b & ty.mask());
    match pred {
        Pred::Eq => ua == ub,
        Pred::Ne => ua != ub,
        Pred::Slt => sa < sb,
        Pred::Sle => sa <= sb,
        Pred::Sgt => sa > sb,
        Pred::Sge => sa >= sb,
        Pred::Ult => ua < ub,
        Pred::Ule => ua <= ub,
        Pred::Ugt => ua > ub,
        Pred::Uge => ua >= ub,
        Pred::FTrue => true,
        Pred::FFalse => false,
        Pred::FOrd | Pred::FUno | Pred::F { .. } => {
            let (x, y) = (fget(ty, a), fget(ty, b));
            let nan = x.is_nan() || y.is_nan();
            match pred {
                Pred::FOrd => !nan,
                Pred::FUno => nan,
                Pred::F { unordered, rel } => {
                    if nan {
                        return unordered;
                    }
                    match rel {
                        FRel::Eq => x == y,
                        FRel::Ne => x != y,
                        FRel::Lt => x < y,
                        FRel::Le => x <= y,
                        FRel::Gt => x > y,
                        FRel::Ge => x >= y,
                    }
                }
                _ => unreachable!(),
            }
        }
    }
}

#[inline(always)]
pub(super) fn cast(op: CastOp, from: Prim, to: Prim, a: u64) -> u64 {
    match op {
        CastOp::ExtS => (sext(a, from.bits()) as u64) & to.mask(),
        CastOp::ExtU => a & from.mask(),
        CastOp::Trunc => a & to.mask(),
        CastOp::SiToFp => fput(to, sext(a, from.bits()) as f64),
        CastOp::UiToFp => fput(to, (a & from.mask()) as f64),
        CastOp::FpToSi => {
            let v = fget(from, a);
            let (lo, hi) = if to.bits() >= 64 { (i64::MIN, i64::MAX) } else { (-(1i64 << (to.bits() - 1)), (1i64 << (to.bits() - 1)) - 1) };
            let i = if v.is_nan() { 0 } else { (v.trunc().max(lo as f64).min(hi as f64)) as i64 };
            (i as u64) & to.mask()
        }
        CastOp::FpToUi => {
            let v = fget(from, a);
            let i = if v.is_nan() || v < 0.0 { 0 } else { v.trunc().min(to.mask() as f64) as u64 };
            i & to.mask()
        }
        CastOp::ExtF | CastOp::TruncF => fput(to, fget(from, a)),
        CastOp::Bitcast => a & to.mask(),
        CastOp::Tf32 => {
            let x = a as u32;
            // Adding half an ulp to the magnitude rounds ties away; a carry may reach infinity.
            (if x & 0x7F80_0000 == 0x7F80_0000 { x } else { x.wrapping_add(0x1000) & 0xFFFF_E000 }) as u64
        }
    }
}

/// PTX `shfl.sync` source lane and predicate for `lane` (ISA 8, "shfl.sync").
pub(super) fn ptx_shfl(kind: ShflKind, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let segmask = (c >> 8) & 0x1f;
    let clamp = c & 0x1f;
    let min_lane = lane & segmask;
    let max_lane = min_lane | (clamp & !segmask);
    let (j, pval): (i64, bool) = match kind {
        ShflKind::Up => {
            let j = lane as i64 - b as i64;
            (j, j >= max_lane as i64)
        }
        ShflKind::Down => {
            let j = lane as i64 + b as i64;
            (j, j <= max_lane as i64)
        }
        ShflKind::Bfly => {
            let j = (lane ^ b) as i64;
            (j, j <= max_lane as i64)
        }
        ShflKind::Idx => {
            let j = (min_lane | (b & !segmask & 0x1f)) as i64;
            (j, j <= max_lane as i64)
        }
    };
    if pval && (0..32).contains(&j) {
        (j as u32, true)
    } else {
        (lane, false)
    }
}

#[cfg(test)]
mod round_tests {
    use super::*;

    /// `cvt.rna.tf32.f32`: to the nearest tf32 (10 mantissa bits), ties away from zero;
    /// infinities and NaN kept; the largest finite values round up to infinity.
    #[test]
    fn tf32_rounds_to_nearest_ties_away() {
        let r = |x: f32| f32::from_bits(cast(CastOp::Tf32, Prim::F32, Prim::I32, x.to_bits() as u64) as u32);
        let ulp = 2f32.powi(-10);
        assert_eq!(r(1.0 + ulp / 2.0), 1.0 + ulp, "a tie goes away from zero");
        assert_eq!(r(-(1.0 + ulp / 2.0)), -(1.0 + ulp), "and for negatives");
        assert_eq!(r(1.0 + ulp / 2.0 - f32::EPSILON), 1.0, "below the tie");
        assert_eq!(r(1.0 + ulp + ulp / 2.0), 1.0 + 2.0 * ulp, "a tie from an odd value");
        assert_eq!(r(f32::INFINITY), f32::INFINITY);
        assert!(r(f32::NAN).is_nan());
        assert_eq!(r(f32::MAX), f32::INFINITY);
        assert_eq!(r(3.0), 3.0);
    }

    /// Every f16 and bf16 halfway point, and the values just beside it, round once from f64 as
    /// `cvt.rn` does: checked against exact rational rounding of the bit patterns.
    #[test]
    fn f64_to_f16_and_bf16_round_once() {
        // A case once rounded wrong: just past the halfway point between -231.25 and -231.375.
        assert_eq!(fget(Prim::F16, fput(Prim::F16, -231.31250119019325)), -231.375);
        assert_eq!(fget(Prim::F16, fput(Prim::F16, -231.3125)), -231.25, "a tie goes to even");
        for (ty, bits) in [(Prim::F16, 0x7c00u16), (Prim::BF16, 0x7f80)] {
            for b in 0..bits - 1 {
                let (lo, hi) = (fget(ty, b as u64), fget(ty, b as u64 + 1));
                let mid = (lo + hi) / 2.0; // exact in f64
                let below = mid - mid.abs() * 1e-12 - f64::MIN_POSITIVE;
                let above = mid + mid.abs() * 1e-12 + f64::MIN_POSITIVE;
                assert_eq!(fput(ty, below), b as u64, "{ty:?} below the midpoint of {b:#x}");
                assert_eq!(fput(ty, above), b as u64 + 1, "{ty:?} above the midpoint of {b:#x}");
                let even = if b % 2 == 0 { b } else { b + 1 };
                assert_eq!(fput(ty, mid), even as u64, "{ty:?} the midpoint of {b:#x} goes to even");
                assert_eq!(fput(ty, -above), (b as u64 + 1) | 0x8000, "{ty:?} negative");
            }
        }
        assert_eq!(fput(Prim::F16, 65520.0), 0x7c00, "the halfway point past the largest f16 is infinity");
        assert_eq!(fput(Prim::F16, 65519.99), 0x7bff);
        assert!(fget(Prim::BF16, fput(Prim::BF16, f64::NAN)).is_nan());
        assert_eq!(fput(Prim::F16, 1e-30), 0, "below half the smallest subnormal");
        assert_eq!(fput(Prim::F16, -0.0), 0x8000);
    }
}
