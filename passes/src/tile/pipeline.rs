//! `tile-pipeline{chip=sm_90}`: software pipelining of the loops that ask for it
//! (`phobos.pipeline = S` on an `scf.for`, from `@pipeline(stages = S)`): the loop's tile copies
//! load the tiles of iteration i + S - 1 while iteration i computes on its own, which landed
//! earlier. Each copy has S buffers (`tile-plan-shared-memory` planned them; iteration i uses
//! stage i mod S) and becomes asynchronous copies (`cp.async`), one commit group per iteration:
//!
//! ```text
//! prologue:  barrier; for s in 0 .. S-1: if lb + s·step < ub: copy iteration s into stage s; commit
//! iteration: wait_group S-2 (iteration i's group landed); barrier
//!            if iv + (S-1)·step < ub: copy iteration i+S-1 into stage (i+S-1) mod S; commit
//!            the body, reading stage i mod S
//! after:     wait_group 0
//! ```
//!
//! A copy `tile-tma` marked is a TMA copy instead (`emit::tma`): thread 0 issues it, its bytes
//! on stage s's mbarrier (re-initialised in the prologue), and iteration i waits on stage
//! i mod S's for the phase of parity (i / S) mod 2 instead of `wait_group`; an async-proxy fence
//! precedes the iteration's barrier.
//!
//! A commit every iteration, empty or not, keeps the groups in flight at S - 1, so the wait is
//! exactly for iteration i's. The barrier orders every thread's copies of iteration i before the
//! reads, and iteration i - 1's reads of stage (i - 1) mod S before the copy that overwrites it.
//! Any trip count works, fewer than S too: no copy past the last iteration is issued. The copy's
//! operands are computed for the later iteration by cloning the pure ops they come from, the
//! induction variable advanced (`analysis::pipelining` says which loops qualify). A remark
//! states the stages, buffers and bytes; a loop that asked but cannot be pipelined (before
//! sm_80, or a copy that depends on memory inside the loop) keeps synchronous copies, with a
//! warning saying why. Runs after `tile-plan-shared-memory`, before `convert-tile-to-gpu`.

use crate::analysis::{memory::bytes_of, pipelining};
use crate::emit::{
    control::{barrier_because, if_else},
    ids::{known_block_size, linear_thread_id},
    tile_copy::{self, TileCopy},
    tma,
};
use crate::external::PassCx;
use crate::registry::{OptInfo, PassInfo};
use phobos_ir::{
    diag::{Diagnostic, Severity},
    Builder, Op, Val,
};
use std::collections::HashMap;

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let chip = cx.options.get("chip").unwrap_or("sm_90").to_string();
    for lp in module.walk().into_iter().filter(|o| pipelining::requested(*o).is_some()) {
        let stages = pipelining::requested(lp).expect("asked for");
        if pipelining::copies(lp).is_empty() {
            // `@pipeline` on a kernel asks of every loop; one with no copy has nothing to do.
            lp.remove_attr("phobos.pipeline");
            continue;
        }
        if let Some(why) = pipelining::obstacle(lp, &chip) {
            cx.diags.emit(Diagnostic::new(Severity::Warning, lp.loc().src(), format!("loop not pipelined: {why}")));
            lp.remove_attr("phobos.pipeline");
            continue;
        }
        match pipeline(lp, stages, cx) {
            Ok(remark) => cx.diags.emit(Diagnostic::new(Severity::Remark, lp.loc().src(), remark)),
            Err(d) => {
                cx.diags.emit(d);
                return Err(());
            }
        }
        lp.remove_attr("phobos.pipeline");
    }
    Ok(())
}

/// A copy of the loop: the op, its planned offset and the bytes between its stages.
struct Staged<'a> {
    copy: Op<'a>,
    offset: i64,
    stride: i64,
    /// A copy TMA makes (`tile-tma`).
    tma: Option<tma::TmaCopy>,
}

