//! Structured control flow and barriers, as lowerings build them.

use phobos_ir::{Builder, Op, OwnedRegion, Ty, Val};

/// `scf.if %c -> (tys) { then } else { else }`; the closures build each branch and return what
/// it yields.
pub fn if_else<'a>(
    b: Builder<'a>,
    c: Val<'a>,
    tys: &[Ty<'a>],
    then: impl FnOnce(Builder<'a>) -> Vec<Val<'a>>,
    els: impl FnOnce(Builder<'a>) -> Vec<Val<'a>>,
) -> Op<'a> {
    let (r1, r2) = (OwnedRegion::new(), OwnedRegion::new());
    let (b1, b2) = (r1.add_block(&[], b.loc), r2.add_block(&[], b.loc));
    let i1 = Builder::at_end(b1, b.loc);
    let v1 = then(i1);
    i1.op("scf.yield", &v1, &[], &[]);
    let i2 = Builder::at_end(b2, b.loc);
    let v2 = els(i2);
    i2.op("scf.yield", &v2, &[], &[]);
    b.op_with_regions("scf.if", &[c], tys, &[], vec![r1, r2])
}

/// `scf.for %i = lb to ub step s { body(i) }` with no iteration arguments.
pub fn for_loop<'a>(b: Builder<'a>, lb: Val<'a>, ub: Val<'a>, step: Val<'a>, body: impl FnOnce(Builder<'a>, Val<'a>)) {
    let r = OwnedRegion::new();
    let blk = r.add_block(&[lb.ty()], b.loc);
    let ib = Builder::at_end(blk, b.loc);
    body(ib, blk.arg(0));
    ib.op("scf.yield", &[], &[], &[]);
    b.op_with_regions("scf.for", &[lb, ub, step], &[], &[], vec![r]);
}

/// A barrier.
pub fn barrier<'a>(b: Builder<'a>) -> Op<'a> {
    b.op("gpu.barrier", &[], &[], &[])
}

/// A barrier with the reason it is there (`phobos.barrier`, which `elide-barriers` reports).
pub fn barrier_because<'a>(b: Builder<'a>, why: &str) -> Op<'a> {
    b.op("gpu.barrier", &[], &[], &[("phobos.barrier", b.ctx.str_attr(why))])
}

/// `scf.if %cond { <body> }` with no results; `body` builds into the then-block.
pub fn if_then<'a>(b: Builder<'a>, cond: Val<'a>, body: impl FnOnce(Builder<'a>)) {
    let then_region = OwnedRegion::new();
    let blk = then_region.add_block(&[], b.loc);
    let inner = Builder::at_end(blk, b.loc);
    body(inner);
    inner.op("scf.yield", &[], &[], &[]);
    b.op_with_regions("scf.if", &[cond], &[], &[], vec![then_region, OwnedRegion::new()]);
}
