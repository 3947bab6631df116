//! `merge-adjacent-stores`: joins vector stores of consecutive elements of one memref into one
//! wider store (16 bytes at most), so the SIMT IR says the access the GPU makes.
//!
//! `store_word(A[a :+ 16], j, w)` for j = 0..3 is four 4-byte stores at `a`, `a + 4`, `a + 8`,
//! `a + 12`; LLVM joins them into one `st.global.v4.b32` when it can prove the alignment, but
//! the simulator (and `phobos explain`, which draws what it ran) saw four stores. Joined here,
//! both see the one 16-byte store; `prove-alignment`, after this pass, gives it the alignment
//! the index proves (LLVM splits it again where that is less than its size).
//!
//! Stores join when they are in one block, store values of one type into one 1-D memref at
//! indices `base + c`, `base + c + n`, ... (n the vector's length, the same `base` value, through
//! `arith.index_cast` and `arith.addi` of a constant), and nothing between them touches memory,
//! synchronises or calls. The joined value is built from each value's bytes as one integer
//! (`vector.bitcast`, `vector.extract`, `vector.from_elements`, `vector.bitcast`: ops the
//! simulator runs and canonicalize folds); it is stored where the last of the stores was
//! (every value it needs is defined by then).

use crate::analysis::memory;
use crate::external::PassCx;
use crate::registry::PassInfo;
use phobos_ir::{Blk, Builder, Op, Val};

/// The most bytes one joined store writes (the widest GPU access).
const MAX_BYTES: i64 = 16;

/// `v` as `base + offset`, looking through index casts and additions of constants.
fn split(v: Val) -> (Val, i64) {
    let Some(d) = v.def() else { return (v, 0) };
    match d.name().as_str() {
        "arith.index_cast" => split(d.operand(0)),
        "arith.addi" => {
            if let Some(c) = d.operand(1).const_int() {
                let (b, o) = split(d.operand(0));
                return (b, o + c);
            }
            if let Some(c) = d.operand(0).const_int() {
                let (b, o) = split(d.operand(1));
                return (b, o + c);
            }
            (v, 0)
        }
        _ => (v, 0),
    }
}

/// A vector store this pass can join: its memref, value type's length and bytes, and index.
fn candidate<'a>(op: Op<'a>) -> Option<(Val<'a>, i64, i64, Val<'a>, i64)> {
    if !op.is("vector.store") || op.num_operands() != 3 {
        return None;
    }
    let vty = op.operand(0).ty();
    let [Some(n)] = vty.shape()[..] else { return None };
    let bits = vty.element().scalar()?.bits() as i64;
    if bits % 8 != 0 {
        return None;
    }
    let (base, off) = split(op.operand(2));
    Some((op.operand(1), n, n * bits / 8, base, off))
}

/// Whether `op`, between two stores, keeps them joinable: it touches no memory, does not
/// synchronise or call, and holds no region.
fn harmless(op: Op) -> bool {
    memory::access(op).is_none()
        && op.num_regions() == 0
        && !op.is("gpu.barrier")
        && !op.is("func.call")
        && !op.name().starts_with("nvvm.")
        && !op.name().starts_with("memref.atomic")
}

/// The runs of joinable stores in `blk`, each in order.
fn runs<'a>(blk: Blk<'a>) -> Vec<Vec<Op<'a>>> {
    let mut out = Vec::new();
    let mut cur: Vec<Op<'a>> = Vec::new();
    for op in blk.ops() {
        let Some((mem, n, bytes, base, off)) = candidate(op) else {
            if !harmless(op) {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        };
        let extends = cur.last().and_then(|last| candidate(*last)).is_some_and(|(m, ln, lb, lbase, loff)| {
            m == mem && ln == n && lb == bytes && lbase == base && loff + n == off && lb * (cur.len() as i64 + 1) <= MAX_BYTES
        }) && cur.first().is_some_and(|f| f.operand(0).ty() == op.operand(0).ty());
        if !extends {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(op);
    }
    out.push(cur);
    // Joined widths are powers of two: a run of 3 joins its first 2.
    out.into_iter()
        .filter(|r| r.len() >= 2)
        .map(|mut r| {
            let keep = 1 << (usize::BITS - 1 - r.len().leading_zeros());
            r.truncate(keep);
            r
        })
        .collect()
}

/// Joins one run: each value as one integer of its bytes, the integers as one vector, that
/// vector as the values' element type, stored at the first index.
fn join<'a>(run: &[Op<'a>], cx: &PassCx<'a>) {
    let last = *run.last().expect("a run");
    let b = Builder::before(last).with_loc(last.loc());
    let ctx = b.ctx;
    let piece = run[0].operand(0).ty();
    let n = piece.shape()[0].unwrap_or(1);
    let bits = piece.element().scalar().map(|s| s.bits() as i64).unwrap_or(8) * n;
    let word = ctx.i(bits as u32);
    let one = ctx.known_type(&format!("vector<1x{word}>"));
    let words: Vec<Val<'a>> = run.iter().map(|s| crate::emit::vector::extract(b, b.cast("vector.bitcast", s.operand(0), one), 0)).collect();
    let k = words.len() as i64;
    let joined = b.op_value("vector.from_elements", &words, ctx.known_type(&format!("vector<{k}x{word}>")), &[]);
    let wide = ctx.known_type(&format!("vector<{}x{}>", k * n, piece.element()));
    let value = b.cast("vector.bitcast", joined, wide);
    let first = run[0];
    b.op("vector.store", &[value, first.operand(1), first.operand(2)], &[], &[]);
    for s in run {
        cx.erase(*s);
    }
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let mut blocks = Vec::new();
    for op in module.walk() {
        for r in 0..op.num_regions() {
            blocks.extend(op.region(r).blocks());
        }
    }
    for blk in blocks {
        for run in runs(blk) {
            join(&run, cx);
        }
    }
    Ok(())
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "merge-adjacent-stores",
    name: "MergeAdjacentStores",
    summary: "joins vector stores of consecutive elements of one memref into one store of up to 16 bytes",
    description: "Joins vector.stores in one block that write consecutive elements of one 1-D memref (indices \
    base + c, base + c + n, ...) with nothing touching memory between them into one store of up to 16 bytes \
    (values joined through their bytes as integers), so the SIMT IR, the simulator and explain see the access the GPU makes.",
    anchor: "",
    options: &[],
    run,
};
