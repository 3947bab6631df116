//! `merge-adjacent-stores`: joins stores of consecutive elements of one memref into one
//! wider store (16 bytes at most), so the SIMT IR says the access the GPU makes.
//!
//! `store_word(A[a :+ 16], j, w)` for j = 0..3 is four 4-byte stores at `a`, `a + 4`, `a + 8`,
//! `a + 12`; LLVM joins them into one `st.global.v4.b32` when it can prove the alignment, but
//! the simulator (and `phobos explain`, which draws what it ran) saw four stores. Joined here,
//! both see the one 16-byte store; `prove-alignment`, after this pass, gives it the alignment
//! the index proves (LLVM splits it again where that is less than its size).
//!
//! Stores join when they are in one block, store values of one type (scalars, or vectors of
//! one length n) into one 1-D memref at indices `base + c`, `base + c + n`, ... (the same
//! `base` value, through `arith.index_cast` and `arith.addi` of a constant), carry no
//! `phobos.` attribute (a release store or a scatter item keeps its own store), and nothing
//! between them touches memory, synchronises or calls. Scalars join as one vector; vectors
//! through each value's bytes as one integer (`vector.bitcast`, `vector.extract`,
//! `vector.from_elements`, `vector.bitcast`: ops the simulator runs and canonicalize folds).
//! The joined store is where the last of the stores was (every value it needs is defined by
//! then).

use super::adjacent::{aligned_chunks, harmless, join_runs, piece, Piece};
use crate::external::PassCx;
use crate::registry::PassInfo;
use phobos_ir::{Blk, Builder, Op, Val};

/// The runs of joinable stores in `blk`, each in order.
fn runs<'a>(blk: Blk<'a>) -> Vec<Vec<Piece<'a>>> {
    let mut out = Vec::new();
    let mut cur: Vec<Piece<'a>> = Vec::new();
    for op in blk.ops() {
        let Some(p) = piece(op, true) else {
            if !harmless(op) {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        };
        let extends = match (cur.first(), cur.last()) {
            (Some(f), Some(l)) => f.continued_by(&p, l.off, cur.len()) && f.op.operand(0).ty() == op.operand(0).ty(),
            _ => false,
        };
        if !extends {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(p);
    }
    out.push(cur);
    out.into_iter().flat_map(aligned_chunks).collect()
}

/// Joins one run at the last store (every value is defined by then), stored at the first
/// index. Scalars join as one vector; vectors as one integer of their bytes each.
fn join<'a>(run: &[Piece<'a>], cx: &PassCx<'a>) {
    let last = run.last().expect("a run").op;
    let b = Builder::before(last).with_loc(last.loc());
    let ctx = b.ctx;
    let first = run[0];
    let k = run.len() as i64;
    let value = if first.op.is("memref.store") {
        let vals: Vec<Val<'a>> = run.iter().map(|p| p.op.operand(0)).collect();
        b.op_value("vector.from_elements", &vals, ctx.known_type(&format!("vector<{k}x{}>", first.elem)), &[])
    } else {
        let n = first.n;
        let word = ctx.i((first.bytes * 8) as u32);
        let one = ctx.known_type(&format!("vector<1x{word}>"));
        let words: Vec<Val<'a>> =
            run.iter().map(|p| crate::emit::vector::extract(b, b.cast("vector.bitcast", p.op.operand(0), one), 0)).collect();
        let joined = b.op_value("vector.from_elements", &words, ctx.known_type(&format!("vector<{k}x{word}>")), &[]);
        b.cast("vector.bitcast", joined, ctx.known_type(&format!("vector<{}x{}>", k * n, first.elem)))
    };
    b.op("vector.store", &[value, first.mem, first.index], &[], &[]);
    for p in run {
        cx.erase(p.op);
    }
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    join_runs(module, cx, runs, join);
    Ok(())
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "merge-adjacent-stores",
    name: "MergeAdjacentStores",
    summary: "joins stores of consecutive elements of one memref into one vector store of up to 16 bytes",
    description: "Joins memref.stores or vector.stores in one block that write consecutive elements of one 1-D memref (indices \
    base + c, base + c + n, ...) with nothing touching memory between them into one store of up to 16 bytes \
    (values joined through their bytes as integers), so the SIMT IR, the simulator and explain see the access the GPU makes.",
    anchor: "",
    options: &[],
    run,
};
