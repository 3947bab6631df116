//! `convert-lane-to-gpu`: lowers the `lane` dialect to upstream `gpu`, `nvvm`, `arith`, `func`.
//!
//! - `lane.reduce`, `lane.reduce_with`: an xor butterfly of log2(width) shuffle steps with
//!   offsets width/2, ..., 2, 1 (each w-lane piece reduces on its own; offsets below the width
//!   never leave the piece), each followed by the combine. Width 1 is the value itself.
//! - `lane.argmax`, `lane.argmin`: the same butterfly moving the value and its lane:
//!   2·log2(width) shuffles; ties go to the smaller lane.
//! - `lane.scan`, `lane.scan_with`: Hillis-Steele, log2(width) shuffles up by 1, 2, 4, ...,
//!   each followed by the combine (earlier value first) and a select for the lanes that many
//!   into their piece.
//! - `lane.shuffle`: one shuffle (two for 64-bit values). An operand that is not a constant
//!   inside the piece is clamped first, so a source outside the piece reads the lane's own value.
//! - A combine (a region, or the body of `combine = @f`) is copied into every step, so no call
//!   is left.
//!
//! Precondition: the ops verified (width, kinds, combine shape). Postcondition: no `lane.*` op
//! is left. Limits: the butterfly is the only reduction strategy (no `redux.sync` for i32 yet).

use crate::registry::PassInfo;
use crate::{
    emit::{
        fold::{apply_combine, arg_pair, butterfly, combine_block, lane_id, Pick},
        shuffle::{combine, shuffle, Shfl},
    },
    external::PassCx,
    patterns::{self, Illegal, Pattern, DISABLE_PATTERNS},
};
use phobos_dialects::lane::{self, Mode};
use phobos_dialects::ops::LaneOp;
use phobos_ir::{diag::Diagnostic, Builder, Op, Val};

/// The patterns of `convert-lane-to-gpu`, one per `lane` op (an exhaustive match: a new op
/// does not compile without its lowering).
pub fn populate_lane_to_gpu_patterns(patterns: &mut Vec<Pattern>) {
    patterns.extend(LaneOp::ALL.iter().map(|op| {
        let lower: patterns::Lower = match op {
            LaneOp::Reduce => lower_reduce,
            LaneOp::ReduceWith => lower_reduce_with,
            LaneOp::Argmax => lower_argmax,
            LaneOp::Argmin => lower_argmin,
            LaneOp::Shuffle => lower_shuffle,
            LaneOp::Scan => lower_scan,
            LaneOp::ScanWith => lower_scan_with,
        };
        Pattern::new(op.name(), lower)
    }));
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let mut ps = Vec::new();
    populate_lane_to_gpu_patterns(&mut ps);
    patterns::apply(module, cx, "convert-lane-to-gpu", &ps, Illegal::named(&["lane"], &[]))
}

fn lower_reduce<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    lane::verify(op)?;
    let kind = lane::kind(op);
    Ok(vec![butterfly(Builder::before(op), op.operand(0), lane::width(op), |b, a, c| combine(b, kind, a, c))])
}

fn lower_reduce_with<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    lane::verify(op)?;
    let module = op.ancestor("gpu.module").ok_or_else(|| Diagnostic::op_error(op, "must be inside a gpu.module"))?;
    let blk = combine_block(module, op)?;
    Ok(vec![butterfly(Builder::before(op), op.operand(0), lane::width(op), |b, a, c| apply_combine(b, blk, a, c))])
}

fn lower_argmax<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    lane::verify(op)?;
    Ok(vec![arg(Builder::before(op), op.operand(0), lane::width(op), Pick::Largest)])
}

fn lower_argmin<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    lane::verify(op)?;
    Ok(vec![arg(Builder::before(op), op.operand(0), lane::width(op), Pick::Smallest)])
}

fn lower_shuffle<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    lane::verify(op)?;
    Ok(vec![shuffle_op(Builder::before(op), op, lane::width(op))])
}

fn lower_scan<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    lane::verify(op)?;
    let kind = lane::kind(op);
    Ok(vec![scan(Builder::before(op), op.operand(0), lane::width(op), |b, a, c| combine(b, kind, a, c))])
}

fn lower_scan_with<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    lane::verify(op)?;
    let module = op.ancestor("gpu.module").ok_or_else(|| Diagnostic::op_error(op, "must be inside a gpu.module"))?;
    let blk = combine_block(module, op)?;
    Ok(vec![scan(Builder::before(op), op.operand(0), lane::width(op), |b, a, c| apply_combine(b, blk, a, c))])
}

/// Hillis-Steele: for d = 1, 2, 4, ... below the width, each lane at least d into its piece
/// combines the value d lanes before it (a shuffle up) with its own, earlier first.
fn scan<'a>(b: Builder<'a>, v: Val<'a>, width: i64, f: impl Fn(Builder<'a>, Val<'a>, Val<'a>) -> Val<'a>) -> Val<'a> {
    let lane = lane_id(b);
    let place = if width == lane::WARP { lane } else { b.bin("arith.andi", lane, b.i32(width - 1)) };
    let mut x = v;
    let mut d = 1;
    while d < width {
        let earlier = shuffle(b, x, Shfl::Up, b.i32(d), width);
        let combined = f(b, earlier, x);
        let far_enough = b.cmpi("sge", place, b.i32(d));
        x = b.select(far_enough, combined, x);
        d *= 2;
    }
    x
}

fn arg<'a>(b: Builder<'a>, v: Val<'a>, width: i64, pick: Pick) -> Val<'a> {
    let idx = lane_id(b);
    arg_pair(b, v, idx, width, pick).1
}

fn shuffle_op<'a>(b: Builder<'a>, op: Op<'a>, w: i64) -> Val<'a> {
    let v = op.operand(0);
    let x = op.operand(1);
    let in_piece = x.const_int().is_some_and(|c| (0..w).contains(&c));
    // Clamp a possibly-outside operand to the value that reads the lane's own value.
    let clamp = |own: Val<'a>| -> Val<'a> {
        if in_piece {
            return x;
        }
        let wv = b.i32(w);
        let ok = b.cmpi("ult", x, wv);
        b.select(ok, x, own)
    };
    match lane::mode(op) {
        Mode::Xor => shuffle(b, v, Shfl::Xor, clamp(b.i32(0)), w),
        Mode::Down => shuffle(b, v, Shfl::Down, clamp(b.i32(0)), w),
        Mode::Up => shuffle(b, v, Shfl::Up, clamp(b.i32(0)), w),
        Mode::From => {
            let s = if in_piece {
                x
            } else {
                let l = lane_id(b);
                let own = if w == lane::WARP { l } else { b.bin("arith.andi", l, b.i32(w - 1)) };
                clamp(own)
            };
            shuffle(b, v, Shfl::Idx, s, w)
        }
    }
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "convert-lane-to-gpu",
    name: "ConvertLaneToGpu",
    summary: "lane.* collectives and shuffles to gpu.shuffle / nvvm.shfl.sync and arith",
    description: "Lowers lane.reduce, lane.reduce_with, lane.argmax and lane.argmin to an xor butterfly of \
    log2(width) gpu.shuffle steps (argmax, argmin: two shuffles per step), lane.scan and lane.scan_with to \
    log2(width) shuffles up (Hillis-Steele), and lane.shuffle to one gpu.shuffle, or \
    nvvm.shfl.sync with a segment clamp for width < 32. Runs on a gpu.module; leaves no lane.* op.",
    anchor: "gpu.module",
    options: &[DISABLE_PATTERNS],
    run,
};
