//! mbarriers and TMA copies (`cp.async.bulk.tensor`). A copy reads global memory when issued
//! and lands in shared memory when its mbarrier's phase completes (every expected arrival made,
//! the bytes it was told to expect delivered), which happens here at the first wait that looks
//! at the phase (on a GPU, at some point in between). With the sanitizer on, an access of a
//! destination byte while the copy is in flight is a race naming the copy; after it lands, a
//! thread that has not waited for the phase (nor passed a barrier since) reading it is a race
//! too. The issue is a write by the issuing thread (other warps' accesses of the destination in
//! the same barrier epoch race with it).
//!
//! The tensor map a copy names is a kernel argument (`ArgKind::TensorMap`) whose address the
//! simulator gives it: the map is the tensor's argument, its sizes the launch's, the box and
//! swizzle the compiler's.

use super::*;
use std::sync::atomic::Ordering::Relaxed;

/// An mbarrier object.
struct Mbar {
    expected: u32,
    pending: u32,
    /// Transaction bytes expected and not yet delivered.
    tx: i64,
    /// Phases completed.
    phase: u32,
    /// Per thread: the phases it has seen complete (by a wait).
    seen: Vec<u32>,
    /// The barrier epoch and thread of its initialisation: other warps may use it only after a
    /// barrier.
    init: (u32, u32),
}

/// A TMA copy in flight.
struct Flight {
    dst: usize,
    data: Vec<u8>,
    bar: usize,
    thread: u32,
    loc: u32,
}

/// Bytes a TMA copy wrote in this barrier epoch: visible to the threads that saw `phase`.
struct Landed {
    dst: usize,
    len: usize,
    bar: usize,
    phase: u32,
    epoch: u32,
    loc: u32,
}

/// A CTA's mbarriers and TMA copies (empty until its first mbarrier).
#[derive(Default)]
pub(super) struct Tma {
    bars: HashMap<usize, Mbar>,
    inflight: Vec<Flight>,
    landed: Vec<Landed>,
}

impl Tma {
    /// Whether an access may need [`Ctx::check_tma`].
    pub(super) fn any(&self) -> bool {
        !self.inflight.is_empty() || !self.landed.is_empty() || !self.bars.is_empty()
    }
}

/// The swizzled position of byte `a` of shared memory under TMA's `span`-byte swizzle: the
/// 16-byte chunk within each `span` bytes xored with the 128-byte row's low bits.
fn swizzled(a: usize, span: u32) -> usize {
    if span < 32 {
        return a;
    }
    let mask = (span as usize / 16) - 1;
    a ^ (((a >> 7) & mask) << 4)
}

