//! `verify-uniformity`: proves that every collective runs under control its group shares, or
//! rejects the kernel at the collective.
//!
//! A lane collective or shuffle (`lane.*`, `gpu.shuffle`, `gpu.subgroup_reduce`,
//! `nvvm.shfl.sync`, `nvvm.vote.sync`) needs every lane of its warp: each enclosing condition,
//! loop trip count and branch must be warp-uniform (control that differs only between warps is
//! fine). A CTA collective (`cta.*`) or barrier (`gpu.barrier`) needs every thread of the CTA:
//! its control must be uniform. The error is located at the collective and says which control
//! differs and why ("depends on the lane id (gpu.lane_id)"); a note points at the condition.
//!
//! Runs on each gpu.func of a gpu.module; changes nothing. Limits: function calls are assumed
//! to compute their results from their arguments only; a collective inside a `func.func` is
//! rejected (only kernel bodies are analyzed); with unstructured control flow (`cf.cond_br`), a
//! varying branch anywhere in the kernel makes every collective outside the entry block rejected.

use crate::registry::PassInfo;
use crate::{
    analysis::uniformity::{offending_control, Level, Uniformity},
    external::PassCx,
};
use phobos_dialects::ops::{CtaOp, LaneOp, LayoutOp, PhobosOp, TileOp};
use phobos_ir::{
    diag::{Diagnostic, Severity},
    Op, Val,
};

/// The control an op needs, if it is a collective: one arm per Phobos op.
fn required<'a>(op: Op<'a>) -> Option<(Level, &'static str)> {
    let warp = Some((Level::Warp, "every lane of its warp (warp-uniform control)"));
    let cta = Some((Level::Uniform, "every thread of its CTA (uniform control)"));
    if let Some(p) = PhobosOp::of(op) {
        return match p {
            PhobosOp::Lane(
                LaneOp::Reduce | LaneOp::Argmax | LaneOp::Argmin | LaneOp::ReduceWith | LaneOp::Scan | LaneOp::ScanWith | LaneOp::Shuffle,
            ) => warp,
            // mma.sync and ldmatrix are `.aligned`: the whole warp executes them together.
            PhobosOp::Tile(TileOp::Dot) => warp,
            // A copy is cooperative and ends with a CTA barrier.
            PhobosOp::Tile(TileOp::Copy) => cta,
            PhobosOp::Cta(CtaOp::Reduce | CtaOp::Argmax | CtaOp::ReduceWith | CtaOp::Exchange | CtaOp::Scatter | CtaOp::Gather) => cta,
            // A shared buffer's accesses get their barriers from `infer-barriers`; layouts compute per thread.
            PhobosOp::Tile(TileOp::Alloc) | PhobosOp::Layout(LayoutOp::Apply | LayoutOp::Restrict | LayoutOp::Place) => None,
        };
    }
    match op.name().as_str() {
        "gpu.shuffle" | "gpu.subgroup_reduce" | "nvvm.shfl.sync" | "nvvm.vote.sync" | "nvvm.redux.sync" => warp,
        "gpu.barrier" | "gpu.all_reduce" => cta,
        _ => None,
    }
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let mut failed = false;
    let body = module.region(0).first_block().expect("gpu.module has a body");
    for f in body.ops() {
        if f.is("func.func") {
            for op in f.walk() {
                if required(op).is_some() && op.ancestor("lane.reduce_with").is_none() {
                    cx.diags.emit(Diagnostic::op_error(
                        op,
                        "is in a function, where Phobos cannot check its control; collectives belong in kernel bodies",
                    ));
                    failed = true;
                }
            }
        }
        if !f.is("gpu.func") {
            continue;
        }
        let u = Uniformity::analyze(f);
        let branches: Vec<Op<'a>> = f.walk().into_iter().filter(|o| o.is("cf.cond_br")).collect();
        let entry = f.region(0).first_block();
        for op in f.walk() {
            // A tile is the CTA's: its box (starts and sizes) and its fill value (written by every
            // thread that copies an edge chunk) are one for every thread.
            if op.is("tile.copy") {
                let rank = phobos_dialects::tile::shape(op).len();
                let boxed = (1..1 + 2 * rank).map(|i| (op.operand(i), "copies a box", "a tile is the CTA's, one box for every thread"));
                let fill = phobos_dialects::tile::fill(op).map(|v| (v, "takes a fill value", "a tile's fill is one value for the CTA"));
                if let Some((v, what, why)) = boxed.chain(fill).find(|(v, _, _)| u.fact(*v).level != Level::Uniform) {
                    let fact = u.fact(v);
                    let mut d = Diagnostic::op_error(
                        op,
                        format!("{what} that differs between {}: it depends on {}; {why}", fact.level.between(), fact.origin_text()),
                    );
                    if let Some((origin, _)) = fact.origin {
                        d.notes.push(Diagnostic::new(Severity::Note, origin.loc().src(), "it takes its value from here"));
                    }
                    cx.diags.emit(d);
                    failed = true;
                }
            }
            let Some((need, what)) = required(op) else { continue };
            if let Some(d) = check(&u, f, op, need, what, &branches, entry) {
                cx.diags.emit(d);
                failed = true;
            }
        }
    }
    if failed {
        Err(())
    } else {
        Ok(())
    }
}

