//! A software-pipelined loop's timeline: for each iteration warp 0 of the picked CTA ran, which
//! stage of each pipelined buffer its copies wrote (`cp.async` issued S - 1 iterations ahead)
//! and which its reads (`ldmatrix`, `wgmma`, loads) used. The loop and its stages are
//! `tile-pipeline`'s remark (`pipelined over 3 stages: ...`), the buffers the plan's (`3x128x32`
//! at the copies inside the loop), and the iterations the simulator's record of warp 0's
//! shared-memory traffic, split at each `cp.async.wait_group` of the loop: before the first is
//! the prologue.

use super::facts::{Shared, Step};
use phobos_ir::diag::Diagnostic;
use phobos_sim::trace::{EventKind, Trace};
use serde::Serialize;

/// Rows kept per loop (the page and the text stay readable; `more` counts the rest).
pub const MAX_ROWS: usize = 64;

#[derive(Clone, Debug, Serialize)]
pub struct Pipeline {
    /// The `for` statement's line.
    pub line: u32,
    pub stages: u32,
    pub buffers: Vec<Staged>,
    pub rows: Vec<Row>,
    /// Iterations past [`MAX_ROWS`], not shown.
    pub more: usize,
}

/// A buffer with one copy per stage.
#[derive(Clone, Debug, Serialize)]
pub struct Staged {
    pub name: String,
    /// Its first byte in the CTA's shared memory.
    pub start: u64,
    pub stage_bytes: u64,
}

/// The prologue or one iteration: (buffer, stage) pairs written by copies and read.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub label: String,
    pub copies: Vec<(usize, u32)>,
    pub reads: Vec<(usize, u32)>,
}

/// The pipelined loops of the kernel, each with its timeline.
pub fn pipelines(
    remarks: &[Diagnostic],
    file: &str,
    shared: &Shared,
    steps: &[Step],
    owner: &[Option<usize>],
    trace: &Trace,
) -> Vec<Pipeline> {
    let mut out = Vec::new();
    for d in remarks {
        let Some(rest) = d.message.strip_prefix("pipelined over ") else { continue };
        let Some(stages) = rest.split(' ').next().and_then(|s| s.parse::<u32>().ok()) else { continue };
        let Some(line) = d.loc.as_ref().filter(|l| l.file == file).map(|l| l.line) else { continue };
        let Some(lp) = steps.iter().find(|s| s.line == line && s.compound) else { continue };
        let within = |l: u32| (lp.line..=lp.end_line).contains(&l);
        let prefix = format!("{stages}x");
        let buffers: Vec<Staged> = shared
            .buffers
            .iter()
            .filter(|b| !b.is_static && within(b.line) && b.what.starts_with(&prefix) && stages > 0)
            .map(|b| Staged { name: b.name.clone(), start: b.start(shared), stage_bytes: b.bytes / stages as u64 })
            .collect();
        if buffers.is_empty() {
            continue;
        }
        let mut rows = vec![Row { label: "prologue".into(), copies: Vec::new(), reads: Vec::new() }];
        for e in &trace.timeline {
            let in_loop = owner.get(e.pc as usize).copied().flatten().is_some_and(|s| within(steps[s].line));
            if !in_loop {
                continue;
            }
            if e.kind == EventKind::Wait {
                let n = rows.len();
                rows.push(Row { label: format!("iteration {n}"), copies: Vec::new(), reads: Vec::new() });
                continue;
            }
            let row = rows.last_mut().expect("the prologue is a row");
            for (i, b) in buffers.iter().enumerate() {
                let end = b.start + b.stage_bytes * stages as u64;
                if e.hi <= b.start || e.lo >= end || b.stage_bytes == 0 {
                    continue;
                }
                let first = (e.lo.max(b.start) - b.start) / b.stage_bytes;
                let last = (e.hi.min(end) - 1 - b.start) / b.stage_bytes;
                let list = if e.kind == EventKind::Copy { &mut row.copies } else { &mut row.reads };
                for s in first..=last {
                    if !list.contains(&(i, s as u32)) {
                        list.push((i, s as u32));
                    }
                }
            }
        }
        // Waits with nothing after them (the one after the loop) make no row.
        rows.retain(|r| !r.copies.is_empty() || !r.reads.is_empty());
        let more = rows.len().saturating_sub(MAX_ROWS);
        rows.truncate(MAX_ROWS);
        out.push(Pipeline { line, stages, buffers, rows, more });
    }
    out
}

impl Pipeline {
    /// `As[2] Bs[2]`.
    pub fn names(&self, list: &[(usize, u32)]) -> String {
        list.iter().map(|(b, s)| format!("{}[{s}]", self.buffers[*b].name)).collect::<Vec<_>>().join(" ")
    }
}
