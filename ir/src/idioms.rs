//! Recognisers of op idioms that Phobos emits and several layers read (the simulator, the
//! lowerings), so they agree on one definition.

use crate::{Op, Val};

/// (expected, desired) of a `memref.generic_atomic_rmw` that is a compare-and-swap:
/// `%eq = arith.cmpi eq, %old, %e; %new = arith.select %eq, %d, %old; memref.atomic_yield %new`,
/// with `%e` and `%d` defined outside it. None for any other body.
pub fn compare_and_swap<'a>(op: Op<'a>) -> Option<(Val<'a>, Val<'a>)> {
    if !op.is("memref.generic_atomic_rmw") {
        return None;
    }
    let blk = op.region(0).first_block()?;
    let old = blk.arg(0);
    let ops: Vec<Op<'a>> = blk.ops().collect();
    let [cmp, sel, yld] = ops[..] else { return None };
    let ok = cmp.is("arith.cmpi")
        && cmp.attr("predicate").and_then(|a| a.int()) == Some(0)
        && cmp.operand(0) == old
        && sel.is("arith.select")
        && sel.operand(0) == cmp.result(0)
        && sel.operand(2) == old
        && yld.is("memref.atomic_yield")
        && yld.operand(0) == sel.result(0);
    let outside = |v: Val<'a>| v != old && v.def().is_none_or(|d| d.parent() != Some(op));
    (ok && outside(cmp.operand(1)) && outside(sel.operand(1))).then(|| (cmp.operand(1), sel.operand(1)))
}
