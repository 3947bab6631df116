//! `tile-plan-shared-memory{chip=sm_90}`: places every tile and shared buffer of a kernel in its
//! dynamic shared memory and checks the total against the chip.
//!
//! Each `tile.copy` and `tile.alloc` gets a byte `offset` (16-byte aligned; 1024 for a tile that
//! `wgmma` reads, whose swizzle is on absolute addresses). Buffers whose
//! lifetimes (from the copy or alloc to the last use, in program order; a use inside a loop
//! keeps the buffer alive for the whole loop) do not overlap share bytes; a buffer marked
//! `phobos.exclusive` (warp-synchronised staging) lives for the whole kernel. The kernel's dynamic shared memory is the end of
//! the last tile: `phobos.dynamic_shared_bytes` on the gpu.func. Static shared memory (the
//! workgroup globals, e.g. CTA-fold scratch) plus the dynamic part must fit the chip: static at
//! most 49152 bytes, the total at most the opt-in limit (232448 on sm_90, 166912 on sm_80, ...).
//! An overflow is an error that names every buffer, its bytes and its source line.
//!
//! A copy in a software-pipelined loop (`analysis::pipelining`) gets S buffers, one per stage.
//!
//! `phobos-to-simt` runs it twice: before `infer-barriers`, which needs the offsets to see
//! buffers that share bytes, and after `convert-cta-to-gpu`, whose CTA-fold scratch is static
//! shared memory the limit counts (the plan is deterministic: the same offsets both times).
//!
//! The plan is reported as a remark per buffer the first time it is placed:
//! `shared 'xs': offset 0, 1024 bytes (1x256 of f32)` ([`PlanEntry`]), which `phobos explain`
//! reads and `phobos compile --remarks` prints.

use crate::analysis::{memory::bytes_of, pipelining};
use crate::registry::{OptInfo, PassInfo};
use crate::{emit::ids::loops_around, external::PassCx};
use phobos_ir::{
    diag::{Diagnostic, Severity},
    Op, Val,
};
use std::collections::HashMap;

/// Position of every op of `func` in program order, and for each op the position where it
/// stops being live when used (the end of the outermost loop around the use).
fn positions<'a>(func: Op<'a>) -> HashMap<Op<'a>, usize> {
    func.walk().into_iter().enumerate().map(|(i, o)| (o, i)).collect()
}

/// The last position at which `v` is used, a loop around a use extending it to the loop's end.
fn last_use(v: Val, pos: &HashMap<Op, usize>, func: Op) -> usize {
    let mut last = v.def().and_then(|d| pos.get(&d).copied()).unwrap_or(0);
    for u in v.users() {
        // The outermost enclosing loop inside the function.
        let at = loops_around(u, func).last().copied().unwrap_or(u);
        let end = at.walk().last().and_then(|o| pos.get(o).copied()).unwrap_or(0);
        last = last.max(end);
    }
    last
}

/// One buffer of the plan, as its remark says it: `shared 'xs': offset 0, 1024 bytes (1x256
/// of f32)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanEntry {
    pub name: String,
    /// Bytes from the start of the kernel's dynamic shared memory.
    pub offset: u64,
    pub bytes: u64,
    /// The extents, `x`-separated.
    pub shape: String,
    pub elem: String,
}

impl PlanEntry {
    pub fn remark(&self) -> String {
        format!("shared '{}': offset {}, {} bytes ({} of {})", self.name, self.offset, self.bytes, self.shape, self.elem)
    }

    /// The entry a remark of [`PlanEntry::remark`] states, or `None` for another message.
    pub fn parse(message: &str) -> Option<PlanEntry> {
        let rest = message.strip_prefix("shared '")?;
        let (name, rest) = rest.split_once("': offset ")?;
        let (offset, rest) = rest.split_once(", ")?;
        let (bytes, rest) = rest.split_once(" bytes (")?;
        let (shape, elem) = rest.strip_suffix(')')?.split_once(" of ")?;
        Some(PlanEntry {
            name: name.into(),
            offset: offset.parse().ok()?,
            bytes: bytes.parse().ok()?,
            shape: shape.into(),
            elem: elem.into(),
        })
    }
}

/// A buffer of the plan: its op, lifetime `[start, end]` and bytes.
type Buffer<'a> = (Op<'a>, usize, usize, u64);

