//! Moving values between lanes as 32-bit words, and the combines of the built-in folds.
//!
//! The shuffle hardware moves 32 bits. A narrower value is widened to one word; a 64-bit value
//! moves as two words with the same source lane.
//! Full-warp shuffles, and xor shuffles of any width, use `gpu.shuffle` with width 32 (MLIR's
//! `width` means "the first N lanes are active", not CUDA's segments).
//! Segmented `down`/`up`/`from` use `nvvm.shfl.sync` with the segment mask packed into its clamp
//! operand, so that a source outside the lane's piece reads the lane's own value in hardware.

use phobos_dialects::lane::{Kind, WARP};
use phobos_ir::{Builder, Scalar, Ty, Val};

/// The direction of a hardware shuffle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shfl {
    Xor,
    Down,
    Up,
    Idx,
}

impl Shfl {
    fn gpu_mode(self) -> &'static str {
        match self {
            Shfl::Xor => "#gpu<shuffle_mode xor>",
            Shfl::Down => "#gpu<shuffle_mode down>",
            Shfl::Up => "#gpu<shuffle_mode up>",
            Shfl::Idx => "#gpu<shuffle_mode idx>",
        }
    }
    fn nvvm_kind(self) -> &'static str {
        match self {
            Shfl::Xor => "#nvvm<shfl_kind bfly>",
            Shfl::Down => "#nvvm<shfl_kind down>",
            Shfl::Up => "#nvvm<shfl_kind up>",
            Shfl::Idx => "#nvvm<shfl_kind idx>",
        }
    }
}

/// Shuffles one 32-bit value (i32 or f32). `operand` is an i32: mask, distance or source lane.
pub fn shuffle_word<'a>(b: Builder<'a>, v: Val<'a>, mode: Shfl, operand: Val<'a>, width: i64) -> Val<'a> {
    let ty = v.ty();
    if width == WARP || mode == Shfl::Xor {
        let w32 = b.i32(WARP);
        let i1 = b.ctx.i(1);
        return b.op("gpu.shuffle", &[v, operand, w32], &[ty, i1], &[("mode", b.ctx.known_attr(mode.gpu_mode()))]).result(0);
    }
    // CUDA-style segment: c[12:8] is the segment mask, c[4:0] the clamp lane.
    let seg = (WARP - width) << 8;
    let clamp = if mode == Shfl::Up { seg } else { seg | (WARP - 1) };
    let mask = b.i32(-1);
    let c = b.i32(clamp);
    b.op_value("nvvm.shfl.sync", &[mask, v, operand, c], ty, &[("kind", b.ctx.known_attr(mode.nvvm_kind()))])
}

/// Shuffles a scalar of any supported type, word by word.
pub fn shuffle<'a>(b: Builder<'a>, v: Val<'a>, mode: Shfl, operand: Val<'a>, width: i64) -> Val<'a> {
    let ty = v.ty();
    let i32t = b.ctx.i(32);
    let i64t = b.ctx.i(64);
    match ty.scalar().expect("verified scalar") {
        Scalar::Int(32) | Scalar::F32 => shuffle_word(b, v, mode, operand, width),
        Scalar::Int(w) if w < 32 => {
            let x = b.cast("arith.extui", v, i32t);
            let s = shuffle_word(b, x, mode, operand, width);
            b.cast("arith.trunci", s, ty)
        }
        Scalar::F16 | Scalar::BF16 => {
            let i16t = b.ctx.i(16);
            let x = b.cast("arith.bitcast", v, i16t);
            let x = b.cast("arith.extui", x, i32t);
            let s = shuffle_word(b, x, mode, operand, width);
            let s = b.cast("arith.trunci", s, i16t);
            b.cast("arith.bitcast", s, ty)
        }
        Scalar::Int(_) => shuffle_i64(b, v, mode, operand, width),
        Scalar::F64 => {
            let x = b.cast("arith.bitcast", v, i64t);
            let s = shuffle_i64(b, x, mode, operand, width);
            b.cast("arith.bitcast", s, ty)
        }
        Scalar::Index => {
            let x = b.cast("arith.index_cast", v, i64t);
            let s = shuffle_i64(b, x, mode, operand, width);
            b.cast("arith.index_cast", s, ty)
        }
    }
}

fn shuffle_i64<'a>(b: Builder<'a>, v: Val<'a>, mode: Shfl, operand: Val<'a>, width: i64) -> Val<'a> {
    let i32t = b.ctx.i(32);
    let i64t = b.ctx.i(64);
    let c32 = b.const_int(i64t, 32);
    let lo = b.cast("arith.trunci", v, i32t);
    let hi = b.bin("arith.shrui", v, c32);
    let hi = b.cast("arith.trunci", hi, i32t);
    let lo = shuffle_word(b, lo, mode, operand, width);
    let hi = shuffle_word(b, hi, mode, operand, width);
    let lo = b.cast("arith.extui", lo, i64t);
    let hi = b.cast("arith.extui", hi, i64t);
    let hi = b.bin("arith.shli", hi, c32);
    b.bin("arith.ori", lo, hi)
}

/// The combine of a built-in fold: `a op c`.
pub fn combine<'a>(b: Builder<'a>, kind: Kind, a: Val<'a>, c: Val<'a>) -> Val<'a> {
    b.bin(kind.combine_op(a.ty().is_float()), a, c)
}

/// The identity of a built-in fold for type `ty`: combining it changes nothing.
pub fn identity<'a>(b: Builder<'a>, kind: Kind, ty: Ty<'a>) -> Val<'a> {
    let s = ty.scalar().expect("verified scalar");
    match kind.float_identity().filter(|_| s.is_float()) {
        Some(v) => b.const_float(ty, v),
        // Integers, and i1 conditions for any/all (the verifier allows no float there).
        None => b.const_int(ty, kind.int_identity(s.bits())),
    }
}

/// Whether `a > c` (for argmax): ordered greater for floats, signed for integers.
pub fn greater<'a>(b: Builder<'a>, a: Val<'a>, c: Val<'a>) -> Val<'a> {
    if a.ty().is_float() {
        b.cmpf("ogt", a, c)
    } else {
        b.cmpi("sgt", a, c)
    }
}

/// Whether `a == c` (for argmax ties).
pub fn equal<'a>(b: Builder<'a>, a: Val<'a>, c: Val<'a>) -> Val<'a> {
    if a.ty().is_float() {
        b.cmpf("oeq", a, c)
    } else {
        b.cmpi("eq", a, c)
    }
}
