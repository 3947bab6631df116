//! `expand-subgroup-ids`: lowers `gpu.subgroup_id`, `gpu.num_subgroups` and `gpu.subgroup_size`
//! (the warp queries a frontend emits for `ctx.warp`, `ctx.warps`, `ctx.lanes`), which MLIR 22's
//! `convert-gpu-to-nvvm` does not legalize.
//!
//! The warp of a thread is its linear thread id divided by 32. With `known_block_size` on the
//! gpu.func, a 1-D block gives `thread_id x / 32` and the warp count is a constant; otherwise the
//! linear id and count are computed from `thread_id` and `block_dim`.
//! Postcondition: none of the three ops is left.

use crate::external::PassCx;
use phobos_dialects::ir::{Builder, Op, Val};

pub const DESCRIPTION: &str = "Lowers gpu.subgroup_id, gpu.num_subgroups and gpu.subgroup_size to \
thread-id arithmetic (warps of 32 lanes), using known_block_size when the gpu.func has it.";

fn dim(b: Builder, op: &str, d: &str) -> Val {
    b.v(op, &[], b.ctx.index(), &[("dimension", b.ctx.a(&format!("#gpu<dim {d}>")))])
}

pub fn run(module: Op, _cx: &PassCx) -> Result<(), ()> {
    let ops: Vec<Op> = module
        .walk()
        .into_iter()
        .filter(|o| o.is("gpu.subgroup_id") || o.is("gpu.num_subgroups") || o.is("gpu.subgroup_size"))
        .collect();
    for op in ops {
        let b = Builder::before(op);
        let block = op
            .ancestor("gpu.func")
            .and_then(|f| f.attr("known_block_size"))
            .and_then(|a| a.dense_ints())
            .filter(|v| v.len() == 3);
        let c32 = b.index(32);
        let v = if op.is("gpu.subgroup_size") {
            c32
        } else if op.is("gpu.subgroup_id") {
            let linear = match &block {
                Some(bs) if bs[1] == 1 && bs[2] == 1 => dim(b, "gpu.thread_id", "x"),
                _ => {
                    let (tx, ty, tz) = (dim(b, "gpu.thread_id", "x"), dim(b, "gpu.thread_id", "y"), dim(b, "gpu.thread_id", "z"));
                    let (bx, by) = (dim(b, "gpu.block_dim", "x"), dim(b, "gpu.block_dim", "y"));
                    let t = b.bin("arith.muli", by, tz);
                    let t = b.bin("arith.addi", ty, t);
                    let t = b.bin("arith.muli", bx, t);
                    b.bin("arith.addi", tx, t)
                }
            };
            b.bin("arith.divui", linear, c32)
        } else {
            match &block {
                Some(bs) => b.index((bs[0] * bs[1] * bs[2] + 31) / 32),
                None => {
                    let (bx, by, bz) = (dim(b, "gpu.block_dim", "x"), dim(b, "gpu.block_dim", "y"), dim(b, "gpu.block_dim", "z"));
                    let n = b.bin("arith.muli", bx, by);
                    let n = b.bin("arith.muli", n, bz);
                    let n = b.bin("arith.addi", n, b.index(31));
                    b.bin("arith.divui", n, c32)
                }
            }
        };
        op.replace_with(&[v]);
    }
    Ok(())
}