/// Steps 1 and 2 of the plan of `f`: each buffer (in order of start) with its offset, and the
/// end of the last one.
fn place<'a>(f: Op<'a>, chip: &str) -> (Vec<Buffer<'a>>, Vec<u64>, u64) {
    let pos = positions(f);
    // Step 1. Lifetimes: [copy, last use].
    let mut tiles: Vec<Buffer> = f
        .walk()
        .into_iter()
        .filter(|o| o.is("tile.copy") || o.is("tile.alloc"))
        .map(|c| {
            let (start, end) =
                if c.attr("phobos.exclusive").is_some() { (0, usize::MAX) } else { (pos[&c], last_use(c.result(0), &pos, f)) };
            // A copy of a pipelined loop holds one buffer per stage.
            let bytes = match pipelining::stages(c, chip) {
                1 => bytes_of(c.result(0).ty()),
                s => pipelining::stage_bytes(bytes_of(c.result(0).ty())).saturating_mul(s as u64),
            };
            (c, start, end, bytes)
        })
        .collect();
    // Step 2. First fit in order of start: a tile takes the lowest offset whose bytes no live
    // tile holds.
    tiles.sort_by_key(|t| t.1);
    let mut placed: Vec<(usize, usize, u64, u64)> = Vec::new(); // (start, end, offset, bytes)
    let mut total = 0u64;
    for (c, start, end, bytes) in &tiles {
        // 16-byte aligned, or 1024 for a tile `wgmma` reads (its swizzle is on absolute addresses).
        // TMA's swizzles are on absolute addresses too, and its boxes land 128-byte aligned.
        let align = if crate::conversion::tile_dot_wgmma::reads_tile(*c, chip) || c.attr("tma").is_some() {
            crate::conversion::tile_dot_wgmma::TILE_ALIGN
        } else {
            16
        };
        let mut live: Vec<(u64, u64)> =
            placed.iter().filter(|p| p.0 <= *end && *start <= p.1).map(|p| (p.2, p.2.saturating_add(p.3))).collect();
        live.sort();
        let mut off = 0u64;
        for (s, e) in live {
            if off.saturating_add(*bytes) <= s {
                break;
            }
            off = off.max(e.div_ceil(align) * align);
        }
        placed.push((*start, *end, off, *bytes));
        total = total.max(off.saturating_add(*bytes));
    }
    (tiles, placed.iter().map(|p| p.2).collect(), total)
}

