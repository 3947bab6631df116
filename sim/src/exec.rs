//! The interpreter: CTAs of warps of 32 lanes in lockstep, with sanitizer checks.
//!
//! Each warp runs its kernel's instructions with a mask of active lanes; structured control
//! pushes and pops masks. A warp runs until it finishes, reaches a barrier, or uses up its time
//! slice, so CTAs that wait on each other (spin loops over flags) make progress together. Up to
//! `resident_ctas` CTAs are resident at once, as on a GPU.
//!
//! Checks, each a [`Fault`] naming the kernel, CTA, thread, op and source location:
//! out-of-bounds global, shared and private accesses; vector accesses that break their proven
//! alignment; shared-memory races between warps with no barrier between them (read after
//! write, write after write, write after read); barriers and shuffles reached by part of a warp,
//! or barriers by part of a CTA; integer division by zero; and deadlocks (every live warp
//! waiting) or spin loops past a bound.

use crate::program::*;
use phobos_ir::SrcLoc;

/// What went wrong in a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    OutOfBounds,
    Misaligned,
    Race,
    DivergentBarrier,
    DivergentShuffle,
    Deadlock,
    DivisionByZero,
    Assertion,
    BadLaunch,
}

impl FaultKind {
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::OutOfBounds => "out-of-bounds access",
            FaultKind::Misaligned => "misaligned access",
            FaultKind::Race => "shared-memory race",
            FaultKind::DivergentBarrier => "divergent barrier",
            FaultKind::DivergentShuffle => "divergent shuffle",
            FaultKind::Deadlock => "deadlock",
            FaultKind::DivisionByZero => "division by zero",
            FaultKind::Assertion => "assertion failed",
            FaultKind::BadLaunch => "bad launch",
        }
    }
}

/// A fault in a simulated kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub message: String,
    pub kernel: String,
    pub cta: [u32; 3],
    pub thread: Option<[u32; 3]>,
    pub op: String,
    pub loc: Option<SrcLoc>,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.loc {
            Some(l) => write!(f, "{l}: error: {}: {}", self.kind.name(), self.message)?,
            None => write!(f, "error: {}: {}", self.kind.name(), self.message)?,
        }
        write!(f, "\n  in kernel {}, CTA ({}, {}, {})", self.kernel, self.cta[0], self.cta[1], self.cta[2])?;
        if let Some(t) = self.thread {
            write!(f, ", thread ({}, {}, {})", t[0], t[1], t[2])?;
        }
        if !self.op.is_empty() {
            write!(f, ", at `{}`", self.op)?;
        }
        Ok(())
    }
}

/// A kernel argument value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ArgValue {
    /// Index into the buffers passed to [`run`].
    Buffer(usize),
    Int(i64),
    Float(f64),
}

/// A launch: grid and block sizes, arguments, dynamic shared memory.
#[derive(Clone, Debug)]
pub struct Launch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub args: Vec<ArgValue>,
    pub dynamic_shared: u32,
}

/// Knobs of the simulator.
#[derive(Clone, Debug)]
pub struct Options {
    /// A warp that runs more instructions than this is reported as a deadlock or runaway loop.
    pub max_warp_insts: u64,
    /// CTAs resident at once.
    pub resident_ctas: usize,
    /// Instructions a warp runs before the next warp gets its turn.
    pub slice: u64,
    pub check_races: bool,
    /// Shared memory per CTA the simulated chip allows (sm_90: 232448 bytes).
    pub shared_limit: u32,
    /// Threads one launch may have in all (grid x block): a grid CUDA accepts can still take
    /// the simulator hours, so larger launches are refused unless this is raised
    /// (`phobos run --max-sim-threads`).
    pub max_threads: u64,
}

/// The default of [`Options::max_threads`]: 2^24 threads (16,777,216); at the simulator's
/// ~100 M thread-instructions per second, 17 s for a kernel of 100 instructions per thread.
pub const DEFAULT_MAX_THREADS: u64 = 1 << 24;

/// CUDA's limits on a grid: x up to 2^31 - 1, y and z up to 65535.
pub const MAX_GRID: [u64; 3] = [(1 << 31) - 1, 65535, 65535];

/// Checks a grid against CUDA's limits: the same rule on every backend.
pub fn check_grid(grid: [u32; 3]) -> Result<(), String> {
    for (i, (g, m)) in grid.iter().zip(MAX_GRID).enumerate() {
        if *g == 0 || *g as u64 > m {
            return Err(format!("grid {} is {g}; CUDA allows 1 to {m}", ["x", "y", "z"][i]));
        }
    }
    Ok(())
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_warp_insts: 50_000_000,
            resident_ctas: 16,
            slice: 20_000,
            check_races: true,
            shared_limit: 232448,
            max_threads: DEFAULT_MAX_THREADS,
        }
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Instructions executed per warp, summed.
    pub warp_insts: u64,
    /// Instructions executed per active lane, summed.
    pub thread_insts: u64,
    pub ctas: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    If { saved: u32, else_mask: u32 },
    Loop { saved: u32 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Ready,
    Barrier(usize),
    Done,
}

struct Warp {
    pc: usize,
    mask: u32,
    live: u32,
    frames: Vec<Frame>,
    regs: Vec<u64>,
    private: Vec<u8>,
    index: u32,
    status: Status,
    insts: u64,
    progress: Progress,
}

/// What the no-progress check of loops knows about one warp.
#[derive(Default)]
struct Progress {
    /// Memory reads (loads, atomics) so far: what a loop could observe changing.
    reads: u64,
    /// Per loop latch (its pc): the reads count and a hash of the loop-carried state the last
    /// time the warp passed it.
    seen: Vec<(usize, u64, u64)>,
    /// The location of the loop latch passed last.
    last_loop: Option<u32>,
}

/// Loops are checked for progress only once a warp has run this many instructions, so that
/// ordinary kernels pay nothing for the check.
const PROGRESS_CHECK_AFTER: u64 = 100_000;

/// FNV-1a over 64-bit words.
fn hash_words(words: impl Iterator<Item = u64>) -> u64 {
    words.fold(0xcbf2_9ce4_8422_2325, |h, w| (h ^ w).wrapping_mul(0x0000_0100_0000_01b3))
}

/// Who touched a shared byte last, in which barrier epoch (for the race check). Threads are
/// numbered from 1 (0 means nobody).
#[derive(Clone, Copy, Default)]
struct Word {
    w_epoch: u32,
    r_epoch: u32,
    w_thread: u16,
    r_thread: u16,
    r_warp: u8,
    r_multi_warp: bool,
}

struct Cta {
    id: [u32; 3],
    warps: Vec<Warp>,
    shared: Vec<u8>,
    words: Vec<Word>,
    epoch: u32,
}

struct Ctx<'a> {
    k: &'a Kernel,
    bufs: &'a mut [Vec<u8>],
    /// Kernel argument index -> buffer index.
    arg_buf: Vec<Option<usize>>,
    launch: &'a Launch,
    opts: &'a Options,
    stats: Stats,
}

#[inline(always)]
fn at(s: Slot, e: u32, l: usize) -> usize {
    (s.off + e) as usize * 32 + l
}

