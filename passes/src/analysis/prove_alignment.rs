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

use crate::external::PassCx;
use crate::registry::PassInfo;
use phobos_ir::{Op, Val};
use std::collections::HashMap;

/// Divisors are capped here (a zero constant divides by anything).
const MAX: u64 = 1 << 30;

fn pow2_of(c: i64) -> u64 {
    if c == 0 {
        MAX
    } else {
        (1u64 << c.unsigned_abs().trailing_zeros().min(30)).min(MAX)
    }
}

/// The divisibility of every integer value in a function.
pub struct Divisibility<'a> {
    memo: HashMap<Val<'a>, u64>,
    func: Op<'a>,
}

impl<'a> Divisibility<'a> {
    pub fn new(func: Op<'a>) -> Self {
        Divisibility { memo: HashMap::new(), func }
    }

    /// The `phobos.divisibility` of argument `i` of the function.
    fn arg_divisibility(&self, i: usize) -> u64 {
        let Some(arr) = self.func.attr("arg_attrs").and_then(|a| a.array()) else { return 1 };
        let Some(dict) = arr.get(i) else { return 1 };
        dict.dict_get("phobos.divisibility").and_then(|a| a.int()).map(pow2_of).unwrap_or(1)
    }

    /// The largest power of two known to divide `v` (1 when nothing is known).
    pub fn of(&mut self, v: Val<'a>) -> u64 {
        if let Some(d) = self.memo.get(&v) {
            return *d;
        }
        self.memo.insert(v, 1); // cycles (loop-carried values) divide by 1
        let d = self.compute(v);
        self.memo.insert(v, d);
        d
    }

    fn compute(&mut self, v: Val<'a>) -> u64 {
        if let Some((blk, i)) = v.block_arg() {
            let Some(owner) = blk.parent_op() else { return 1 };
            if owner == self.func && Some(blk) == owner.region(0).first_block() {
                return self.arg_divisibility(i);
            }
            if owner.is("scf.for") && i == 0 {
                let (lb, step) = (owner.operand(0), owner.operand(2));
                return self.of(lb).min(self.of(step));
            }
            return 1;
        }
        let Some(op) = v.def() else { return 1 };
        let name = op.name();
        match name.as_str() {
            "arith.constant" => op.attr("value").and_then(|a| a.int()).map(pow2_of).unwrap_or(1),
            "arith.addi" | "arith.subi" => {
                let (a, b) = (self.of(op.operand(0)), self.of(op.operand(1)));
                a.min(b)
            }
            "arith.muli" => {
                let (a, b) = (self.of(op.operand(0)), self.of(op.operand(1)));
                a.saturating_mul(b).min(MAX)
            }
            "arith.shli" => match op.operand(1).const_int() {
                Some(c) if (0..30).contains(&c) => (self.of(op.operand(0)) << c).min(MAX),
                _ => 1,
            },
            "arith.andi" => {
                let (a, b) = (self.of(op.operand(0)), self.of(op.operand(1)));
                a.max(b)
            }
            "arith.divui" | "arith.divsi" => match op.operand(1).const_int() {
                Some(c) if c > 0 && (c as u64).is_power_of_two() => {
                    let a = self.of(op.operand(0));
                    if a >= c as u64 {
                        a / c as u64
                    } else {
                        1
                    }
                }
                _ => 1,
            },
            "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui" | "arith.trunci" => self.of(op.operand(0)),
            "arith.select" => {
                let (a, b) = (self.of(op.operand(1)), self.of(op.operand(2)));
                a.min(b)
            }
            _ => 1,
        }
    }
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