/// The stages of each loop of `f` that leaves them to the compiler (`phobos.pipeline = 0`, the
/// frontend's `@pipeline` without a count): the most, up to [`pipelining::AUTO_MAX`], whose
/// plan fits half the chip's shared memory (two CTAs per SM), else 2 where they fit the whole,
/// stated in a remark; 1 (not pipelined) when 2 do not fit or the loop cannot be pipelined.
fn choose_stages(f: Op, chip: &str, static_bytes: u64, limit: u64, cx: &PassCx) {
    let budget = limit / 2;
    let auto: Vec<Op> = f.walk().into_iter().filter(|o| o.is("scf.for") && o.int_attr("phobos.pipeline") == Some(0)).collect();
    for lp in auto {
        let set = |s: i64| lp.set_attr("phobos.pipeline", lp.ctx().int_attr(lp.ctx().i(64), s));
        if let Some(why) = pipelining::obstacle(lp, chip) {
            lp.remove_attr("phobos.pipeline");
            if !pipelining::copies(lp).is_empty() {
                cx.diags.emit(Diagnostic::new(Severity::Remark, lp.loc().src(), format!("@pipeline chose 1 stage (not pipelined): {why}")));
            }
            continue;
        }
        let mut need = Vec::new();
        let chosen = (2..=pipelining::AUTO_MAX).rev().find(|s| {
            set(*s);
            let bytes = static_bytes.saturating_add(place(f, chip).2);
            need.push((*s, bytes));
            bytes <= budget
        });
        let message = match chosen {
            Some(s) => {
                let bytes = need.last().map_or(0, |n| n.1);
                let more = need.iter().rev().nth(1).map(|(m, b)| format!("; {m} would need {b}")).unwrap_or_default();
                format!("@pipeline chose {s} stages: {bytes} bytes of shared memory, within half of {chip}'s {limit}{more}")
            }
            None => {
                // Two stages in one CTA per SM hide more latency than two CTAs unpipelined.
                let two = need.last().map_or(0, |n| n.1);
                if two <= limit {
                    set(2);
                    format!("@pipeline chose 2 stages: {two} bytes of shared memory, more than half of {chip}'s {limit} (one CTA per SM)")
                } else {
                    lp.remove_attr("phobos.pipeline");
                    format!(
                        "@pipeline chose 1 stage (not pipelined): 2 stages need {two} bytes of shared memory, more than {chip}'s {limit}"
                    )
                }
            }
        };
        cx.diags.emit(Diagnostic::new(Severity::Remark, lp.loc().src(), message));
    }
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let chip = cx.options.get("chip").unwrap_or("sm_90").to_string();
    let limit = crate::target::chip(&chip).map(|c| c.shared_optin).map_err(|e| cx.diags.emit(Diagnostic::op_error(module, e)))?;
    let body = module.region(0).first_block().expect("gpu.module has a body");
    // Static shared memory: the module's workgroup globals.
    let mut statics: Vec<(String, u64, Op)> = Vec::new();
    for g in body.ops().filter(|o| o.is("memref.global")) {
        if let Some(t) = g.attr("type").and_then(|a| a.type_value()) {
            if t.memory_space() == 3 && bytes_of(t) > 0 {
                statics.push((format!("@{}", g.str_attr("sym_name").unwrap_or_default()), bytes_of(t), g));
            }
        }
    }
    let static_bytes: u64 = statics.iter().fold(0u64, |a, s| a.saturating_add(s.1));
    let mut failed = false;
    for f in body.ops().filter(|o| o.is("gpu.func")) {
        choose_stages(f, &chip, static_bytes, limit, cx);
        let copies: Vec<Op> = f.walk().into_iter().filter(|o| o.is("tile.copy") || o.is("tile.alloc")).collect();
        let (tiles, offsets, mut total) = place(f, &chip);
        let i64t = module.ctx().i(64);
        for ((c, _, _, bytes), off) in tiles.iter().zip(&offsets) {
            let off = *off;
            // The plan is a remark when a buffer is placed (the pipeline plans twice, with the
            // same result, and says so once): `phobos explain` draws it, `--remarks` prints it.
            // An offset the input carried is replaced by the plan's.
            // (A size that saturated gets the limit's error below instead.)
            if c.int_attr("offset") != Some(off as i64) && *bytes != u64::MAX {
                let mut shape = c.result(0).ty().shape().iter().map(|d| d.unwrap_or(0).to_string()).collect::<Vec<_>>().join("x");
                if c.is("tile.copy") && pipelining::stages(*c, &chip) > 1 {
                    shape = format!("{}x{shape}", pipelining::stages(*c, &chip));
                }
                let what = PlanEntry {
                    name: phobos_dialects::tile::buffer_name(*c),
                    offset: off,
                    bytes: *bytes,
                    shape,
                    elem: c.result(0).ty().element().to_string(),
                };
                cx.diags.emit(Diagnostic::new(Severity::Remark, c.loc().src(), what.remark()));
            }
            c.set_attr("offset", module.ctx().int_attr(i64t, off as i64));
        }
        // A function whose tiles were lowered already (views of the dynamic shared memory, as
        // in the compiler's own dumps) keeps the plan it carries: there is nothing to place.
        if copies.is_empty() {
            total = total.max(f.int_attr("phobos.dynamic_shared_bytes").unwrap_or(0).max(0) as u64);
        }
        f.set_attr("phobos.dynamic_shared_bytes", module.ctx().int_attr(i64t, total as i64));
        // Step 3. The chip's limits.
        if static_bytes > crate::target::SHARED_DEFAULT || static_bytes.saturating_add(total) > limit {
            // A size that passed 2^64 saturated (memory::bytes_of): said so, not as 2^64 - 1.
            let n = |b: u64| if b == u64::MAX { "2^64 or more".to_string() } else { b.to_string() };
            let mut d = Diagnostic::op_error(
                f,
                format!(
                    "needs {} bytes of shared memory ({} static, {} dynamic), more than {chip} allows ({} static, {limit} in all)",
                    n(static_bytes.saturating_add(total)),
                    n(static_bytes),
                    n(total),
                    crate::target::SHARED_DEFAULT
                ),
            );
            for (c, _, _, bytes) in &tiles {
                let kind = if c.is("tile.alloc") { "buffer" } else { "tile" };
                let name = c.str_attr("name").map(|n| format!("{kind} '{n}'")).unwrap_or_else(|| format!("a {kind}"));
                d.notes.push(Diagnostic::new(Severity::Note, c.loc().src(), format!("{name}: {} bytes", n(*bytes))));
            }
            for (name, bytes, g) in &statics {
                d.notes.push(Diagnostic::new(Severity::Note, g.loc().src(), format!("{name}: {} bytes (static)", n(*bytes))));
            }
            cx.diags.emit(d);
            failed = true;
        }
    }
    if failed {
        return Err(());
    }
    Ok(())
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "tile-plan-shared-memory",
    name: "TilePlanSharedMemory",
    summary: "places tiles in dynamic shared memory (with reuse) and checks the chip's limit",
    description: "Assigns each tile.copy a 16-byte-aligned offset in the kernel's dynamic \
    shared memory, reusing bytes between tiles whose lifetimes do not overlap, records the total as \
    phobos.dynamic_shared_bytes, and rejects a kernel whose shared memory exceeds the chip's limit, naming \
    each buffer and its size.",
    anchor: "gpu.module",
    options: &[OptInfo { name: "chip", help: "the target chip, for its shared-memory limit", default: "sm_90" }],
    run,
};
