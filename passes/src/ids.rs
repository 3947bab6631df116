//! Thread, warp and block-size queries that lowering passes build.

use phobos_dialects::ir::{Builder, Op, Val};

/// The gpu.func's `known_block_size`, when present.
pub fn known_block_size(op: Op) -> Option<[i64; 3]> {
    let f = if op.is("gpu.func") { op } else { op.ancestor("gpu.func")? };
    let v = f.attr("known_block_size")?.dense_ints()?;
    (v.len() == 3).then(|| [v[0], v[1], v[2]])
}

/// `gpu.thread_id` / `gpu.block_dim` along `d` (index).
pub fn dim(b: Builder, op: &str, d: &str) -> Val {
    b.v(op, &[], b.ctx.index(), &[("dimension", b.ctx.a(&format!("#gpu<dim {d}>")))])
}

/// The thread's linear id in its CTA (index): `x + bx * (y + by * z)`, just `x` for a known
/// 1-D block.
pub fn linear_thread_id(b: Builder, block: Option<[i64; 3]>) -> Val {
    match block {
        Some([_, 1, 1]) => dim(b, "gpu.thread_id", "x"),
        _ => {
            let (tx, ty, tz) = (dim(b, "gpu.thread_id", "x"), dim(b, "gpu.thread_id", "y"), dim(b, "gpu.thread_id", "z"));
            let (bx, by) = (dim(b, "gpu.block_dim", "x"), dim(b, "gpu.block_dim", "y"));
            let t = b.bin("arith.muli", by, tz);
            let t = b.bin("arith.addi", ty, t);
            let t = b.bin("arith.muli", bx, t);
            b.bin("arith.addi", tx, t)
        }
    }
}

/// The number of warps in the CTA (index): a constant for a known block size.
pub fn num_warps(b: Builder, block: Option<[i64; 3]>) -> Val {
    match block {
        Some(bs) => b.index((bs[0] * bs[1] * bs[2] + 31) / 32),
        None => {
            let (bx, by, bz) = (dim(b, "gpu.block_dim", "x"), dim(b, "gpu.block_dim", "y"), dim(b, "gpu.block_dim", "z"));
            let n = b.bin("arith.muli", bx, by);
            let n = b.bin("arith.muli", n, bz);
            let n = b.bin("arith.addi", n, b.index(31));
            b.bin("arith.divui", n, b.index(32))
        }
    }
}
