//! Thread, warp and block-size queries that lowering passes build.

use phobos_ir::{Builder, Op, Val};

/// The gpu.func's `known_block_size`, when present.
pub fn known_block_size(op: Op) -> Option<[i64; 3]> {
    let f = if op.is("gpu.func") { op } else { op.ancestor("gpu.func")? };
    let v = f.attr("known_block_size")?.dense_ints()?;
    (v.len() == 3).then(|| [v[0], v[1], v[2]])
}

/// `gpu.thread_id` / `gpu.block_dim` along `d` (index).
pub fn dim<'a>(b: Builder<'a>, op: &str, d: &str) -> Val<'a> {
    b.op_value(op, &[], b.ctx.index(), &[("dimension", b.ctx.known_attr(&format!("#gpu<dim {d}>")))])
}

/// The thread's linear id in its CTA (index): `x + bx * (y + by * z)`, just `x` for a known
/// 1-D block.
pub fn linear_thread_id<'a>(b: Builder<'a>, block: Option<[i64; 3]>) -> Val<'a> {
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
pub fn num_warps<'a>(b: Builder<'a>, block: Option<[i64; 3]>) -> Val<'a> {
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

/// The loops (`scf.for`, `scf.while`) around `op` inside `func`, innermost first.
pub fn loops_around<'a>(op: Op<'a>, func: Op<'a>) -> Vec<Op<'a>> {
    let mut out = Vec::new();
    let mut cur = op;
    while let Some(p) = cur.parent() {
        if p == func {
            break;
        }
        if p.is("scf.for") || p.is("scf.while") {
            out.push(p);
        }
        cur = p;
    }
    out
}

/// `memref.get_global @name` of a 16-byte-aligned workgroup global of type `mty`, declaring it
/// at the top of `module` on first use: `private` and uninitialized (static shared memory), or
/// public with no initializer (`dynamic`: the external zero-length base of dynamic shared memory).
pub fn workgroup_global<'a>(module: Op<'a>, b: Builder<'a>, name: &str, mty: phobos_ir::Ty<'a>, dynamic: bool) -> Val<'a> {
    let body = module.region(0).first_block().expect("gpu.module has a body");
    if !body.ops().any(|o| o.is("memref.global") && o.str_attr("sym_name").as_deref() == Some(name)) {
        let first = body.first_op().expect("gpu.module is not empty");
        let i64t = b.ctx.i(64);
        let mut attrs = vec![
            ("sym_name", b.ctx.str_attr(name)),
            ("type", b.ctx.known_attr(&format!("{mty}"))),
            ("alignment", b.ctx.int_attr(i64t, 16)),
        ];
        if !dynamic {
            attrs.push(("sym_visibility", b.ctx.str_attr("private")));
            attrs.push(("initial_value", b.ctx.unit_attr()));
        }
        Builder::before(first).with_loc(b.loc).op("memref.global", &[], &[], &attrs);
    }
    b.op_value("memref.get_global", &[], mty, &[("name", b.ctx.sym_attr(name))])
}
