//! `convert-cta-to-gpu`: lowers the `cta` dialect (folds over every thread of a CTA).
//!
//! Each fold is:
//! 1. a full-warp xor butterfly in every warp (5 shuffles; argmax: 10, value and thread);
//! 2. barrier 1 (before the scratch is written: an earlier fold may still be reading it);
//!    lane 0 of each warp writes its warp's result to `scratch[warp]`;
//! 3. barrier 2 (after it is written); every warp reads the warps' results and folds them:
//!    built-in kinds with a butterfly over the next power of two ≥ the warp count (lanes past
//!    the last warp hold the kind's identity), a user combine by calling it over the warps in
//!    order (it has no identity);
//! 4. barrier 3 (after it is read), so a later write of the scratch cannot race with the reads.
//!
//! The scratch is one `memref.global` of 32 elements in workgroup memory per element type and
//! gpu.module (`__phobos_cta_scratch_<type>`): barrier 1 makes reuse by later folds safe.
//! Correct for any warp count from 1 to 32 (3 and 5 warps included). Needs whole warps:
//! a known block size that is not a multiple of 32 is an error. A user combine needs a known
//! block size (the warp count sets how many calls).
//! Postcondition: no `cta.*` op is left; `gpu.barrier`s and one `scf.if` per fold appear.

use crate::registry::PassInfo;
use crate::{
    emit::{
        control::{barrier, if_then},
        fold::{apply_combine, arg_pair, combine_block, Pick},
        ids::{known_block_size, linear_thread_id, num_warps, workgroup_global},
        shuffle::identity,
    },
    external::PassCx,
    patterns::{self, Illegal, Pattern, DISABLE_PATTERNS},
};
use phobos_dialects::lane::{self, Kind};
use phobos_dialects::ops::CtaOp;
use phobos_ir::{diag::Diagnostic, Builder, Op, Ty, Val};

/// The patterns of `convert-cta-to-gpu`, one per `cta` fold (an exhaustive match: a new op
/// names the pass that lowers it).
pub fn populate_cta_to_gpu_patterns(patterns: &mut Vec<Pattern>) {
    patterns.extend(CtaOp::ALL.iter().filter_map(|op| {
        let lower: crate::patterns::Lower = match op {
            CtaOp::Reduce => lower_reduce,
            CtaOp::Argmax => lower_argmax,
            CtaOp::ReduceWith => lower_reduce_with,
            // convert-exchange-to-gpu.
            CtaOp::Exchange | CtaOp::Scatter | CtaOp::Gather => return None,
        };
        Some(Pattern::new(op.name(), lower))
    }));
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let mut ps = Vec::new();
    populate_cta_to_gpu_patterns(&mut ps);
    patterns::apply(module, cx, "convert-cta-to-gpu", &ps, Illegal::named(&["cta"], &[]))
}

/// The workgroup scratch for elements of `ty`, created in `module` on first use.
fn scratch<'a>(module: Op<'a>, b: Builder<'a>, ty: Ty<'a>, tag: &str) -> Val<'a> {
    let mty = b.ctx.known_type(&format!("memref<32x{ty}, #gpu.address_space<workgroup>>"));
    workgroup_global(module, b, &format!("__phobos_cta_scratch_{tag}"), mty, false)
}

/// How values are kept in the scratch: i1 as i8 (a byte per flag).
fn storage<'a>(b: Builder<'a>, v: Val<'a>) -> (Val<'a>, Ty<'a>) {
    if v.ty().int_width() == Some(1) {
        let i8t = b.ctx.i(8);
        (b.cast("arith.extui", v, i8t), i8t)
    } else {
        (v, v.ty())
    }
}

fn tag(ty: Ty) -> String {
    ty.to_string()
}

/// Writes one value per warp: lane 0 of warp w stores `v` at `scratch[w]`.
fn write_per_warp<'a>(b: Builder<'a>, buf: Val<'a>, v: Val<'a>, warp: Val<'a>, lane_idx: Val<'a>) {
    let c0 = b.index(0);
    let leader = b.cmpi("eq", lane_idx, c0);
    if_then(b, leader, |ib| {
        ib.op("memref.store", &[v, buf, warp], &[], &[]);
    });
}

/// What every CTA fold needs: where it is, its warp and lane, and the slot of the second fold.
struct Fold<'a> {
    module: Op<'a>,
    b: Builder<'a>,
    v: Val<'a>,
    ty: Ty<'a>,
    /// The warp count, when the block size is known.
    warps: Option<i64>,
    /// The second fold's width: the next power of two >= the warp count.
    w2: i64,
    tid: Val<'a>,
    warp: Val<'a>,
    lane_idx: Val<'a>,
    /// Whether this lane's slot of the second fold holds a warp's result, and a safe slot.
    present: Val<'a>,
    slot: Val<'a>,
}

