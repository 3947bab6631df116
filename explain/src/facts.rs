//! The facts `phobos explain` shows, gathered per source statement: the compiler's plans
//! (shared-memory offsets, barriers kept and elided with the reason) from its remarks and the
//! SIMT-level IR, and what the picked CTA did from the simulator's trace.
//!
//! Each instruction of the simulated kernel carries the location of the op it came from; it
//! belongs to the innermost statement whose span holds that location. Instructions located
//! elsewhere (an inlined `fn`'s body) belong to the statement of the instruction before them.

use phobos_frontend::ast::{Block, Stmt};
use phobos_frontend::Source;
use phobos_sim::program::{Inst, MemSrc, ShflKind};
use phobos_sim::{trace::Trace, Kernel};
use serde::Serialize;

/// Everything the text and the page show.
#[derive(Clone, Debug, Serialize)]
pub struct Explanation {
    pub file: String,
    pub kernel: String,
    /// The PTX entry (a specialization of an autotuned kernel has its own).
    pub entry: String,
    pub chip: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub cta: [u32; 3],
    pub threads: u32,
    /// The source, a line each.
    pub source: Vec<String>,
    pub tensors: Vec<Tensor>,
    pub shared: Shared,
    pub barriers: Vec<Barrier>,
    pub steps: Vec<Step>,
    /// Software-pipelined loops and their timelines.
    pub pipelines: Vec<super::timeline::Pipeline>,
    /// Tensor-core products: their fragments and tiles.
    pub fragments: Vec<super::fragment::Fragment>,
    pub summary: Summary,
    /// The compiler's warnings, rendered (the CLI prints them; the page does not show them).
    #[serde(skip)]
    pub warnings: String,
}

/// A tensor in global memory.
#[derive(Clone, Debug, Serialize)]
pub struct Tensor {
    pub name: String,
    pub dtype: String,
    pub shape: Vec<u64>,
    pub elem_bytes: u64,
}

/// The CTA's shared memory: static globals first, then the dynamic part holding the planned
/// tiles and buffers.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Shared {
    pub static_bytes: u64,
    pub dynamic_bytes: u64,
    pub buffers: Vec<SharedBuffer>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SharedBuffer {
    pub name: String,
    /// Static globals: their offset in the CTA's shared memory; planned buffers: their offset
    /// in the dynamic shared memory (which starts at `static_bytes`).
    pub offset: u64,
    pub bytes: u64,
    pub is_static: bool,
    /// `1x256 of f32`; empty for static globals.
    pub what: String,
    /// The extents (planned buffers; empty for static globals).
    pub shape: Vec<u64>,
    /// The source line of the statement that made it (0: the compiler's own).
    pub line: u32,
}

