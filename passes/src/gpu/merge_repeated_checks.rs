//! `merge-repeated-checks`: erases a `cf.assert` whose condition an earlier assert that
//! dominates it already checked (the same SSA value).
//!
//! The frontend checks every subscript where it is used, so `word(A[a :+ 16], 0)` and
//! `word(A[a :+ 16], 1)` each bring the same two asserts between their loads. An assert has a
//! write effect (it must not move), so CSE cannot merge the loads across it, and the simulator
//! would read the run once per use where the GPU reads it once. The repeat checks nothing new:
//! the condition is the same value, checked before. Every check still runs once, where it
//! first applies.

use crate::external::PassCx;
use crate::registry::PassInfo;
use phobos_ir::{Blk, Op, Val};
use std::collections::HashSet;

/// Walks `blk` in order with the conditions already asserted on every path into it.
fn merge<'a>(blk: Blk<'a>, asserted: &HashSet<Val<'a>>, cx: &PassCx<'a>) {
    let mut mine = asserted.clone();
    for op in blk.ops().collect::<Vec<Op>>() {
        if op.is("cf.assert") {
            if !mine.insert(op.operand(0)) {
                cx.erase(op);
            }
            continue;
        }
        // A region runs after the asserts before its op; within it, only the entry block
        // follows them on every path (other blocks get the outer ones, which dominate them).
        for r in 0..op.num_regions() {
            for b in op.region(r).blocks() {
                merge(b, &mine, cx);
            }
        }
    }
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    for f in module.walk().into_iter().filter(|o| o.is("gpu.func") || o.is("func.func")) {
        for b in f.region(0).blocks() {
            merge(b, &HashSet::new(), cx);
        }
    }
    Ok(())
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "merge-repeated-checks",
    name: "MergeRepeatedChecks",
    summary: "erases a cf.assert whose condition a dominating assert already checked, so that CSE can merge the accesses between them",
    description: "Erases a cf.assert whose condition (the same SSA value) an earlier cf.assert that \
    dominates it checked: a subscript used twice is checked once, where it first applies, and the \
    loads between the repeats can be merged by CSE.",
    anchor: "",
    options: &[],
    run,
};
