//! `convert-tile-to-gpu`: lowers `tile.copy` to a copy shared by the CTA's threads, into the
//! kernel's dynamic shared memory, with the barriers the copy needs.
//!
//! - The tile is a `memref.view` at its planned `offset` (from `tile-plan-shared-memory`) of
//!   `@__phobos_dynamic_smem`, an external zero-length workgroup global (MLIR's
//!   `gpu.dynamic_shared_memory` would overlap static shared memory).
//! - The copy itself is `emit::tile_copy`'s: chunks of up to 16 bytes (versioned at run time
//!   when alignment is not proven), elements outside the tensor never read, swizzled stores for
//!   tiles only tensor cores read, and from sm_80 (`chip`; `async=false` turns it off)
//!   `cp.async` for chunks of 4, 8 or 16 bytes, committed as one group and waited for
//!   (`cp.async.wait_group 0`) before the barrier after the copy.
//! - A copy `tile-tma` marked is one TMA copy (`emit::tma`): thread 0 issues it, every thread
//!   waits on its mbarrier (no barrier after it: the wait orders the copy for every waiter).
//! - A barrier after the copy, since threads then read elements other threads wrote; and, when
//!   the copy runs inside a loop, a barrier before it, since other threads may still be reading
//!   the previous iteration's tile. Each carries `phobos.barrier` saying why (`elide-barriers`
//!   may drop a redundant one).

use crate::registry::{OptInfo, PassInfo};
use crate::{
    emit::control::barrier_because,
    emit::ids::{known_block_size, linear_thread_id, loops_around},
    emit::pointer,
    emit::tile_copy::{self, TileCopy},
    emit::tma,
    external::PassCx,
    patterns::{self, Illegal, Pattern, DISABLE_PATTERNS},
};
use phobos_dialects::ops::TileOp;
use phobos_ir::{
    diag::{Diagnostic, Severity},
    Builder, Op, Val,
};

/// The patterns of `convert-tile-to-gpu`, one per `tile` op (an exhaustive match).
pub fn populate_tile_to_gpu_patterns(patterns: &mut Vec<Pattern>) {
    patterns.extend(TileOp::ALL.iter().map(|op| {
        let lower: crate::patterns::Lower = match op {
            TileOp::Copy => lower_copy,
            TileOp::Alloc => lower_alloc,
            TileOp::Dot => super::tile_dot::lower_dot,
        };
        Pattern::new(op.name(), lower)
    }));
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    if let Some(a) = cx.options.get("async").filter(|a| !matches!(*a, "true" | "false")) {
        let text = format!("convert-tile-to-gpu: async must be true or false, not '{a}'");
        cx.diags.emit(Diagnostic::new(Severity::Error, module.loc().src(), text));
        return Err(());
    }
    let mut ps = Vec::new();
    populate_tile_to_gpu_patterns(&mut ps);
    patterns::apply(module, cx, "convert-tile-to-gpu", &ps, Illegal::named(&["tile"], &[]))
}

/// A shared buffer: the view of the dynamic shared memory at its planned offset.
fn lower_alloc<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let module = op.ancestor("gpu.module").ok_or_else(|| Diagnostic::op_error(op, "a shared buffer must be inside a gpu.module"))?;
    phobos_dialects::tile::verify(op)?;
    let Some(offset) = op.int_attr("offset") else {
        return Err(Diagnostic::op_error(op, "has no planned offset; run tile-plan-shared-memory first"));
    };
    let name = phobos_dialects::tile::buffer_name(op);
    let b = Builder::before(op);
    Ok(vec![tile_copy::view(module, b, b.index(offset), op.result(0).ty(), &name)])
}

