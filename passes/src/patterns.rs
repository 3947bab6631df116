//! Lowerings as patterns, and the one driver that applies them.
//!
//! A [`Pattern`] lowers one op: it builds the replacement before the op and returns the values
//! that replace its results. A conversion pass is a list of patterns
//! (`populate_<from>_to_<to>_patterns`) handed to [`apply`], which rewrites every matching op
//! and then checks legality: an op the conversion must remove that is still there is a located
//! error naming it and the pass, not a silent leftover for a later pass to trip on.
//!
//! Every conversion pass takes MLIR's `disable-patterns=OP[,OP]` option: the listed patterns
//! are not applied (their ops stay, and the legality check reports them), for tests and for
//! bisecting a lowering.

use crate::external::PassCx;
use phobos_ir::{diag::Diagnostic, Op, Val};

/// Lowers one op: builds its replacement before it, returns the values replacing its results.
pub type Lower = for<'a> fn(Op<'a>, &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic>;

/// One op's lowering.
#[derive(Clone, Copy)]
pub struct Pattern {
    /// The op it lowers.
    pub op: &'static str,
    pub lower: Lower,
}

/// What must be gone after a conversion: ops of these dialects (`"lane"`) or with these exact
/// names (`"gpu.subgroup_id"`).
#[derive(Clone, Copy, Debug)]
pub struct Illegal {
    pub dialects: &'static [&'static str],
    pub ops: &'static [&'static str],
}

impl Illegal {
    fn contains(&self, name: &str) -> bool {
        self.ops.contains(&name) || self.dialects.iter().any(|d| name.strip_prefix(d).is_some_and(|r| r.starts_with('.')))
    }
}

/// The option every conversion pass declares.
pub const DISABLE_PATTERNS: crate::registry::OptInfo =
    crate::registry::OptInfo { name: "disable-patterns", help: "ops whose patterns are not applied (comma-separated)", default: "" };

/// Applies `patterns` to every op nested in `root` that one matches (outer ops first, each op
/// once), then reports every op `illegal` names that is left. `flag` names the pass in errors.
pub fn apply<'a>(root: Op<'a>, cx: &PassCx<'a>, flag: &str, patterns: &[Pattern], illegal: Illegal) -> Result<(), ()> {
    let disabled: Vec<&str> =
        cx.options.get("disable-patterns").unwrap_or("").split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    let active: Vec<&Pattern> = patterns.iter().filter(|p| !disabled.contains(&p.op)).collect();
    // Step 1. Collect first: rewriting while walking would invalidate the walk.
    let matched: Vec<(Op<'a>, &Pattern)> =
        root.walk().into_iter().filter_map(|o| active.iter().find(|p| o.is(p.op)).map(|p| (o, *p))).collect();
    // Step 2. Lower each op (one erased with an outer op is detached: skip it).
    let mut failed = false;
    for (op, p) in matched {
        if !attached(op, root) {
            continue;
        }
        match (p.lower)(op, cx) {
            Ok(vals) => cx.replace(op, &vals),
            Err(d) => {
                cx.diags.emit(d);
                failed = true;
            }
        }
    }
    if failed {
        return Err(());
    }
    // Step 3. Legality: nothing the conversion removes is left.
    let left: Vec<Op<'a>> = root.walk().into_iter().filter(|o| illegal.contains(&o.name())).collect();
    for op in &left {
        cx.diags.emit(Diagnostic::op_error(*op, format!("was not lowered by {flag}: failed to legalize this operation")));
    }
    if left.is_empty() {
        Ok(())
    } else {
        Err(())
    }
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