#[inline(always)]
fn lanes(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(l)
        }
    })
}

/// `dst[i] = src[i]` for every (dst, src) pair and the lanes of `mask`.
fn copy_pairs(regs: &mut [u64], pairs: &[(Slot, Slot)], mask: u32) {
    for (d, s) in pairs {
        for e in 0..d.len {
            for l in lanes(mask) {
                regs[at(*d, e, l)] = regs[at(*s, e, l)];
            }
        }
    }
}

#[inline(always)]
fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

/// A float's value.
#[inline(always)]
pub fn fget(ty: Prim, v: u64) -> f64 {
    match ty {
        Prim::F32 => f32::from_bits(v as u32) as f64,
        Prim::F64 => f64::from_bits(v),
        Prim::F16 => half::f16::from_bits(v as u16).to_f64(),
        Prim::BF16 => half::bf16::from_bits(v as u16).to_f64(),
        _ => sext(v, ty.bits()) as f64,
    }
}

/// A float as bits of `ty`, correctly rounded.
#[inline(always)]
pub fn fput(ty: Prim, v: f64) -> u64 {
    match ty {
        Prim::F32 => (v as f32).to_bits() as u64,
        Prim::F64 => v.to_bits(),
        Prim::F16 => half::f16::from_f64(v).to_bits() as u64,
        Prim::BF16 => half::bf16::from_f64(v).to_bits() as u64,
        _ => (v as i64 as u64) & ty.mask(),
    }
}

/// `a * b + c` rounded once to `ty` (f32 and f64 exactly as `fma.rn`; f16 and bf16 through an
/// f64 fused multiply-add, then rounded).
pub fn fma(ty: Prim, a: u64, b: u64, c: u64) -> u64 {
    match ty {
        Prim::F32 => {
            let (x, y, z) = (f32::from_bits(a as u32), f32::from_bits(b as u32), f32::from_bits(c as u32));
            x.mul_add(y, z).to_bits() as u64
        }
        _ => fput(ty, fget(ty, a).mul_add(fget(ty, b), fget(ty, c))),
    }
}

fn fmaximum(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a == b {
        if a.is_sign_negative() && b.is_sign_negative() {
            a
        } else {
            a.abs()
        }
    } else {
        a.max(b)
    }
}

fn fminimum(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a == b {
        if a.is_sign_negative() || b.is_sign_negative() {
            -(a.abs())
        } else {
            a
        }
    } else {
        a.min(b)
    }
}

