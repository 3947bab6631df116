//! What `merge-adjacent-loads` and `merge-adjacent-stores` share: an access of consecutive
//! elements of a 1-D memref (a scalar `memref.load`/`memref.store` or a 1-D `vector.load`/
//! `vector.store`) with its index as `base + offset`, and the ops that may sit between two
//! accesses that join.

use crate::analysis::{divisibility::Divisibility, memory, prove_alignment::element_alignment};
use crate::external::PassCx;
use phobos_ir::{Blk, Op, Ty, Val};

/// Finds the runs of every block nested in `module` and joins each.
pub fn join_runs<'a>(module: Op<'a>, cx: &PassCx<'a>, runs: fn(Blk<'a>) -> Vec<Vec<Piece<'a>>>, join: fn(&[Piece<'a>], &PassCx<'a>)) {
    let blocks: Vec<Blk<'a>> =
        module.walk().into_iter().flat_map(|op| (0..op.num_regions()).flat_map(move |r| op.region(r).blocks())).collect();
    for blk in blocks {
        for run in runs(blk) {
            join(&run, cx);
        }
    }
}

/// The most bytes one joined access moves (the widest GPU access).
pub const MAX_BYTES: i64 = 16;

/// `v` as `base + offset`, looking through index casts and additions of constants; a constant
/// has no base.
pub fn split(v: Val) -> (Option<Val>, i64) {
    if let Some(c) = v.const_int() {
        return (None, c);
    }
    let Some(d) = v.def() else { return (Some(v), 0) };
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
            (Some(v), 0)
        }
        _ => (Some(v), 0),
    }
}

/// An access that may join others.
#[derive(Clone, Copy)]
pub struct Piece<'a> {
    pub op: Op<'a>,
    pub mem: Val<'a>,
    /// Elements it moves (1 for a scalar access).
    pub n: i64,
    pub elem: Ty<'a>,
    pub bytes: i64,
    pub base: Option<Val<'a>>,
    pub off: i64,
    /// The index operand.
    pub index: Val<'a>,
}

/// `op` as a piece: a load (`store` false) or store of a 1-D memref with no attribute that
/// orders or marks it (ordered accesses and scatter items keep their own access).
pub fn piece(op: Op, store: bool) -> Option<Piece> {
    let (scalar, vector) = if store { ("memref.store", "vector.store") } else { ("memref.load", "vector.load") };
    let at = if store { 1 } else { 0 };
    if !(op.is(scalar) || op.is(vector)) || op.num_operands() != at + 2 || op.attrs().iter().any(|(k, _)| k.starts_with("phobos.")) {
        return None;
    }
    let mem = op.operand(at);
    let vty = if store { op.operand(0).ty() } else { op.result(0).ty() };
    let (n, elem) = if op.is(vector) {
        let [Some(n)] = vty.shape()[..] else { return None };
        (n, vty.element())
    } else {
        (1, vty)
    };
    let bits = elem.scalar()?.bits() as i64;
    if bits % 8 != 0 || mem.ty().shape().len() != 1 {
        return None;
    }
    let index = op.operand(at + 1);
    let (base, off) = split(index);
    Some(Piece { op, mem, n, elem, bytes: n * bits / 8, base, off, index })
}

impl<'a> Piece<'a> {
    /// Whether `next` continues this run of `len` pieces: the same memref, base and shape, the
    /// elements right after, within [`MAX_BYTES`].
    pub fn continued_by(&self, next: &Piece<'a>, last_off: i64, len: usize) -> bool {
        self.mem == next.mem
            && self.base == next.base
            && self.n == next.n
            && self.elem == next.elem
            && last_off + self.n == next.off
            && self.bytes * (len as i64 + 1) <= MAX_BYTES
    }
}

/// Whether `op`, between two accesses, keeps them joinable: it touches no memory, does not
/// synchronise or call, and holds no region.
pub fn harmless(op: Op) -> bool {
    memory::accesses(op).is_empty()
        && op.num_regions() == 0
        && !op.is("gpu.barrier")
        && !op.is("func.call")
        && !op.name().starts_with("nvvm.")
        && !op.name().starts_with("memref.atomic")
}

/// A run cut into the joins the GPU makes: from each access on, the most accesses (a power of
/// two) whose bytes its proven alignment covers, as LLVM splits a vector access to what its
/// alignment allows (6 accesses of 4 bytes from a 16-byte boundary join as 4 and 2; from a
/// 4-byte one, none). An access left alone stays as it is.
pub fn aligned_chunks<'a>(run: Vec<Piece<'a>>) -> Vec<Vec<Piece<'a>>> {
    let Some(func) = run.first().and_then(|p| p.op.ancestor("gpu.func")) else { return vec![] };
    let mut div = Divisibility::new(func);
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < run.len() {
        let p = &run[i];
        let align = element_alignment(func, &mut div, p.mem, p.index).min(MAX_BYTES as u64) as i64;
        let mut k = 1usize << (usize::BITS - 1 - (run.len() - i).leading_zeros());
        while k > 1 && k as i64 * p.bytes > align {
            k /= 2;
        }
        if k >= 2 {
            out.push(run[i..i + k].to_vec());
        }
        i += k;
    }
    out
}