fn lower_copy<'a>(op: Op<'a>, cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let module = op.ancestor("gpu.module").ok_or_else(|| Diagnostic::op_error(op, "a tile copy must be inside a gpu.module"))?;
    phobos_dialects::tile::verify(op)?;
    let Some(offset) = op.int_attr("offset") else {
        return Err(Diagnostic::op_error(op, "has no planned offset; run tile-plan-shared-memory first"));
    };
    let Some(func) = op.ancestor("gpu.func") else {
        return Err(Diagnostic::op_error(op, "a tile copy must be inside a gpu.func"));
    };
    let Some(block) = known_block_size(op) else {
        return Err(Diagnostic::op_error(op, "a tile copy needs a known block size (known_block_size on the gpu.func)"));
    };
    let tile_ty = op.result(0).ty();
    let name = phobos_dialects::tile::buffer_name(op);
    let b = Builder::before(op);

    // Step 1. The view of the dynamic shared memory at the tile's offset.
    let view = tile_copy::view(module, b, b.index(offset), tile_ty, &name);

    // Step 2. A barrier before the copy when it may overwrite a tile others still read: inside a
    // loop, the previous iteration's reads.
    // A TMA copy writes through the async proxy: every thread's earlier accesses of its bytes
    // (through the generic proxy: a previous iteration's reads, or another tile's in the same
    // bytes) are fenced and a barrier orders them before the copy, in or out of a loop.
    let tma_copy = tma::TmaCopy::checked(op)?;
    let in_loop = !loops_around(op, func).is_empty();
    if tma_copy.is_some() {
        tma::async_proxy_fence(b);
        barrier_because(b, &format!("kept: every thread's accesses of the bytes of {name} come before its TMA copy writes them"));
    } else if in_loop {
        barrier_because(b, &format!("kept: the copy of {name} overwrites the tile that other threads read in the previous iteration"));
    }

    // Step 3. The copy: by TMA where `tile-tma` marked it, else CTA-cooperative (asynchronous
    // from sm_80).
    if let Some(t) = tma_copy {
        lower_tma_copy(op, &t, (module, func, block), view).map_err(|why| Diagnostic::op_error(op, why))?;
        return Ok(vec![view]);
    }
    let chip = cx.options.get("chip").unwrap_or("sm_90");
    let asynchronous = pointer::sm(chip) >= 80 && cx.options.get("async") != Some("false");
    let issued = TileCopy::of(op).emit(b, func, block, view, asynchronous);

    // Step 4. The asynchronous copies land; every thread then reads elements other threads copied.
    if issued {
        tile_copy::commit(b);
        tile_copy::wait(b, 0);
    }
    barrier_because(b, &format!("kept: threads read the tile {name} that other threads copied"));
    Ok(vec![view])
}

/// A TMA copy: thread 0 initialises the copy's mbarrier and issues the copy; after a barrier
/// (every thread then sees the initialisation) every thread waits for the mbarrier's phase 0,
/// which completes when the tile has landed. Re-initialised at each execution: the barrier
/// before the copy orders the previous execution's waits before it.
fn lower_tma_copy<'a>(
    op: Op<'a>,
    t: &tma::TmaCopy,
    (module, func, block): (Op<'a>, Op<'a>, [i64; 3]),
    view: Val<'a>,
) -> Result<(), String> {
    let b = Builder::before(op);
    let name = phobos_dialects::tile::buffer_name(op);
    tile_copy::align_dynamic_smem(module, b, super::tile_dot_wgmma::TILE_ALIGN as i64);
    let map = tma::tensor_map_param(func, op, t)?;
    let bar = tma::mbarriers(module, func, b, 1)?;
    let tid = linear_thread_id(b, Some(block));
    let dst = pointer::base(b, view, 3);
    let starts: Vec<Val<'a>> = (0..t.shape.len()).map(|d| op.operand(1 + d)).collect();
    tma::init(b, tid, (bar, 1), 1, |tb| tma::issue(tb, t, (map, bar, dst), &starts));
    barrier_because(b, &format!("kept: every thread sees the mbarrier of the TMA copy of {name} initialised before it waits on it"));
    tma::wait(b, bar, b.const_int(b.ctx.i(32), 0));
    Ok(())
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "convert-tile-to-gpu",
    name: "ConvertTileToGpu",
    summary: "tile.copy to a CTA-cooperative copy into dynamic shared memory, with its barriers",
    description: "Lowers tile.copy to a CTA-cooperative copy into a memref.view of the \
    dynamic shared memory at the tile's planned offset: 16-byte chunks when alignment is proven, elements \
    outside the tensor zero (or the fill value) and never read, a gpu.barrier after the copy (and one before it inside a loop).",
    anchor: "gpu.module",
    options: &[
        OptInfo {
            name: "chip",
            help: "the target chip: tensor-core products need sm_80 or later; copies are cp.async there",
            default: "sm_90",
        },
        OptInfo { name: "async", help: "tile copies as cp.async where the chip has it (sm_80+): true or false", default: "true" },
        DISABLE_PATTERNS,
    ],
    run,
};
