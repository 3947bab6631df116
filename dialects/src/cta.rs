//! The `cta` dialect: the Rust half of its verification.

use crate::lane;
use crate::ops::{CtaOp, PhobosOp};
use phobos_ir::{diag::Diagnostic, Op};
use phobos_layout::{exchange, expr, Map};

pub fn verify(op: Op) -> Result<(), Diagnostic> {
    if op.attr("width").is_some() {
        return Err(Diagnostic::op_error(op, "a CTA collective takes no width"));
    }
    let Some(PhobosOp::Cta(which)) = PhobosOp::of(op) else { return Ok(()) };
    match which {
        CtaOp::Reduce => {
            let kind = op.str_attr("kind").unwrap_or_default();
            lane::verify_kind_type(op, &kind, op.operand(0).ty())
        }
        CtaOp::Argmax => Ok(()),
        CtaOp::ReduceWith => lane::verify_combine(op),
        CtaOp::Exchange | CtaOp::Gather => verify_source_layout(op, &verify_redistribution(op)?),
        CtaOp::Scatter => verify_redistribution(op).map(|_| ()),
    }
}

/// The layout a register array is known to hold its items in: the target of the exchange or
/// scatter that made it, through the item writes (`vector.insert`) since.
fn made_in(v: phobos_ir::Val) -> Option<(Op, String)> {
    let mut v = v;
    loop {
        let def = v.def()?;
        match def.name().as_str() {
            "cta.exchange" | "cta.scatter" => return def.str_attr("to").map(|t| (def, t)),
            "vector.insert" => v = def.operand(1),
            _ => return None,
        }
    }
}

/// An exchange or gather reads its operand under `from`: the layout the operand was made in,
/// when that is known (the same function, whatever its spelling).
fn verify_source_layout(op: Op, r: &Redistribution) -> Result<(), Diagnostic> {
    let Some((maker, made)) = made_in(op.operand(0)) else { return Ok(()) };
    let (_, from, from_map) = &r.layouts[0];
    let Ok(made_map) = exchange::resolve(&made, r.threads, r.items) else { return Ok(()) };
    if made_map.values() != from_map.values() {
        return Err(Diagnostic::op_error(
            op,
            format!("reads its operand in layout \"{from}\", but the operand holds its items in layout \"{made}\""),
        )
        .with_note(maker.loc(), format!("made in \"{made}\" here")));
    }
    Ok(())
}

/// A redistribution's shape: `threads` threads of `items` items, and its layouts by attribute.
pub struct Redistribution {
    pub threads: i64,
    pub items: i64,
    /// (attribute, text, map): `from` then `to`, those the op has.
    pub layouts: Vec<(&'static str, String, Map)>,
}

/// Checks a `cta.exchange`, `cta.scatter` or `cta.gather` and returns what it moves.
pub fn verify_redistribution(op: Op) -> Result<Redistribution, Diagnostic> {
    let v = op.operand(0).ty();
    let n = match v.shape()[..] {
        [Some(n)] if v.is_vector() && n > 0 => n,
        _ => return Err(Diagnostic::op_error(op, format!("moves a 1-D vector (n items per thread), got {v}"))),
    };
    let keys: &[&'static str] = match op.name().as_str() {
        "cta.exchange" => &["from", "to"],
        "cta.scatter" => &["to"],
        _ => &["from"],
    };
    if op.num_operands() == 2 {
        let r = op.operand(1).ty();
        if !(r.is_vector() && r.shape() == [Some(n)] && r.element().int_width() == Some(32)) {
            return Err(Diagnostic::op_error(op, format!("ranks must be a vector<{n}xi32> (one rank per item), got {r}")));
        }
    }
    let mut threads = None;
    let mut layouts = Vec::new();
    for key in keys {
        let text = op.str_attr(key).ok_or_else(|| Diagnostic::op_error(op, format!("needs a {key} = \"...\" layout")))?;
        let size = match expr::eval(&text) {
            Ok(expr::Value::Map(m)) => m.size(),
            Ok(_) => return Err(Diagnostic::op_error(op, format!("{key}: \"{text}\" is not a layout"))),
            Err(e) => return Err(Diagnostic::op_error(op, format!("{key}: layout \"{text}\": {e}"))),
        };
        if size % n != 0 {
            return Err(Diagnostic::op_error(op, format!("{key}: layout \"{text}\" has {size} positions, not a multiple of {n} items")));
        }
        let t = size / n;
        if threads.is_some_and(|x| x != t) {
            return Err(Diagnostic::op_error(op, format!("the layouts disagree on the thread count: {} and {t}", threads.unwrap_or(0))));
        }
        threads = Some(t);
        let map = exchange::resolve(&text, t, n).map_err(|e| Diagnostic::op_error(op, format!("{key}: {e}")))?;
        layouts.push((*key, text, map));
    }
    Ok(Redistribution { threads: threads.unwrap_or(0), items: n, layouts })
}

/// Typed builders: the ops as a frontend creates them (verified like parsed ones).
pub mod build {
    use crate::lane::{build::combine_region, Kind};
    use phobos_ir::{Builder, Val};

    /// `cta.argmax`: the thread of the CTA holding the largest `value` (the lowest such
    /// thread), an `i32`, in every thread.
    pub fn argmax<'a>(b: Builder<'a>, value: Val<'a>) -> Val<'a> {
        b.op_value("cta.argmax", &[value], b.ctx.i(32), &[])
    }

    /// `cta.reduce_with`: folds `value` over the CTA with `combine(a, b)` (associative and
    /// commutative), every thread getting the result; needs a known block size.
    pub fn reduce_with<'a>(b: Builder<'a>, value: Val<'a>, combine: impl FnOnce(Builder<'a>, Val<'a>, Val<'a>) -> Val<'a>) -> Val<'a> {
        let r = combine_region(b, value.ty(), combine);
        b.op_with_regions("cta.reduce_with", &[value], &[value.ty()], &[], vec![r]).result(0)
    }

    /// `cta.reduce` of `value` with `kind` over the whole CTA; every thread gets the result.
    pub fn reduce<'a>(b: Builder<'a>, kind: Kind, value: Val<'a>) -> Val<'a> {
        let ctx = b.ctx;
        let ty = value.ty();
        b.op_value("cta.reduce", &[value], ty, &[("kind", ctx.str_attr(kind.name()))])
    }

    /// `cta.exchange` of the register array `value` from layout `from` to layout `to`
    /// (`phobos layout` notation; thread/value layouts of the CTA's threads).
    pub fn exchange<'a>(b: Builder<'a>, from: &str, to: &str, value: Val<'a>) -> Val<'a> {
        let ctx = b.ctx;
        b.op_value("cta.exchange", &[value], value.ty(), &[("from", ctx.str_attr(from)), ("to", ctx.str_attr(to))])
    }

    /// `cta.scatter`: item i of each thread goes to position `ranks[i]`, read back under `to`.
    pub fn scatter<'a>(b: Builder<'a>, to: &str, value: Val<'a>, ranks: Val<'a>) -> Val<'a> {
        let ctx = b.ctx;
        b.op_value("cta.scatter", &[value, ranks], value.ty(), &[("to", ctx.str_attr(to))])
    }

    /// `cta.gather`: item i of each thread is the value at position `ranks[i]` of `value`,
    /// whose items are placed by `from`.
    pub fn gather<'a>(b: Builder<'a>, from: &str, value: Val<'a>, ranks: Val<'a>) -> Val<'a> {
        let ctx = b.ctx;
        b.op_value("cta.gather", &[value, ranks], value.ty(), &[("from", ctx.str_attr(from))])
    }
}
