//! `expand-subgroup-ids`: lowers `gpu.subgroup_id`, `gpu.num_subgroups` and `gpu.subgroup_size`
//! (the warp queries a frontend emits for `ctx.warp`, `ctx.warps`, `ctx.lanes`), which MLIR 22's
//! `convert-gpu-to-nvvm` does not legalize.
//!
//! The warp of a thread is its linear thread id divided by 32. With `known_block_size` on the
//! gpu.func, a 1-D block gives `thread_id x / 32` and the warp count is a constant; otherwise the
//! linear id and count are computed from `thread_id` and `block_dim`.
//! Postcondition: none of the three ops is left.

use crate::external::PassCx;
use crate::ids::{known_block_size, linear_thread_id, num_warps};
use phobos_dialects::ir::{Builder, Op};

pub const DESCRIPTION: &str = "Lowers gpu.subgroup_id, gpu.num_subgroups and gpu.subgroup_size to \
thread-id arithmetic (warps of 32 lanes), using known_block_size when the gpu.func has it.";

pub fn run(module: Op, _cx: &PassCx) -> Result<(), ()> {
    let ops: Vec<Op> =
        module.walk().into_iter().filter(|o| o.is("gpu.subgroup_id") || o.is("gpu.num_subgroups") || o.is("gpu.subgroup_size")).collect();
    for op in ops {
        let b = Builder::before(op);
        let block = known_block_size(op);
        let v = if op.is("gpu.subgroup_size") {
            b.index(32)
        } else if op.is("gpu.subgroup_id") {
            let linear = linear_thread_id(b, block);
            b.bin("arith.divui", linear, b.index(32))
        } else {
            num_warps(b, block)
        };
        op.replace_with(&[v]);
    }
    Ok(())
}