impl<'a> Fold<'a> {
    fn new(op: Op<'a>) -> Result<Fold<'a>, Diagnostic> {
        phobos_dialects::cta::verify(op)?;
        let module = op.ancestor("gpu.module").ok_or_else(|| Diagnostic::op_error(op, "must be inside a gpu.module"))?;
        let block = known_block_size(op);
        if let Some(bs) = block {
            let total = bs[0] * bs[1] * bs[2];
            if total % 32 != 0 || total > 1024 {
                return Err(Diagnostic::op_error(
                    op,
                    format!("a CTA collective needs whole warps: the block size {total} is not a multiple of 32 up to 1024"),
                ));
            }
        }
        let b = Builder::before(op);
        let v = op.operand(0);
        let warps = block.map(|bs| (bs[0] * bs[1] * bs[2]) / 32);
        let w2 = warps.map(|n| (n as u64).next_power_of_two().max(1) as i64).unwrap_or(lane::WARP);
        let lane_idx = b.op_value("gpu.lane_id", &[], b.ctx.index(), &[]);
        let tid = linear_thread_id(b, block);
        let warp = b.bin("arith.divui", tid, b.index(32));
        let nw = num_warps(b, block);
        let pos = b.bin("arith.andi", lane_idx, b.index(w2 - 1));
        let present = b.cmpi("ult", pos, nw);
        let slot = b.select(present, pos, b.index(0));
        Ok(Fold { module, b, v, ty: v.ty(), warps, w2, tid, warp, lane_idx, present, slot })
    }

    /// Barrier 1, lane 0 of each warp writes `r` to the scratch, barrier 2; returns the scratch
    /// and the element type it holds.
    fn publish(&self, r: Val<'a>) -> (Val<'a>, Ty<'a>) {
        let (stored, sty) = storage(self.b, r);
        let buf = scratch(self.module, self.b, sty, &tag(sty));
        barrier(self.b);
        write_per_warp(self.b, buf, stored, self.warp, self.lane_idx);
        barrier(self.b);
        (buf, sty)
    }

    /// The warp result at `slot` of the scratch, in the fold's type.
    fn load(&self, buf: Val<'a>, sty: Ty<'a>, slot: Val<'a>) -> Val<'a> {
        let x = self.b.op_value("memref.load", &[buf, slot], sty, &[]);
        if sty != self.ty {
            self.b.cast("arith.trunci", x, self.ty)
        } else {
            x
        }
    }
}

fn lower_reduce<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let f = Fold::new(op)?;
    let kind = lane::kind(op);
    let r = lane::build::reduce(f.b, kind, f.v, lane::WARP);
    let (buf, sty) = f.publish(r);
    let loaded = f.load(buf, sty, f.slot);
    let id = identity(f.b, kind, f.ty);
    let x = f.b.select(f.present, loaded, id);
    let total = lane::build::reduce(f.b, kind, x, f.w2);
    barrier(f.b);
    Ok(vec![total])
}

fn lower_argmax<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let f = Fold::new(op)?;
    let b = f.b;
    let i32t = b.ctx.i(32);
    let tid32 = b.cast("arith.index_cast", f.tid, i32t);
    // The butterfly over (value, thread) pairs: no lane op gives the winner's value with it.
    let (rv, ri) = arg_pair(b, f.v, tid32, lane::WARP, Pick::Largest);
    let vbuf = scratch(f.module, b, f.ty, &tag(f.ty));
    let ibuf = scratch(f.module, b, i32t, "idx");
    barrier(b);
    let c0 = b.index(0);
    let leader = b.cmpi("eq", f.lane_idx, c0);
    if_then(b, leader, |ib| {
        ib.op("memref.store", &[rv, vbuf, f.warp], &[], &[]);
        ib.op("memref.store", &[ri, ibuf, f.warp], &[], &[]);
    });
    barrier(b);
    let lv = b.op_value("memref.load", &[vbuf, f.slot], f.ty, &[]);
    let li = b.op_value("memref.load", &[ibuf, f.slot], i32t, &[]);
    let lowest = identity(b, Kind::Max, f.ty);
    let lv = b.select(f.present, lv, lowest);
    let li = b.select(f.present, li, b.i32(i32::MAX as i64));
    let (_, total) = arg_pair(b, lv, li, f.w2, Pick::Largest);
    barrier(b);
    Ok(vec![total])
}

fn lower_reduce_with<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let f = Fold::new(op)?;
    let Some(n) = f.warps else {
        return Err(Diagnostic::op_error(
            op,
            "a CTA fold with a combine function needs a known block size (known_block_size on the gpu.func)",
        ));
    };
    let blk = combine_block(f.module, op)?;
    let r = lane_reduce_with(f.b, op, f.v);
    let (buf, sty) = f.publish(r);
    let mut total = f.load(buf, sty, f.b.index(0));
    for i in 1..n {
        let x = f.load(buf, sty, f.b.index(i));
        total = apply_combine(f.b, blk, total, x);
    }
    barrier(f.b);
    Ok(vec![total])
}

/// A `lane.reduce_with` over the whole warp with the combine of `op` (its `combine = @f`, or a
/// copy of its region).
fn lane_reduce_with<'a>(b: Builder<'a>, op: Op<'a>, v: Val<'a>) -> Val<'a> {
    match op.attr("combine") {
        Some(sym) => lane::build::reduce_with_symbol(b, v, lane::WARP, sym),
        None => lane::build::reduce_with_region(b, v, lane::WARP, op.clone_region(0)),
    }
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "convert-cta-to-gpu",
    name: "ConvertCtaToGpu",
    summary: "cta.* folds to warp butterflies, a workgroup scratch and three gpu.barriers",
    description: "Lowers cta.reduce, cta.argmax and cta.reduce_with to a fold per warp (lane.reduce, \
    lane.reduce_with; argmax: a butterfly over value and thread), an exchange of the warps' results through a \
    32-element workgroup scratch with three gpu.barriers (before the write, after the write, after the read), and a \
    fold of the warps' results.",
    anchor: "gpu.module",
    options: &[DISABLE_PATTERNS],
    run,
};
