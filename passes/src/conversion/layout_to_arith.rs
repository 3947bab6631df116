//! `convert-layout-to-arith`: lowers `layout.apply` and `layout.restrict` to index arithmetic
//! with the cheapest operations.
//!
//! A layout is coalesced first (its coarsest digits: fully for a flat coordinate, mode by mode
//! for per-mode coordinates). A flat coordinate x splits into digits colexicographically:
//! digit k is (x / prefix_k) mod s_k, with no mod on the outermost digit (a coordinate is in the
//! domain, so x / prefix_last is already below s_last) and no divide for the first. Powers of
//! two divide, take remainders and multiply by shifts and masks; stride 0 costs nothing and
//! stride 1 no multiply; constant coordinates fold to constants. A composite `compose(A,B)` is
//! emitted naively (B's value split into A's digits), a swizzle as and/shift/xor.
//! A restriction adds the fixed modes' coordinates times their strides to the free modes'
//! split of the last operand. `layout.place` splits the row-major logical index into the named
//! layout's digits (the last fastest, no mod on the first) and sums stride × digit per axis.
//! Postcondition: no `layout.*` op is left.

use crate::registry::PassInfo;
use crate::{
    external::PassCx,
    patterns::{self, Illegal, Pattern, DISABLE_PATTERNS},
};
use phobos_dialects::layout::{fixed, named, typed};
use phobos_dialects::ops::LayoutOp;
use phobos_ir::{diag::Diagnostic, Builder, Op, Val};
use phobos_layout::{Layout, Map};
use std::{cell::RefCell, collections::HashMap};

/// The patterns of `convert-layout-to-arith`, one per `layout` op.
pub fn populate_layout_to_arith_patterns(patterns: &mut Vec<Pattern>) {
    patterns.extend(LayoutOp::ALL.iter().map(|op| {
        let lower: crate::patterns::Lower = match op {
            LayoutOp::Apply | LayoutOp::Restrict => lower_apply,
            LayoutOp::Place => lower_place,
        };
        Pattern::new(op.name(), lower)
    }));
}

pub fn run<'a>(root: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let mut ps = Vec::new();
    populate_layout_to_arith_patterns(&mut ps);
    patterns::apply(root, cx, "convert-layout-to-arith", &ps, Illegal::named(&["layout"], &[]))
}

/// `layout.place`: the flat index's row-major digits (the last extent fastest; no mod on the
/// first), each times its stride, summed per axis.
fn lower_place<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let n = named(op)?;
    let e = Emit(Builder::before(op).with_loc(op.loc()), RefCell::default());
    let x = V::of(op.operand(0));
    let axes = n.axes();
    let mut sums = vec![V::Const(0); axes.len()];
    let mut suffix = 1;
    for k in (0..n.shape.len()).rev() {
        let (extent, (stride, axis)) = (n.shape[k], &n.strides[k]);
        if *stride != 0 && extent != 1 {
            let shifted = e.div(x, suffix);
            let digit = if k == 0 { shifted } else { e.rem(shifted, extent) };
            let a = axes.iter().position(|ax| ax == axis.as_deref().unwrap_or("reg")).expect("an axis of the layout");
            sums[a] = e.add(sums[a], e.mul(digit, *stride));
        }
        suffix *= extent;
    }
    Ok(sums.into_iter().map(|v| e.materialize(v)).collect())
}

fn lower_apply<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let t = typed(op)?;
    let e = Emit(Builder::before(op).with_loc(op.loc()), RefCell::default());
    let coords: Vec<V<'a>> = op.operands().into_iter().map(V::of).collect();
    let v = if op.is("layout.restrict") {
        let l = t.map.as_layout().expect("verified: a restriction's map is a layout");
        let fixed = fixed(op);
        let mut acc = V::Const(0);
        for (k, m) in fixed.iter().enumerate() {
            acc = e.add(acc, e.flat(&l.get(*m as usize).coalesce(), coords[k]));
        }
        let free: Vec<Layout> = (0..l.rank()).filter(|i| !fixed.contains(&(*i as i64))).map(|i| l.get(i)).collect();
        e.add(acc, e.flat(&Layout::concat(&free).coalesce(), *coords.last().expect("verified: operands")))
    } else if coords.len() > 1 {
        let l = t.map.as_layout().expect("verified: per-mode coordinates need a layout");
        l.modes().iter().zip(&coords).fold(V::Const(0), |acc, (m, c)| e.add(acc, e.flat(&m.coalesce(), *c)))
    } else {
        e.map(&t.map, coords[0])
    };
    Ok(vec![e.materialize(v)])
}

/// A value being built: a known constant, or an SSA index.
#[derive(Clone, Copy)]
enum V<'a> {
    Const(i64),
    Val(Val<'a>),
}

