//! Asynchronous copies (`cp.async`): a copy reads global memory when it is issued and lands in
//! shared memory at its thread's `cp.async.wait_group` that covers its group, not before (on a
//! GPU it lands at some point in between). With the sanitizer on, an access of a destination
//! byte while the copy is in flight is a race naming the copy; the landing is a write by the
//! issuing thread at the wait, so a barrier must follow before other threads read it; and the
//! issue is a write too (the GPU may write from then on), so other warps' reads of the
//! destination in the same barrier epoch race with it.

use super::*;
use std::sync::atomic::Ordering::Relaxed;

/// A copy in flight.
struct Pending {
    group: u32,
    /// The barrier epoch of its issue.
    epoch: u32,
    dst: usize,
    len: usize,
    data: [u8; 16],
    loc: u32,
}

/// A CTA's copies in flight (empty until its first `cp.async` or commit).
#[derive(Default)]
pub(super) struct AsyncCopies {
    /// Per thread: the groups committed so far, and its copies in flight.
    threads: Vec<(u32, Vec<Pending>)>,
    /// Per 4-byte word of shared memory: the thread (+ 1) whose copy in flight writes it.
    inflight: Vec<u32>,
    /// Copies in flight in the CTA.
    count: usize,
}

impl AsyncCopies {
    fn ready(&mut self, threads: usize, shared: usize) {
        if self.threads.is_empty() {
            self.threads = (0..threads).map(|_| (0, Vec::new())).collect();
            self.inflight = vec![0; shared.div_ceil(4)];
        }
    }

    /// Whether any copy is in flight.
    pub(super) fn any(&self) -> bool {
        self.count > 0
    }
}