fn pipeline<'a>(lp: Op<'a>, stages: i64, cx: &PassCx<'a>) -> Result<String, Diagnostic> {
    let module = lp.ancestor("gpu.module").ok_or_else(|| Diagnostic::op_error(lp, "a pipelined loop must be inside a gpu.module"))?;
    let func = lp.ancestor("gpu.func").ok_or_else(|| Diagnostic::op_error(lp, "a pipelined loop must be inside a gpu.func"))?;
    let block = known_block_size(lp)
        .ok_or_else(|| Diagnostic::op_error(lp, "a pipelined loop needs a known block size (known_block_size on the gpu.func)"))?;
    let mut tiles = Vec::new();
    for copy in pipelining::copies(lp) {
        phobos_dialects::tile::verify(copy)?;
        let offset = copy
            .int_attr("offset")
            .ok_or_else(|| Diagnostic::op_error(copy, "has no planned offset; run tile-plan-shared-memory first"))?;
        tiles.push(Staged {
            copy,
            offset,
            stride: pipelining::stage_bytes(bytes_of(copy.result(0).ty())) as i64,
            tma: tma::TmaCopy::checked(copy)?,
        });
    }
    let body = lp.region(0).first_block().expect("scf.for has a body");
    let first = body.first_op().expect("scf.for's body ends with its yield");
    let iv = body.arg(0);
    let (lb, ub, step) = (lp.operand(0), lp.operand(1), lp.operand(2));
    // Constants of the induction variable's type (the frontend's loops count in i32).
    let int = |b: Builder<'a>, v: i64| b.const_int(iv.ty(), v);
    let stage_view = |b: Builder<'a>, t: &Staged<'a>, stage: Val<'a>| {
        let stage = as_index(b, stage);
        let bytes = b.bin("arith.addi", b.index(t.offset), b.bin("arith.muli", stage, b.index(t.stride)));
        tile_copy::view(module, b, bytes, t.copy.result(0).ty(), &phobos_dialects::tile::buffer_name(t.copy))
    };
    // TMA copies (`tile-tma`): one mbarrier per stage, which every TMA copy of the stage
    // arrives on with its bytes; thread 0 issues them.
    let tmas = tiles.iter().filter(|t| t.tma.is_some()).count() as i64;
    let plain = tiles.len() as i64 > tmas;
    let pre = Builder::before(lp);
    let tid = linear_thread_id(pre, Some(block));
    let mut maps = Vec::new();
    for t in &tiles {
        maps.push(match &t.tma {
            Some(tc) => Some(tma::tensor_map_param(func, t.copy, tc).map_err(|why| Diagnostic::op_error(t.copy, why))?),
            None => None,
        });
    }
    let bars = match tmas {
        0 => None,
        _ => {
            tile_copy::align_dynamic_smem(module, pre, crate::conversion::tile_dot_wgmma::TILE_ALIGN as i64);
            Some(tma::mbarriers(module, func, pre, stages).map_err(|why| Diagnostic::op_error(lp, why))?)
        }
    };
    // Iteration `at`'s copies into stage `stage`, when `at` is one of the loop's.
    let issue = |b: Builder<'a>, at: Val<'a>, stage: Val<'a>| {
        let inside = b.cmpi("slt", at, ub);
        let guard = if_else(
            b,
            inside,
            &[],
            |tb| {
                let mut memo = HashMap::new();
                let mut by_tma = Vec::new();
                for (t, map) in tiles.iter().zip(&maps) {
                    let mut c = TileCopy::of(t.copy);
                    let mut again = |v: Val<'a>| advanced(tb, v, (lp, iv, at), &mut memo);
                    c.src = again(c.src);
                    c.starts = c.starts.iter().map(|v| again(*v)).collect();
                    c.dims = c.dims.iter().map(|v| again(*v)).collect();
                    c.fill = c.fill.map(&mut again);
                    let view = stage_view(tb, t, stage);
                    match (&t.tma, map) {
                        (Some(tc), Some(map)) => by_tma.push((tc, *map, view, c.starts)),
                        _ => {
                            c.emit(tb, func, block, view, true);
                        }
                    }
                }
                if let (false, Some(bars)) = (by_tma.is_empty(), bars) {
                    let stage_ix = as_index(tb, stage);
                    tma::by_first(tb, tid, |fb| {
                        let bar = tma::nth(fb, bars, stage_ix);
                        for (tc, map, view, starts) in &by_tma {
                            let dst = crate::emit::pointer::base(fb, *view, 3);
                            tma::issue(fb, tc, (*map, bar, dst), starts);
                        }
                    });
                }
                vec![]
            },
            |_| vec![],
        );
        guard.set_attr("phobos.pipeline_issue", b.ctx.unit_attr());
        if plain {
            tile_copy::commit(b);
        }
    };

    // The prologue: iterations 0 .. S-2, after a barrier: its copies overwrite bytes other
    // threads may still read (an outer loop's previous pass over these stages, or a tile the
    // plan gave the same bytes before the loop).
    let b = Builder::before(lp);
    if bars.is_some() {
        // TMA writes through the async proxy: every thread's earlier accesses come first.
        tma::async_proxy_fence(b);
    }
    barrier_because(b, "kept: the pipeline's first copies overwrite shared memory that other threads may still read");
    if let Some(bars) = bars {
        tma::init(b, tid, (bars, stages), tmas, |_| {});
    }
    for s in 0..stages - 1 {
        let at = b.bin("arith.addi", lb, b.bin("arith.muli", step, int(b, s)));
        issue(b, at, int(b, s));
    }
    if bars.is_some() {
        barrier_because(b, "kept: every thread sees the pipeline's mbarriers initialised before it waits on them");
    }
    // Each iteration: its tiles landed; the copies S - 1 iterations ahead; its stage's views.
    let bb = Builder::before(first);
    let i = bb.bin("arith.divui", bb.bin("arith.subi", iv, lb), step);
    let stage = bb.bin("arith.remui", i, int(bb, stages));
    if plain {
        tile_copy::wait(bb, stages - 2);
    }
    if let Some(bars) = bars {
        // Stage s is used by iterations s, s + S, ...: the k-th use waits for phase k.
        let parity = bb.bin("arith.andi", bb.bin("arith.divui", as_index(bb, i), bb.index(stages)), bb.index(1));
        tma::wait(bb, tma::nth(bb, bars, as_index(bb, stage)), bb.cast("arith.index_cast", parity, bb.ctx.i(32)));
        // The previous iteration's reads of the stage the next TMA copy overwrites, fenced
        // (async proxy) before the barrier.
        tma::async_proxy_fence(bb);
    }
    let top = barrier_because(
        bb,
        "kept: every thread's pipelined copies of this iteration landed, and no thread still reads the stage the next copies overwrite",
    );
    let ahead = bb.bin("arith.addi", iv, bb.bin("arith.muli", step, int(bb, stages - 1)));
    let ahead_stage = bb.bin("arith.remui", bb.bin("arith.addi", i, int(bb, stages - 1)), int(bb, stages));
    issue(bb, ahead, ahead_stage);
    for t in &tiles {
        let view = stage_view(bb, t, stage);
        cx.replace(t.copy, &[view]);
    }
    elide_copy_barrier(top, cx);
    // After the loop: nothing left in flight (a TMA copy is waited for in its own iteration).
    if plain {
        tile_copy::wait(Builder::before(lp.next().expect("a loop is followed by its block's terminator")), 0);
    }

    let buffers: Vec<String> =
        tiles.iter().map(|t| format!("{} {stages} x {} bytes", phobos_dialects::tile::buffer_name(t.copy), t.stride)).collect();
    let bytes: i64 = tiles.iter().map(|t| t.stride * stages).sum();
    Ok(format!(
        "pipelined over {stages} stages: {} ({bytes} bytes of shared memory); each iteration's tiles are copied {} iteration{} ahead",
        buffers.join(", "),
        stages - 1,
        if stages == 2 { "" } else { "s" }
    ))
}

