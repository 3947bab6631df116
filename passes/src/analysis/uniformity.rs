//! Uniformity<'a> analysis: which values are the same across the CTA, across a warp, or differ per
//! lane, and why.
//!
//! Lattice: `Uniform < Warp < Varying`. Sources: kernel arguments and constants are uniform;
//! `gpu.thread_id`, `gpu.lane_id`, atomics (acquire loads among them: memory others write),
//! loads of global memory the kernel also writes (another thread or CTA may change it between
//! two threads' loads) and loads from private memory vary per lane;
//! `gpu.subgroup_id` is warp-uniform; a full-warp lane fold's result is warp-uniform (uniform if
//! its operand was); a CTA fold's result is uniform; a scan's and a redistribution's
//! (`cta.exchange`, `scatter`, `gather`) vary. Every Phobos op has its arm (the vocabulary is
//! closed: a new op does not compile without one). Other ops of the dialects Phobos knows take
//! the join of their operands (loads included: the same address gives the same value); an op
//! of another dialect, or inline assembly, varies. Structured control flow joins the
//! values that reach a region's results with what steers it: an `scf.if` result with its
//! condition, an `scf.for` result with its bounds and step (a loop that runs a different number
//! of times per lane ends with different values), an `scf.while` result with its condition.
//! Unstructured branches (`cf.cond_br`) join their condition into the successors' arguments.
//! The facts grow monotonically; the function is re-walked until nothing changes.
//!
//! Each non-uniform fact remembers where its non-uniformity came from, so a rejection can say
//! "depends on the lane id".

use phobos_dialects::lane;
use phobos_dialects::ops::{CtaOp, LaneOp, LayoutOp, PhobosOp, TileOp};
use phobos_ir::{Op, Val};

/// Dialects whose ops compute in each thread from their operands alone (memory and control
/// flow have their own arms): any other dialect's result is varying for the analysis.
const PURE_DIALECTS: &[&str] =
    &["arith", "math", "index", "vector", "memref", "scf", "cf", "func", "ub", "affine", "complex", "gpu", "llvm", "nvvm", "builtin"];
use std::collections::HashMap;

/// How far a value is the same across threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// The same in every thread of the CTA.
    Uniform,
    /// The same in every lane of a warp; may differ between warps.
    Warp,
    /// May differ between lanes of a warp.
    Varying,
}

impl Level {
    /// What the level differs between, for messages.
    pub fn between(self) -> &'static str {
        match self {
            Level::Uniform => "nothing",
            Level::Warp => "warps",
            Level::Varying => "lanes",
        }
    }
}

/// Why a value is not uniform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    ThreadId,
    LaneId,
    WarpId,
    WarpFold,
    SegmentedFold,
    Scan,
    /// A redistribution between threads (`cta.exchange`, `scatter`, `gather`): each thread
    /// gets other items.
    Exchange,
    /// A tensor-core product (`tile.dot`): each thread holds its own items of the accumulator.
    Fragment,
    Atomic,
    Private,
    /// A load of global memory the kernel writes.
    Written,
    Unknown,
}

/// A value's level and, when not uniform, the op that made it so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fact<'a> {
    pub level: Level,
    pub origin: Option<(Op<'a>, Reason)>,
}