impl SharedBuffer {
    /// The first byte in the CTA's shared memory.
    pub fn start(&self, shared: &Shared) -> u64 {
        if self.is_static {
            self.offset
        } else {
            shared.static_bytes + self.offset
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Barrier {
    pub line: u32,
    pub kept: bool,
    pub reason: String,
}

/// One source statement and what the CTA did there.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Step {
    pub line: u32,
    pub col: u32,
    /// The last line of the statement (compound statements: of their body).
    pub end_line: u32,
    /// The statement's first line, trimmed.
    pub text: String,
    /// Nesting depth in the kernel body.
    pub depth: u32,
    /// An `if`, `for` or `while`: the step is its header; its body has steps of its own.
    pub compound: bool,
    /// Instructions of the lowered kernel that belong to it (none: folded into others).
    pub insts: u32,
    /// Warp-level executions of its busiest instruction.
    pub warp_execs: u64,
    /// Threads of the CTA that ran any of its instructions (bit t % 32 of word t / 32).
    pub thread_words: Vec<u32>,
    pub thread_count: u32,
    /// Lanes of warp 0 that ran any of its instructions.
    pub warp0: u32,
    pub accesses: Vec<Access>,
    pub shuffles: Vec<Shuffle>,
    /// Barriers the picked CTA passed at this statement (executions per warp summed).
    pub barriers_run: u64,
    /// Tensor-core instructions the picked CTA's warps ran here: `mma.sync` and `ldmatrix`.
    pub mma_run: u64,
    pub ldmatrix_run: u64,
    /// Tile elements outside their tensor (zero in the tile, never read).
    pub masked: u64,
    pub readout: String,
}

/// The accesses of one statement to one tensor or shared buffer, in one direction.
#[derive(Clone, Debug, Serialize)]
pub struct Access {
    /// A tensor's name, or a shared buffer's.
    pub target: String,
    pub shared: bool,
    pub write: bool,
    /// Atomic read-modify-writes (`write` too).
    pub atomic: bool,
    /// Bytes per lane and access (16: a 16-byte vector).
    pub width: u32,
    /// Distinct elements (global) or bytes (shared) touched.
    pub touched: u64,
    /// Bytes the lanes asked for, summed over accesses.
    pub bytes: u64,
    /// Global: 128-byte lines fetched, and the fewest those bytes fit in, summed over accesses.
    pub lines: u64,
    pub min_lines: u64,
    pub bank_conflicts: u64,
    /// Touched ranges: element ranges of the tensor, or byte ranges of the CTA's shared memory.
    pub ranges: Vec<(u64, u64)>,
    /// Global: the element ranges of the 128-byte lines holding `ranges` (the tensor starts on
    /// a line): what the page shades as fetched but unused.
    pub line_ranges: Vec<(u64, u64)>,
    /// The ranges were merged across gaps (too many to keep): they cover more than was touched.
    pub coarse: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct Shuffle {
    /// `xor 16`, `down 1`, `from 0`, or `idx` for another pattern.
    pub pattern: String,
    /// Warp 0: the lane each lane read (-1: the lane did not take part).
    pub src: Vec<i8>,
    /// How many shuffle instructions of the statement share this pattern (2 for a 64-bit value).
    pub count: u32,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// `shfl.sync` in the entry's PTX.
    pub shuffles: u64,
    /// Shuffles warp 0 ran.
    pub shuffles_run: u64,
    pub barriers_kept: u64,
    pub barriers_elided: u64,
    pub shared_bytes: u64,
    /// From `ptxas -v`, when a ptxas is at hand.
    pub registers: Option<u64>,
    /// Global memory: bytes in the 128-byte lines the CTA's accesses fetched, and the bytes
    /// they asked for.
    pub bytes_moved: u64,
    pub bytes_needed: u64,
    pub bank_conflicts: u64,
    pub ctas: u64,
    pub masked: u64,
}

/// A statement of the kernel: its byte span and nesting depth (the steps are in this order).
pub struct StmtSpan {
    start: u32,
    end: u32,
    depth: u32,
    compound: bool,
}

fn stmt_span(s: &Stmt) -> phobos_frontend::Span {
    match s {
        Stmt::Let { span, .. }
        | Stmt::Assign { span, .. }
        | Stmt::Buffer { span, .. }
        | Stmt::Fragment { span, .. }
        | Stmt::If { span, .. }
        | Stmt::For { span, .. }
        | Stmt::While { span, .. }
        | Stmt::Break { span, .. } => *span,
        Stmt::Expr(e) => e.span,
    }
}

/// Every statement of `b`, in source order, with its depth.
fn statements(b: &Block, depth: u32, out: &mut Vec<StmtSpan>) {
    for s in &b.stmts {
        let sp = stmt_span(s);
        let compound = matches!(s, Stmt::If { .. } | Stmt::For { .. } | Stmt::While { .. });
        out.push(StmtSpan { start: sp.start, end: sp.end, depth, compound });
        match s {
            Stmt::If { then, els, .. } => {
                statements(then, depth + 1, out);
                if let Some(e) = els {
                    statements(e, depth + 1, out);
                }
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } => statements(body, depth + 1, out),
            _ => {}
        }
    }
}

/// The steps of a kernel body: one per statement, facts empty.
pub fn steps_of(body: &Block, src: &Source) -> (Vec<Step>, Vec<StmtSpan>) {
    let mut spans = Vec::new();
    statements(body, 0, &mut spans);
    let steps = spans
        .iter()
        .map(|s| {
            let (line, col) = src.line_col(s.start);
            let (end_line, _) = src.line_col(s.end.saturating_sub(1).max(s.start));
            let first = src.text[s.start as usize..s.end as usize].lines().next().unwrap_or("");
            let text = first.trim().trim_end_matches('{').trim_end().to_string();
            Step { line, col, end_line, text, depth: s.depth, compound: s.compound, ..Default::default() }
        })
        .collect();
    (steps, spans)
}

/// The innermost statement holding byte `off` of the source.
fn statement_at(spans: &[StmtSpan], off: u32) -> Option<usize> {
    spans.iter().enumerate().filter(|(_, s)| s.start <= off && off < s.end).max_by_key(|(_, s)| s.depth).map(|(i, _)| i)
}

/// The step each instruction of `k` belongs to: the innermost statement holding its site (an
/// inlined `fn`'s ops have their call's); `None` for instructions of no statement (the
/// kernel's parameters, ops the compiler made with no location).
pub fn step_of_insts(k: &Kernel, src: &Source, spans: &[StmtSpan]) -> Vec<Option<usize>> {
    // Sites are few and instructions many: resolve each site once.
    let of_site: Vec<Option<usize>> = k
        .sites
        .iter()
        .map(|site| {
            site.as_ref().filter(|l| l.file == src.name).and_then(|l| src.offset_of(l.line, l.col)).and_then(|off| statement_at(spans, off))
        })
        .collect();
    k.inst_sites.iter().map(|s| of_site.get(*s as usize).copied().flatten()).collect()
}

/// The shuffle pattern of warp 0's lanes: `xor m`, `down d`, `up d`, `from s`, or `idx`.
pub fn pattern(kind: Option<ShflKind>, src: &[i8; 32]) -> String {
    let active: Vec<(i32, i32)> = (0..32).filter(|l| src[*l] >= 0).map(|l| (l as i32, src[l] as i32)).collect();
    let moved: Vec<&(i32, i32)> = active.iter().filter(|(l, s)| l != s).collect();
    let Some(&&(l0, s0)) = moved.first() else { return "none (every lane keeps its value)".into() };
    let xor = l0 ^ s0;
    if active.iter().all(|(l, s)| *s == l ^ xor || (kind == Some(ShflKind::Bfly) && s == l)) && moved.iter().all(|(l, s)| *s == l ^ xor) {
        return format!("xor {xor}");
    }
    let d = s0 - l0;
    if moved.iter().all(|(l, s)| s - l == d) {
        return if d > 0 { format!("down {d}") } else { format!("up {}", -d) };
    }
    if active.iter().all(|(_, s)| *s == s0) {
        return format!("from {s0}");
    }
    "idx".into()
}

/// What the step's instructions did, from the trace.
pub fn fill_steps(steps: &mut [Step], owner: &[Option<usize>], k: &Kernel, trace: &Trace, tensors: &[Tensor], shared: &Shared) {
    let words = (trace.threads as usize).div_ceil(32);
    for s in steps.iter_mut() {
        s.thread_words = vec![0; words];
    }
    for i in owner.iter().flatten() {
        steps[*i].insts += 1;
    }
    for (pc, t) in trace.insts.iter().enumerate() {
        let Some(i) = owner[pc] else { continue };
        if t.execs == 0 {
            continue;
        }
        let s = &mut steps[i];
        s.warp_execs = s.warp_execs.max(t.execs);
        for (w, bits) in t.threads.iter().enumerate() {
            for half in 0..2 {
                if let Some(word) = s.thread_words.get_mut(2 * w + half) {
                    *word |= (bits >> (32 * half)) as u32;
                }
            }
        }
        s.warp0 |= t.warp0;
        s.masked += t.masked;
        match &k.insts[pc] {
            Inst::Barrier { .. } => s.barriers_run += t.execs,
            Inst::Mma { .. } => s.mma_run += t.execs,
            Inst::LdMatrix { .. } => s.ldmatrix_run += t.execs,
            Inst::Shfl { kind, .. } | Inst::GpuShfl { kind, .. } => {
                if let Some(src) = &t.shuffle {
                    let p = pattern(Some(*kind), src);
                    match s.shuffles.last_mut() {
                        Some(last) if last.pattern == p && last.src == src.to_vec() => last.count += 1,
                        _ => s.shuffles.push(Shuffle { pattern: p, src: src.to_vec(), count: 1 }),
                    }
                }
            }
            _ => {}
        }
        for m in &t.mem {
            let mr = &k.memrefs[m.memref];
            let (target, is_shared, ranges) = match mr.src {
                MemSrc::Arg(a) => {
                    let eb = tensors.get(a).map(|t| t.elem_bytes).unwrap_or(1).max(1);
                    let name = tensors.get(a).map(|t| t.name.clone()).unwrap_or_else(|| mr.name.clone());
                    (name, false, m.ranges.iter().map(|(o, n)| (o / eb, (o + n).div_ceil(eb) - o / eb)).collect::<Vec<_>>())
                }
                MemSrc::Shared { .. } | MemSrc::Dynamic { .. } => {
                    // A planned buffer's view carries its name (`tile NAME`); buffers that share
                    // bytes are told apart by it, the others by where the access falls.
                    let start = m.ranges.first().map(|r| r.0).unwrap_or(0);
                    let name = match mr.name.strip_prefix("tile ") {
                        Some(n) => n.to_string(),
                        None => shared
                            .buffers
                            .iter()
                            .find(|b| b.start(shared) <= start && start < b.start(shared) + b.bytes.max(1))
                            .map(|b| b.name.clone())
                            .unwrap_or_else(|| mr.name.clone()),
                    };
                    (name, true, m.ranges.clone())
                }
                MemSrc::Private { .. } => continue,
            };
            let acc = match s
                .accesses
                .iter_mut()
                .find(|a| a.target == target && a.write == m.write && a.atomic == m.atomic && a.shared == is_shared)
            {
                Some(a) => a,
                None => {
                    s.accesses.push(Access {
                        target,
                        shared: is_shared,
                        write: m.write,
                        atomic: m.atomic,
                        width: 0,
                        touched: 0,
                        bytes: 0,
                        lines: 0,
                        min_lines: 0,
                        bank_conflicts: 0,
                        ranges: vec![],
                        line_ranges: vec![],
                        coarse: false,
                    });
                    s.accesses.last_mut().expect("just pushed")
                }
            };
            acc.width = acc.width.max(m.width);
            acc.bytes += m.bytes;
            acc.lines += m.lines;
            acc.min_lines += m.min_lines;
            acc.bank_conflicts += m.bank_conflicts;
            acc.coarse |= m.coarse;
            acc.ranges.extend(ranges);
            if let MemSrc::Arg(a) = mr.src {
                let t = tensors.get(a);
                let eb = t.map(|t| t.elem_bytes).unwrap_or(1).max(1);
                let elems: u64 = t.map(|t| t.shape.iter().product()).unwrap_or(0);
                let line = phobos_sim::trace::LINE_BYTES;
                acc.line_ranges.extend(m.ranges.iter().map(|(o, n)| {
                    let (lo, hi) = (o / line * line / eb, ((o + n).div_ceil(line) * line).div_ceil(eb).min(elems.max(1)));
                    (lo, hi.saturating_sub(lo))
                }));
            }
        }
    }
    for s in steps.iter_mut() {
        s.thread_count = s.thread_words.iter().map(|w| w.count_ones()).sum();
        for a in &mut s.accesses {
            phobos_sim::trace::merge(&mut a.ranges);
            phobos_sim::trace::merge(&mut a.line_ranges);
            a.touched = a.ranges.iter().map(|r| r.1).sum();
        }
    }
}

/// The whole CTA's global bytes moved in 128-byte lines and asked for, bank conflicts and
/// masked elements, from every instruction (those of no statement too).
pub fn totals(k: &Kernel, trace: &Trace) -> (u64, u64, u64, u64) {
    let (mut moved, mut needed, mut conflicts, mut masked) = (0, 0, 0, 0);
    for t in &trace.insts {
        masked += t.masked;
        for m in &t.mem {
            conflicts += m.bank_conflicts;
            if matches!(k.memrefs[m.memref].src, MemSrc::Arg(_)) {
                moved += m.lines * phobos_sim::trace::LINE_BYTES;
                needed += m.bytes;
            }
        }
    }
    (moved, needed, conflicts, masked)
}

/// The shared memory of `k`: its static globals, and the plan's buffers (from the remarks).
pub fn shared_of(k: &Kernel, plan: Vec<SharedBuffer>) -> Shared {
    let mut buffers: Vec<SharedBuffer> = Vec::new();
    for m in &k.memrefs {
        // Static globals lie below the dynamic part (views of which are the planned buffers).
        if let MemSrc::Shared { offset, bytes } = m.src {
            if offset < k.shared_bytes && !buffers.iter().any(|b| b.is_static && b.offset == offset as u64) {
                buffers.push(SharedBuffer {
                    name: format!("@{}", m.name.trim_start_matches('@')),
                    offset: offset as u64,
                    bytes: bytes as u64,
                    is_static: true,
                    what: String::new(),
                    shape: vec![],
                    line: 0,
                });
            }
        }
    }
    buffers.sort_by_key(|b| b.offset);
    buffers.extend(plan);
    Shared { static_bytes: k.shared_bytes as u64, dynamic_bytes: k.dynamic_shared as u64, buffers }
}

/// `1 line`, `2 lines`.
fn count(n: u64, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// The one-line readout of a step.
pub fn readout(s: &Step, threads: u32) -> String {
    if s.insts == 0 {
        return "no instruction of its own in the lowered kernel (folded into others)".into();
    }
    if s.warp_execs == 0 {
        return "not reached by this CTA".into();
    }
    let mut parts = vec![format!(
        "{} of {} threads ({} lane{} of warp 0) run it, {} warp-execution{}",
        s.thread_count,
        threads,
        s.warp0.count_ones(),
        if s.warp0.count_ones() == 1 { "" } else { "s" },
        s.warp_execs,
        if s.warp_execs == 1 { "" } else { "s" }
    )];
    for a in &s.accesses {
        let verb = if a.atomic {
            "updates atomically"
        } else if a.write {
            "writes"
        } else {
            "reads"
        };
        let width = if a.width > 1 { format!(" in {}-byte accesses", a.width) } else { String::new() };
        // Ranges merged across gaps (too many to keep) overstate what was touched.
        let at_most = if a.coarse { "at most " } else { "" };
        if a.shared {
            let conflicts = if a.bank_conflicts > 0 { format!(", {}", count(a.bank_conflicts, "bank conflict")) } else { String::new() };
            parts.push(format!("{verb} {at_most}{} of shared {}{width}{conflicts}", count(a.touched, "byte"), a.target));
        } else {
            let extra = a.lines.saturating_sub(a.min_lines);
            parts.push(format!(
                "{verb} {at_most}{} of {}{width}: {} of 128 bytes for {} ({} extra)",
                count(a.touched, "element"),
                a.target,
                count(a.lines, "line"),
                count(a.bytes, "byte"),
                extra
            ));
        }
    }
    if !s.shuffles.is_empty() {
        let n: u32 = s.shuffles.iter().map(|x| x.count).sum();
        let pats: Vec<&str> = s.shuffles.iter().map(|x| x.pattern.as_str()).collect();
        parts.push(format!("{n} shuffle{} ({})", if n == 1 { "" } else { "s" }, pats.join(", ")));
    }
    if s.mma_run + s.ldmatrix_run > 0 {
        parts.push(format!("tensor cores: {} mma.sync, {} ldmatrix (per warp, summed)", s.mma_run, s.ldmatrix_run));
    }
    if s.barriers_run > 0 {
        parts.push(format!("{} barrier wait{} (per warp, summed)", s.barriers_run, if s.barriers_run == 1 { "" } else { "s" }));
    }
    if s.masked > 0 {
        parts.push(format!("{} masked element{} (outside the tensor: zero, not read)", s.masked, if s.masked == 1 { "" } else { "s" }));
    }
    parts.join("; ")
}