/// The barrier `infer-barriers` put between the copies and their readers, now that nothing
/// but the next copies (into another stage) and arithmetic lies between it and the iteration's
/// first barrier `top`: that barrier already orders everything this one would (two BAR.SYNC an
/// iteration become one).
fn elide_copy_barrier<'a>(top: Op<'a>, cx: &PassCx<'a>) {
    let mut at = top.next();
    while let Some(op) = at {
        // The next copies: a guarded block, then their commit.
        let issue = op.is("scf.if") && op.attr("phobos.pipeline_issue").is_some();
        let quiet = op.num_regions() == 0
            && (op.name().starts_with("arith.")
                || matches!(op.name().as_str(), "memref.view" | "memref.get_global" | "nvvm.cp.async.commit.group"));
        if op.is("gpu.barrier") {
            if op.str_attr("phobos.barrier").is_some_and(|r| r.starts_with("inferred:")) {
                let why = "the pipeline's barrier after this iteration's wait already orders its copies and their readers";
                cx.diags.emit(Diagnostic::new(Severity::Remark, op.loc().src(), format!("barrier elided: {why}")));
                cx.erase(op);
            }
            return;
        }
        if !issue && !quiet {
            return;
        }
        at = op.next();
    }
}

/// `v` (the loop's integer type, or an index) as an index.
fn as_index<'a>(b: Builder<'a>, v: Val<'a>) -> Val<'a> {
    if v.ty().is_index() {
        v
    } else {
        b.cast("arith.index_castui", v, b.ctx.index())
    }
}

/// `v` for the iteration whose induction variable is `at`: values from outside the loop as they
/// are, the pure ops in it cloned (before `b`) with their operands advanced.
fn advanced<'a>(b: Builder<'a>, v: Val<'a>, (lp, iv, at): (Op<'a>, Val<'a>, Val<'a>), memo: &mut HashMap<Val<'a>, Val<'a>>) -> Val<'a> {
    if v == iv {
        return at;
    }
    if let Some(m) = memo.get(&v) {
        return *m;
    }
    let Some(d) = v.def().filter(|d| pipelining::inside(*d, lp)) else { return v };
    let operands: Vec<Val<'a>> = d.operands().into_iter().map(|o| advanced(b, o, (lp, iv, at), memo)).collect();
    let clone = b.insert(d.clone_op());
    for (k, o) in operands.into_iter().enumerate() {
        clone.set_operand(k, o);
    }
    for (k, r) in d.results().into_iter().enumerate() {
        memo.insert(r, clone.result(k));
    }
    memo[&v]
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "tile-pipeline",
    name: "TilePipeline",
    summary: "software pipelining: a loop's tile copies issued S - 1 iterations ahead into S buffers (cp.async)",
    description: "For each scf.for with phobos.pipeline = S (from @pipeline(stages = S)), copies the \
    tiles of iteration i + S - 1 while iteration i computes: a prologue issues the first S - 1 \
    iterations' copies, each iteration waits for its own (cp.async.wait_group S - 2), passes a barrier, \
    issues the copies S - 1 iterations ahead into stage (i + S - 1) mod S and reads stage i mod S. \
    Needs sm_80 and copies whose operands the loop can compute an iteration ahead; otherwise a \
    warning, and the copies stay synchronous.",
    anchor: "gpu.module",
    options: &[OptInfo { name: "chip", help: "the target chip: cp.async needs sm_80 or later", default: "sm_90" }],
    run,
};
