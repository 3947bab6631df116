//! The `layout` dialect: the Rust half of its verification, and the typed-composition rule
//! (docs/layouts.md, "Spaces"): a composition needs the first map's range to be exactly the
//! second's coordinate set; nothing maps out of physical space; a restriction is not composable.

use crate::ops::{LayoutOp, PhobosOp};
use phobos_ir::{diag::Diagnostic, Op};
use phobos_layout::{check_space, expr, Layout, Map, Space};

/// A layout op's layout with its spaces, parsed from its attributes.
pub struct Typed {
    pub map: Map,
    pub text: String,
    pub from: Option<Space>,
    pub into: Option<Space>,
}

fn space_attr(op: Op, name: &str) -> Result<Option<Space>, Diagnostic> {
    match op.attr(name) {
        None => Ok(None),
        Some(a) => {
            let s = a.str().unwrap_or_default();
            Space::parse(&s)
                .map(Some)
                .ok_or_else(|| Diagnostic::op_error(op, format!("{name} must be \"logical\", \"thread-value\" or \"physical\", got {a}")))
        }
    }
}

/// Parses the op's `layout`, `from` and `into` attributes (not the composition rule).
pub fn typed(op: Op) -> Result<Typed, Diagnostic> {
    let text = op.str_attr("layout").ok_or_else(|| Diagnostic::op_error(op, "needs a layout = \"...\" string attribute"))?;
    let map = match expr::eval(&text) {
        Ok(expr::Value::Map(m)) => m,
        Ok(expr::Value::Int(n)) => Map::Layout(Layout::extent(n).map_err(|e| Diagnostic::op_error(op, format!("layout \"{text}\": {e}")))?),
        Ok(_) => return Err(Diagnostic::op_error(op, format!("layout \"{text}\" is not a layout"))),
        Err(e) => return Err(Diagnostic::op_error(op, format!("layout \"{text}\": {e}"))),
    };
    if let Some(t) = map.table() {
        return Err(Diagnostic::op_error(op, format!("layout \"{text}\": {t} is a function no layout equals; a kernel cannot compute it")));
    }
    let from = space_attr(op, "from")?;
    let into = space_attr(op, "into")?;
    if from == Some(Space::Physical) {
        return Err(Diagnostic::op_error(op, "maps from physical space: nothing maps out of a physical index"));
    }
    if let Some(space) = into {
        check_space(&map, space).map_err(|e| Diagnostic::op_error(op, format!("does not map into {} space: {e}", name(space))))?;
    }
    Ok(Typed { map, text, from, into })
}

pub fn name(s: Space) -> &'static str {
    match s {
        Space::Logical => "logical",
        Space::ThreadValue => "thread-value",
        Space::Physical => "physical",
    }
}

/// The modes a restriction holds fixed. Call after [`verify`].
pub fn fixed(op: Op) -> Vec<i64> {
    op.attr("fixed").and_then(|a| a.dense_ints()).unwrap_or_default()
}

/// The layout op producing `op`'s operand `i`, when there is one.
fn producer<'a>(op: Op<'a>, i: usize) -> Option<Op<'a>> {
    op.operand(i).def().filter(|d| d.is("layout.apply") || d.is("layout.restrict") || d.is("layout.place"))
}

/// A `layout.place` op's layout over named axes.
pub fn named(op: Op) -> Result<phobos_layout::Named, Diagnostic> {
    let text = op.str_attr("layout").ok_or_else(|| Diagnostic::op_error(op, "needs a layout = \"S[...]\" string attribute"))?;
    match expr::eval(&text) {
        Ok(expr::Value::Named(n)) => Ok(n),
        Ok(_) => Err(Diagnostic::op_error(op, format!("places by a layout over named axes (S[...]); \"{text}\" is not one"))),
        Err(e) => Err(Diagnostic::op_error(op, format!("layout \"{text}\": {e}"))),
    }
}

fn verify_place(op: Op) -> Result<(), Diagnostic> {
    let n = named(op)?;
    // Inside a kernel of known block size, warp ids stay within its warps.
    let block = op.ancestor("gpu.func").and_then(|f| f.attr("known_block_size")).and_then(|a| a.dense_ints());
    if let Some(b) = block {
        let warps = (b.iter().product::<i64>() + 31) / 32;
        n.check(warps.max(1)).map_err(|e| Diagnostic::op_error(op, format!("in a CTA of {warps} warps: {e}")))?;
    }
    let axes = n.axes();
    if op.num_results() != axes.len() {
        return Err(Diagnostic::op_error(op, format!("has one result per axis of {n} ({}), got {}", axes.join(", "), op.num_results())));
    }
    Ok(())
}

pub fn verify(op: Op) -> Result<(), Diagnostic> {
    match PhobosOp::of(op) {
        Some(PhobosOp::Layout(LayoutOp::Place)) => verify_place(op),
        Some(PhobosOp::Layout(LayoutOp::Apply | LayoutOp::Restrict)) => verify_mapping(op),
        _ => Ok(()),
    }
}

