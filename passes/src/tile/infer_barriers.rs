//! `infer-barriers`: inserts the CTA barriers that a kernel's own shared-memory accesses need.
//!
//! A kernel writes and reads shared buffers (`tile.alloc`) and tiles (`tile.copy`) with plain
//! loads and stores; another thread may read what one wrote only after a barrier. Walking each
//! kernel in program order, the pass keeps the accesses made since the last barrier (a
//! `gpu.barrier`, a CTA collective, or a tile copy, whose lowering ends with one) and inserts a
//! barrier before an access that conflicts with one of them on the same buffer: a read after a
//! write (RAW) or a write after a read (WAR). Two writes need none (a thread rewriting its own
//! element is common; two threads writing one element is a race the simulator reports). Loops
//! are walked to a fixpoint, so the accesses of one iteration meet those of the next.
//!
//! A barrier needs every thread of the CTA: under control that differs between threads it goes
//! before the outermost such `scf.if`/`scf.for`/`scf.while`, which orders the accesses made
//! before it. When the earlier access is inside that divergent control too, no barrier can
//! order the two, and the kernel is rejected at the later access with a note at the earlier
//! one. `elide-barriers` later removes barriers that turn out redundant.
//!
//! A loop's fixpoint walks its body with the accesses pending at its start; inside an outer
//! loop's fixpoint the same inner loop is met again with the same pending accesses, so each
//! loop's outcome is remembered per pending set while nothing is inserted. Without that, nested
//! loops cost two walks per level: 2^depth (24 nested `while`s took 20 s). With it the work grows
//! linearly with the depth (`statistics` reports the ops visited as a remark; a lit test checks
//! the growth).
//!
//! Buffers share bytes when `tile-plan-shared-memory` gave them overlapping offsets (it reuses
//! the bytes of a buffer whose lifetime ended): accesses conflict when their buffers' byte
//! ranges overlap, so a new buffer's first write waits for the reads of the old one, and a tile
//! copy into reused bytes waits for them too. Buffers marked `phobos.synchronized` (exchange
//! staging, which places its own synchronisation) never conflict with themselves, only with
//! other buffers on the same bytes. Without planned offsets (the pass run alone), only accesses
//! of the same buffer conflict. Runs after `tile-plan-shared-memory`, before
//! `convert-tile-to-gpu`.

use crate::registry::PassInfo;
use crate::{
    analysis::uniformity::{offending_control, Level, Uniformity},
    emit::control::barrier_because,
    external::PassCx,
};
use phobos_ir::{
    diag::{Diagnostic, Severity},
    Blk, Builder, Op, Val,
};
use std::collections::HashMap;

/// One access made since the last barrier.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Access<'a> {
    buf: Val<'a>,
    write: bool,
    op: Op<'a>,
}

impl<'a> Access<'a> {
    /// Whether `self` and an access of `buf` (`write`) need a barrier between them.
    fn conflicts(&self, buf: Val<'a>, write: bool) -> bool {
        if self.write == write && !write {
            return false;
        }
        if self.write && write {
            return false; // two writes: a race the simulator reports, not a barrier to infer
        }
        if self.buf == buf {
            return !synchronized(buf);
        }
        match (bytes(self.buf), bytes(buf)) {
            (Some((a0, a1)), Some((b0, b1))) => a0 < b1 && b0 < a1,
            _ => false,
        }
    }
}

/// The planned bytes `[offset, offset + size)` of a buffer, when planned.
fn bytes(buf: Val) -> Option<(u64, u64)> {
    let off = buf.def()?.int_attr("offset")? as u64;
    Some((off, off + crate::analysis::memory::bytes_of(buf.ty())))
}

fn synchronized(buf: Val) -> bool {
    buf.def().is_some_and(|d| d.attr("phobos.synchronized").is_some())
}

struct Walk<'a, 'c> {
    u: Uniformity<'a>,
    cx: &'c PassCx<'a>,
    /// Insert barriers and report errors (false while a loop's fixpoint is computed).
    commit: bool,
    failed: bool,
    /// A loop's pending accesses at its end, by the loop and those at its start, computed
    /// while not committing (nothing is inserted then, so the outcome cannot change).
    memo: HashMap<(Op<'a>, Vec<Access<'a>>), Vec<Access<'a>>>,
    /// Ops visited, for `statistics`.
    visits: u64,
}

