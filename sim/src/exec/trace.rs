//! A record of what one CTA did, instruction by instruction: which threads ran each
//! instruction, which bytes each memory access touched and in how many 128-byte lines, which
//! lanes each shuffle read from, and the bank conflicts of shared accesses. `phobos explain`
//! reads it, per source statement, next to the compiler's plans.
//!
//! Only the picked CTA is recorded, so a traced run costs the others nothing; the whole grid
//! still runs, so kernels whose CTAs wait on each other are traced as they run.

/// Bytes of a global-memory line (an L2 / L1 transaction of 4 sectors of 32 bytes).
pub const LINE_BYTES: u64 = 128;

/// Byte ranges kept per memory instruction: past them the nearest are merged, so the record of
/// a kernel that touches bytes all over stays bounded (its boxes get coarser, never lost).
pub const MAX_RANGES: usize = 4096;

/// What the picked CTA did.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// The CTA recorded.
    pub cta: [u32; 3],
    /// Threads per CTA.
    pub threads: u32,
    /// One entry per instruction of the kernel (indexed like [`Kernel::insts`]).
    pub insts: Vec<InstTrace>,
    /// Warp 0's shared-memory traffic in order, for a pipeline's timeline: each `cp.async`
    /// issued, each `cp.async.wait_group`, each read (loads, `ldmatrix`, `wgmma`), at most
    /// [`MAX_EVENTS`] (then `timeline_full`).
    pub timeline: Vec<Event>,
    pub timeline_full: bool,
}

/// Events kept in [`Trace::timeline`].
pub const MAX_EVENTS: usize = 1 << 16;

/// One step of warp 0's shared-memory traffic: instruction `pc`, the bytes `[lo, hi)` of
/// shared memory its lanes touched (none for a wait).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub pc: u32,
    pub kind: EventKind,
    pub lo: u64,
    pub hi: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// `cp.async` issued (its shared destination).
    Copy,
    /// `cp.async.wait_group`.
    Wait,
    /// A read of shared memory.
    Read,
}

/// What one instruction did in the picked CTA, summed over its executions.
#[derive(Clone, Debug, Default)]
pub struct InstTrace {
    /// Warp-level executions.
    pub execs: u64,
    /// The CTA's threads that ran it at least once: bit `t % 64` of word `t / 64`.
    pub threads: Vec<u64>,
    /// Lanes of warp 0 that ran it at least once.
    pub warp0: u32,
    /// Executions by warp 0.
    pub warp0_execs: u64,
    /// Loads, stores and atomics: what they touched (two for `cp.async`: its global read and
    /// its shared write).
    pub mem: Vec<MemTrace>,
    /// Shuffles: for warp 0's first execution, the lane each active lane read (-1: inactive).
    pub shuffle: Option<[i8; 32]>,
    /// A tile copy's bounds test (`phobos.masked`): lane-executions that found the element
    /// outside the tensor.
    pub masked: u64,
}

/// What one memory instruction touched.
#[derive(Clone, Debug, Default)]
pub struct MemTrace {
    /// The memref (index into [`Kernel::memrefs`]).
    pub memref: usize,
    pub write: bool,
    /// An atomic read-modify-write (also `write`).
    pub atomic: bool,
    /// Bytes per lane and access.
    pub width: u32,
    /// Byte ranges touched, sorted and merged: offsets in the argument's buffer for global
    /// memory, in the CTA's shared memory for shared memory.
    pub ranges: Vec<(u64, u64)>,
    /// Bytes the lanes asked for, summed over warp accesses.
    pub bytes: u64,
    /// Global memory: distinct 128-byte lines each warp access touched, summed.
    pub lines: u64,
    /// Global memory: the fewest lines those bytes fit in, summed over warp accesses.
    pub min_lines: u64,
    /// Shared memory: bank conflicts (the pinned model of `phobos_layout::banks`), summed.
    pub bank_conflicts: u64,
    /// Ranges were merged across gaps to stay bounded: the boxes cover more than was touched.
    pub coarse: bool,
}

impl Trace {
    pub fn new(cta: [u32; 3], threads: u32, insts: usize) -> Trace {
        Trace { cta, threads, insts: vec![InstTrace::default(); insts], timeline: Vec::new(), timeline_full: false }
    }

    /// Warp `warp`'s event at `pc` over shared bytes `ranges` (offset, length): kept for warp 0.
    pub(super) fn event(&mut self, pc: usize, warp: u32, kind: EventKind, ranges: impl IntoIterator<Item = (u64, u64)>) {
        if warp != 0 {
            return;
        }
        if self.timeline.len() >= MAX_EVENTS {
            self.timeline_full = true;
            return;
        }
        let (mut lo, mut hi) = (u64::MAX, 0);
        for (o, n) in ranges {
            lo = lo.min(o);
            hi = hi.max(o + n);
        }
        if lo == u64::MAX {
            lo = 0;
        }
        self.timeline.push(Event { pc: pc as u32, kind, lo, hi });
    }

