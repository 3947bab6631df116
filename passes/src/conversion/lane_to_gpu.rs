//! `convert-lane-to-gpu`: lowers the `lane` dialect to upstream `gpu`, `nvvm`, `arith`, `func`.
//!
//! - `lane.reduce`, `lane.reduce_with`: an xor butterfly of log2(width) shuffle steps with
//!   offsets width/2, ..., 2, 1 (each w-lane piece reduces on its own; offsets below the width
//!   never leave the piece), each followed by the combine. Width 1 is the value itself.
//! - `lane.argmax`: the same butterfly moving the value and its lane: 2·log2(width) shuffles;
//!   ties go to the smaller lane.
//! - `lane.shuffle`: one shuffle (two for 64-bit values). An operand that is not a constant
//!   inside the piece is clamped first, so a source outside the piece reads the lane's own value.
//! - A combine (a region, or the body of `combine = @f`) is copied into every step, so no call
//!   is left.
//!
//! Precondition: the ops verified (width, kinds, combine shape). Postcondition: no `lane.*` op
//! is left. Limits: the butterfly is the only reduction strategy (no `redux.sync` for i32 yet).

use crate::{
    external::{for_each_op, PassCx},
    words::{combine, equal, greater, shuffle, Shfl},
};
use phobos_dialects::{
    diag::Diagnostic,
    ir::{Blk, Builder, Op, Val},
    lane::{self, Mode},
};
use std::collections::HashMap;

pub const DESCRIPTION: &str = "Lowers lane.reduce, lane.reduce_with and lane.argmax to an xor butterfly of \
log2(width) gpu.shuffle steps (argmax: two shuffles per step), and lane.shuffle to one gpu.shuffle, or \
nvvm.shfl.sync with a segment clamp for width < 32. Runs on a gpu.module; leaves no lane.* op.";

pub fn run(module: Op, cx: &PassCx) -> Result<(), ()> {
    // Step 1. Collect first: rewriting while walking would invalidate the walk.
    let ops: Vec<Op> = module.walk().into_iter().filter(|o| o.name().starts_with("lane.")).collect();
    // Step 2. Rewrite each op in place.
    for_each_op(ops, cx, |op| lower(module, op))
}

fn lower(module: Op, op: Op) -> Result<(), Diagnostic> {
    lane::verify(op)?;
    let b = Builder::before(op);
    let w = lane::width(op);
    let v = op.operand(0);
    let result = match op.name().as_str() {
        "lane.reduce" => {
            let kind = lane::kind(op);
            butterfly(b, v, w, |b, a, c| combine(b, kind, a, c))
        }
        "lane.reduce_with" => {
            let blk = combine_block(module, op)?;
            butterfly(b, v, w, |b, a, c| apply_combine(b, blk, a, c))
        }
        "lane.argmax" => argmax(b, v, w),
        "lane.shuffle" => lower_shuffle(b, op, w),
        other => return Err(Diagnostic::op_error(op, format!("unknown lane op '{other}'"))),
    };
    op.replace_with(&[result]);
    Ok(())
}

/// The xor butterfly: offsets w/2 .. 1, each `acc = f(acc, shuffle_xor(acc, offset))`.
pub fn butterfly(b: Builder, v: Val, width: i64, f: impl Fn(Builder, Val, Val) -> Val) -> Val {
    let mut acc = v;
    let mut offset = width / 2;
    while offset >= 1 {
        let o = b.i32(offset);
        let other = shuffle(b, acc, Shfl::Xor, o, width);
        acc = f(b, acc, other);
        offset /= 2;
    }
    acc
}

/// The lane id as i32.
pub fn lane_id(b: Builder) -> Val {
    let l = b.v("gpu.lane_id", &[], b.ctx.index(), &[]);
    b.cast("arith.index_cast", l, b.ctx.i(32))
}

