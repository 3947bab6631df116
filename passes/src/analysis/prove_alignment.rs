//! `prove-alignment`: proves vector loads and stores aligned, and says so in their `alignment`
//! attribute, so LLVM emits one wide access (`ld.global.nc.v4`) instead of one per element.
//!
//! A divisibility analysis gives each integer value the largest power of two known to divide
//! it: constants exactly; kernel arguments from `phobos.divisibility` (what `@aligned(K = 128)`
//! becomes); `a + b` and `a - b` the smaller of the two; `a * b` the product; `a << c` shifted;
//! casts unchanged; `a & c` the larger; an `scf.for` induction variable the smaller of its start
//! and step. Everything else divides by 1. The address of an access is its linear element index
//! (the sum of the indices times the memref's static strides); its alignment is the base's
//! (`llvm.align` on the argument, a global's `alignment`) capped by the index's divisor times
//! the element size, and by the access's own size.
//!
//! The claim is checked where it matters: the simulator faults on a misaligned vector access, so
//! a wrong `@aligned` promise or a wrong proof is caught in tests, not in production.
//! Limits: loop-carried values (iteration arguments) divide by 1; no range analysis.

use crate::analysis::divisibility::{pow2_of, Divisibility, MAX};
use crate::external::PassCx;
use crate::registry::PassInfo;
use phobos_ir::{Op, Val};

/// The alignment in bytes known for the element of a 1-D memref `mem` at `index`.
pub fn element_alignment<'a>(func: Op<'a>, div: &mut Divisibility<'a>, mem: Val<'a>, index: Val<'a>) -> u64 {
    let ebytes = mem.ty().element().scalar().map(|e| (e.bits() / 8).max(1) as u64).unwrap_or(1);
    base_alignment(func, mem).min(div.of(index).saturating_mul(ebytes))
}

/// The alignment in bytes known for the base of `mem`.
fn base_alignment(func: Op, mem: Val) -> u64 {
    if let Some((blk, i)) = mem.block_arg() {
        if blk.parent_op() == Some(func) {
            let Some(arr) = func.attr("arg_attrs").and_then(|a| a.array()) else { return 0 };
            let Some(dict) = arr.get(i) else { return 0 };
            return dict.dict_get("llvm.align").and_then(|a| a.int()).unwrap_or(0) as u64;
        }
        return 0;
    }
    let Some(d) = mem.def() else { return 0 };
    if d.is("memref.get_global") {
        let name = d.attr("name").and_then(|a| a.symbol()).unwrap_or_default();
        let module = func.parent();
        if let Some(g) = module.and_then(|m| {
            m.region(0)
                .first_block()
                .and_then(|b| b.ops().find(|o| o.is("memref.global") && o.str_attr("sym_name").as_deref() == Some(name.as_str())))
        }) {
            return g.int_attr("alignment").unwrap_or(0) as u64;
        }
    }
    if d.is("tile.copy") {
        // The shared-memory plan places every tile at a 16-byte boundary.
        return 16;
    }
    0
}

/// Proves the accesses of one function; returns how many got a wider alignment.
pub fn prove(func: Op) -> usize {
    let mut div = Divisibility::new(func);
    let mut changed = 0;
    for op in func.walk() {
        let (mem_i, first_idx, vec) = match op.name().as_str() {
            "vector.load" => (0, 1, op.result(0).ty()),
            "vector.store" => (1, 2, op.operand(0).ty()),
            _ => continue,
        };
        let mem = op.operand(mem_i);
        let mty = mem.ty();
        let Some(elem) = mty.element().scalar() else { continue };
        let ebytes = (elem.bits() / 8).max(1) as u64;
        let shape = mty.shape();
        if shape.iter().skip(1).any(|d| d.is_none()) {
            continue;
        }
        // Static row-major strides; the linear index's divisor is the smallest term's.
        let mut strides = vec![1u64; shape.len()];
        for d in (0..shape.len().saturating_sub(1)).rev() {
            strides[d] = strides[d + 1].saturating_mul(shape[d + 1].unwrap_or(1) as u64);
        }
        let mut index_div = MAX;
        for (d, s) in strides.iter().enumerate() {
            let i = op.operand(first_idx + d);
            index_div = index_div.min(div.of(i).saturating_mul(pow2_of(*s as i64)).min(MAX));
        }
        let vbytes: u64 = vec.shape().iter().map(|d| d.unwrap_or(1) as u64).product::<u64>() * ebytes;
        let base = base_alignment(func, mem);
        let proven = base.min(index_div.saturating_mul(ebytes)).min(vbytes.next_power_of_two());
        let current = op.int_attr("alignment").unwrap_or(0) as u64;
        if proven > ebytes && proven > current && proven.is_power_of_two() {
            let i64t = op.ctx().i(64);
            op.set_attr("alignment", op.ctx().int_attr(i64t, proven as i64));
            changed += 1;
        }
    }
    changed
}

pub fn run<'a>(module: Op<'a>, _cx: &PassCx<'a>) -> Result<(), ()> {
    let body = module.region(0).first_block().expect("gpu.module has a body");
    for f in body.ops() {
        if f.is("gpu.func") || f.is("func.func") {
            prove(f);
        }
    }
    Ok(())
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "prove-alignment",
    name: "ProveAlignment",
    summary: "sets vector.load/store alignment from a divisibility analysis (@aligned, constants, loops)",
    description: "Sets the alignment attribute of vector.load/vector.store from a \
    divisibility analysis of their indices (constants, @aligned dimensions, loop starts and steps), the \
    memref's base alignment and its static strides.",
    anchor: "gpu.module",
    options: &[],
    run,
};