    /// Instruction `pc` ran on warp `warp` with lanes `mask`.
    pub(super) fn exec(&mut self, pc: usize, warp: u32, mask: u32) {
        let words = (self.threads as usize).div_ceil(64);
        let t = &mut self.insts[pc];
        t.execs += 1;
        if t.threads.len() < words {
            t.threads.resize(words, 0);
        }
        let first = warp as usize * 32;
        t.threads[first / 64] |= (mask as u64) << (first % 64);
        if warp == 0 {
            t.warp0 |= mask;
            t.warp0_execs += 1;
        }
    }

    /// Memory instruction `pc` touched `accesses` (byte offset and length per active lane).
    pub fn memory(&mut self, pc: usize, access: MemAccess, accesses: &[(u64, u64)]) {
        let mems = &mut self.insts[pc].mem;
        let i = match mems.iter().position(|m| m.memref == access.memref && m.write == access.write) {
            Some(i) => i,
            None => {
                mems.push(MemTrace {
                    memref: access.memref,
                    write: access.write,
                    atomic: access.atomic,
                    width: access.width,
                    ..Default::default()
                });
                mems.len() - 1
            }
        };
        let t = &mut mems[i];
        t.bank_conflicts += access.conflicts;
        t.bytes += accesses.iter().map(|a| a.1).sum::<u64>();
        if access.global {
            let mut lines: Vec<u64> = accesses.iter().flat_map(|&(o, n)| (o / LINE_BYTES)..=((o + n.max(1) - 1) / LINE_BYTES)).collect();
            lines.sort_unstable();
            lines.dedup();
            t.lines += lines.len() as u64;
            let used: u64 = {
                let mut r = accesses.to_vec();
                merge(&mut r);
                r.iter().map(|a| a.1).sum()
            };
            t.min_lines += used.div_ceil(LINE_BYTES);
        }
        t.ranges.extend_from_slice(accesses);
        if t.ranges.len() > 2 * MAX_RANGES {
            merge(&mut t.ranges);
            if t.ranges.len() > MAX_RANGES {
                coarsen(&mut t.ranges, MAX_RANGES);
                t.coarse = true;
            }
        }
    }

    /// Bounds test `pc` of a tile copy found `n` elements outside the tensor.
    pub(super) fn masked(&mut self, pc: usize, n: u64) {
        self.insts[pc].masked += n;
    }

    /// Shuffle `pc` in warp 0: lane `l` read lane `src[l]`.
    pub(super) fn shuffle(&mut self, pc: usize, src: [i8; 32]) {
        let t = &mut self.insts[pc];
        if t.shuffle.is_none() {
            t.shuffle = Some(src);
        }
    }

    /// Sorts and merges every instruction's ranges, at most [`MAX_RANGES`] each (called once
    /// the run ends).
    pub(super) fn finish(&mut self) {
        for t in &mut self.insts {
            for m in &mut t.mem {
                merge(&mut m.ranges);
                if m.ranges.len() > MAX_RANGES {
                    coarsen(&mut m.ranges, MAX_RANGES);
                    m.coarse = true;
                }
            }
        }
    }
}

/// What [`Trace::memory`] needs to know of an access besides its bytes.
pub struct MemAccess {
    pub memref: usize,
    pub write: bool,
    pub atomic: bool,
    pub width: u32,
    pub global: bool,
    pub conflicts: u64,
}

/// Sorts `r` and merges ranges that overlap or touch.
pub fn merge(r: &mut Vec<(u64, u64)>) {
    r.sort_unstable();
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(r.len());
    for &(o, n) in r.iter() {
        match out.last_mut() {
            Some(last) if o <= last.0 + last.1 => last.1 = last.1.max(o + n - last.0),
            _ => out.push((o, n)),
        }
    }
    *r = out;
}

/// Merges the smallest gaps of sorted, merged `r` until at most `max` (at least 1) ranges are
/// left. Equal gaps (a strided walk) are merged spread evenly over the ranges, so the boxes
/// coarsen alike everywhere instead of one box swallowing the tail.
pub fn coarsen(r: &mut Vec<(u64, u64)>, max: usize) {
    let max = max.max(1);
    if r.len() <= max {
        return;
    }
    let need = r.len() - max;
    // Gaps by size, ties in bit-reversed order of position: any prefix spreads evenly.
    let mut gaps: Vec<(u64, u32, usize)> =
        r.windows(2).enumerate().map(|(i, w)| (w[1].0 - (w[0].0 + w[0].1), (i as u32).reverse_bits(), i)).collect();
    gaps.sort_unstable();
    let mut merge_after = vec![false; r.len()];
    for g in &gaps[..need] {
        merge_after[g.2] = true;
    }
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(max);
    let mut joining = false;
    for (i, &(o, n)) in r.iter().enumerate() {
        match out.last_mut() {
            Some(last) if joining => last.1 = o + n - last.0,
            _ => out.push((o, n)),
        }
        joining = merge_after[i];
    }
    *r = out;
}
