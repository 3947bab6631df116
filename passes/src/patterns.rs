//! Lowerings as patterns, and the one driver that applies them.
//!
//! A [`Pattern`] lowers one op: it builds the replacement before the op and returns the values
//! that replace its results. A conversion pass is a list of patterns
//! (`populate_<from>_to_<to>_patterns`) handed to [`apply`], which rewrites every matching op,
//! then the matching ops the patterns created (a worklist, until none is left), and then checks
//! legality: an op the conversion must remove that is still there is a located error naming it
//! and the pass, not a silent leftover for a later pass to trip on. A pattern that fails leaves
//! the IR as it was: the ops it built before the op are erased, and its error is reported.
//!
//! Every conversion pass takes MLIR's `disable-patterns=OP[,OP]` option: the listed patterns
//! are not applied (their ops stay, and the legality check reports them), for tests and for
//! bisecting a lowering.

use crate::external::PassCx;
use phobos_ir::{diag::Diagnostic, Op, Val};
use std::collections::{HashMap, HashSet};

/// Lowers one op: builds its replacement before it, returns the values replacing its results.
pub type Lower = for<'a> fn(Op<'a>, &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic>;

/// Which ops of a name a pattern (or a legality rule) applies to.
pub type Guard = for<'a> fn(Op<'a>) -> bool;

/// One op's lowering.
#[derive(Clone, Copy)]
pub struct Pattern {
    /// The op it lowers.
    pub op: &'static str,
    /// Only ops of that name for which this holds (all of them when `None`).
    pub when: Option<Guard>,
    pub lower: Lower,
}

impl Pattern {
    /// Lowers every `op`.
    pub const fn new(op: &'static str, lower: Lower) -> Pattern {
        Pattern { op, when: None, lower }
    }
    /// Lowers the `op`s for which `when` holds.
    pub const fn when(op: &'static str, when: Guard, lower: Lower) -> Pattern {
        Pattern { op, when: Some(when), lower }
    }
    fn matches(&self, o: Op) -> bool {
        o.is(self.op) && self.when.is_none_or(|w| w(o))
    }
}

/// What must be gone after a conversion: ops of these dialects (`"lane"`), with these exact
/// names (`"gpu.subgroup_id"`), or for which `when` holds.
#[derive(Clone, Copy)]
pub struct Illegal {
    pub dialects: &'static [&'static str],
    pub ops: &'static [&'static str],
    pub when: Option<Guard>,
}

impl Illegal {
    /// Ops of these dialects and these names.
    pub const fn named(dialects: &'static [&'static str], ops: &'static [&'static str]) -> Illegal {
        Illegal { dialects, ops, when: None }
    }
    fn contains(&self, o: Op) -> bool {
        let name = o.name();
        self.ops.contains(&name.as_str())
            || self.dialects.iter().any(|d| name.strip_prefix(d).is_some_and(|r| r.starts_with('.')))
            || self.when.is_some_and(|w| w(o))
    }
}

/// The option every conversion pass declares.
pub const DISABLE_PATTERNS: crate::registry::OptInfo =
    crate::registry::OptInfo { name: "disable-patterns", help: "ops whose patterns are not applied (comma-separated)", default: "" };

/// Rounds of the worklist before the driver gives up: patterns that keep creating ops they
/// match never converge.
const MAX_ROUNDS: usize = 16;

