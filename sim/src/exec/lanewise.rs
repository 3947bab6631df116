//! Lane loops specialised per operation: the op is matched once per instruction, then a loop
//! over the lanes applies it with the op a constant (the ALU functions inline and fold), over
//! all 32 lanes at once when every lane is active. Results are those of `alu`'s functions.

use super::*;

/// `dst[e][l] = f(a[e][l], b[e][l])` for the active lanes; `Err(lane)` from `f` stops it there.
#[inline(always)]
fn map2(regs: &mut [u64], dst: Slot, a: Slot, b: Slot, mask: u32, f: impl Fn(u64, u64) -> Result<u64, ()>) -> Result<(), usize> {
    for e in 0..dst.len {
        let (d, x, y) = (at(dst, e, 0), at(a, e, 0), at(b, e, 0));
        let (xs, ys): ([u64; 32], [u64; 32]) =
            (regs[x..x + 32].try_into().expect("32 lanes"), regs[y..y + 32].try_into().expect("32 lanes"));
        let out = &mut regs[d..d + 32];
        if mask == u32::MAX {
            for l in 0..32 {
                out[l] = f(xs[l], ys[l]).map_err(|()| l)?;
            }
        } else {
            for l in lanes(mask) {
                out[l] = f(xs[l], ys[l]).map_err(|()| l)?;
            }
        }
    }
    Ok(())
}

/// `dst[e][l] = f(a[e][l])` for the active lanes.
#[inline(always)]
fn map1(regs: &mut [u64], dst: Slot, a: Slot, mask: u32, f: impl Fn(u64) -> u64) {
    for e in 0..dst.len {
        let (d, x) = (at(dst, e, 0), at(a, e, 0));
        let xs: [u64; 32] = regs[x..x + 32].try_into().expect("32 lanes");
        let out = &mut regs[d..d + 32];
        if mask == u32::MAX {
            for l in 0..32 {
                out[l] = f(xs[l]);
            }
        } else {
            for l in lanes(mask) {
                out[l] = f(xs[l]);
            }
        }
    }
}

/// `arith` binary ops; `Err(lane)`: an integer division by zero in that lane.
pub(super) fn bin_lanes(regs: &mut [u64], op: BinOp, ty: Prim, dst: Slot, a: Slot, b: Slot, mask: u32) -> Result<(), usize> {
    macro_rules! ops {
        ($($v:ident),*) => {
            match op {
                $(BinOp::$v => map2(regs, dst, a, b, mask, |x, y| bin(BinOp::$v, ty, x, y)),)*
            }
        };
    }
    ops!(
        Add, Sub, Mul, DivS, DivU, RemS, RemU, And, Or, Xor, Shl, ShrS, ShrU, MaxS, MinS, MaxU, MinU, FAdd, FSub, FMul, FDiv, FRem, FMax,
        FMin, FMaxNum, FMinNum
    )
}

/// Comparisons, 1 or 0.
pub(super) fn cmp_lanes(regs: &mut [u64], pred: Pred, ty: Prim, dst: Slot, a: Slot, b: Slot, mask: u32) {
    macro_rules! preds {
        ($($v:ident),*) => {
            match pred {
                $(Pred::$v => map2(regs, dst, a, b, mask, |x, y| Ok(cmp(Pred::$v, ty, x, y) as u64)),)*
                other => map2(regs, dst, a, b, mask, |x, y| Ok(cmp(other, ty, x, y) as u64)),
            }
        };
    }
    let _ = preds!(Eq, Ne, Slt, Sle, Sgt, Sge, Ult, Ule, Ugt, Uge);
}

/// Casts.
pub(super) fn cast_lanes(regs: &mut [u64], op: CastOp, from: Prim, to: Prim, dst: Slot, a: Slot, mask: u32) {
    macro_rules! casts {
        ($($v:ident),*) => {
            match op {
                $(CastOp::$v => map1(regs, dst, a, mask, |x| cast(CastOp::$v, from, to, x)),)*
            }
        };
    }
    casts!(ExtS, ExtU, Trunc, SiToFp, UiToFp, FpToSi, FpToUi, ExtF, TruncF, Bitcast, Tf32)
}

/// `a * b + c`, rounded once.
pub(super) fn fma_lanes(regs: &mut [u64], ty: Prim, dst: Slot, a: Slot, b: Slot, c: Slot, mask: u32) {
    for e in 0..dst.len {
        let (d, x, y, z) = (at(dst, e, 0), at(a, e, 0), at(b, e, 0), at(c, e, 0));
        let xs: [u64; 32] = regs[x..x + 32].try_into().expect("32 lanes");
        let ys: [u64; 32] = regs[y..y + 32].try_into().expect("32 lanes");
        let zs: [u64; 32] = regs[z..z + 32].try_into().expect("32 lanes");
        let out = &mut regs[d..d + 32];
        let f = |l: usize| match ty {
            Prim::F32 => f32::from_bits(xs[l] as u32).mul_add(f32::from_bits(ys[l] as u32), f32::from_bits(zs[l] as u32)).to_bits() as u64,
            _ => fma(ty, xs[l], ys[l], zs[l]),
        };
        if mask == u32::MAX {
            if ty == Prim::F32 && fma_f32_in_hardware(out, &xs, &ys, &zs) {
                continue;
            }
            for (l, o) in out.iter_mut().enumerate() {
                *o = f(l);
            }
        } else {
            for l in lanes(mask) {
                out[l] = f(l);
            }
        }
    }
}

/// All 32 lanes of an f32 `fma` with the CPU's fused multiply-add, where it has one: the same
/// single rounding as `f32::mul_add`, which without the `fma` target feature calls libm's
/// `fmaf` per lane. False (nothing written) on a CPU without it.
fn fma_f32_in_hardware(out: &mut [u64], xs: &[u64; 32], ys: &[u64; 32], zs: &[u64; 32]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "fma")]
        unsafe fn lanes(out: &mut [u64], xs: &[u64; 32], ys: &[u64; 32], zs: &[u64; 32]) {
            for (l, o) in out.iter_mut().enumerate() {
                *o = f32::from_bits(xs[l] as u32).mul_add(f32::from_bits(ys[l] as u32), f32::from_bits(zs[l] as u32)).to_bits() as u64;
            }
        }
        if std::arch::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU has the `fma` feature `lanes` is compiled for (checked just above).
            unsafe { lanes(out, xs, ys, zs) };
            return true;
        }
    }
    let _ = (out, xs, ys, zs);
    false
}

/// Element `pos` of `src` (a constant position) into `dst`.
pub(super) fn extract_lanes(regs: &mut [u64], dst: Slot, src: Slot, pos: u32, mask: u32) {
    let (d, x) = (at(dst, 0, 0), at(src, pos, 0));
    if mask == u32::MAX {
        regs.copy_within(x..x + 32, d);
    } else {
        for l in lanes(mask) {
            regs[d + l] = regs[x + l];
        }
    }
}