fn bin(op: BinOp, ty: Prim, a: u64, b: u64) -> Result<u64, ()> {
    let bits = ty.bits();
    let m = ty.mask();
    Ok(match op {
        BinOp::Add => a.wrapping_add(b) & m,
        BinOp::Sub => a.wrapping_sub(b) & m,
        BinOp::Mul => a.wrapping_mul(b) & m,
        BinOp::DivS => {
            if b & m == 0 {
                return Err(());
            }
            (sext(a, bits).wrapping_div(sext(b, bits)) as u64) & m
        }
        BinOp::DivU => {
            if b & m == 0 {
                return Err(());
            }
            ((a & m) / (b & m)) & m
        }
        BinOp::RemS => {
            if b & m == 0 {
                return Err(());
            }
            (sext(a, bits).wrapping_rem(sext(b, bits)) as u64) & m
        }
        BinOp::RemU => {
            if b & m == 0 {
                return Err(());
            }
            ((a & m) % (b & m)) & m
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => (a ^ b) & m,
        BinOp::Shl => {
            if b >= bits as u64 {
                0
            } else {
                (a << b) & m
            }
        }
        BinOp::ShrU => {
            if b >= bits as u64 {
                0
            } else {
                (a & m) >> b
            }
        }
        BinOp::ShrS => {
            let s = b.min(bits as u64 - 1);
            ((sext(a, bits) >> s) as u64) & m
        }
        BinOp::MaxS => {
            if sext(a, bits) >= sext(b, bits) {
                a
            } else {
                b
            }
        }
        BinOp::MinS => {
            if sext(a, bits) <= sext(b, bits) {
                a
            } else {
                b
            }
        }
        BinOp::MaxU => a.max(b),
        BinOp::MinU => a.min(b),
        _ => {
            let (x, y) = (fget(ty, a), fget(ty, b));
            let r = match op {
                BinOp::FAdd => x + y,
                BinOp::FSub => x - y,
                BinOp::FMul => x * y,
                BinOp::FDiv => x / y,
                BinOp::FRem => x % y,
                BinOp::FMax => fmaximum(x, y),
                BinOp::FMin => fminimum(x, y),
                BinOp::FMaxNum => x.max(y),
                BinOp::FMinNum => x.min(y),
                _ => unreachable!(),
            };
            // f32 arithmetic done in f64 and rounded once is correctly rounded.
            if ty == Prim::F32 {
                let r32 = match op {
                    BinOp::FAdd => (x as f32) + (y as f32),
                    BinOp::FSub => (x as f32) - (y as f32),
                    BinOp::FMul => (x as f32) * (y as f32),
                    BinOp::FDiv => (x as f32) / (y as f32),
                    _ => r as f32,
                };
                return Ok(r32.to_bits() as u64);
            }
            fput(ty, r)
        }
    })
}

fn cmp(pred: Pred, ty: Prim, a: u64, b: u64) -> bool {
    let bits = ty.bits();
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let (ua, ub) = (a & ty.mask(), b & ty.mask());
    match pred {
        Pred::Eq => ua == ub,
        Pred::Ne => ua != ub,
        Pred::Slt => sa < sb,
        Pred::Sle => sa <= sb,
        Pred::Sgt => sa > sb,
        Pred::Sge => sa >= sb,
        Pred::Ult => ua < ub,
        Pred::Ule => ua <= ub,
        Pred::Ugt => ua > ub,
        Pred::Uge => ua >= ub,
        Pred::FTrue => true,
        Pred::FFalse => false,
        Pred::FOrd | Pred::FUno | Pred::F { .. } => {
            let (x, y) = (fget(ty, a), fget(ty, b));
            let nan = x.is_nan() || y.is_nan();
            match pred {
                Pred::FOrd => !nan,
                Pred::FUno => nan,
                Pred::F { unordered, rel } => {
                    if nan {
                        return unordered;
                    }
                    match rel {
                        FRel::Eq => x == y,
                        FRel::Ne => x != y,
                        FRel::Lt => x < y,
                        FRel::Le => x <= y,
                        FRel::Gt => x > y,
                        FRel::Ge => x >= y,
                    }
                }
                _ => unreachable!(),
            }
        }
    }
}

fn cast(op: CastOp, from: Prim, to: Prim, a: u64) -> u64 {
    match op {
        CastOp::ExtS => (sext(a, from.bits()) as u64) & to.mask(),
        CastOp::ExtU => a & from.mask(),
        CastOp::Trunc => a & to.mask(),
        CastOp::SiToFp => fput(to, sext(a, from.bits()) as f64),
        CastOp::UiToFp => fput(to, (a & from.mask()) as f64),
        CastOp::FpToSi => {
            let v = fget(from, a);
            let (lo, hi) = if to.bits() >= 64 { (i64::MIN, i64::MAX) } else { (-(1i64 << (to.bits() - 1)), (1i64 << (to.bits() - 1)) - 1) };
            let i = if v.is_nan() { 0 } else { (v.trunc().max(lo as f64).min(hi as f64)) as i64 };
            (i as u64) & to.mask()
        }
        CastOp::FpToUi => {
            let v = fget(from, a);
            let i = if v.is_nan() || v < 0.0 { 0 } else { v.trunc().min(to.mask() as f64) as u64 };
            i & to.mask()
        }
        CastOp::ExtF | CastOp::TruncF => fput(to, fget(from, a)),
        CastOp::Bitcast => a & to.mask(),
    }
}

/// PTX `shfl.sync` source lane and predicate for `lane` (ISA 8, "shfl.sync").
fn ptx_shfl(kind: ShflKind, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let segmask = (c >> 8) & 0x1f;
    let clamp = c & 0x1f;
    let min_lane = lane & segmask;
    let max_lane = min_lane | (clamp & !segmask);
    let (j, pval): (i64, bool) = match kind {
        ShflKind::Up => {
            let j = lane as i64 - b as i64;
            (j, j >= max_lane as i64)
        }
        ShflKind::Down => {
            let j = lane as i64 + b as i64;
            (j, j <= max_lane as i64)
        }
        ShflKind::Bfly => {
            let j = (lane ^ b) as i64;
            (j, j <= max_lane as i64)
        }
        ShflKind::Idx => {
            let j = (min_lane | (b & !segmask & 0x1f)) as i64;
            (j, j <= max_lane as i64)
        }
    };
    if pval && (0..32).contains(&j) {
        (j as u32, true)
    } else {
        (lane, false)
    }
}

impl Ctx<'_> {
    fn fault(&self, kind: FaultKind, cta: &Cta, warp: Option<(&Warp, usize)>, loc: Option<u32>, message: String) -> Fault {
        let thread = warp.map(|(w, lane)| self.thread_xyz(w.index * 32 + lane as u32));
        let (op, l) = match loc {
            Some(i) => self.k.locs[i as usize].clone(),
            None => (String::new(), None),
        };
        Fault { kind, message, kernel: self.k.name.clone(), cta: cta.id, thread, op, loc: l }
    }

    fn thread_xyz(&self, t: u32) -> [u32; 3] {
        let [bx, by, _] = self.launch.block;
        [t % bx, (t / bx) % by, t / (bx * by)]
    }

    fn new_warp(&self, index: u32, threads: u32) -> Warp {
        let first = index * 32;
        let n = threads.saturating_sub(first).min(32);
        let live = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut regs = vec![0u64; self.k.regs as usize * 32];
        for (i, a) in self.k.arg_slots.iter().enumerate() {
            if let Some((s, ty)) = a {
                let v = match self.launch.args[i] {
                    ArgValue::Int(x) => (x as u64) & ty.mask(),
                    ArgValue::Float(f) => fput(*ty, f),
                    ArgValue::Buffer(_) => 0,
                };
                for l in 0..32 {
                    regs[at(*s, 0, l)] = v;
                }
            }
        }
        Warp {
            pc: 0,
            mask: live,
            live,
            frames: Vec::new(),
            regs,
            private: vec![0u8; self.k.private_bytes as usize * 32],
            index,
            status: Status::Ready,
            insts: 0,
            progress: Progress::default(),
        }
    }

    /// Byte range of a memory access by one lane, after bounds and alignment checks.
    #[allow(clippy::too_many_arguments)]
    fn address(
        &self,
        cta: &Cta,
        w: &Warp,
        lane: usize,
        mem: usize,
        idx: &[Slot],
        n: u32,
        align: u32,
        loc: u32,
        write: bool,
    ) -> Result<(MemSrc, usize, usize), Fault> {
        let mr = &self.k.memrefs[mem];
        let mut lin: i64 = 0;
        for (d, s) in idx.iter().enumerate() {
            lin = lin.wrapping_add((w.regs[at(*s, 0, lane)] as i64).wrapping_mul(mr.strides[d] as i64));
        }
        let eb = mr.elem.bytes();
        let len = n as usize * eb;
        let what = if write { "write" } else { "read" };
        let (size, base) = match &mr.src {
            MemSrc::Arg(i) => match self.arg_buf[*i] {
                Some(b) => (self.bufs[b].len(), 0usize),
                None => (0, 0),
            },
            MemSrc::Shared { offset, bytes } => (*bytes as usize, *offset as usize),
            MemSrc::Private { offset, bytes } => (*bytes as usize, *offset as usize),
            MemSrc::Dynamic { offset } => (self.launch.dynamic_shared as usize, *offset as usize),
        };
        let elems = size / eb.max(1);
        if lin < 0 || (lin as u128 * eb as u128 + len as u128) > size as u128 {
            let space = match mr.src {
                MemSrc::Arg(_) => "global",
                MemSrc::Shared { .. } | MemSrc::Dynamic { .. } => "shared",
                MemSrc::Private { .. } => "private",
            };
            return Err(self.fault(
                FaultKind::OutOfBounds,
                cta,
                Some((w, lane)),
                Some(loc),
                format!(
                    "{space} {what} of {} element{} at index {lin} of {} ({} element{})",
                    n,
                    if n == 1 { "" } else { "s" },
                    mr.name,
                    elems,
                    if elems == 1 { "" } else { "s" }
                ),
            ));
        }
        let off = lin as usize * eb;
        if align > 0 && !(base + off).is_multiple_of(align as usize) {
            return Err(self.fault(
                FaultKind::Misaligned,
                cta,
                Some((w, lane)),
                Some(loc),
                format!(
                    "vector {what} of {len} bytes at byte {} of {}, which is not a multiple of its proven alignment {align}",
                    base + off,
                    mr.name
                ),
            ));
        }
        Ok((mr.src.clone(), base + off, len))
    }

    fn check_race(&self, cta: &mut Cta, w: &Warp, lane: usize, off: usize, len: usize, write: bool, loc: u32) -> Result<(), Fault> {
        if !self.opts.check_races {
            return Ok(());
        }
        let t = (w.index * 32 + lane as u32 + 1) as u16; // 0 means "nobody"
        let epoch = cta.epoch;
        for word in off..off + len {
            let Some(s) = cta.words.get(word).copied() else { continue };
            let other_warp = |th: u16| (th as u32 - 1) / 32 != w.index;
            let conflict = if write {
                if s.w_epoch == epoch && s.w_thread != 0 && other_warp(s.w_thread) {
                    Some((s.w_thread, "write after a write"))
                } else if s.r_epoch == epoch && s.r_thread != 0 && (s.r_multi_warp || s.r_warp as u32 != w.index) {
                    Some((s.r_thread, "write after a read"))
                } else {
                    None
                }
            } else {
                (s.w_epoch == epoch && s.w_thread != 0 && other_warp(s.w_thread)).then_some((s.w_thread, "read after a write"))
            };
            if let Some((other, what)) = conflict {
                let o = self.thread_xyz(other as u32 - 1);
                let mut f = self.fault(
                    FaultKind::Race,
                    cta,
                    Some((w, lane)),
                    Some(loc),
                    format!("{what} by thread ({}, {}, {}) of shared byte {} with no barrier between them", o[0], o[1], o[2], word),
                );
                f.message = f.message.replacen("write after a write", "a write races with a write", 1);
                return Err(f);
            }
            let s = &mut cta.words[word];
            if write {
                s.w_thread = t;
                s.w_epoch = epoch;
            } else if s.r_epoch == epoch {
                if s.r_warp as u32 != w.index {
                    s.r_multi_warp = true;
                }
            } else {
                s.r_epoch = epoch;
                s.r_thread = t;
                s.r_warp = w.index as u8;
                s.r_multi_warp = false;
            }
        }
        Ok(())
    }

    fn read_bytes(&self, cta: &Cta, w: &Warp, lane: usize, src: &MemSrc, off: usize, len: usize) -> u128 {
        let bytes: &[u8] = match src {
            MemSrc::Arg(i) => &self.bufs[self.arg_buf[*i].expect("checked")][off..off + len],
            MemSrc::Shared { .. } | MemSrc::Dynamic { .. } => &cta.shared[off..off + len],
            MemSrc::Private { .. } => {
                let base = lane * self.k.private_bytes as usize;
                &w.private[base + off..base + off + len]
            }
        };
        let mut v: u128 = 0;
        for (i, b) in bytes.iter().enumerate() {
            v |= (*b as u128) << (8 * i);
        }
        v
    }

    /// At a loop's latch: a loop whose carried values (and the warp's mask) are the same as at
    /// its previous latch, with no memory read in between, runs the same iteration forever; it
    /// is reported at once as a deadlock at the loop. A spin on memory reads is left to the
    /// instruction bound.
    fn check_progress(&self, cta: &Cta, w: &mut Warp, carried: impl Iterator<Item = Slot>, loc: u32) -> Result<(), Fault> {
        w.progress.last_loop = Some(loc);
        if w.insts < PROGRESS_CHECK_AFTER {
            return Ok(());
        }
        let mask = w.mask;
        let regs = &w.regs;
        let h = hash_words(
            std::iter::once(mask as u64)
                .chain(carried.flat_map(|s| (0..s.len).flat_map(move |e| lanes(mask).map(move |l| regs[at(s, e, l)])))),
        );
        let (pc, reads) = (w.pc, w.progress.reads);
        match w.progress.seen.iter_mut().find(|(p, _, _)| *p == pc) {
            Some((_, r, old)) if *r == reads && *old == h => Err(self.fault(
                FaultKind::Deadlock,
                cta,
                Some((w, mask.trailing_zeros().min(31) as usize)),
                Some(loc),
                format!(
                    "warp {} is in a loop that makes no progress: an iteration changed none of its loop-carried values and read no memory, so it repeats forever",
                    w.index
                ),
            )),
            Some(e) => {
                *e = (pc, reads, h);
                Ok(())
            }
            None => {
                w.progress.seen.push((pc, reads, h));
                Ok(())
            }
        }
    }

    /// Runs one warp for up to `budget` instructions.
    fn step(&mut self, cta: &mut Cta, wi: usize, budget: u64) -> Result<(), Fault> {
        let k = self.k;
        let insts = &k.insts;
        let mut w = std::mem::replace(
            &mut cta.warps[wi],
            Warp {
                pc: 0,
                mask: 0,
                live: 0,
                frames: vec![],
                regs: vec![],
                private: vec![],
                index: 0,
                status: Status::Done,
                insts: 0,
                progress: Progress::default(),
            },
        );
        let result = self.step_inner(cta, &mut w, insts, budget);
        cta.warps[wi] = w;
        result
    }

    fn step_inner(&mut self, cta: &mut Cta, w: &mut Warp, insts: &[Inst], budget: u64) -> Result<(), Fault> {
        let mut left = budget;
        while left > 0 {
            if w.pc >= insts.len() {
                w.status = Status::Done;
                return Ok(());
            }
            left -= 1;
            w.insts += 1;
            self.stats.warp_insts += 1;
            self.stats.thread_insts += w.mask.count_ones() as u64;
            if w.insts > self.opts.max_warp_insts {
                let loc = w.progress.last_loop.or_else(|| (0..=w.pc).rev().find_map(|p| inst_loc(&insts[p])));
                let place = if w.progress.last_loop.is_some() { "in this loop " } else { "" };
                return Err(self.fault(
                    FaultKind::Deadlock,
                    cta,
                    Some((w, w.mask.trailing_zeros().min(31) as usize)),
                    loc,
                    format!(
                        "warp {} ran {} instructions {place}without finishing: a spin loop that never ends, or a wait on a CTA that is not resident (--max-warp-instructions raises the bound)",
                        w.index, self.opts.max_warp_insts
                    ),
                ));
            }
            let mask = w.mask;
            match &insts[w.pc] {
                Inst::Const { dst, vals } => {
                    for (e, v) in vals.iter().enumerate() {
                        for l in lanes(mask) {
                            w.regs[at(*dst, e as u32, l)] = *v;
                        }
                    }
                }
                Inst::Bin { op, ty, dst, a, b, loc } => {
                    for e in 0..dst.len {
                        for l in lanes(mask) {
                            let r = bin(*op, *ty, w.regs[at(*a, e, l)], w.regs[at(*b, e, l)]);
                            match r {
                                Ok(v) => w.regs[at(*dst, e, l)] = v,
                                Err(()) => {
                                    return Err(self.fault(
                                        FaultKind::DivisionByZero,
                                        cta,
                                        Some((w, l)),
                                        Some(*loc),
                                        format!("integer division by zero ({})", ty.name()),
                                    ));
                                }
                            }
                        }
                    }
                }
                Inst::Un { op, ty, dst, a } => {
                    for e in 0..dst.len {
                        for l in lanes(mask) {
                            let x = w.regs[at(*a, e, l)];
                            w.regs[at(*dst, e, l)] = match op {
                                UnOp::FNeg => fput(*ty, -fget(*ty, x)),
                                UnOp::AbsF => fput(*ty, fget(*ty, x).abs()),
                                UnOp::CtPop => ((x & ty.mask()).count_ones()) as u64,
                            };
                        }
                    }
                }
                Inst::Fma { ty, dst, a, b, c } => {
                    for e in 0..dst.len {
                        for l in lanes(mask) {
                            let (x, y, z) = (w.regs[at(*a, e, l)], w.regs[at(*b, e, l)], w.regs[at(*c, e, l)]);
                            w.regs[at(*dst, e, l)] = fma(*ty, x, y, z);
                        }
                    }
                }
                Inst::Cmp { pred, ty, dst, a, b } => {
                    for e in 0..dst.len {
                        for l in lanes(mask) {
                            w.regs[at(*dst, e, l)] = cmp(*pred, *ty, w.regs[at(*a, e, l)], w.regs[at(*b, e, l)]) as u64;
                        }
                    }
                }
                Inst::Cast { op, from, to, dst, a } => {
                    for e in 0..dst.len {
                        for l in lanes(mask) {
                            w.regs[at(*dst, e, l)] = cast(*op, *from, *to, w.regs[at(*a, e, l)]);
                        }
                    }
                }
                Inst::Select { dst, c, a, b } => {
                    for e in 0..dst.len {
                        for l in lanes(mask) {
                            let ce = if c.len > 1 { e } else { 0 };
                            let pick = w.regs[at(*c, ce, l)] & 1 != 0;
                            w.regs[at(*dst, e, l)] = if pick { w.regs[at(*a, e, l)] } else { w.regs[at(*b, e, l)] };
                        }
                    }
                }
                Inst::Id { id, dst } => {
                    for l in lanes(mask) {
                        let t = w.index * 32 + l as u32;
                        let xyz = self.thread_xyz(t);
                        let v = match id {
                            Id::ThreadId(d) => xyz[*d as usize],
                            Id::BlockId(d) => cta.id[*d as usize],
                            Id::BlockDim(d) => self.launch.block[*d as usize],
                            Id::GridDim(d) => self.launch.grid[*d as usize],
                            Id::LaneId => l as u32,
                        };
                        w.regs[at(*dst, 0, l)] = v as u64;
                    }
                }
                Inst::Load { dst, mem, idx, n, align, loc } => {
                    w.progress.reads += 1;
                    let elem = self.k.memrefs[*mem].elem;
                    let eb = elem.bytes();
                    for l in lanes(mask) {
                        let (src, off, len) = self.address(cta, w, l, *mem, idx, *n, *align, *loc, false)?;
                        if matches!(src, MemSrc::Shared { .. } | MemSrc::Dynamic { .. }) {
                            self.check_race(cta, w, l, off, len, false, *loc)?;
                        }
                        for e in 0..*n {
                            let v = self.read_bytes(cta, w, l, &src, off + e as usize * eb, eb) as u64;
                            w.regs[at(*dst, e, l)] = if elem == Prim::I1 { (v != 0) as u64 } else { v };
                        }
                    }
                }
                Inst::Store { src, mem, idx, n, align, loc } => {
                    let elem = self.k.memrefs[*mem].elem;
                    let eb = elem.bytes();
                    for l in lanes(mask) {
                        let (dsrc, off, len) = self.address(cta, w, l, *mem, idx, *n, *align, *loc, true)?;
                        if matches!(dsrc, MemSrc::Shared { .. } | MemSrc::Dynamic { .. }) {
                            self.check_race(cta, w, l, off, len, true, *loc)?;
                        }
                        for e in 0..*n {
                            let v = w.regs[at(*src, e, l)];
                            let o = off + e as usize * eb;
                            let bytes: &mut [u8] = match &dsrc {
                                MemSrc::Arg(i) => &mut self.bufs[self.arg_buf[*i].expect("checked")][o..o + eb],
                                MemSrc::Shared { .. } | MemSrc::Dynamic { .. } => &mut cta.shared[o..o + eb],
                                MemSrc::Private { .. } => {
                                    let base = l * self.k.private_bytes as usize;
                                    &mut w.private[base + o..base + o + eb]
                                }
                            };
                            for (i, b) in bytes.iter_mut().enumerate() {
                                *b = (v >> (8 * i)) as u8;
                            }
                        }
                    }
                }
                Inst::Atomic { kind, ty, dst, val, mem, idx, loc } => {
                    w.progress.reads += 1;
                    let eb = ty.bytes();
                    for l in lanes(mask) {
                        let (dsrc, off, _) = self.address(cta, w, l, *mem, idx, 1, 0, *loc, true)?;
                        let old = self.read_bytes(cta, w, l, &dsrc, off, eb) as u64;
                        let x = w.regs[at(*val, 0, l)];
                        let new = match kind {
                            AtomicKind::AddI => bin(BinOp::Add, *ty, old, x).unwrap_or(0),
                            AtomicKind::AddF => bin(BinOp::FAdd, *ty, old, x).unwrap_or(0),
                            AtomicKind::MaxS => bin(BinOp::MaxS, *ty, old, x).unwrap_or(0),
                            AtomicKind::MinS => bin(BinOp::MinS, *ty, old, x).unwrap_or(0),
                            AtomicKind::MaxU => old.max(x),
                            AtomicKind::MinU => old.min(x),
                            AtomicKind::MaxF => bin(BinOp::FMax, *ty, old, x).unwrap_or(0),
                            AtomicKind::MinF => bin(BinOp::FMin, *ty, old, x).unwrap_or(0),
                            AtomicKind::And => old & x,
                            AtomicKind::Or => old | x,
                            AtomicKind::Xor => old ^ x,
                            AtomicKind::Exchange => x,
                        };
                        self.write_raw(cta, w, l, &dsrc, off, eb, new);
                        w.regs[at(*dst, 0, l)] = old;
                    }
                }
                Inst::Cas { dst, cmp: c, val, mem, idx, loc } => {
                    w.progress.reads += 1;
                    let eb = self.k.memrefs[*mem].elem.bytes();
                    for l in lanes(mask) {
                        let (dsrc, off, _) = self.address(cta, w, l, *mem, idx, 1, 0, *loc, true)?;
                        let old = self.read_bytes(cta, w, l, &dsrc, off, eb) as u64;
                        if old == w.regs[at(*c, 0, l)] {
                            let v = w.regs[at(*val, 0, l)];
                            self.write_raw(cta, w, l, &dsrc, off, eb, v);
                        }
                        w.regs[at(*dst, 0, l)] = old;
                    }
                }
                Inst::FromElements { dst, srcs } => {
                    for (e, s) in srcs.iter().enumerate() {
                        for l in lanes(mask) {
                            w.regs[at(*dst, e as u32, l)] = w.regs[at(*s, 0, l)];
                        }
                    }
                }
                Inst::Broadcast { dst, src } => {
                    for e in 0..dst.len {
                        for l in lanes(mask) {
                            w.regs[at(*dst, e, l)] = w.regs[at(*src, if src.len > 1 { e } else { 0 }, l)];
                        }
                    }
                }
                Inst::Extract { dst, src, pos } => {
                    for l in lanes(mask) {
                        w.regs[at(*dst, 0, l)] = w.regs[at(*src, *pos, l)];
                    }
                }
                Inst::Insert { dst, vec, val, pos } => {
                    for e in 0..dst.len {
                        for l in lanes(mask) {
                            w.regs[at(*dst, e, l)] = if e == *pos { w.regs[at(*val, 0, l)] } else { w.regs[at(*vec, e, l)] };
                        }
                    }
                }
                Inst::ExtractSlice { dst, src, offset } => {
                    for e in 0..dst.len {
                        for l in lanes(mask) {
                            w.regs[at(*dst, e, l)] = w.regs[at(*src, offset + e, l)];
                        }
                    }
                }
                Inst::VBitcast { dst, src, from, to } => {
                    let (fb, tb) = (from.bits() as usize, to.bits() as usize);
                    for l in lanes(mask) {
                        let mut bits: u128 = 0;
                        for e in 0..src.len as usize {
                            bits |= ((w.regs[at(*src, e as u32, l)] & from.mask()) as u128) << (e * fb);
                        }
                        for e in 0..dst.len as usize {
                            w.regs[at(*dst, e as u32, l)] = ((bits >> (e * tb)) as u64) & to.mask();
                        }
                    }
                }
                Inst::Reduce { kind, ty, dst, src, acc } => {
                    for l in lanes(mask) {
                        let mut r = match acc {
                            Some(a) => w.regs[at(*a, 0, l)],
                            None => w.regs[at(*src, 0, l)],
                        };
                        let first = if acc.is_some() { 0 } else { 1 };
                        for e in first..src.len {
                            let x = w.regs[at(*src, e, l)];
                            let op = match (kind, ty.is_float()) {
                                (RedKind::Add, true) => BinOp::FAdd,
                                (RedKind::Add, false) => BinOp::Add,
                                (RedKind::Mul, true) => BinOp::FMul,
                                (RedKind::Mul, false) => BinOp::Mul,
                                (RedKind::Max, true) => BinOp::FMax,
                                (RedKind::Max, false) => BinOp::MaxS,
                                (RedKind::Min, true) => BinOp::FMin,
                                (RedKind::Min, false) => BinOp::MinS,
                                (RedKind::And, _) => BinOp::And,
                                (RedKind::Or, _) => BinOp::Or,
                                (RedKind::Xor, _) => BinOp::Xor,
                            };
                            r = bin(op, *ty, r, x).unwrap_or(0);
                        }
                        w.regs[at(*dst, 0, l)] = r;
                    }
                }
                Inst::Shfl { kind, dst, valid, v, b, c, mask: mreg, bits, loc } => {
                    let first = mask.trailing_zeros().min(31) as usize;
                    let member = w.regs[at(*mreg, 0, first)] as u32;
                    let cval = w.regs[at(*c, 0, first)] as u32;
                    self.shuffle(cta, w, *kind, member, cval, *dst, *valid, *v, *b, *bits, *loc)?;
                }
                Inst::GpuShfl { kind, dst, valid, v, b, width, bits, loc } => {
                    let first = mask.trailing_zeros().min(31) as usize;
                    let wd = (w.regs[at(*width, 0, first)] as u32).clamp(1, 32);
                    let member = if wd >= 32 { u32::MAX } else { (1u32 << wd) - 1 };
                    let cval = if *kind == ShflKind::Up { 32 - wd } else { wd - 1 };
                    self.shuffle(cta, w, *kind, member, cval, *dst, Some(*valid), *v, *b, *bits, *loc)?;
                }
                Inst::Dp4a { dst, a, b, c, a_signed, b_signed } => {
                    for l in lanes(mask) {
                        let mut acc = sext(w.regs[at(*c, 0, l)], 32);
                        for e in 0..4 {
                            let x = w.regs[at(*a, e, l)] & 0xff;
                            let y = w.regs[at(*b, e, l)] & 0xff;
                            let x = if *a_signed { sext(x, 8) } else { x as i64 };
                            let y = if *b_signed { sext(y, 8) } else { y as i64 };
                            acc = acc.wrapping_add(x * y);
                        }
                        w.regs[at(*dst, 0, l)] = (acc as u64) & 0xffff_ffff;
                    }
                }
                Inst::Prmt { dst, a, b, sel } => {
                    for l in lanes(mask) {
                        let bytes = (w.regs[at(*a, 0, l)] & 0xffff_ffff) | ((w.regs[at(*b, 0, l)] & 0xffff_ffff) << 32);
                        let s = w.regs[at(*sel, 0, l)] as u32;
                        let mut r: u32 = 0;
                        for i in 0..4 {
                            let nib = (s >> (4 * i)) & 0xf;
                            let byte = ((bytes >> (8 * (nib & 7))) & 0xff) as u32;
                            let byte = if nib & 8 != 0 {
                                if byte & 0x80 != 0 {
                                    0xff
                                } else {
                                    0
                                }
                            } else {
                                byte
                            };
                            r |= byte << (8 * i);
                        }
                        w.regs[at(*dst, 0, l)] = r as u64;
                    }
                }
                Inst::Vote { kind, dst, mask: mreg, pred, loc } => {
                    let first = mask.trailing_zeros().min(31) as usize;
                    let member = w.regs[at(*mreg, 0, first)] as u32;
                    if member & w.live != mask {
                        return Err(self.divergent_shuffle(cta, w, member, *loc));
                    }
                    let mut ballot = 0u32;
                    for l in lanes(mask) {
                        if w.regs[at(*pred, 0, l)] & 1 != 0 {
                            ballot |= 1 << l;
                        }
                    }
                    let v = match kind {
                        0 => ballot as u64,
                        1 => (ballot != 0) as u64,
                        2 => (ballot == mask) as u64,
                        _ => (ballot == 0 || ballot == mask) as u64,
                    };
                    for l in lanes(mask) {
                        w.regs[at(*dst, 0, l)] = v;
                    }
                }
                Inst::FunnelShift { dst, hi, lo, amount, left } => {
                    for l in lanes(mask) {
                        let both = ((w.regs[at(*hi, 0, l)] & 0xffff_ffff) << 32) | (w.regs[at(*lo, 0, l)] & 0xffff_ffff);
                        let s = (w.regs[at(*amount, 0, l)] & 31) as u32;
                        let r = if *left { (both << s) >> 32 } else { both >> s };
                        w.regs[at(*dst, 0, l)] = r & 0xffff_ffff;
                    }
                }
                Inst::Barrier { loc } => {
                    if mask != w.live {
                        let missing = w.live & !mask;
                        return Err(self.fault(
                            FaultKind::DivergentBarrier,
                            cta,
                            Some((w, mask.trailing_zeros().min(31) as usize)),
                            Some(*loc),
                            format!(
                                "reached by lanes {} of warp {} but not by lanes {}: a barrier needs every thread of the CTA",
                                lane_list(mask),
                                w.index,
                                lane_list(missing)
                            ),
                        ));
                    }
                    w.status = Status::Barrier(w.pc);
                    w.pc += 1;
                    return Ok(());
                }
                Inst::Assert { cond, msg, bounds, loc } => {
                    if let Some(l) = lanes(mask).find(|l| w.regs[at(*cond, 0, *l)] & 1 == 0) {
                        let kind = if *bounds { FaultKind::OutOfBounds } else { FaultKind::Assertion };
                        return Err(self.fault(kind, cta, Some((w, l)), Some(*loc), msg.clone()));
                    }
                }
                Inst::Move { pairs } => copy_pairs(&mut w.regs, pairs, mask),
                Inst::IfBegin { cond, else_pc } => {
                    let mut c = 0u32;
                    for l in lanes(mask) {
                        if w.regs[at(*cond, 0, l)] & 1 != 0 {
                            c |= 1 << l;
                        }
                    }
                    w.frames.push(Frame::If { saved: mask, else_mask: mask & !c });
                    w.mask = mask & c;
                    if w.mask == 0 {
                        w.mask = mask & !c;
                        w.pc = *else_pc as usize;
                        continue;
                    }
                }
                Inst::Else { end_pc } => {
                    let Some(Frame::If { else_mask, .. }) = w.frames.last().copied() else { unreachable!("else without if") };
                    w.mask = else_mask;
                    if else_mask == 0 {
                        w.pc = *end_pc as usize;
                        continue;
                    }
                }
                Inst::IfEnd => {
                    let Some(Frame::If { saved, .. }) = w.frames.pop() else { unreachable!("if end without if") };
                    w.mask = saved;
                }
                Inst::ForInit { iv, lb, iters } => {
                    copy_pairs(&mut w.regs, &[(*iv, *lb)], mask);
                    copy_pairs(&mut w.regs, iters, mask);
                    w.frames.push(Frame::Loop { saved: mask });
                }
                Inst::ForHead { iv, ub, ty, exit_pc } => {
                    let mut m = 0u32;
                    for l in lanes(mask) {
                        if sext(w.regs[at(*iv, 0, l)], ty.bits()) < sext(w.regs[at(*ub, 0, l)], ty.bits()) {
                            m |= 1 << l;
                        }
                    }
                    w.mask = m;
                    if m == 0 {
                        w.pc = *exit_pc as usize;
                        continue;
                    }
                }
                Inst::ForLatch { iv, step, ty, head_pc, iters, loc } => {
                    // Yields first read the old iteration values: copy through a scratch.
                    let mut tmp: Vec<u64> = Vec::new();
                    for (_, s) in iters {
                        for e in 0..s.len {
                            for l in 0..32 {
                                tmp.push(w.regs[at(*s, e, l)]);
                            }
                        }
                    }
                    let mut i = 0;
                    for (d, _) in iters {
                        for e in 0..d.len {
                            for l in 0..32 {
                                if mask >> l & 1 != 0 {
                                    w.regs[at(*d, e, l)] = tmp[i];
                                }
                                i += 1;
                            }
                        }
                    }
                    for l in lanes(mask) {
                        let v = w.regs[at(*iv, 0, l)].wrapping_add(w.regs[at(*step, 0, l)]) & ty.mask();
                        w.regs[at(*iv, 0, l)] = v;
                    }
                    let carried = std::iter::once(*iv).chain(iters.iter().map(|(d, _)| *d));
                    self.check_progress(cta, w, carried, *loc)?;
                    w.pc = *head_pc as usize;
                    continue;
                }
                Inst::ForEnd { results } => {
                    let Some(Frame::Loop { saved }) = w.frames.pop() else { unreachable!("for end without for") };
                    w.mask = saved;
                    copy_pairs(&mut w.regs, results, saved);
                }
                Inst::WhileInit { args } => {
                    copy_pairs(&mut w.regs, args, mask);
                    w.frames.push(Frame::Loop { saved: mask });
                }
                Inst::WhileCond { cond, exit_pc, results, after } => {
                    let mut c = 0u32;
                    for l in lanes(mask) {
                        if w.regs[at(*cond, 0, l)] & 1 != 0 {
                            c |= 1 << l;
                        }
                    }
                    let exiting = mask & !c;
                    copy_pairs(&mut w.regs, results, exiting);
                    let cont = mask & c;
                    copy_pairs(&mut w.regs, after, cont);
                    w.mask = cont;
                    if cont == 0 {
                        w.pc = *exit_pc as usize;
                        continue;
                    }
                }
                Inst::WhileLatch { head_pc, args, loc } => {
                    // Yields read the previous iteration's values: copy through a scratch.
                    let snapshot: Vec<(Slot, Vec<u64>)> = args
                        .iter()
                        .map(|(_, s)| {
                            (*s, (0..s.len).flat_map(|e| (0..32).map(move |l| (e, l))).map(|(e, l)| w.regs[at(*s, e, l)]).collect())
                        })
                        .collect();
                    for ((d, _), (_, vals)) in args.iter().zip(snapshot) {
                        for e in 0..d.len {
                            for l in lanes(mask) {
                                w.regs[at(*d, e, l)] = vals[(e * 32) as usize + l];
                            }
                        }
                    }
                    self.check_progress(cta, w, args.iter().map(|(d, _)| *d), *loc)?;
                    w.pc = *head_pc as usize;
                    continue;
                }
                Inst::WhileEnd => {
                    let Some(Frame::Loop { saved }) = w.frames.pop() else { unreachable!("while end without while") };
                    w.mask = saved;
                }
                Inst::Return => {
                    w.status = Status::Done;
                    return Ok(());
                }
            }
            w.pc += 1;
        }
        Ok(())
    }

    fn write_raw(&mut self, cta: &mut Cta, w: &mut Warp, lane: usize, src: &MemSrc, off: usize, eb: usize, v: u64) {
        let bytes: &mut [u8] = match src {
            MemSrc::Arg(i) => &mut self.bufs[self.arg_buf[*i].expect("checked")][off..off + eb],
            MemSrc::Shared { .. } | MemSrc::Dynamic { .. } => &mut cta.shared[off..off + eb],
            MemSrc::Private { .. } => {
                let base = lane * self.k.private_bytes as usize;
                &mut w.private[base + off..base + off + eb]
            }
        };
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (v >> (8 * i)) as u8;
        }
    }

    fn divergent_shuffle(&self, cta: &Cta, w: &Warp, member: u32, loc: u32) -> Fault {
        let active = w.mask;
        let live_member = member & w.live;
        let msg = if active & !member != 0 {
            format!("lanes {} of warp {} execute it but are not in its member mask {:#010x}", lane_list(active & !member), w.index, member)
        } else {
            format!(
                "its member mask {:#010x} names lanes {} of warp {}, which do not execute it (control differs between lanes)",
                member,
                lane_list(live_member & !active),
                w.index
            )
        };
        self.fault(FaultKind::DivergentShuffle, cta, Some((w, active.trailing_zeros().min(31) as usize)), Some(loc), msg)
    }

    #[allow(clippy::too_many_arguments)]
    fn shuffle(
        &self,
        cta: &Cta,
        w: &mut Warp,
        kind: ShflKind,
        member: u32,
        c: u32,
        dst: Slot,
        valid: Option<Slot>,
        v: Slot,
        b: Slot,
        bits: u32,
        loc: u32,
    ) -> Result<(), Fault> {
        let mask = w.mask;
        if member & w.live != mask {
            return Err(self.divergent_shuffle(cta, w, member, loc));
        }
        let vm = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
        let mut out = [0u64; 32];
        let mut ok = [false; 32];
        for l in lanes(mask) {
            let bl = w.regs[at(b, 0, l)] as u32;
            let (src, pval) = ptx_shfl(kind, l as u32, bl, c);
            let src = src as usize;
            if pval && member >> src & 1 == 0 {
                return Err(self.fault(
                    FaultKind::DivergentShuffle,
                    cta,
                    Some((w, l)),
                    Some(loc),
                    format!("lane {l} reads lane {src}, which is not in the member mask {member:#010x}"),
                ));
            }
            out[l] = w.regs[at(v, 0, src)] & vm;
            ok[l] = pval;
        }
        for l in lanes(mask) {
            w.regs[at(dst, 0, l)] = out[l];
            if let Some(vs) = valid {
                w.regs[at(vs, 0, l)] = ok[l] as u64;
            }
        }
        Ok(())
    }
}