/// argmax over each piece: the butterfly moves (value, lane); ties keep the smaller lane.
pub fn argmax_pair(b: Builder, v: Val, idx: Val, width: i64) -> (Val, Val) {
    let (mut v, mut idx) = (v, idx);
    let mut offset = width / 2;
    while offset >= 1 {
        let o = b.i32(offset);
        let ov = shuffle(b, v, Shfl::Xor, o, width);
        let oi = shuffle(b, idx, Shfl::Xor, o, width);
        let better = greater(b, ov, v);
        let tie = equal(b, ov, v);
        let smaller = b.cmpi("slt", oi, idx);
        let tie_smaller = b.bin("arith.andi", tie, smaller);
        let take = b.bin("arith.ori", better, tie_smaller);
        v = b.select(take, ov, v);
        idx = b.select(take, oi, idx);
        offset /= 2;
    }
    (v, idx)
}

fn argmax(b: Builder, v: Val, width: i64) -> Val {
    let idx = lane_id(b);
    argmax_pair(b, v, idx, width).1
}

fn lower_shuffle(b: Builder, op: Op, w: i64) -> Val {
    let v = op.operand(0);
    let x = op.operand(1);
    let in_piece = x.const_int().is_some_and(|c| (0..w).contains(&c));
    // Clamp a possibly-outside operand to the value that reads the lane's own value.
    let clamp = |own: Val| -> Val {
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

/// The block of a `*.reduce_with`'s combine: its region, or the body of its `combine = @f`
/// (checked: a `func.func` of this gpu.module of type (T, T) -> T with one block). The region
/// must not use values from outside it: it is copied where the fold happens.
pub fn combine_block(module: Op, op: Op) -> Result<Blk, Diagnostic> {
    let ty = op.operand(0).ty();
    let body = module.region(0).first_block().expect("gpu.module has a body");
    if let Some(sym) = op.attr("combine").and_then(|a| a.symbol()) {
        let f = body
            .ops()
            .find(|o| o.is("func.func") && o.str_attr("sym_name").as_deref() == Some(sym.as_str()))
            .ok_or_else(|| Diagnostic::op_error(op, format!("combine @{sym} is not a func.func in this gpu.module")))?;
        let want = format!("({ty}, {ty}) -> {ty}");
        let got = f.attr("function_type").and_then(|a| a.type_value()).map(|t| t.to_string()).unwrap_or_default();
        if got != want {
            return Err(Diagnostic::op_error(op, format!("combine @{sym} must have type {want}, has {got}")));
        }
        let blocks = f.region(0).blocks();
        if blocks.len() != 1 {
            return Err(Diagnostic::op_error(op, format!("combine @{sym} must have one block, has {}", blocks.len())));
        }
        return Ok(blocks[0]);
    }
    let blk = op.region(0).first_block().expect("verified combine region");
    for inner in blk.ops().flat_map(|o| o.walk()) {
        for v in inner.operands() {
            let defined_inside = match v.def() {
                Some(d) => d.ancestor(&op.name()) == Some(op),
                None => {
                    v.block_arg().is_some_and(|(bb, _)| bb == blk || bb.parent_op().is_some_and(|p| p.ancestor(&op.name()) == Some(op)))
                }
            };
            if !defined_inside {
                return Err(Diagnostic::op_error(op, "combine region uses a value defined outside it"));
            }
        }
    }
    Ok(blk)
}

/// Copies the combine `blk` at `b` with its arguments bound to `x` and `y`; returns the value its
/// terminator (`gpu.yield` or `func.return`) gives.
pub fn apply_combine(b: Builder, blk: Blk, x: Val, y: Val) -> Val {
    let mut map: HashMap<Val, Val> = HashMap::new();
    map.insert(blk.arg(0), x);
    map.insert(blk.arg(1), y);
    let term = blk.terminator().expect("verified terminator");
    for op in blk.ops() {
        if op == term {
            break;
        }
        let c = op.clone_op();
        for inner in c.walk() {
            for i in 0..inner.num_operands() {
                if let Some(m) = map.get(&inner.operand(i)) {
                    inner.set_operand(i, *m);
                }
            }
        }
        b.insert(c);
        for (old, new) in op.results().into_iter().zip(c.results()) {
            map.insert(old, new);
        }
    }
    let r = term.operand(0);
    map.get(&r).copied().unwrap_or(r)
}