/// Applies `patterns` to every op nested in `root` that one matches (outer ops first), then to
/// the matching ops those lowerings created, until none is left; then reports every op
/// `illegal` names that is left. `flag` names the pass in errors.
pub fn apply<'a>(root: Op<'a>, cx: &PassCx<'a>, flag: &str, patterns: &[Pattern], illegal: Illegal) -> Result<(), ()> {
    let disabled: Vec<&str> =
        cx.options.get("disable-patterns").unwrap_or("").split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    let active: Vec<&Pattern> = patterns.iter().filter(|p| !disabled.contains(&p.op)).collect();
    // Every op a pattern was tried on: erased ops are destroyed only after the pass, so no
    // address is reused while the set lives.
    let mut tried: HashSet<Op<'a>> = HashSet::new();
    let mut failed = false;
    // One walk per round: the walk after the last round is the legality check's too.
    let mut ops = root.walk();
    for round in 0.. {
        let matched: Vec<(Op<'a>, &Pattern)> =
            ops.iter().filter(|o| !tried.contains(*o)).filter_map(|o| active.iter().find(|p| p.matches(*o)).map(|p| (*o, *p))).collect();
        if matched.is_empty() {
            break;
        }
        if round == MAX_ROUNDS {
            cx.diags.emit(Diagnostic::op_error(
                matched[0].0,
                format!("{flag}: the patterns keep creating ops they lower ({MAX_ROUNDS} rounds)"),
            ));
            return Err(());
        }
        let mut prev = prev_in_blocks(&matched);
        for (op, p) in matched {
            tried.insert(op);
            // An op erased with an outer op is detached: skip it.
            if !attached(op, root) {
                continue;
            }
            // Where the pattern's ops will start: after `before` (kept current below; an op an
            // outer lowering moved to another block is looked up again).
            let before = match prev.get(&op).copied().flatten() {
                Some(b) if b.block() == op.block() => Some(b),
                Some(_) => prev_in_block(op),
                None => None,
            };
            match (p.lower)(op, cx) {
                Ok(vals) => {
                    // The next matched op now follows the last op this lowering built.
                    if let Some(n) = op.next().filter(|n| prev.contains_key(n)) {
                        prev.insert(n, built(op, before).last().copied().or(before));
                    }
                    cx.replace(op, &vals)
                }
                Err(d) => {
                    for o in built(op, before).into_iter().rev() {
                        cx.erase(o);
                    }
                    cx.diags.emit(d);
                    failed = true;
                }
            }
        }
        if failed {
            return Err(());
        }
        ops = root.walk();
    }
    // Legality: nothing the conversion removes is left.
    let left: Vec<Op<'a>> = ops.into_iter().filter(|o| illegal.contains(*o)).collect();
    for op in &left {
        cx.diags.emit(Diagnostic::op_error(*op, format!("was not lowered by {flag}: failed to legalize this operation")));
    }
    if left.is_empty() {
        Ok(())
    } else {
        Err(())
    }
}

/// The op before each matched op in its block: each block scanned once.
fn prev_in_blocks<'a>(matched: &[(Op<'a>, &Pattern)]) -> HashMap<Op<'a>, Option<Op<'a>>> {
    let wanted: HashSet<Op<'a>> = matched.iter().map(|(o, _)| *o).collect();
    let mut out = HashMap::new();
    let mut scanned = HashSet::new();
    for (op, _) in matched {
        let Some(blk) = op.block() else { continue };
        if !scanned.insert(blk) {
            continue;
        }
        let mut last = None;
        for o in blk.ops() {
            if wanted.contains(&o) {
                out.insert(o, last);
            }
            last = Some(o);
        }
    }
    out
}

/// The op before `op` in its block.
fn prev_in_block<'a>(op: Op<'a>) -> Option<Op<'a>> {
    let mut prev = None;
    for o in op.block()?.ops() {
        if o == op {
            return prev;
        }
        prev = Some(o);
    }
    None
}

/// The ops a pattern built before `op`: those after `before` (from the block's start when
/// there was none), in order.
fn built<'a>(op: Op<'a>, before: Option<Op<'a>>) -> Vec<Op<'a>> {
    let first = match before {
        Some(p) => p.next(),
        None => op.block().and_then(|b| b.first_op()),
    };
    let mut out = Vec::new();
    for o in std::iter::successors(first, |o| o.next()) {
        if o == op {
            return out;
        }
        out.push(o);
    }
    Vec::new() // `op` not after `before`: nothing is known to be the pattern's
}

/// Whether `op` is still inside `root` (not inside an op erased earlier).
fn attached<'a>(op: Op<'a>, root: Op<'a>) -> bool {
    let mut cur = op;
    loop {
        if cur == root {
            return true;
        }
        match cur.parent() {
            Some(p) => cur = p,
            None => return false,
        }
    }
}
