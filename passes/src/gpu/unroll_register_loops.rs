//! `unroll-register-loops`: fully unrolls the `scf.for` loops with constant bounds that index a
//! register array by a value computed in the loop (`vector.insert`/`vector.extract` at a
//! position the loop computes), as LLVM must to keep the array in registers.
//!
//! `for i in range(0, 4) { v[i] = X[0, t * 4 + i] }` reaches LLVM as a loop; LLVM unrolls it,
//! promotes `v` to registers and joins the four loads into one `ld.global.v4`. Unrolled here, the
//! SIMT IR the simulator runs (and `phobos explain` draws) has the four loads in a row, which
//! `merge-adjacent-loads` joins as LLVM does. Each iteration becomes a clone of the loop with
//! bounds `[lb + i·step, lb + (i+1)·step)`; canonicalize inlines a loop of one iteration.
//! Loops of more than 64 iterations or 4096 unrolled ops stay loops (as LLVM's unroller, which
//! then leaves the array in local memory), except a loop marked `phobos.unroll` (the frontend's
//! `for i, j in acc` over a tensor-core fragment, up to 128 items): its array is the
//! accumulator, which must stay in registers whatever the body's size.

use crate::external::PassCx;
use crate::registry::PassInfo;
use phobos_ir::{Builder, Op};

const MAX_TRIPS: i64 = 64;
const MAX_OPS: usize = 4096;
/// The bound on the unrolled ops of a loop marked `phobos.unroll`, against runaway bodies.
const MAX_MARKED_OPS: usize = 1 << 18;

/// Whether `v` is computed inside `lp`'s body (not a constant: a position that folds).
fn computed_in(lp: Op, v: phobos_ir::Val) -> bool {
    if v.const_int().is_some() {
        return false;
    }
    let mut owner = match (v.def(), v.block_arg()) {
        (Some(d), _) => d.parent(),
        (None, Some((blk, _))) => blk.parent_op(),
        _ => None,
    };
    while let Some(o) = owner {
        if o == lp {
            return true;
        }
        owner = o.parent();
    }
    false
}

/// Whether the loop indexes a register array at a position it computes.
fn indexes_registers(lp: Op) -> bool {
    lp.walk().into_iter().any(|o| {
        (o.is("vector.insert") || o.is("vector.extract"))
            && o.operands().iter().skip(if o.is("vector.insert") { 2 } else { 1 }).any(|p| computed_in(lp, *p))
    })
}

fn unroll<'a>(lp: Op<'a>, cx: &PassCx<'a>) {
    let (Some(lb), Some(ub), Some(step)) = (lp.operand(0).const_int(), lp.operand(1).const_int(), lp.operand(2).const_int()) else {
        return;
    };
    if step <= 0 || ub <= lb {
        return;
    }
    let trips = (ub - lb + step - 1) / step;
    let (max_trips, max_ops) =
        if lp.attr("phobos.unroll").is_some() { (phobos_layout::mma::MAX_ITEMS, MAX_MARKED_OPS) } else { (MAX_TRIPS, MAX_OPS) };
    if trips > max_trips || trips as usize * lp.walk().len() > max_ops || !indexes_registers(lp) {
        return;
    }
    let b = Builder::before(lp).with_loc(lp.loc());
    let ty = lp.operand(0).ty();
    let mut carried: Vec<phobos_ir::Val<'a>> = lp.operands()[3..].to_vec();
    for i in 0..trips {
        let first = lb + i * step;
        let c = lp.clone_op();
        let op = c.op();
        op.set_operand(0, b.const_int(ty, first));
        op.set_operand(1, b.const_int(ty, (first + step).min(ub)));
        for (k, v) in carried.iter().enumerate() {
            op.set_operand(3 + k, *v);
        }
        let op = b.insert(c);
        carried = op.results();
    }
    cx.replace(lp, &carried);
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    // Innermost first: an outer loop's clones then hold the inner loops unrolled.
    let loops: Vec<Op<'a>> = module.walk().into_iter().filter(|o| o.is("scf.for")).collect();
    for lp in loops.into_iter().rev() {
        unroll(lp, cx);
    }
    Ok(())
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "unroll-register-loops",
    name: "UnrollRegisterLoops",
    summary: "fully unrolls constant-bound scf.for loops that index a register array at a position they compute",
    description: "Replaces an scf.for with constant bounds (at most 64 iterations, 4096 unrolled ops) whose body \
    indexes a vector at a position the loop computes by one single-iteration clone per iteration (canonicalize \
    inlines them), as LLVM unrolls such loops to keep the array in registers: the SIMT IR then has the accesses \
    the GPU makes.",
    anchor: "",
    options: &[],
    run,
};