fn check<'a>(
    u: &Uniformity<'a>,
    func: Op<'a>,
    op: Op<'a>,
    need: Level,
    what: &str,
    branches: &[Op<'a>],
    entry: Option<phobos_ir::Blk<'a>>,
) -> Option<Diagnostic> {
    let (control, v, fact) = match offending_control(u, op, need) {
        Some(x) => x,
        None => {
            // Unstructured control: a varying branch, and the op past the entry block.
            if op.ancestor("gpu.func").and_then(|_| {
                let mut cur = op;
                while let Some(p) = cur.parent() {
                    if p == func {
                        return cur.block();
                    }
                    cur = p;
                }
                None
            }) == entry
            {
                return None;
            }
            let br = branches.iter().find(|b| u.fact(b.operand(0)).level > need)?;
            ("a conditional branch before it", br.operand(0), u.fact(br.operand(0)))
        }
    };
    let ssa = v.operand_name(func);
    // The source's name for the value, when it has one: its own, or that of the nearest
    // variable it is computed from that differs as much.
    let at = v.def().map(|o| o.loc()).unwrap_or_else(|| v.location());
    let name = match source_name(u, v, need) {
        Some((n, true)) => format!("'{n}'"),
        Some((n, false)) => format!("a value computed from '{n}'"),
        // A value the source names nowhere (`a && b`'s): a .phobos author has no `%5` to read.
        None if at.src().is_some_and(|l| phobos_source::is_language_file(&l.file)) => "the value noted below".into(),
        None => ssa,
    };
    let mut d = Diagnostic::op_error(
        op,
        format!("needs {what}, but {control} differs between {}: {name} depends on {}", fact.level.between(), fact.origin_text()),
    );
    let noted = if name == "the value noted below" { "this value" } else { name.as_str() };
    d.notes.push(Diagnostic::new(Severity::Note, at.src(), format!("{noted} differs between {} here", fact.level.between())));
    if let Some((origin, _)) = fact.origin {
        if Some(origin) != v.def() {
            d.notes.push(Diagnostic::new(Severity::Note, origin.loc().src(), "it takes its value from here"));
        }
    }
    Some(d)
}

/// The name of the nearest value `v` is computed from (breadth first, through operands that
/// differ more than `need` allows) whose defining op carries a name location, and whether it is
/// `v` itself.
fn source_name<'a>(u: &Uniformity<'a>, v: Val<'a>, need: Level) -> Option<(String, bool)> {
    let mut queue = std::collections::VecDeque::from([v]);
    let mut seen = std::collections::HashSet::new();
    while let Some(x) = queue.pop_front() {
        if !seen.insert(x) || seen.len() > 256 {
            continue;
        }
        let Some(def) = x.def() else { continue };
        if let Some(n) = def.loc().name() {
            return Some((n, x == v));
        }
        queue.extend(def.operands().into_iter().filter(|o| u.fact(*o).level > need));
    }
    None
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "verify-uniformity",
    name: "VerifyUniformity",
    summary: "rejects collectives under control their warp or CTA does not share",
    description: "Checks that every lane collective and shuffle runs under warp-uniform control \
    and every CTA collective and barrier under CTA-uniform control, from a uniformity analysis of each kernel \
    (thread/lane ids, kernel arguments, loads, loop bounds, results of collectives). Rejections are located \
    at the collective, with a note at the varying condition. Changes no IR.",
    anchor: "gpu.module",
    options: &[],
    run,
};