/// `layout.apply` and `layout.restrict`.
fn verify_mapping(op: Op) -> Result<(), Diagnostic> {
    let t = typed(op)?;
    let n = op.num_operands();
    if op.is("layout.restrict") {
        let Map::Layout(l) = &t.map else {
            return Err(Diagnostic::op_error(op, format!("restricts a layout, and {} is not one", t.map)));
        };
        let fixed =
            op.attr("fixed").and_then(|a| a.dense_ints()).ok_or_else(|| Diagnostic::op_error(op, "fixed must be an array<i64: ...>"))?;
        let rank = l.rank() as i64;
        let mut seen = vec![false; rank as usize];
        for m in &fixed {
            if !(0..rank).contains(m) || std::mem::replace(&mut seen[*m as usize], true) {
                return Err(Diagnostic::op_error(
                    op,
                    format!("fixed must list distinct modes of the rank-{rank} layout {l}, got {fixed:?}"),
                ));
            }
        }
        if fixed.is_empty() || fixed.len() as i64 == rank {
            return Err(Diagnostic::op_error(
                op,
                format!("a restriction fixes some but not all of the {rank} modes of {l}, got {fixed:?}"),
            ));
        }
        if n != fixed.len() + 1 {
            return Err(Diagnostic::op_error(
                op,
                format!("takes a coordinate per fixed mode, then the flat index of the rest: {} operands, got {n}", fixed.len() + 1),
            ));
        }
    } else {
        let rank = t.map.as_layout().map(|l| l.rank()).unwrap_or(1);
        if n != 1 && n != rank {
            return Err(Diagnostic::op_error(
                op,
                format!("takes one flat coordinate or one per top-level mode of {} ({rank}), got {n}", t.map),
            ));
        }
    }
    for i in 0..n {
        let Some(p) = producer(op, i) else { continue };
        if p.is("layout.place") && n == 1 {
            return Err(Diagnostic::op_error(
                op,
                format!(
                    "maps out of a physical index: its coordinate is an axis of {} (layout.place gives hardware coordinates)",
                    named(p)?
                ),
            )
            .with_note(p.loc(), "the placement is here"));
        }
        if p.is("layout.place") {
            continue;
        }
        if p.is("layout.restrict") {
            let pt = typed(p)?;
            return Err(Diagnostic::op_error(op, format!(
                "composes a restriction: {} with modes {:?} fixed is a slice, and a restriction is not composable; compose the whole layouts, then restrict",
                pt.text,
                fixed(p)
            ))
            .with_note(p.loc(), "the restriction is here"));
        }
        if n == 1 {
            check_composition(p, op, &t)?;
        }
    }
    Ok(())
}

/// The composition rule for `op ∘ p`: p's range is exactly op's coordinate set, in matching spaces.
fn check_composition(p: Op, op: Op, t: &Typed) -> Result<(), Diagnostic> {
    let pt = typed(p)?;
    let fail = |msg: String| {
        Err(Diagnostic::op_error(op, format!("cannot compose {} then {}: {msg}", pt.text, t.text))
            .with_note(p.loc(), "the first layout is applied here"))
    };
    if pt.into == Some(Space::Physical) {
        return fail("the first maps into physical space, and nothing maps out of a physical index".into());
    }
    if let (Some(a), Some(b)) = (pt.into, t.from) {
        if a != b {
            return fail(format!("the first maps into {} space but the second maps from {} space", name(a), name(b)));
        }
    }
    let size = t.map.size();
    if pt.map.size() > phobos_layout::layout::MAX_ENUMERATION {
        return fail("the first is too large to check by enumeration".into());
    }
    let mut hit = vec![false; size as usize];
    for x in 0..pt.map.size() {
        let v = pt.map.eval(x);
        if !(0..size).contains(&v) {
            return fail(format!("the first maps {x} to {v}, outside the second's coordinates [0, {size})"));
        }
        hit[v as usize] = true;
    }
    if let Some(v) = hit.iter().position(|h| !h) {
        return fail(format!("the first's range misses coordinate {v} of the second's [0, {size})"));
    }
    Ok(())
}

/// Typed builders: the ops as a frontend creates them (verified like parsed ones).
pub mod build {
    use phobos_ir::{Builder, Val};
    use phobos_layout::Space;

    /// `layout.apply` of the layout expression `layout` (CuTe notation) to `coordinates` (one
    /// flat index, or one per top-level mode), optionally typed with its spaces.
    pub fn apply<'a>(b: Builder<'a>, layout: &str, coordinates: &[Val<'a>], from: Option<Space>, into: Option<Space>) -> Val<'a> {
        let ctx = b.ctx;
        let mut attrs = vec![("layout", ctx.str_attr(layout))];
        if let Some(s) = from {
            attrs.push(("from", ctx.str_attr(super::name(s))));
        }
        if let Some(s) = into {
            attrs.push(("into", ctx.str_attr(super::name(s))));
        }
        b.op_value("layout.apply", coordinates, ctx.index(), &attrs)
    }

    /// `layout.restrict`: `layout` applied with the modes listed in `fixed` held at the given
    /// coordinates (`coordinates`: one per top-level mode, the fixed ones included), a slice.
    pub fn restrict<'a>(b: Builder<'a>, layout: &str, coordinates: &[Val<'a>], fixed: &[i64]) -> Val<'a> {
        let ctx = b.ctx;
        let list: Vec<String> = fixed.iter().map(|m| m.to_string()).collect();
        let fixed_attr = ctx.known_attr(&format!("array<i64{}{}>", if list.is_empty() { "" } else { ": " }, list.join(", ")));
        b.op_value("layout.restrict", coordinates, ctx.index(), &[("layout", ctx.str_attr(layout)), ("fixed", fixed_attr)])
    }

    /// `layout.place` of the row-major logical index `index` by a layout over named axes
    /// (`S[...]`): one value per axis, in order of first appearance, then `reg`.
    pub fn place<'a>(b: Builder<'a>, layout: &phobos_layout::Named, index: Val<'a>) -> Vec<Val<'a>> {
        let ctx = b.ctx;
        let results = vec![ctx.index(); layout.axes().len()];
        b.op("layout.place", &[index], &results, &[("layout", ctx.str_attr(&layout.to_string()))]).results()
    }
}