impl Ctx<'_> {
    pub(super) fn exec_tma(&mut self, cta: &mut Cta, w: &mut Warp, inst: &Inst) -> Result<bool, Fault> {
        let threads = cta.warps.len() * 32;
        match inst {
            Inst::MbarInit { addr, count, loc } => {
                for l in lanes(w.mask) {
                    let a = self.mbar_addr(cta, w, l, *addr, *loc)?;
                    let n = w.regs[at(*count, 0, l)] as u32;
                    if n == 0 || n >= 1 << 20 {
                        return Err(self.fault(
                            FaultKind::Assertion,
                            cta,
                            Some((w, l)),
                            Some(*loc),
                            format!("mbarrier.init with {n} arrivals (1 to 2^20 - 1)"),
                        ));
                    }
                    if cta.tma.inflight.iter().any(|f| f.bar == a) {
                        let m = format!("mbarrier.init of the mbarrier at shared byte {a} while a TMA copy completes on it");
                        return Err(self.fault(FaultKind::Race, cta, Some((w, l)), Some(*loc), m));
                    }
                    if cta.tma.bars.contains_key(&a) {
                        let m = format!(
                            "mbarrier.init of the mbarrier at shared byte {a}, which is initialised: invalidate it first (mbarrier.inval)"
                        );
                        return Err(self.fault(FaultKind::Assertion, cta, Some((w, l)), Some(*loc), m));
                    }
                    cta.tma.landed.retain(|d| d.bar != a);
                    let init = (cta.epoch, w.index * 32 + l as u32);
                    cta.tma.bars.insert(a, Mbar { expected: n, pending: n, tx: 0, phase: 0, seen: vec![0; threads], init });
                }
            }
            Inst::MbarInval { addr, loc } => {
                for l in lanes(w.mask) {
                    let a = self.mbar_addr(cta, w, l, *addr, *loc)?;
                    if cta.tma.inflight.iter().any(|f| f.bar == a) {
                        let m = format!("mbarrier.inval of the mbarrier at shared byte {a} while a TMA copy completes on it");
                        return Err(self.fault(FaultKind::Race, cta, Some((w, l)), Some(*loc), m));
                    }
                    cta.tma.bars.remove(&a);
                }
            }
            Inst::MbarArrive { addr, tx, arrive, loc } => {
                for l in lanes(w.mask) {
                    let a = self.mbar_addr(cta, w, l, *addr, *loc)?;
                    let n = tx.map_or(0, |s| w.regs[at(s, 0, l)] as u32 as i64);
                    self.bar_of(cta, w, l, a, *loc)?;
                    if *arrive && cta.tma.bars[&a].pending == 0 {
                        // Every arrival of this phase is in: it completes once its bytes land.
                        if self.complete(cta, a) {
                            return Err(self.over_delivered(cta, w, l, a, *loc));
                        }
                        if cta.tma.bars[&a].pending == 0 {
                            let tx = cta.tma.bars[&a].tx;
                            let m = format!("an arrival on the mbarrier at shared byte {a}, whose phase has every arrival and still expects {tx} bytes no copy in flight delivers");
                            return Err(self.fault(FaultKind::Deadlock, cta, Some((w, l)), Some(*loc), m));
                        }
                    }
                    let bar = cta.tma.bars.get_mut(&a).expect("checked");
                    bar.tx += n;
                    if *arrive {
                        bar.pending -= 1;
                    }
                }
            }
            Inst::MbarWait { addr, parity, loc } if !self.mbar_done(cta, w, (*addr, *parity), *loc)? => {
                w.status = Status::Mbarrier(w.pc);
                return Ok(false);
            }
            Inst::TmaLoad { dst, desc, coords, bar, loc } => {
                for l in lanes(w.mask) {
                    self.tma_load(cta, w, l, (*dst, *desc, coords, *bar), *loc)?;
                }
            }
            _ => {}
        }
        Ok(true)
    }

    /// Lane `l`'s mbarrier address: 8-byte aligned, in shared memory.
    fn mbar_addr(&self, cta: &Cta, w: &Warp, l: usize, addr: Slot, loc: u32) -> Result<usize, Fault> {
        let a = w.regs[at(addr, 0, l)];
        if a.checked_add(8).is_none_or(|e| e > cta.shared.len() as u64) || !a.is_multiple_of(8) {
            let m = format!("an mbarrier at {a:#x}, which is no 8-byte-aligned shared address (of {} bytes)", cta.shared.len());
            return Err(self.fault(FaultKind::OutOfBounds, cta, Some((w, l)), Some(loc), m));
        }
        Ok(a as usize)
    }

    /// The mbarrier at `a`, which must have been initialised, by this warp or before a barrier.
    fn bar_of(&self, cta: &Cta, w: &Warp, l: usize, a: usize, loc: u32) -> Result<(), Fault> {
        let Some(bar) = cta.tma.bars.get(&a) else {
            let m = format!("the mbarrier at shared byte {a} is used before mbarrier.init (or after mbarrier.inval)");
            return Err(self.fault(FaultKind::Assertion, cta, Some((w, l)), Some(loc), m));
        };
        let (epoch, thread) = bar.init;
        if self.opts.check_races && epoch == cta.epoch && thread / 32 != w.index {
            let o = self.thread_xyz(thread);
            let m = format!(
                "use of the mbarrier at shared byte {a} that thread ({}, {}, {}) initialised with no barrier between them",
                o[0], o[1], o[2]
            );
            return Err(self.fault(FaultKind::Race, cta, Some((w, l)), Some(loc), m));
        }
        Ok(())
    }

    /// Completes the phase of the mbarrier at `a` if it has every arrival: its copies land, and
    /// when they delivered every expected byte the phase ends. Whether they delivered more.
    fn complete(&mut self, cta: &mut Cta, a: usize) -> bool {
        if cta.tma.bars.get(&a).is_none_or(|b| b.pending != 0) {
            return false;
        }
        let (due, rest): (Vec<Flight>, Vec<Flight>) = std::mem::take(&mut cta.tma.inflight).into_iter().partition(|f| f.bar == a);
        cta.tma.inflight = rest;
        let bar = cta.tma.bars.get_mut(&a).expect("present");
        let phase = bar.phase + 1;
        let epoch = cta.epoch;
        cta.tma.landed.retain(|d| d.epoch == epoch);
        for f in due {
            bar.tx -= f.data.len() as i64;
            cta.shared[f.dst..f.dst + f.data.len()].copy_from_slice(&f.data);
            cta.tma.landed.push(Landed { dst: f.dst, len: f.data.len(), bar: a, phase, epoch: cta.epoch, loc: f.loc });
        }
        // More bytes than expected: on a GPU the phase completes before the last copies land.
        let over = bar.tx < 0;
        if bar.tx <= 0 {
            bar.tx = 0;
            bar.phase = phase;
            bar.pending = bar.expected;
        }
        over
    }

    /// Whether every lane's wait is over (recording, for each, the phases it has seen).
    pub(super) fn mbar_done(&mut self, cta: &mut Cta, w: &Warp, (addr, parity): (Slot, Slot), loc: u32) -> Result<bool, Fault> {
        let mut all = true;
        for l in lanes(w.mask) {
            let a = self.mbar_addr(cta, w, l, addr, loc)?;
            self.bar_of(cta, w, l, a, loc)?;
            if self.complete(cta, a) {
                return Err(self.over_delivered(cta, w, l, a, loc));
            }
            let p = w.regs[at(parity, 0, l)] as u32 & 1;
            all &= cta.tma.bars[&a].phase & 1 != p;
        }
        if all {
            for l in lanes(w.mask) {
                let a = w.regs[at(addr, 0, l)] as usize;
                let bar = cta.tma.bars.get_mut(&a).expect("checked");
                bar.seen[w.index as usize * 32 + l] = bar.phase;
            }
            // `phobos explain`'s timeline: the copies waited for have landed.
            if let Some(t) = self.tracing(cta) {
                t.event(w.pc, w.index, trace::EventKind::Wait, []);
            }
        }
        Ok(all)
    }

    /// The fault of copies that delivered more bytes than the mbarrier at `a` expected.
    fn over_delivered(&self, cta: &Cta, w: &Warp, l: usize, a: usize, loc: u32) -> Fault {
        let m = format!(
            "the TMA copies completing on the mbarrier at shared byte {a} delivered more bytes than its phase expects (mbarrier.arrive.expect_tx): on a GPU the phase ends before they all land"
        );
        self.fault(FaultKind::Race, cta, Some((w, l)), Some(loc), m)
    }

    /// Why no warp waiting on an mbarrier can go on: the first such warp's mbarrier.
    pub(super) fn mbar_stuck(&self, cta: &Cta) -> Option<Fault> {
        let w = cta.warps.iter().find(|w| matches!(w.status, Status::Mbarrier(_)))?;
        let Status::Mbarrier(pc) = w.status else { return None };
        let Inst::MbarWait { addr, parity, loc } = &self.k.insts[pc] else { return None };
        // The first lane whose phase has not completed.
        let waiting = |l: usize| {
            let a = w.regs[at(*addr, 0, l)] as usize;
            cta.tma.bars.get(&a).is_some_and(|b| b.phase & 1 == w.regs[at(*parity, 0, l)] as u32 & 1)
        };
        let l = lanes(w.mask).find(|l| waiting(*l)).unwrap_or(w.mask.trailing_zeros().min(31) as usize);
        let a = w.regs[at(*addr, 0, l)] as usize;
        let bar = cta.tma.bars.get(&a)?;
        let m = format!(
            "warp {} waits on the mbarrier at shared byte {a} for its phase of parity {} that cannot complete: {} of {} arrivals pending, {} bytes expected that no copy in flight delivers",
            w.index,
            w.regs[at(*parity, 0, l)] & 1,
            bar.pending,
            bar.expected,
            (bar.tx - cta.tma.inflight.iter().filter(|f| f.bar == a).map(|f| f.data.len() as i64).sum::<i64>()).max(0)
        );
        Some(self.fault(FaultKind::Deadlock, cta, Some((w, l)), Some(*loc), m))
    }

    /// Lane `l`'s TMA copy.
    fn tma_load(
        &mut self,
        cta: &mut Cta,
        w: &Warp,
        l: usize,
        (dst, desc, coords, bar): (Slot, Slot, &[Slot], Slot),
        loc: u32,
    ) -> Result<(), Fault> {
        let bad = |s: &Self, c: &Cta, kind, m: String| Err(s.fault(kind, c, Some((w, l)), Some(loc), m));
        let d = w.regs[at(desc, 0, l)];
        let arg = ((d >> GLOBAL_ADDRESS_SHIFT) as usize).checked_sub(1);
        let arg = arg.filter(|a| d & ((1 << GLOBAL_ADDRESS_SHIFT) - 1) == 0 && *a < self.k.args.len());
        let Some((arg, ArgKind::TensorMap { tensor, r#box, swizzle, .. })) = arg.map(|a| (a, &self.k.args[a])) else {
            return bad(
                self,
                cta,
                FaultKind::OutOfBounds,
                format!("cp.async.bulk.tensor's tensor map at {d:#x} is no tensor-map argument's address"),
            );
        };
        // Its tensor and sizes (checked when the kernel was translated): fixed, or the launch's.
        let (ti, elem, extents) = match crate::program::tensor_map_target(&self.k.args, arg) {
            Ok(t) => t,
            Err(e) => return bad(self, cta, FaultKind::Assertion, e),
        };
        let Some(buf) = self.arg_buf[ti] else { return bad(self, cta, FaultKind::Assertion, format!("tensor {tensor} has no buffer")) };
        let rank = r#box.len();
        if coords.len() != rank {
            return bad(self, cta, FaultKind::Assertion, format!("a {}-D box copy of the {rank}-D box of tensor {tensor}", coords.len()));
        }
        let size: Vec<i64> = extents
            .iter()
            .map(|e| match *e {
                crate::program::Extent::Fixed(v) => v,
                crate::program::Extent::Arg(i) => match self.launch.args[i] {
                    ArgValue::Int(v) => v,
                    _ => 0,
                },
            })
            .collect();
        let eb = elem.bytes();
        let len = r#box.iter().product::<i64>() as usize * eb;
        let to = w.regs[at(dst, 0, l)];
        if to.checked_add(len as u64).is_none_or(|e| e > cta.shared.len() as u64) {
            return bad(
                self,
                cta,
                FaultKind::OutOfBounds,
                format!("a TMA copy of {len} bytes to shared byte {to}, past the {} bytes of shared memory", cta.shared.len()),
            );
        }
        let to = to as usize;
        let align = if *swizzle >= 32 { 8 * *swizzle as usize } else { 128 };
        if !to.is_multiple_of(align) {
            return bad(self, cta, FaultKind::Misaligned, format!("a TMA copy to shared byte {to}, which is not {align}-byte aligned"));
        }
        // The box, row-major, read where it lies inside the tensor (zero elsewhere).
        let origin: Vec<i64> = (0..rank).map(|dd| w.regs[at(coords[rank - 1 - dd], 0, l)] as u32 as i32 as i64).collect();
        let global: &[std::sync::atomic::AtomicU8] = self.bufs[buf];
        let mut data = vec![0u8; len];
        let mut idx = vec![0i64; rank];
        let mut read = 0usize;
        let traced = self.traced(cta);
        // The box's reads, as ranges of the tensor: for the trace and the global-memory checker.
        let record = traced || self.ordering.is_some();
        let mut ranges: Vec<(u64, u64)> = Vec::new();
        for e in 0..len / eb {
            let mut rem = e as i64;
            for dd in (0..rank).rev() {
                idx[dd] = rem % r#box[dd];
                rem /= r#box[dd];
            }
            let g: Vec<i64> = (0..rank).map(|dd| origin[dd] + idx[dd]).collect();
            if (0..rank).any(|dd| g[dd] < 0 || g[dd] >= size[dd]) {
                continue;
            }
            // Row-major, checked: sizes from a hand-written map may be anything.
            let lin = g.iter().zip(&size).try_fold(0i64, |acc, (x, n)| acc.checked_mul(*n)?.checked_add(*x));
            let Some(lin) = lin.and_then(|l| usize::try_from(l).ok()?.checked_mul(eb)).filter(|l| l.saturating_add(eb) <= global.len())
            else {
                let m = format!("the TMA copy reads element {g:?} of {tensor}, past its {} bytes (its sizes {size:?})", global.len());
                return bad(self, cta, FaultKind::OutOfBounds, m);
            };
            let at_ = swizzled(to + e * eb, *swizzle) - to;
            for b in 0..eb {
                data[at_ + b] = global[lin + b].load(Relaxed);
            }
            read += eb;
            if record {
                match ranges.last_mut() {
                    Some((o, n)) if *o + *n == lin as u64 => *n += eb as u64,
                    _ => ranges.push((lin as u64, eb as u64)),
                }
            }
        }
        self.stats.traffic(ti, read, false);
        for &(off, n) in &ranges {
            self.order_global(cta, w, l, ti, off as usize, n as usize, super::memory::Access::Read, loc)?;
        }
        self.stats.async_bytes += len as u64;
        // The copy may write the destination from here on.
        self.check_race(cta, w, l, to, len, true, loc)?;
        if self.opts.check_races {
            for s in &mut cta.words[to..to + len] {
                s.w_thread = 0;
            }
        }
        if let Some(f) = cta.tma.inflight.iter().find(|f| f.dst < to + len && to < f.dst + f.data.len()) {
            let m = format!("a TMA copy to shared bytes another TMA copy in flight writes ({})", self.loc_text(f.loc));
            return bad(self, cta, FaultKind::Race, m);
        }
        let b = self.mbar_addr(cta, w, l, bar, loc)?;
        self.bar_of(cta, w, l, b, loc)?;
        let thread = w.index * 32 + l as u32;
        cta.tma.inflight.push(Flight { dst: to, data, bar: b, thread, loc });
        if traced {
            // `phobos explain`: the box's reads, its write, its zero-filled elements.
            self.trace_async(w.pc, (Some(ti), &ranges), &[(to as u64, read as u64)], len, 0);
            if let Some(t) = self.trace.as_mut() {
                t.event(w.pc, w.index, trace::EventKind::Copy, [(to as u64, len as u64)]);
            }
        }
        Ok(())
    }

    /// Where op `loc` is, for messages: its source location, else its name.
    pub(super) fn loc_text(&self, loc: u32) -> String {
        match &self.k.locs[loc as usize].1 {
            Some(l) => format!("at {l}"),
            None => format!("`{}`", self.k.locs[loc as usize].0),
        }
    }

    /// An access of shared bytes `off..off + len` that a TMA copy in flight writes, or that one
    /// wrote this epoch and this thread has not waited for, or that holds a live mbarrier.
    pub(super) fn check_tma(
        &self,
        cta: &Cta,
        (w, lane): (&Warp, usize),
        (off, len, write): (usize, usize, bool),
        loc: u32,
    ) -> Result<(), Fault> {
        let what = if write { "write" } else { "read" };
        let me = w.index as usize * 32 + lane;
        if let Some(b) = cta.tma.bars.keys().find(|b| **b < off + len && off < **b + 8) {
            let m = format!("{what} of shared byte {} of the live mbarrier at shared byte {b}: only mbarrier instructions may touch it (mbarrier.inval ends it)", off.max(*b));
            return Err(self.fault(FaultKind::Race, cta, Some((w, lane)), Some(loc), m));
        }
        if let Some(f) = cta.tma.inflight.iter().find(|f| f.dst < off + len && off < f.dst + f.data.len()) {
            let o = self.thread_xyz(f.thread);
            let m = format!(
                "{what} of shared byte {} while the TMA copy (cp.async.bulk.tensor) {} issued by thread ({}, {}, {}) that writes it is in flight: it lands when its mbarrier's phase completes, which a thread sees by waiting on it (mbarrier.try_wait.parity)",
                off.max(f.dst),
                self.loc_text(f.loc),
                o[0],
                o[1],
                o[2]
            );
            return Err(self.fault(FaultKind::Race, cta, Some((w, lane)), Some(loc), m));
        }
        for d in cta.tma.landed.iter().filter(|d| d.epoch == cta.epoch && d.dst < off + len && off < d.dst + d.len) {
            if cta.tma.bars.get(&d.bar).is_some_and(|b| b.seen[me] < d.phase) {
                let m = format!(
                    "{what} of shared byte {} that the TMA copy {} wrote, whose mbarrier this thread has not waited for (mbarrier.try_wait.parity), nor passed a barrier since another thread did",
                    off.max(d.dst),
                    self.loc_text(d.loc)
                );
                return Err(self.fault(FaultKind::Race, cta, Some((w, lane)), Some(loc), m));
            }
        }
        Ok(())
    }
}