impl<'a> Fact<'a> {
    pub const UNIFORM: Fact<'a> = Fact { level: Level::Uniform, origin: None };
    pub fn new(level: Level, op: Op<'a>, reason: Reason) -> Fact<'a> {
        Fact { level, origin: (level != Level::Uniform).then_some((op, reason)) }
    }
    /// The least upper bound; the origin of the higher level wins (the first one on a tie).
    pub fn join(self, other: Fact<'a>) -> Fact<'a> {
        if other.level > self.level {
            other
        } else {
            self
        }
    }
    /// Caps the level at `max`, keeping the origin.
    pub fn cap(self, max: Level, op: Op<'a>, reason: Reason) -> Fact<'a> {
        if self.level > max {
            Fact::new(max, op, reason)
        } else {
            self
        }
    }
    /// Describes the origin: "the lane id (gpu.lane_id)".
    pub fn origin_text(&self) -> String {
        let Some((op, reason)) = self.origin else { return "nothing".into() };
        match reason {
            Reason::ThreadId => format!("the thread id ({})", op.name()),
            Reason::LaneId => format!("the lane id ({})", op.name()),
            Reason::WarpId => format!("the warp id ({})", op.name()),
            Reason::WarpFold => format!("a full-warp fold ({}), the same within a warp only", op.name()),
            Reason::SegmentedFold => format!("a fold over pieces narrower than the warp ({})", op.name()),
            Reason::Scan => format!("a prefix scan: each lane gets its own prefix ({})", op.name()),
            Reason::Fragment => format!("a tensor-core product ({}): each thread holds its own items of the accumulator", op.name()),
            Reason::Exchange => format!("a redistribution between threads ({}): each gets its own items", op.name()),
            Reason::Atomic if op.attr("phobos.ordering").is_some() => {
                "an acquire load (memory other threads write: each thread may see another value)".to_string()
            }
            Reason::Atomic => format!("an atomic read-modify-write ({})", op.name()),
            Reason::Private => "thread-private memory".to_string(),
            Reason::Written => format!("a load ({}) of global memory the kernel also writes, which other threads may change", op.name()),
            Reason::Unknown => format!("the result of {}, which Phobos cannot prove uniform", op.name()),
        }
    }
}

/// The facts of every value in one function.
#[derive(Default, Debug)]
pub struct Uniformity<'a> {
    facts: HashMap<Val<'a>, Fact<'a>>,
    /// Global memrefs the function writes (stores, atomics): other threads and CTAs may change
    /// them while a thread reads, so a load from one may see another value in each thread.
    written: std::collections::HashSet<Val<'a>>,
}

impl<'a> Uniformity<'a> {
    /// The fact of `v`; values never reached (unreachable code) count as uniform.
    pub fn fact(&self, v: Val<'a>) -> Fact<'a> {
        self.facts.get(&v).copied().unwrap_or(Fact::UNIFORM)
    }

    fn raise(&mut self, v: Val<'a>, f: Fact<'a>) -> bool {
        let old = self.fact(v);
        let new = old.join(f);
        if new.level != old.level || !self.facts.contains_key(&v) {
            self.facts.insert(v, new);
            return new.level != old.level;
        }
        false
    }

    /// Analyzes a `gpu.func` (or any function-like op): its arguments are uniform.
    pub fn analyze(func: Op<'a>) -> Uniformity<'a> {
        let mut u = Uniformity::default();
        for op in func.walk() {
            for a in crate::analysis::memory::accesses(op) {
                if a.writes && !matches!(a.mem.ty().memory_space(), 3 | 5) {
                    u.written.insert(a.mem);
                }
            }
        }
        // Re-walk until no fact changes (the lattice has height 3, so this ends quickly).
        for _ in 0..64 {
            let mut changed = false;
            for op in func.walk().into_iter().skip(1) {
                changed |= u.transfer(op);
            }
            if !changed {
                break;
            }
        }
        u
    }

    fn join_all(&self, vals: &[Val<'a>]) -> Fact<'a> {
        vals.iter().fold(Fact::UNIFORM, |f, v| f.join(self.fact(*v)))
    }

    /// Applies one op's transfer function; true when a fact grew.
    fn transfer(&mut self, op: Op<'a>) -> bool {
        let name = op.name();
        let ops = op.operands();
        let mut changed = false;
        let mut set_all = |u: &mut Uniformity<'a>, f: Fact<'a>| {
            for r in op.results() {
                changed |= u.raise(r, f);
            }
        };
        if let Some(p) = PhobosOp::of(op) {
            let f = self.phobos_fact(op, p);
            set_all(self, f);
            return changed;
        }
        match name.as_str() {
            "gpu.thread_id" | "gpu.global_id" | "nvvm.read.ptx.sreg.tid.x" | "nvvm.read.ptx.sreg.tid.y" | "nvvm.read.ptx.sreg.tid.z" => {
                set_all(self, Fact::new(Level::Varying, op, Reason::ThreadId))
            }
            "gpu.lane_id" | "nvvm.read.ptx.sreg.laneid" => set_all(self, Fact::new(Level::Varying, op, Reason::LaneId)),
            "gpu.subgroup_id" | "nvvm.read.ptx.sreg.warpid" => set_all(self, Fact::new(Level::Warp, op, Reason::WarpId)),
            "gpu.block_id" | "gpu.block_dim" | "gpu.grid_dim" | "gpu.num_subgroups" | "gpu.subgroup_size" | "gpu.cluster_id"
            | "gpu.cluster_dim" | "arith.constant" | "memref.get_global" | "memref.alloca" => set_all(self, Fact::UNIFORM),
            "memref.atomic_rmw" | "memref.generic_atomic_rmw" | "llvm.atomicrmw" | "llvm.cmpxchg" => {
                set_all(self, Fact::new(Level::Varying, op, Reason::Atomic))
            }
            "memref.load" | "vector.load" | "vector.maskedload" | "vector.transfer_read" => {
                let mem = ops[0];
                let private = mem.def().is_some_and(|d| d.is("memref.alloca")) || mem.ty().memory_space() == 5;
                let f = if private {
                    Fact::new(Level::Varying, op, Reason::Private)
                } else if self.written.contains(&mem) {
                    Fact::new(Level::Varying, op, Reason::Written)
                } else {
                    self.join_all(&ops)
                };
                set_all(self, f);
            }
            "gpu.shuffle" => {
                let f = self.shuffle_fact(op, false);
                set_all(self, f);
                if op.num_results() > 1 {
                    changed |= self.raise(op.result(1), self.fact(ops[1]));
                }
            }
            "scf.if" => {
                let cond = self.fact(ops[0]);
                for i in 0..op.num_results() {
                    let mut f = cond;
                    for r in 0..op.num_regions() {
                        if let Some(y) = op.region(r).first_block().and_then(|b| b.terminator()) {
                            if i < y.num_operands() {
                                f = f.join(self.fact(y.operand(i)));
                            }
                        }
                    }
                    changed |= self.raise(op.result(i), f);
                }
            }
            "scf.for" => {
                // Operands: lb, ub, step, inits...; block args: iv, iter_args...
                let trip = self.join_all(&ops[..3]);
                let body = op.region(0).first_block().expect("scf.for has a body");
                let iv_fact = self.fact(ops[0]).join(self.fact(ops[2]));
                changed |= self.raise(body.arg(0), iv_fact);
                let yield_op = body.terminator();
                for i in 0..op.num_results() {
                    let mut f = self.fact(ops[3 + i]);
                    if let Some(y) = yield_op {
                        f = f.join(self.fact(y.operand(i)));
                    }
                    changed |= self.raise(body.arg(1 + i), f);
                    changed |= self.raise(op.result(i), f.join(trip));
                }
            }
            "scf.while" => {
                let before = op.region(0).first_block().expect("scf.while has a before region");
                let after = op.region(1).first_block().expect("scf.while has an after region");
                let cond_op = before.terminator().expect("scf.condition");
                let cond = self.fact(cond_op.operand(0));
                let yield_op = after.terminator();
                for (i, init) in ops.iter().enumerate().take(before.num_args()) {
                    let mut f = self.fact(*init);
                    if let Some(y) = yield_op {
                        if i < y.num_operands() {
                            f = f.join(self.fact(y.operand(i)));
                        }
                    }
                    changed |= self.raise(before.arg(i), f);
                }
                for i in 0..after.num_args() {
                    let f = self.fact(cond_op.operand(1 + i));
                    changed |= self.raise(after.arg(i), f);
                    if i < op.num_results() {
                        changed |= self.raise(op.result(i), f.join(cond));
                    }
                }
            }
            "cf.br" | "cf.cond_br" => {
                let cond = if name == "cf.cond_br" { self.fact(ops[0]) } else { Fact::UNIFORM };
                // Operands after the condition go to the successors' arguments in order.
                let mut k = if name == "cf.cond_br" { 1 } else { 0 };
                for blk in op.successors() {
                    for a in 0..blk.num_args() {
                        if k < ops.len() {
                            changed |= self.raise(blk.arg(a), self.fact(ops[k]).join(cond));
                            k += 1;
                        }
                    }
                }
            }
            // Inline assembly may read anything (a special register, a clock).
            "llvm.inline_asm" => set_all(self, Fact::new(Level::Varying, op, Reason::Unknown)),
            // Per-thread computation in the dialects Phobos knows: a function of the operands.
            _ if PURE_DIALECTS.iter().any(|d| name.split_once('.').is_some_and(|(dialect, _)| dialect == *d)) => {
                let f = self.join_all(&ops);
                set_all(self, f);
            }
            // An op of another dialect (inline assembly too): nothing is proven of it.
            _ => set_all(self, Fact::new(Level::Varying, op, Reason::Unknown)),
        }
        changed
    }

    /// The fact of a Phobos op's results: one arm per op of the vocabulary.
    fn phobos_fact(&self, op: Op<'a>, which: PhobosOp) -> Fact<'a> {
        let ops = op.operands();
        match which {
            PhobosOp::Lane(l) => match l {
                LaneOp::Reduce | LaneOp::ReduceWith => {
                    let f = self.fact(ops[0]);
                    if lane::width(op) == 32 {
                        f.cap(Level::Warp, op, Reason::WarpFold)
                    } else {
                        f
                    }
                }
                // A prefix differs from lane to lane whatever its operand.
                LaneOp::Scan | LaneOp::ScanWith => Fact::new(Level::Varying, op, Reason::Scan),
                LaneOp::Argmax | LaneOp::Argmin => {
                    if lane::width(op) == 32 {
                        self.fact(ops[0]).cap(Level::Warp, op, Reason::WarpFold)
                    } else {
                        Fact::new(Level::Varying, op, Reason::SegmentedFold)
                    }
                }
                LaneOp::Shuffle => self.shuffle_fact(op, true),
            },
            PhobosOp::Cta(c) => match c {
                CtaOp::Reduce | CtaOp::Argmax | CtaOp::ReduceWith => Fact::UNIFORM,
                CtaOp::Exchange | CtaOp::Scatter | CtaOp::Gather => Fact::new(Level::Varying, op, Reason::Exchange),
            },
            // The tile's buffer is the CTA's: as uniform as what places it.
            PhobosOp::Tile(TileOp::Copy | TileOp::Alloc) => self.join_all(&ops),
            // Each thread holds its own items of the accumulator.
            PhobosOp::Tile(TileOp::Dot) => Fact::new(Level::Varying, op, Reason::Fragment),
            // Layout functions of their operands.
            PhobosOp::Layout(LayoutOp::Apply | LayoutOp::Restrict | LayoutOp::Place) => self.join_all(&ops),
        }
    }

    /// A shuffle's value (`lane.shuffle` or `gpu.shuffle`): every lane reads some lane's value
    /// in its warp, so no more varying than the value, and `from s` with `s` the same in the
    /// whole warp gives one value per warp.
    fn shuffle_fact(&self, op: Op<'a>, is_lane: bool) -> Fact<'a> {
        let ops = op.operands();
        let value = self.fact(ops[0]);
        let full_from = if is_lane {
            lane::mode(op) == lane::Mode::From && lane::width(op) == 32
        } else {
            op.attr("mode").is_some_and(|m| m.to_string().contains("idx")) && ops.get(2).and_then(|w| w.const_int()) == Some(32)
        };
        if full_from && self.fact(ops[1]).level <= Level::Warp {
            value.cap(Level::Warp, op, Reason::WarpFold)
        } else {
            value
        }
    }
}

/// The first enclosing control that is not `need`-uniform: (description, steering value, fact).
pub fn offending_control<'a>(u: &Uniformity<'a>, op: Op<'a>, need: Level) -> Option<(&'static str, Val<'a>, Fact<'a>)> {
    let mut cur = op;
    while let Some(p) = cur.parent() {
        if p.is("gpu.func") {
            break;
        }
        let found = match p.name().as_str() {
            "scf.if" => Some(("the condition of an enclosing scf.if", p.operand(0))),
            "scf.for" => {
                // The trip count: the bound or step that differs.
                (0..3).map(|i| p.operand(i)).find(|v| u.fact(*v).level > need).map(|v| ("the trip count of an enclosing scf.for", v))
            }
            "scf.while" => {
                p.region(0).first_block().and_then(|b| b.terminator()).map(|c| ("the condition of an enclosing scf.while", c.operand(0)))
            }
            _ => None,
        };
        if let Some((what, v)) = found {
            let fact = u.fact(v);
            if fact.level > need {
                return Some((what, v, fact));
            }
        }
        cur = p;
    }
    None
}
