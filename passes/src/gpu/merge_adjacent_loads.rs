//! `merge-adjacent-loads`: joins loads of consecutive elements of one memref into one vector
//! load of up to 16 bytes, so the SIMT IR says the access the GPU makes.
//!
//! `v[i] = X[0, t * 4 + i]` for i = 0..3 (unrolled by `unroll-register-loops`) is four 4-byte
//! loads at `a`, `a + 1`, `a + 2`, `a + 3`; LLVM joins them into one `ld.global.v4` when it can
//! prove the alignment, and the simulator (and `phobos explain`) should see that one load.
//! Loads join when they are in one block, load scalars of one type (or vectors of one length n)
//! from one 1-D memref at indices `base + c`, `base + c + n`, ... (the same `base` value), carry
//! no `phobos.` attribute, and nothing between the first and the last writes memory,
//! synchronises or calls (loads of other memrefs may sit between). The ops between them that
//! do not use a joined load's value (index arithmetic, the bounds asserts, in their order) move
//! before the first, where the joined load then reads; each load becomes an extract of it.
//! `prove-alignment`, after this pass, gives it the alignment its index proves.

use super::adjacent::{aligned_chunks, harmless, join_runs, piece, Piece};
use crate::analysis::memory;
use crate::external::PassCx;
use crate::registry::PassInfo;
use phobos_ir::{Blk, Builder, Op, Val};
use std::collections::HashSet;

/// Whether `op` may sit between two loads that join: reads of memory are fine.
fn keeps_runs(op: Op) -> bool {
    harmless(op)
        || (op.num_regions() == 0 && {
            let a = memory::accesses(op);
            !a.is_empty() && a.iter().all(|a| !a.writes)
        })
}

/// The runs of joinable loads in `blk`, each in order: runs of different memrefs or bases may
/// interleave.
fn runs<'a>(blk: Blk<'a>) -> Vec<Vec<Piece<'a>>> {
    let mut done = Vec::new();
    let mut open: Vec<Vec<Piece<'a>>> = Vec::new();
    for op in blk.ops() {
        let Some(p) = piece(op, false) else {
            if !keeps_runs(op) {
                done.append(&mut open);
            }
            continue;
        };
        match open.iter().position(|r| r[0].mem == p.mem && r[0].base == p.base) {
            Some(i) if open[i][0].continued_by(&p, open[i].last().expect("a run").off, open[i].len()) => open[i].push(p),
            Some(i) => done.push(std::mem::replace(&mut open[i], vec![p])),
            None => open.push(vec![p]),
        }
    }
    done.append(&mut open);
    done.into_iter().flat_map(aligned_chunks).collect()
}

/// Moves the ops between the run's first and last load that use no value of its loads before
/// the first; returns false (moving nothing) when a load's index would not be defined there.
fn hoist<'a>(run: &[Piece<'a>]) -> bool {
    let first = run[0].op;
    let last = run.last().expect("a run").op;
    let loads: HashSet<Op<'a>> = run.iter().map(|p| p.op).collect();
    let mut tainted: HashSet<Val<'a>> = first.results().into_iter().collect();
    let mut moving = Vec::new();
    let mut op = first.next();
    while let Some(o) = op {
        if o == last {
            break;
        }
        let uses_run = o.operands().iter().any(|v| tainted.contains(v));
        if loads.contains(&o) || uses_run || !harmless(o) {
            tainted.extend(o.results());
        } else {
            moving.push(o);
        }
        op = o.next();
    }
    // Every later load's index must be defined before the first load once the ops moved: every
    // value of the span is either moved or tainted, so an untainted one is.
    if run[1..].iter().any(|p| tainted.contains(&p.index)) {
        return false;
    }
    for o in moving {
        o.move_before(first);
    }
    true
}

/// Joins one run: one vector load at the first load's index, each load an extract of it.
fn join<'a>(run: &[Piece<'a>], cx: &PassCx<'a>) {
    if !hoist(run) {
        return;
    }
    let first = run[0];
    let b = Builder::before(first.op).with_loc(first.op.loc());
    let k = run.len() as i64;
    let wide = b.ctx.known_type(&format!("vector<{}x{}>", k * first.n, first.elem));
    let joined = b.op_value("vector.load", &[first.mem, first.index], wide, &[]);
    let parts: Vec<Val<'a>> = run
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if first.n == 1 {
                crate::emit::vector::extract(b, joined, i as i64)
            } else {
                let attrs = [
                    ("offsets", b.ctx.known_attr(&format!("[{}]", i as i64 * first.n))),
                    ("sizes", b.ctx.known_attr(&format!("[{}]", first.n))),
                    ("strides", b.ctx.known_attr("[1]")),
                ];
                b.op_value("vector.extract_strided_slice", &[joined], p.op.result(0).ty(), &attrs)
            }
        })
        .collect();
    for (p, v) in run.iter().zip(parts) {
        cx.replace(p.op, &[v]);
    }
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    join_runs(module, cx, runs, join);
    Ok(())
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "merge-adjacent-loads",
    name: "MergeAdjacentLoads",
    summary: "joins loads of consecutive elements of one memref into one vector load of up to 16 bytes",
    description: "Joins memref.loads or vector.loads in one block that read consecutive elements of one 1-D memref \
    (indices base + c, base + c + n, ...) with nothing writing memory between them into one vector load of up to 16 \
    bytes at the first, the ops between that do not use the loaded values moved before it, so the SIMT IR, the \
    simulator and explain see the access the GPU makes.",
    anchor: "",
    options: &[],
    run,
};