/// The tracked buffers `op` accesses, and whether it writes each.
fn accesses<'a>(op: Op<'a>) -> Vec<(Val<'a>, bool)> {
    crate::analysis::memory::accesses(op)
        .into_iter()
        .filter(|a| a.mem.def().is_some_and(|d| d.is("tile.alloc") || d.is("tile.copy")))
        .map(|a| (a.mem, a.writes))
        .collect()
}

/// Ops after which every earlier shared access is ordered with every later one (a tile copy
/// ends with a barrier: it is a write of its bytes first). A CTA fold holds CTA barriers only
/// when the CTA has more than one warp (one warp's fold is shuffles alone).
fn orders_all(op: Op) -> bool {
    let multi_warp = || crate::emit::ids::known_block_size(op).is_none_or(|b| b.iter().product::<i64>() > 32);
    op.is("gpu.barrier") || op.is("tile.copy") || (op.name().starts_with("cta.") && multi_warp())
}

fn name_of(buf: Val) -> String {
    buf.def().and_then(|d| d.str_attr("name")).unwrap_or_else(|| "a shared buffer".into())
}

impl<'a> Walk<'a, '_> {
    fn block(&mut self, blk: Blk<'a>, mut pending: Vec<Access<'a>>) -> Vec<Access<'a>> {
        let ops: Vec<Op<'a>> = blk.ops().collect();
        for op in ops {
            self.visits += 1;
            if orders_all(op) {
                if op.is("tile.copy") {
                    // The copy writes bytes that earlier buffers may have held.
                    pending = self.visit(op, op.result(0), true, pending);
                }
                pending.clear();
                continue;
            }
            match op.name().as_str() {
                "scf.if" => {
                    let mut out = self.block_of(op, 0, pending.clone());
                    for a in self.block_of(op, 1, pending.clone()) {
                        if !out.contains(&a) {
                            out.push(a);
                        }
                    }
                    pending = out;
                }
                "scf.for" | "scf.while" => pending = self.looped(op, pending),
                _ => {
                    let acc = accesses(op);
                    for (buf, write) in &acc {
                        pending = self.visit(op, *buf, *write, pending);
                    }
                    if acc.is_empty() && op.num_regions() > 0 {
                        // Other ops with regions (none today): their accesses are walked in order.
                        for r in 0..op.num_regions() {
                            for b in op.region(r).blocks() {
                                pending = self.block(b, pending);
                            }
                        }
                    }
                }
            }
        }
        pending
    }

    fn block_of(&mut self, op: Op<'a>, region: usize, pending: Vec<Access<'a>>) -> Vec<Access<'a>> {
        match op.region(region).first_block() {
            Some(b) => self.block(b, pending),
            None => pending,
        }
    }

    /// A loop: the accesses of the end of one iteration reach the start of the next.
    fn looped(&mut self, op: Op<'a>, entry: Vec<Access<'a>>) -> Vec<Access<'a>> {
        if !self.commit {
            let key = (op, entry);
            if let Some(end) = self.memo.get(&key) {
                return end.clone();
            }
            let end = self.looped_walk(op, key.1.clone());
            self.memo.insert(key, end.clone());
            return end;
        }
        self.looped_walk(op, entry)
    }

    fn looped_walk(&mut self, op: Op<'a>, entry: Vec<Access<'a>>) -> Vec<Access<'a>> {
        let commit = self.commit;
        self.commit = false;
        let mut start = entry.clone();
        loop {
            let mut end = start.clone();
            for r in 0..op.num_regions() {
                end = self.block_of(op, r, end);
            }
            let mut next = start.clone();
            for a in end {
                if !next.contains(&a) {
                    next.push(a);
                }
            }
            if next.len() == start.len() {
                break;
            }
            start = next;
        }
        self.commit = commit;
        let mut end = start;
        for r in 0..op.num_regions() {
            end = self.block_of(op, r, end);
        }
        // The loop may run no iteration: what came in may still be pending.
        for a in entry {
            if !end.contains(&a) {
                end.push(a);
            }
        }
        end
    }

    fn visit(&mut self, op: Op<'a>, buf: Val<'a>, write: bool, mut pending: Vec<Access<'a>>) -> Vec<Access<'a>> {
        // A read after a write, or a write after a read, of the same buffer.
        let conflicts: Vec<Access<'a>> = pending.iter().copied().filter(|a| a.conflicts(buf, write)).collect();
        if !conflicts.is_empty() {
            // Where a barrier can go: before the op, or before its outermost divergent control.
            let mut at = op;
            let mut divergent: Option<Op<'a>> = None;
            let mut cur = op;
            while offending_control(&self.u, cur, Level::Uniform).is_some() {
                let p = cur.parent().expect("control has a parent");
                if matches!(p.name().as_str(), "scf.if" | "scf.for" | "scf.while")
                    && offending_control(&self.u, p, Level::Uniform).is_none()
                {
                    divergent = Some(p);
                    at = p;
                    break;
                }
                cur = p;
            }
            let inside = |a: &Access<'a>, d: Op<'a>| {
                let mut c = a.op;
                while let Some(p) = c.parent() {
                    if p == d {
                        return true;
                    }
                    c = p;
                }
                false
            };
            if let Some(d) = divergent {
                if let Some(c) = conflicts.iter().find(|a| inside(a, d)) {
                    if self.commit {
                        let (first, second) = if write { ("read", "write") } else { ("write", "read") };
                        let mut e = Diagnostic::op_error(
                            op,
                            format!(
                                "this {second} of {} needs a barrier after the {first} of another thread, but both are under control that differs between threads, where no barrier can go",
                                name_of(buf)
                            ),
                        );
                        e.notes.push(Diagnostic::new(Severity::Note, c.op.loc().src(), format!("the {first}")));
                        e.notes.push(Diagnostic::new(Severity::Note, d.loc().src(), "the control that differs between threads"));
                        self.cx.diags.emit(e);
                        self.failed = true;
                    }
                    pending.retain(|a| a != c);
                    pending.push(Access { buf, write, op });
                    return pending;
                }
                pending.retain(|a| inside(a, d));
            } else {
                pending.clear();
            }
            if self.commit {
                let (second, first) = if write { ("write", "read") } else { ("read", "wrote") };
                let why = match conflicts.iter().find(|a| a.buf != buf) {
                    Some(o) => format!(
                        "inferred: threads {second} {}, whose bytes other threads {first} as {} before",
                        name_of(buf),
                        name_of(o.buf)
                    ),
                    None => format!("inferred: threads {second} {}, which other threads {first} before", name_of(buf)),
                };
                let already = prev_op(at).is_some_and(|p| p.is("gpu.barrier"));
                if !already {
                    barrier_because(Builder::before(at), &why);
                }
            }
        }
        pending.push(Access { buf, write, op });
        pending
    }
}

