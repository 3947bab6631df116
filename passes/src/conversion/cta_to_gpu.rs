//! `convert-cta-to-gpu`: lowers the `cta` dialect (folds over every thread of a CTA).
//!
//! Each fold is (seed 002, "A fold over the CTA"):
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

use crate::{
    conversion::lane_to_gpu::{apply_combine, argmax_pair, butterfly, combine_block},
    external::{for_each_op, PassCx},
    ids::{known_block_size, linear_thread_id, num_warps, workgroup_global},
    words::{combine, identity},
};
use phobos_dialects::{
    diag::Diagnostic,
    ir::{Blk, Builder, Op, Reg, Ty, Val},
    lane::{self, Kind},
};

pub const DESCRIPTION: &str = "Lowers cta.reduce, cta.argmax and cta.reduce_with to a butterfly per warp, \
an exchange of the warps' results through a 32-element workgroup scratch with three gpu.barriers \
(before the write, after the write, after the read), and a fold of the warps' results.";

pub fn run(module: Op, cx: &PassCx) -> Result<(), ()> {
    let ops: Vec<Op> = module.walk().into_iter().filter(|o| o.name().starts_with("cta.")).collect();
    for_each_op(ops, cx, |op| lower(module, op))
}

/// The workgroup scratch for elements of `ty`, created in `module` on first use.
fn scratch(module: Op, b: Builder, ty: Ty, tag: &str) -> Val {
    let mty = b.ctx.t(&format!("memref<32x{ty}, #gpu.address_space<workgroup>>"));
    workgroup_global(module, b, &format!("__phobos_cta_scratch_{tag}"), mty, false)
}

fn barrier(b: Builder) {
    b.op("gpu.barrier", &[], &[], &[]);
}

/// `scf.if %cond { <body> }` with no results; `body` builds into the then-block.
fn if_then(b: Builder, cond: Val, body: impl FnOnce(Builder)) {
    let then_region = Reg::create();
    let blk = Blk::create(&[], b.loc);
    then_region.append_block(blk);
    let inner = Builder::at_end(blk, b.loc);
    body(inner);
    inner.op("scf.yield", &[], &[], &[]);
    b.op_with_regions("scf.if", &[cond], &[], &[], &[then_region, Reg::create()]);
}

/// How values are kept in the scratch: i1 as i8 (a byte per flag).
fn storage(b: Builder, v: Val) -> (Val, Ty) {
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
fn write_per_warp(b: Builder, buf: Val, v: Val, warp: Val, lane_idx: Val) {
    let c0 = b.index(0);
    let leader = b.cmpi("eq", lane_idx, c0);
    if_then(b, leader, |ib| {
        ib.op("memref.store", &[v, buf, warp], &[], &[]);
    });
}

fn lower(module: Op, op: Op) -> Result<(), Diagnostic> {
    phobos_dialects::cta::verify(op)?;
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
    let ty = v.ty();
    let warps_const = block.map(|bs| (bs[0] * bs[1] * bs[2]) / 32);
    // The second butterfly covers the next power of two >= the warp count.
    let w2 = warps_const.map(|n| (n as u64).next_power_of_two().max(1) as i64).unwrap_or(lane::WARP);

    let lane_idx = b.v("gpu.lane_id", &[], b.ctx.index(), &[]);
    let tid = linear_thread_id(b, block);
    let warp = b.bin("arith.divui", tid, b.index(32));
    let nw = num_warps(b, block);
    // Lane position in its w2-piece, whether a warp's result is there, and a safe index.
    let pos = b.bin("arith.andi", lane_idx, b.index(w2 - 1));
    let present = b.cmpi("ult", pos, nw);
    let slot = b.select(present, pos, b.index(0));

    let result = match op.name().as_str() {
        "cta.reduce" => {
            let kind = lane::kind(op);
            let r = butterfly(b, v, lane::WARP, |b, x, y| combine(b, kind, x, y));
            let (stored, sty) = storage(b, r);
            let buf = scratch(module, b, sty, &tag(sty));
            barrier(b);
            write_per_warp(b, buf, stored, warp, lane_idx);
            barrier(b);
            let loaded = b.v("memref.load", &[buf, slot], sty, &[]);
            let loaded = if sty != ty { b.cast("arith.trunci", loaded, ty) } else { loaded };
            let id = identity(b, kind, ty);
            let x = b.select(present, loaded, id);
            let total = butterfly(b, x, w2, |b, x, y| combine(b, kind, x, y));
            barrier(b);
            total
        }
        "cta.argmax" => {
            let i32t = b.ctx.i(32);
            let tid32 = b.cast("arith.index_cast", tid, i32t);
            let (rv, ri) = argmax_pair(b, v, tid32, lane::WARP);
            let vbuf = scratch(module, b, ty, &tag(ty));
            let ibuf = scratch(module, b, i32t, "idx");
            barrier(b);
            let c0 = b.index(0);
            let leader = b.cmpi("eq", lane_idx, c0);
            if_then(b, leader, |ib| {
                ib.op("memref.store", &[rv, vbuf, warp], &[], &[]);
                ib.op("memref.store", &[ri, ibuf, warp], &[], &[]);
            });
            barrier(b);
            let lv = b.v("memref.load", &[vbuf, slot], ty, &[]);
            let li = b.v("memref.load", &[ibuf, slot], i32t, &[]);
            let lowest = identity(b, Kind::Max, ty);
            let lv = b.select(present, lv, lowest);
            let li = b.select(present, li, b.i32(i32::MAX as i64));
            let (_, total) = argmax_pair(b, lv, li, w2);
            barrier(b);
            total
        }
        "cta.reduce_with" => {
            let Some(n) = warps_const else {
                return Err(Diagnostic::op_error(
                    op,
                    "a CTA fold with a combine function needs a known block size (known_block_size on the gpu.func)",
                ));
            };
            let blk = combine_block(module, op)?;
            let call = |b: Builder, x: Val, y: Val| apply_combine(b, blk, x, y);
            let r = butterfly(b, v, lane::WARP, call);
            let (stored, sty) = storage(b, r);
            let buf = scratch(module, b, sty, &tag(sty));
            barrier(b);
            write_per_warp(b, buf, stored, warp, lane_idx);
            barrier(b);
            let load = |i: i64| {
                let x = b.v("memref.load", &[buf, b.index(i)], sty, &[]);
                if sty != ty {
                    b.cast("arith.trunci", x, ty)
                } else {
                    x
                }
            };
            let mut total = load(0);
            for i in 1..n {
                let x = load(i);
                total = call(b, total, x);
            }
            barrier(b);
            total
        }
        other => return Err(Diagnostic::op_error(op, format!("unknown cta op '{other}'"))),
    };
    op.replace_with(&[result]);
    Ok(())
}
