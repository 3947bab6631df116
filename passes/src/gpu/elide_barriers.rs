//! `elide-barriers`: removes `gpu.barrier`s that order no shared-memory access, and says why in
//! a remark; marks every barrier it keeps with `phobos.barrier` (the reason it is kept, or the
//! reason its producer gave).
//!
//! A barrier orders the shared-memory accesses before it with those after it. In one block:
//! - with no shared access since the previous barrier of the block (or since the kernel's start,
//!   in the kernel's entry block), it orders nothing the previous barrier did not;
//! - with no shared access after it in the kernel's entry block (the kernel ends), it orders
//!   nothing either.
//!
//! A barrier marked `phobos.user` (the language's `barrier()`) is always kept: it may order
//! global memory, which this pass does not track.
//!
//! Accesses are loads, stores and atomics on workgroup memory, and any op with regions holding
//! one or a call. Inside nested blocks (loops, branches) the unknown path into the block counts
//! as an access, so barriers there are kept unless a barrier of the same block covers them.

use crate::external::PassCx;
use crate::registry::PassInfo;
use phobos_ir::{
    diag::{Diagnostic, Severity},
    Blk, Op,
};

/// Does `op` (or anything nested in it) touch workgroup memory? A call may.
pub fn touches_shared(op: Op) -> bool {
    crate::analysis::memory::touches_space(op, 3) || op.walk().into_iter().any(|o| o.is("func.call"))
}

fn scan<'a>(blk: Blk<'a>, entry: bool, cx: &PassCx<'a>) {
    let ops: Vec<Op> = blk.ops().collect();
    let mut accessed = !entry; // the unknown way into a nested block may have accessed
    let mut pending: Option<Op> = None; // a barrier with no access after it yet
    for op in &ops {
        if op.is("gpu.barrier") {
            // A barrier the source asked for (`barrier()`) may order global memory: kept.
            if op.attr("phobos.user").is_some() {
                if let Some(p) = pending.take() {
                    keep(p);
                }
                accessed = false;
                continue;
            }
            if !accessed {
                elide(*op, "no shared-memory access since the previous barrier (or the kernel's start)", cx);
                continue;
            }
            if let Some(p) = pending.take() {
                keep(p);
            }
            pending = Some(*op);
            accessed = false;
            continue;
        }
        for r in 0..op.num_regions() {
            for b in op.region(r).blocks() {
                scan(b, false, cx);
            }
        }
        if touches_shared(*op) {
            accessed = true;
            if let Some(p) = pending.take() {
                keep(p);
            }
        }
    }
    if let Some(p) = pending {
        if entry {
            elide(p, "no shared-memory access after it before the kernel ends", cx);
        } else {
            keep(p);
        }
    }
}

fn keep(op: Op) {
    if op.attr("phobos.barrier").is_none() {
        op.set_attr("phobos.barrier", op.ctx().str_attr("kept: orders shared-memory accesses before and after it"));
    }
}

fn elide<'a>(op: Op<'a>, why: &str, cx: &PassCx<'a>) {
    cx.diags.emit(Diagnostic::new(Severity::Remark, op.loc().src(), format!("barrier elided: {why}")));
    cx.erase(op);
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let body = module.region(0).first_block().expect("gpu.module has a body");
    for f in body.ops().filter(|o| o.is("gpu.func")) {
        if let Some(entry) = f.region(0).first_block() {
            scan(entry, true, cx);
        }
    }
    Ok(())
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "elide-barriers",
    name: "ElideBarriers",
    summary: "removes barriers that order no shared-memory access, with a remark",
    description: "Removes gpu.barriers that order no workgroup-memory access (none since \
    the previous barrier of the block, or none after it before the kernel ends), with a remark saying so; \
    marks the barriers it keeps with phobos.barrier.",
    anchor: "gpu.module",
    options: &[],
    run,
};