/// The op before `op` in its block.
fn prev_op<'a>(op: Op<'a>) -> Option<Op<'a>> {
    let blk = op.block()?;
    let mut prev = None;
    for o in blk.ops() {
        if o == op {
            return prev;
        }
        prev = Some(o);
    }
    None
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let body = module.region(0).first_block().expect("gpu.module has a body");
    let mut failed = false;
    for f in body.ops().filter(|o| o.is("gpu.func")) {
        let Some(entry) = f.region(0).first_block() else { continue };
        let mut w = Walk { u: Uniformity::analyze(f), cx, commit: true, failed: false, memo: HashMap::new(), visits: 0 };
        w.block(entry, Vec::new());
        failed |= w.failed;
        if cx.options.flag("statistics") {
            let name = f.str_attr("sym_name").unwrap_or_default();
            cx.diags.emit(Diagnostic::new(Severity::Remark, f.loc().src(), format!("infer-barriers visited {} ops in @{name}", w.visits)));
        }
    }
    if failed {
        Err(())
    } else {
        Ok(())
    }
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "infer-barriers",
    name: "InferBarriers",
    summary: "inserts the barriers a kernel's shared-buffer writes and reads need",
    description: "Inserts a gpu.barrier between a write to a shared buffer or tile (tile.alloc, \
    tile.copy) and a later read of it (and between a read and a later write), where no barrier, CTA collective \
    or tile copy already orders them, loops included; under divergent control the barrier goes before the \
    outermost divergent op, and accesses both inside divergent control are a located error.",
    anchor: "gpu.module",
    options: &[crate::registry::OptInfo {
        name: "statistics",
        help: "report the ops each kernel's walk visited, as a remark (its work)",
        default: "false",
    }],
    run,
};