impl<'a> V<'a> {
    fn of(v: Val<'a>) -> V<'a> {
        v.const_int().map(V::Const).unwrap_or(V::Val(v))
    }
}

fn log2(n: i64) -> Option<i64> {
    (n > 0 && n & (n - 1) == 0).then(|| n.trailing_zeros() as i64)
}

/// Builds before the op being lowered; each constant is made once.
struct Emit<'a>(Builder<'a>, RefCell<HashMap<i64, Val<'a>>>);

impl<'a> Emit<'a> {
    fn constant(&self, c: i64) -> Val<'a> {
        *self.1.borrow_mut().entry(c).or_insert_with(|| self.0.index(c))
    }
    fn materialize(&self, v: V<'a>) -> Val<'a> {
        match v {
            V::Const(c) => self.constant(c),
            V::Val(v) => v,
        }
    }
    fn bin(&self, name: &str, a: V<'a>, c: i64) -> V<'a> {
        V::Val(self.0.bin(name, self.materialize(a), self.constant(c)))
    }
    fn add(&self, a: V<'a>, b: V<'a>) -> V<'a> {
        match (a, b) {
            (V::Const(x), V::Const(y)) => V::Const(x + y),
            (V::Const(0), v) | (v, V::Const(0)) => v,
            _ => V::Val(self.0.bin("arith.addi", self.materialize(a), self.materialize(b))),
        }
    }
    fn mul(&self, a: V<'a>, c: i64) -> V<'a> {
        match (a, c) {
            (V::Const(x), _) => V::Const(x * c),
            (_, 0) => V::Const(0),
            (v, 1) => v,
            (v, c) => match log2(c) {
                Some(s) => self.bin("arith.shli", v, s),
                None => self.bin("arith.muli", v, c),
            },
        }
    }
    fn div(&self, a: V<'a>, c: i64) -> V<'a> {
        match (a, c) {
            (V::Const(x), _) => V::Const(x / c),
            (v, 1) => v,
            (v, c) => match log2(c) {
                Some(s) => self.bin("arith.shrui", v, s),
                None => self.bin("arith.divui", v, c),
            },
        }
    }
    fn rem(&self, a: V<'a>, c: i64) -> V<'a> {
        match (a, c) {
            (V::Const(x), _) => V::Const(x % c),
            (_, 1) => V::Const(0),
            (v, c) => match log2(c) {
                Some(_) => self.bin("arith.andi", v, c - 1),
                None => self.bin("arith.remui", v, c),
            },
        }
    }
    fn xor(&self, a: V<'a>, b: V<'a>) -> V<'a> {
        match (a, b) {
            (V::Const(x), V::Const(y)) => V::Const(x ^ y),
            (V::Const(0), v) | (v, V::Const(0)) => v,
            _ => V::Val(self.0.bin("arith.xori", self.materialize(a), self.materialize(b))),
        }
    }

    /// `m` at the flat coordinate `x`.
    fn map(&self, m: &Map, x: V<'a>) -> V<'a> {
        match m {
            Map::Layout(l) => self.flat(&l.coalesce(), x),
            Map::Compose(a, b) => {
                let inner = self.map(b, x);
                self.map(a, inner)
            }
            Map::Swizzle { b, m, s, inner } => {
                let v = self.map(inner, x);
                let mask = (1i64 << b) - 1;
                let moved = if *s >= 0 {
                    let bits = self.and(v, mask << (*m as i64 + *s as i64));
                    self.div(bits, 1 << s)
                } else {
                    let bits = self.and(v, mask << *m);
                    self.mul(bits, 1 << -s)
                };
                self.xor(v, moved)
            }
            // The layout verifier rejects tables (no layout equals them) before any pass runs.
            Map::Table { .. } => V::Const(0),
        }
    }
    fn and(&self, a: V<'a>, c: i64) -> V<'a> {
        match a {
            V::Const(x) => V::Const(x & c),
            v => self.bin("arith.andi", v, c),
        }
    }

    /// A (coalesced) layout at the flat coordinate `x`: Σ digit_k · stride_k.
    fn flat(&self, l: &Layout, x: V<'a>) -> V<'a> {
        let modes = l.flat();
        let mut prefix = 1;
        let mut acc = V::Const(0);
        for (k, (s, d)) in modes.iter().enumerate() {
            if *d != 0 && *s != 1 {
                let shifted = self.div(x, prefix);
                let digit = if k + 1 == modes.len() { shifted } else { self.rem(shifted, *s) };
                acc = self.add(acc, self.mul(digit, *d));
            }
            prefix *= s;
        }
        acc
    }
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "convert-layout-to-arith",
    name: "ConvertLayoutToArith",
    summary: "layout.apply/restrict to index arithmetic: coarsest digits, shifts and masks, folded constants",
    description: "Lowers layout.apply, layout.restrict and layout.place to index arithmetic: coarsest \
    digits, shifts and masks for powers of two, no mod on the outermost digit, constants folded.",
    anchor: "",
    options: &[DISABLE_PATTERNS],
    run,
};