impl Ctx<'_> {
    pub(super) fn exec_async(&mut self, cta: &mut Cta, w: &mut Warp, inst: &Inst) -> Result<(), Fault> {
        let threads = cta.warps.len() * 32;
        cta.asyncs.ready(threads, cta.shared.len());
        match *inst {
            Inst::CpAsync { dst, src, size, src_size, loc } => self.cp_async(cta, w, (dst, src, src_size), size as usize, loc),
            Inst::CpAsyncCommit => {
                for l in lanes(w.mask) {
                    cta.asyncs.threads[w.index as usize * 32 + l].0 += 1;
                }
                Ok(())
            }
            Inst::CpAsyncWait { n, .. } => {
                for l in lanes(w.mask) {
                    self.land(cta, w, l, n)?;
                }
                if let Some(t) = self.tracing(cta) {
                    t.event(w.pc, w.index, trace::EventKind::Wait, []);
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn cp_async(
        &mut self,
        cta: &mut Cta,
        w: &mut Warp,
        (dst, src, src_size): (Slot, Slot, Option<Slot>),
        size: usize,
        loc: u32,
    ) -> Result<(), Fault> {
        let (mut banked, mut lanes_banked) = ([(0u32, 0u64); 32], 0);
        let traced = self.traced(cta);
        let (mut read, mut written, mut arg_read) = (Vec::new(), Vec::new(), None);
        for l in lanes(w.mask) {
            let d = w.regs[at(dst, 0, l)];
            let s = w.regs[at(src, 0, l)];
            let n = src_size.map_or(size as u64, |r| w.regs[at(r, 0, l)] as u32 as u64);
            let bad = |kind, message: String| Err(self.fault(kind, cta, Some((w, l)), Some(loc), message));
            if n > size as u64 {
                return bad(FaultKind::Assertion, format!("cp.async copies {size} bytes but its source size is {n}"));
            }
            let n = n as usize;
            if d.checked_add(size as u64).is_none_or(|e| e > cta.shared.len() as u64) {
                return bad(
                    FaultKind::OutOfBounds,
                    format!("cp.async of {size} bytes to shared byte {d}, past the {} bytes of shared memory", cta.shared.len()),
                );
            }
            let d = d as usize;
            if !d.is_multiple_of(size) {
                return bad(
                    FaultKind::Misaligned,
                    format!("cp.async of {size} bytes to shared byte {d}, which is not {size}-byte aligned"),
                );
            }
            let arg = ((s >> GLOBAL_ADDRESS_SHIFT) as usize).checked_sub(1).filter(|a| *a < self.arg_buf.len());
            let Some((arg, buf)) = arg.and_then(|a| Some((a, self.arg_buf[a]?))) else {
                return bad(FaultKind::OutOfBounds, format!("cp.async reads from {s:#x}, which is no tensor's address"));
            };
            let off = (s & ((1 << GLOBAL_ADDRESS_SHIFT) - 1)) as usize;
            let global = &self.bufs[buf];
            if off.checked_add(n).is_none_or(|e| e > global.len()) {
                let name = self.arg_name(arg);
                return bad(
                    FaultKind::OutOfBounds,
                    format!("cp.async reads {n} bytes at byte {off} of {name}, which has {} bytes", global.len()),
                );
            }
            if n > 0 && !off.is_multiple_of(size) {
                let name = self.arg_name(arg);
                return bad(
                    FaultKind::Misaligned,
                    format!("cp.async of {size} bytes from byte {off} of {name}, which is not {size}-byte aligned"),
                );
            }
            let mut data = [0u8; 16];
            for (i, b) in global[off..off + n].iter().enumerate() {
                data[i] = b.load(Relaxed);
            }
            if n > 0 {
                self.order_global(cta, w, l, arg, off, n, super::memory::Access::Read, loc)?;
                self.stats.traffic(arg, n, false);
            }
            // The GPU may write the destination from here on.
            self.check_race(cta, w, l, d, size, true, loc)?;
            let t = w.index as usize * 32 + l;
            let a = &mut cta.asyncs;
            for word in &mut a.inflight[d / 4..(d + size).div_ceil(4)] {
                *word = t as u32 + 1;
            }
            let group = a.threads[t].0;
            a.threads[t].1.push(Pending { group, epoch: cta.epoch, dst: d, len: size, data, loc });
            a.count += 1;
            banked[lanes_banked] = (l as u32, d as u64);
            lanes_banked += 1;
            self.stats.async_bytes += size as u64;
            if traced {
                read.extend((n > 0).then_some((off as u64, n as u64)));
                written.push((d as u64, n as u64));
                arg_read = Some(arg);
            }
        }
        let conflicts = phobos_layout::banks::conflicts(&banked[..lanes_banked], size as u64);
        self.stats.bank_conflicts += conflicts;
        if traced {
            self.trace_async(w.pc, (arg_read, &read), &written, size, conflicts);
            if let Some(t) = self.trace.as_mut() {
                t.event(w.pc, w.index, trace::EventKind::Copy, written.iter().map(|&(d, _)| (d, size as u64)));
            }
        }
        Ok(())
    }

    /// `phobos explain`'s record of a `cp.async`: its global read, its shared write (as the
    /// tile's memref, where one holds the bytes) and the zero-filled elements as masked ones.
    pub(super) fn trace_async(
        &mut self,
        pc: usize,
        (arg, read): (Option<usize>, &[(u64, u64)]),
        written: &[(u64, u64)],
        size: usize,
        conflicts: u64,
    ) {
        let memrefs = &self.k.memrefs;
        let global = arg.and_then(|a| memrefs.iter().position(|m| m.src == MemSrc::Arg(a)));
        let first = written.first().map_or(0, |w| w.0);
        let tile = memrefs
            .iter()
            .enumerate()
            .filter_map(|(i, m)| match m.src {
                MemSrc::Shared { offset, bytes } if (offset as u64..offset as u64 + bytes as u64).contains(&first) => Some((bytes, i)),
                _ => None,
            })
            .min()
            .map(|(_, i)| i);
        let Some(t) = self.trace.as_mut() else { return };
        if let Some(g) = global {
            let width = size as u32;
            t.memory(pc, trace::MemAccess { memref: g, write: false, atomic: false, width, global: true, conflicts: 0 }, read);
        }
        if let Some(m) = tile {
            let all: Vec<(u64, u64)> = written.iter().map(|&(d, _)| (d, size as u64)).collect();
            let access = trace::MemAccess { memref: m, write: true, atomic: false, width: size as u32, global: false, conflicts };
            t.memory(pc, access, &all);
            let eb = memrefs[m].elem.bytes() as u64;
            t.masked(pc, written.iter().map(|&(_, n)| (size as u64 - n) / eb.max(1)).sum());
        }
    }

    /// Lane `l`'s `cp.async.wait_group n`: its committed groups but the `n` newest land.
    fn land(&mut self, cta: &mut Cta, w: &Warp, l: usize, n: u32) -> Result<(), Fault> {
        let t = w.index as usize * 32 + l;
        let (commits, pending) = &cta.asyncs.threads[t];
        // Copies queue in group order: those that land are a prefix.
        let due = pending.iter().take_while(|p| p.group as u64 + (n as u64) < *commits as u64).count();
        for i in 0..due {
            let p = &cta.asyncs.threads[t].1[i];
            let (dst, len, data, issued) = (p.dst, p.len, p.data, p.epoch);
            let a = &mut cta.asyncs;
            a.count -= 1;
            for word in &mut a.inflight[dst / 4..(dst + len).div_ceil(4)] {
                if *word == t as u32 + 1 {
                    *word = 0;
                }
            }
            // The landing is this thread's write now. Nothing touched the bytes since the issue
            // (that would have faulted as an access in flight), so it races with nothing; in
            // the epoch the race check's records already say so.
            if self.opts.check_races && cta.epoch != issued {
                let epoch = cta.epoch;
                for s in &mut cta.words[dst..dst + len] {
                    s.w_thread = t as u16 + 1;
                    s.w_epoch = epoch;
                }
                for c in dst / CHUNK..(dst + len).div_ceil(CHUNK) {
                    cta.chunks[c].w_epoch = epoch;
                }
            }
            cta.shared[dst..dst + len].copy_from_slice(&data[..len]);
        }
        cta.asyncs.threads[t].1.drain(..due);
        Ok(())
    }

    /// An access of shared bytes `off..off + len` while a copy that writes one is in flight.
    pub(super) fn check_inflight(
        &self,
        cta: &Cta,
        w: &Warp,
        lane: usize,
        (off, len): (usize, usize),
        write: bool,
        loc: u32,
    ) -> Result<(), Fault> {
        let a = &cta.asyncs;
        let words = a.inflight.get(off / 4..(off + len).div_ceil(4).min(a.inflight.len())).unwrap_or_default();
        let Some(owner) = words.iter().copied().find(|t| *t != 0) else { return Ok(()) };
        let t = owner as usize - 1;
        let Some(copy) = a.threads[t].1.iter().find(|p| p.dst < off + len && off < p.dst + p.len) else { return Ok(()) };
        let byte = off.max(copy.dst);
        let at = self.loc_text(copy.loc);
        let what = if write { "write" } else { "read" };
        let me = w.index as usize * 32 + lane;
        let message = if t == me {
            format!("{what} of shared byte {byte} while this thread's cp.async {at} that writes it is in flight: it lands at a cp.async.wait_group")
        } else {
            let o = self.thread_xyz(t as u32);
            format!(
                "{what} of shared byte {byte} while the cp.async {at} of thread ({}, {}, {}) that writes it is in flight: it lands at that thread's cp.async.wait_group, then a barrier orders it for others",
                o[0], o[1], o[2]
            )
        };
        Err(self.fault(FaultKind::Race, cta, Some((w, lane)), Some(loc), message))
    }

    /// Kernel argument `arg`'s name, for messages.
    fn arg_name(&self, arg: usize) -> String {
        self.k.memrefs.iter().find(|m| m.src == MemSrc::Arg(arg)).map_or_else(|| format!("argument {arg}"), |m| m.name.clone())
    }
}
