//! `expand-subgroup-ids`: lowers `gpu.subgroup_id`, `gpu.num_subgroups` and `gpu.subgroup_size`
//! (the warp queries a frontend emits for `ctx.warp`, `ctx.warps`, `ctx.lanes`), which MLIR 22's
//! `convert-gpu-to-nvvm` does not legalize.
//!
//! The warp of a thread is its linear thread id divided by 32. With `known_block_size` on the
//! gpu.func, a 1-D block gives `thread_id x / 32` and the warp count is a constant; otherwise the
//! linear id and count are computed from `thread_id` and `block_dim`.
//! Postcondition: none of the three ops is left.

use crate::{
    emit::ids::{known_block_size, linear_thread_id, num_warps},
    external::PassCx,
    patterns::{self, Illegal, Pattern, DISABLE_PATTERNS},
    registry::PassInfo,
};
use phobos_ir::{diag::Diagnostic, Builder, Op, Val};

/// The patterns of `expand-subgroup-ids`.
pub fn populate_expand_subgroup_ids_patterns(patterns: &mut Vec<Pattern>) {
    patterns.extend([
        Pattern::new("gpu.subgroup_id", lower_subgroup_id),
        Pattern::new("gpu.num_subgroups", lower_num_subgroups),
        Pattern::new("gpu.subgroup_size", lower_subgroup_size),
    ]);
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let mut ps = Vec::new();
    populate_expand_subgroup_ids_patterns(&mut ps);
    let illegal = Illegal::named(&[], &["gpu.subgroup_id", "gpu.num_subgroups", "gpu.subgroup_size"]);
    patterns::apply(module, cx, "expand-subgroup-ids", &ps, illegal)
}

fn lower_subgroup_id<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let b = Builder::before(op);
    let linear = linear_thread_id(b, known_block_size(op));
    Ok(vec![b.bin("arith.divui", linear, b.index(32))])
}

fn lower_num_subgroups<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    Ok(vec![num_warps(Builder::before(op), known_block_size(op))])
}

fn lower_subgroup_size<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    Ok(vec![Builder::before(op).index(32)])
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "expand-subgroup-ids",
    name: "ExpandSubgroupIds",
    summary: "gpu.subgroup_id / num_subgroups / subgroup_size to thread-id arithmetic",
    description: "Lowers gpu.subgroup_id, gpu.num_subgroups and gpu.subgroup_size to \
    thread-id arithmetic (warps of 32 lanes), using known_block_size when the gpu.func has it.",
    anchor: "gpu.module",
    options: &[DISABLE_PATTERNS],
    run,
};
