//! `compose-layouts`: folds each composition, an apply whose one coordinate is another apply's
//! result, into one apply of the composite layout, in its coarsest form.
//!
//! `apply(apply(x, A), B)` becomes `apply(x, B∘A)` with `from` of A and `into` of B. The
//! composite comes from the checked algebra (`phobos_layout::Map::compose`): a layout when the
//! composite is one (coalesced: fully for a flat coordinate, mode by mode for per-mode
//! coordinates, so the operands still match), else kept as `compose(B,A)`, which the lowering
//! emits naively. The verifier has already checked the composition rule, so a fold cannot fail on
//! verified input; the inner apply stays while it has other users.
//! Postcondition: no apply takes another apply's result as its one coordinate.

use crate::external::{for_each_op, PassCx};
use crate::registry::PassInfo;
use phobos_dialects::layout::{name, typed};
use phobos_ir::{diag::Diagnostic, Builder, Op};
use phobos_layout::Map;

pub fn run<'a>(root: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let applies: Vec<Op<'a>> = root.walk().into_iter().filter(|o| o.is("layout.apply")).collect();
    // Program order: an inner chain folds before the apply that consumes it.
    for_each_op(applies, cx, |op| fold(op, cx))
}

fn fold<'a>(op: Op<'a>, cx: &PassCx<'a>) -> Result<(), Diagnostic> {
    if op.num_operands() != 1 {
        return Ok(());
    }
    let Some(inner) = op.operand(0).def().filter(|d| d.is("layout.apply")) else { return Ok(()) };
    let (outer_t, inner_t) = (typed(op)?, typed(inner)?);
    let composite = Map::compose(&outer_t.map, &inner_t.map).map_err(|e| Diagnostic::op_error(op, e.to_string()))?;
    let per_mode = inner.num_operands() > 1;
    let coarsest = match composite {
        Map::Layout(l) if per_mode => Map::Layout(l.coalesce_by_mode()),
        Map::Layout(l) => Map::Layout(l.coalesce()),
        // A composite takes one flat coordinate only: leave per-mode chains to the lowering.
        other if !per_mode => other,
        _ => return Ok(()),
    };
    let ctx = op.ctx();
    let mut attrs = vec![("layout", ctx.str_attr(&coarsest.to_string()))];
    if let Some(f) = inner_t.from {
        attrs.push(("from", ctx.str_attr(name(f))));
    }
    if let Some(i) = outer_t.into {
        attrs.push(("into", ctx.str_attr(name(i))));
    }
    let b = Builder::before(op).with_loc(op.loc());
    let folded = b.op_value("layout.apply", &inner.operands(), ctx.index(), &attrs);
    cx.replace(op, &[folded]);
    if inner.result(0).users().is_empty() {
        cx.erase(inner);
    }
    Ok(())
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "compose-layouts",
    name: "ComposeLayouts",
    summary: "folds layout.apply chains into one apply of the composite, in its coarsest form",
    description: "Folds apply-of-apply chains of the layout dialect into one apply of the \
    composite layout in its coarsest form (a composite pair when the composition is not a layout).",
    anchor: "",
    options: &[],
    run,
};
