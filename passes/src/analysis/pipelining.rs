//! Which tile copies a software-pipelined loop holds. A loop asks with `phobos.pipeline = S` on
//! its `scf.for` (the frontend's `@pipeline(stages = S)`); its copies are the `tile.copy` ops
//! directly in its body, and they can be pipelined when the loop can compute each one's operands
//! for a later iteration: values from outside the loop, its induction variable, and pure `arith`
//! ops of those in its body. `tile-plan-shared-memory` gives each such copy S buffers (one per
//! stage, [`stage_bytes`] apart) and `tile-pipeline` issues it S - 1 iterations ahead; both ask
//! [`stages`], so they agree.

use phobos_ir::{Op, Val};

/// The most stages `tile-plan-shared-memory` chooses for a loop with `phobos.pipeline = 0`
/// (more hide little more latency and cost a buffer each).
pub const AUTO_MAX: i64 = 4;

/// The stages loop `lp` asks for: `phobos.pipeline` on an `scf.for`, 2 or more (0 asks the
/// plan to choose, which then writes its choice there).
pub fn requested(lp: Op) -> Option<i64> {
    lp.is("scf.for").then(|| lp.int_attr("phobos.pipeline")).flatten().filter(|s| *s >= 2)
}

/// The tile copies of loop `lp`: the `tile.copy` ops directly in its body.
pub fn copies<'a>(lp: Op<'a>) -> Vec<Op<'a>> {
    lp.region(0).first_block().map(|b| b.ops().filter(|o| o.is("tile.copy")).collect()).unwrap_or_default()
}

/// Why the copies of loop `lp` cannot be pipelined for `chip`, if they cannot (more than 8
/// stages, it copies no tile, the chip has no `cp.async`, or an operand depends on memory or
/// control inside the loop).
pub fn obstacle(lp: Op, chip: &str) -> Option<String> {
    // The frontend allows 1 to 8; a hand-written count past 8 would unroll a prologue that long.
    if let Some(s) = requested(lp).filter(|s| *s > 8) {
        return Some(format!("phobos.pipeline asks for {s} stages; 2 to 8 are pipelined"));
    }
    let copies = copies(lp);
    if copies.is_empty() {
        return Some("the loop copies no tile".into());
    }
    if crate::emit::pointer::sm(chip) < 80 {
        return Some(format!("asynchronous copies (cp.async) need sm_80 or later; the target is {chip}"));
    }
    for c in copies {
        if let Some(v) = c.operands().into_iter().find(|v| !computable(*v, lp)) {
            let what = v.def().map(|d| format!("`{}`", d.name())).unwrap_or_else(|| "a value the loop carries".into());
            return Some(format!(
                "the copy of {} depends on {what} inside the loop, which cannot be computed an iteration ahead",
                phobos_dialects::tile::buffer_name(c)
            ));
        }
    }
    None
}

/// The stages of tile copy `copy` for `chip`: S when its loop is pipelined, else 1.
pub fn stages(copy: Op, chip: &str) -> i64 {
    let Some(lp) = copy.parent().filter(|p| p.is("scf.for")) else { return 1 };
    match requested(lp) {
        Some(s) if obstacle(lp, chip).is_none() => s,
        _ => 1,
    }
}

/// The bytes between a pipelined tile's stages: its bytes, 16-byte aligned.
pub fn stage_bytes(tile_bytes: u64) -> u64 {
    tile_bytes.saturating_add(15) / 16 * 16
}

/// Whether `v` can be computed for another iteration of `lp`.
pub fn computable(v: Val, lp: Op) -> bool {
    let body = lp.region(0).first_block();
    if let Some((blk, i)) = v.block_arg() {
        // The induction variable, or a value from outside (not an iteration argument).
        return Some(blk) != body || i == 0;
    }
    let Some(d) = v.def() else { return false };
    if !inside(d, lp) {
        return true;
    }
    d.parent() == Some(lp) && d.name().starts_with("arith.") && d.num_regions() == 0 && d.operands().into_iter().all(|o| computable(o, lp))
}

/// Whether `op` is nested in `lp`.
pub fn inside(op: Op, lp: Op) -> bool {
    let mut cur = op.parent();
    while let Some(p) = cur {
        if p == lp {
            return true;
        }
        cur = p.parent();
    }
    false
}