fn inst_loc(i: &Inst) -> Option<u32> {
    match i {
        Inst::Load { loc, .. }
        | Inst::Store { loc, .. }
        | Inst::Atomic { loc, .. }
        | Inst::Cas { loc, .. }
        | Inst::Shfl { loc, .. }
        | Inst::GpuShfl { loc, .. }
        | Inst::Vote { loc, .. }
        | Inst::Barrier { loc }
        | Inst::Assert { loc, .. } => Some(*loc),
        _ => None,
    }
}

/// "0-3, 5" for a lane mask.
pub fn lane_list(m: u32) -> String {
    let mut parts = Vec::new();
    let mut l = 0;
    while l < 32 {
        if m >> l & 1 != 0 {
            let start = l;
            while l + 1 < 32 && m >> (l + 1) & 1 != 0 {
                l += 1;
            }
            parts.push(if start == l { start.to_string() } else { format!("{start}-{l}") });
        }
        l += 1;
    }
    parts.join(", ")
}

/// Runs `k` with `launch` over `bufs` (the buffers the launch's arguments index).
pub fn run(k: &Kernel, launch: &Launch, bufs: &mut [Vec<u8>], opts: &Options) -> Result<Stats, Fault> {
    let bad = |message: String| Fault {
        kind: FaultKind::BadLaunch,
        message,
        kernel: k.name.clone(),
        cta: [0, 0, 0],
        thread: None,
        op: String::new(),
        loc: None,
    };
    if launch.args.len() != k.args.len() {
        return Err(bad(format!("{} takes {} arguments, got {}", k.name, k.args.len(), launch.args.len())));
    }
    let mut arg_buf = Vec::new();
    for (i, (a, kind)) in launch.args.iter().zip(&k.args).enumerate() {
        match (a, kind) {
            (ArgValue::Buffer(b), ArgKind::Buffer { .. }) => {
                if *b >= bufs.len() {
                    return Err(bad(format!("argument {i} names buffer {b}, but there are {}", bufs.len())));
                }
                arg_buf.push(Some(*b));
            }
            (ArgValue::Int(_) | ArgValue::Float(_), ArgKind::Scalar { .. }) => arg_buf.push(None),
            _ => return Err(bad(format!("argument {i} ({kind:?}) got {a:?}"))),
        }
    }
    if let Some(b) = k.block {
        if b != launch.block {
            return Err(bad(format!("the kernel is compiled for blocks of {b:?}, launched with {:?}", launch.block)));
        }
    }
    let threads = launch.block.iter().product::<u32>();
    if threads == 0 || threads > 1024 || launch.grid.contains(&0) {
        return Err(bad(format!(
            "block {:?} and grid {:?} must be non-empty, with at most 1024 threads per block",
            launch.block, launch.grid
        )));
    }
    check_grid(launch.grid).map_err(bad)?;
    let all_threads = launch.grid.iter().map(|g| *g as u64).product::<u64>() * threads as u64;
    if all_threads > opts.max_threads {
        return Err(bad(format!(
            "the launch has {all_threads} threads; the simulator runs at most {} per launch (raise it with --max-sim-threads)",
            opts.max_threads
        )));
    }
    let mut ctx = Ctx { k, bufs, arg_buf, launch, opts, stats: Stats::default() };
    let nwarps = threads.div_ceil(32);
    let total: u64 = launch.grid.iter().map(|g| *g as u64).product();
    let shared_bytes = (k.shared_bytes + launch.dynamic_shared) as usize;
    if shared_bytes > opts.shared_limit as usize {
        return Err(bad(format!("the launch needs {shared_bytes} bytes of shared memory per CTA; the chip allows {}", opts.shared_limit)));
    }
    let mut next: u64 = 0;
    let mut resident: Vec<Cta> = Vec::new();
    loop {
        while resident.len() < opts.resident_ctas.max(1) && next < total {
            let gx = launch.grid[0] as u64;
            let gy = launch.grid[1] as u64;
            let id = [(next % gx) as u32, ((next / gx) % gy) as u32, (next / (gx * gy)) as u32];
            let warps = (0..nwarps).map(|i| ctx.new_warp(i, threads)).collect();
            resident.push(Cta { id, warps, shared: vec![0u8; shared_bytes], words: vec![Word::default(); shared_bytes], epoch: 1 });
            next += 1;
        }
        if resident.is_empty() {
            break;
        }
        let mut progressed = false;
        for cta in resident.iter_mut() {
            for wi in 0..cta.warps.len() {
                if cta.warps[wi].status == Status::Ready {
                    ctx.step(cta, wi, opts.slice)?;
                    progressed = true;
                }
            }
            // A barrier opens when every warp of the CTA waits at it.
            let waiting: Vec<usize> =
                cta.warps.iter().enumerate().filter(|(_, w)| matches!(w.status, Status::Barrier(_))).map(|(i, _)| i).collect();
            if !waiting.is_empty() && cta.warps.iter().all(|w| w.status != Status::Ready) {
                let done: Vec<u32> = cta.warps.iter().filter(|w| w.status == Status::Done).map(|w| w.index).collect();
                let first = &cta.warps[waiting[0]];
                let Status::Barrier(pc) = first.status else { unreachable!() };
                let loc = inst_loc(&k.insts[pc]);
                if !done.is_empty() {
                    return Err(ctx.fault(
                        FaultKind::DivergentBarrier,
                        cta,
                        Some((first, 0)),
                        loc,
                        format!(
                            "warps {} wait at this barrier while warps {} have returned; a barrier needs every thread of the CTA",
                            waiting.iter().map(|w| w.to_string()).collect::<Vec<_>>().join(", "),
                            done.iter().map(|w| w.to_string()).collect::<Vec<_>>().join(", ")
                        ),
                    ));
                }
                if let Some(other) = waiting.iter().map(|i| &cta.warps[*i]).find(|w| w.status != first.status) {
                    let Status::Barrier(opc) = other.status else { unreachable!() };
                    let oloc = inst_loc(&k.insts[opc]).and_then(|l| k.locs[l as usize].1.clone());
                    return Err(ctx.fault(
                        FaultKind::DivergentBarrier,
                        cta,
                        Some((first, 0)),
                        loc,
                        format!(
                            "warp {} waits at this barrier while warp {} waits at another one{}",
                            first.index,
                            other.index,
                            oloc.map(|l| format!(" ({l})")).unwrap_or_default()
                        ),
                    ));
                }
                cta.epoch += 1;
                for w in cta.warps.iter_mut() {
                    if matches!(w.status, Status::Barrier(_)) {
                        w.status = Status::Ready;
                    }
                }
                progressed = true;
            }
        }
        let before = resident.len();
        resident.retain(|c| c.warps.iter().any(|w| w.status != Status::Done));
        ctx.stats.ctas += (before - resident.len()) as u64;
        if !progressed && !resident.is_empty() {
            let cta = &resident[0];
            return Err(ctx.fault(FaultKind::Deadlock, cta, None, None, "no warp can run: every live warp waits".into()));
        }
    }
    Ok(ctx.stats)
}
