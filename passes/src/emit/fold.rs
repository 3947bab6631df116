//! Folds across lanes: the xor butterfly, the argmax butterfly over (value, index) pairs, and
//! the user combines (a region, or a `func.func`) copied into every step.

use crate::emit::shuffle::{equal, greater, shuffle, Shfl};
use phobos_ir::{diag::Diagnostic, Blk, Builder, Op, Val};
use std::collections::HashMap;

/// The xor butterfly: offsets w/2 .. 1, each `acc = f(acc, shuffle_xor(acc, offset))`.
pub fn butterfly<'a>(b: Builder<'a>, v: Val<'a>, width: i64, f: impl Fn(Builder<'a>, Val<'a>, Val<'a>) -> Val<'a>) -> Val<'a> {
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
pub fn lane_id<'a>(b: Builder<'a>) -> Val<'a> {
    let l = b.op_value("gpu.lane_id", &[], b.ctx.index(), &[]);
    b.cast("arith.index_cast", l, b.ctx.i(32))
}

/// Which value an arg-fold looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// argmax.
    Largest,
    /// argmin.
    Smallest,
}

/// argmax or argmin over each piece: the butterfly moves (value, lane); a value wins when it is
/// (ordered) larger, or smaller, and ties keep the smaller lane.
pub fn arg_pair<'a>(b: Builder<'a>, v: Val<'a>, idx: Val<'a>, width: i64, pick: Pick) -> (Val<'a>, Val<'a>) {
    let (mut v, mut idx) = (v, idx);
    let mut offset = width / 2;
    while offset >= 1 {
        let o = b.i32(offset);
        let ov = shuffle(b, v, Shfl::Xor, o, width);
        let oi = shuffle(b, idx, Shfl::Xor, o, width);
        let better = match pick {
            Pick::Largest => greater(b, ov, v),
            Pick::Smallest => greater(b, v, ov),
        };
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

/// The block of a `*.reduce_with`'s combine: its region, or the body of its `combine = @f`
/// (checked: a `func.func` of this gpu.module of type (T, T) -> T with one block). The region
/// must not use values from outside it: it is copied where the fold happens.
pub fn combine_block<'a>(module: Op<'a>, op: Op<'a>) -> Result<Blk<'a>, Diagnostic> {
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
pub fn apply_combine<'a>(b: Builder<'a>, blk: Blk<'a>, x: Val<'a>, y: Val<'a>) -> Val<'a> {
    let mut map: HashMap<Val, Val> = HashMap::new();
    map.insert(blk.arg(0), x);
    map.insert(blk.arg(1), y);
    let term = blk.terminator().expect("verified terminator");
    for op in blk.ops() {
        if op == term {
            break;
        }
        let c = op.clone_op();
        for inner in c.op().walk() {
            for i in 0..inner.num_operands() {
                if let Some(m) = map.get(&inner.operand(i)) {
                    inner.set_operand(i, *m);
                }
            }
        }
        let c = b.insert(c);
        for (old, new) in op.results().into_iter().zip(c.results()) {
            map.insert(old, new);
        }
    }
    let r = term.operand(0);
    map.get(&r).copied().unwrap_or(r)
}
