//! The divisibility analysis: each integer value's largest power of two known to divide it
//! (what `prove-alignment` and `convert-tile-to-gpu` read; the rules are in
//! `prove_alignment.rs`'s header).

use phobos_ir::{Op, Val};
use std::collections::HashMap;

/// Divisors are capped here (a zero constant divides by anything).
pub const MAX: u64 = 1 << 30;

/// The largest power of two dividing `c` (capped at [`MAX`]).
pub fn pow2_of(c: i64) -> u64 {
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
