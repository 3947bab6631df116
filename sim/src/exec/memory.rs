//! Memory: addresses checked against bounds and proven alignment, the shared-memory race
//! checker, and the loads, stores and atomics themselves.

use super::*;
use std::sync::atomic::Ordering::Relaxed;

impl Ctx<'_> {
    /// Runs a load, store or atomic for the active lanes.
    pub(super) fn exec_memory(&mut self, cta: &mut Cta, w: &mut Warp, inst: &Inst) -> Result<(), Fault> {
        let mask = w.mask;
        match inst {
            Inst::Load { dst, mem, idx, n, align, loc, acquire } => {
                w.progress.reads += 1;
                let elem = self.k.memrefs[*mem].elem;
                let eb = elem.bytes();
                if !*acquire && self.load_global_untraced(cta, w, *dst, *mem, idx, *n, *align) {
                    return Ok(());
                }
                let mut banked = Vec::new();
                let mut touched = Vec::new();
                let tr = self.traced(cta);
                for l in lanes(mask) {
                    let (src, off, len) = self.address(cta, w, l, *mem, idx, *n, *align, *loc, false)?;
                    if tr {
                        touched.push((off as u64, len as u64));
                    }
                    if matches!(src, MemSrc::Shared { .. } | MemSrc::Dynamic { .. }) {
                        self.check_race(cta, w, l, off, len, false, *loc)?;
                        banked.push((l as u32, off as u64));
                    }
                    if let MemSrc::Arg(a) = src {
                        self.order_global(cta, w, l, a, off, len, if *acquire { Access::Acquire } else { Access::Read }, *loc)?;
                        self.stats.traffic(a, len, false);
                    }
                    for e in 0..*n {
                        let v = self.read_bytes(cta, w, l, &src, off + e as usize * eb, eb) as u64;
                        w.regs[at(*dst, e, l)] = if elem == Prim::I1 { (v != 0) as u64 } else { v };
                    }
                }
                let conflicts = phobos_layout::banks::conflicts(&banked, (*n as usize * eb) as u64);
                self.stats.bank_conflicts += conflicts;
                self.trace_memory(cta, w, *mem, false, false, *n * eb as u32, conflicts, &touched);
            }
            Inst::MaskedLoad { dst, mem, idx, mask: bits, pass, loc } => {
                w.progress.reads += 1;
                let elem = self.k.memrefs[*mem].elem;
                let eb = elem.bytes();
                let mut touched = Vec::new();
                let tr = self.traced(cta);
                for l in lanes(mask) {
                    for e in 0..dst.len {
                        if w.regs[at(*bits, e, l)] & 1 == 0 {
                            w.regs[at(*dst, e, l)] = w.regs[at(*pass, e, l)];
                            continue;
                        }
                        let (src, off, len) = self.address_at(cta, w, l, *mem, idx, e as i64, 1, 0, *loc, false)?;
                        if tr {
                            touched.push((off as u64, len as u64));
                        }
                        if matches!(src, MemSrc::Shared { .. } | MemSrc::Dynamic { .. }) {
                            self.check_race(cta, w, l, off, len, false, *loc)?;
                        }
                        if let MemSrc::Arg(a) = src {
                            self.order_global(cta, w, l, a, off, len, Access::Read, *loc)?;
                            self.stats.traffic(a, len, false);
                        }
                        let v = self.read_bytes(cta, w, l, &src, off, eb) as u64;
                        w.regs[at(*dst, e, l)] = if elem == Prim::I1 { (v != 0) as u64 } else { v };
                    }
                }
                self.trace_memory(cta, w, *mem, false, false, dst.len * eb as u32, 0, &touched);
            }
            Inst::Store { src, mem, idx, n, align, loc, scatter, release } => {
                self.writes += 1;
                let mut lanes_written: Vec<(usize, usize, usize)> = Vec::new();
                let elem = self.k.memrefs[*mem].elem;
                let eb = elem.bytes();
                let mut banked = Vec::new();
                let mut touched = Vec::new();
                let tr = self.traced(cta);
                for l in lanes(mask) {
                    let (dsrc, off, len) = self.address(cta, w, l, *mem, idx, *n, *align, *loc, true)?;
                    if tr {
                        touched.push((off as u64, len as u64));
                    }
                    if matches!(dsrc, MemSrc::Shared { .. } | MemSrc::Dynamic { .. }) {
                        // A repeated scatter rank is named as such before it is a race.
                        if let Some(item) = scatter {
                            self.check_scatter(cta, w, l, off, *item, *loc)?;
                        }
                        self.check_race(cta, w, l, off, len, true, *loc)?;
                        banked.push((l as u32, off as u64));
                    }
                    if let MemSrc::Arg(a) = dsrc {
                        if self.opts.check_plain_races && self.opts.check_races {
                            // Two lanes of one store writing one byte: which value lands is undefined.
                            if let Some((other, byte)) =
                                lanes_written.iter().find_map(|(m, o, n)| overlap((*o, *n), (off, len)).map(|b| (*m, b)))
                            {
                                let name = self.k.memrefs[*mem].name.clone();
                                let message = format!("a write of data written by lane {other} of the same store (byte {byte} of {name}) with nothing ordering them");
                                return Err(self.fault(FaultKind::GlobalRace, cta, Some((w, l)), Some(*loc), message));
                            }
                            lanes_written.push((l, off, len));
                        }
                        self.order_global(cta, w, l, a, off, len, if *release { Access::Release } else { Access::Write }, *loc)?;
                        self.stats.traffic(a, len, true);
                    }
                    for e in 0..*n {
                        let v = w.regs[at(*src, e, l)];
                        self.write_raw(cta, w, l, &dsrc, off + e as usize * eb, eb, v);
                    }
                }
                let conflicts = phobos_layout::banks::conflicts(&banked, (*n as usize * eb) as u64);
                self.stats.bank_conflicts += conflicts;
                self.trace_memory(cta, w, *mem, true, false, *n * eb as u32, conflicts, &touched);
            }
            Inst::Atomic { kind, ty, dst, val, mem, idx, loc } => {
                self.writes += 1;
                w.progress.reads += 1;
                let eb = ty.bytes();
                let mut touched = Vec::new();
                let tr = self.traced(cta);
                for l in lanes(mask) {
                    let (dsrc, off, _) = self.address(cta, w, l, *mem, idx, 1, 0, *loc, true)?;
                    if tr {
                        touched.push((off as u64, eb as u64));
                    }
                    if let MemSrc::Arg(a) = dsrc {
                        self.stats.traffic(a, eb, false);
                        self.stats.traffic(a, eb, true);
                    }
                    self.atomic_in_flight(cta, w, l, &dsrc, (off, eb), *loc)?;
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
                self.trace_memory(cta, w, *mem, true, true, eb as u32, 0, &touched);
            }
            Inst::Cas { dst, cmp: c, val, mem, idx, loc } => {
                self.writes += 1;
                w.progress.reads += 1;
                let eb = self.k.memrefs[*mem].elem.bytes();
                let mut touched = Vec::new();
                let tr = self.traced(cta);
                for l in lanes(mask) {
                    let (dsrc, off, _) = self.address(cta, w, l, *mem, idx, 1, 0, *loc, true)?;
                    if tr {
                        touched.push((off as u64, eb as u64));
                    }
                    if let MemSrc::Arg(a) = dsrc {
                        self.stats.traffic(a, eb, false);
                        self.stats.traffic(a, eb, true);
                    }
                    self.atomic_in_flight(cta, w, l, &dsrc, (off, eb), *loc)?;
                    let old = self.read_bytes(cta, w, l, &dsrc, off, eb) as u64;
                    if old == w.regs[at(*c, 0, l)] {
                        let v = w.regs[at(*val, 0, l)];
                        self.write_raw(cta, w, l, &dsrc, off, eb, v);
                    }
                    w.regs[at(*dst, 0, l)] = old;
                }
                self.trace_memory(cta, w, *mem, true, true, eb as u32, 0, &touched);
            }
            // The step loop dispatches the other instructions elsewhere.
            _ => {}
        }
        Ok(())
    }

    /// Records a memory access of the traced CTA (nothing for the others).
    #[allow(clippy::too_many_arguments)]
    fn trace_memory(
        &mut self,
        cta: &Cta,
        w: &Warp,
        mem: usize,
        write: bool,
        atomic: bool,
        width: u32,
        conflicts: u64,
        touched: &[(u64, u64)],
    ) {
        let memrefs = &self.k.memrefs;
        if let Some(t) = self.trace.as_mut().filter(|t| t.cta == cta.id) {
            let global = matches!(memrefs[mem].src, MemSrc::Arg(_));
            t.memory(w.pc, trace::MemAccess { memref: mem, write, atomic, width, global, conflicts }, touched);
            if !global && !write {
                t.event(w.pc, w.index, trace::EventKind::Read, touched.iter().copied());
            }
        }
    }

    /// Byte range of a memory access by one lane, after bounds and alignment checks.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn address(
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
        self.address_at(cta, w, lane, mem, idx, 0, n, align, loc, write)
    }

    /// [`Ctx::address`] of the element `extra` places further along the last index.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn address_at(
        &self,
        cta: &Cta,
        w: &Warp,
        lane: usize,
        mem: usize,
        idx: &[Slot],
        extra: i64,
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
        if let Some(last) = mr.strides.get(idx.len().wrapping_sub(1)) {
            lin = lin.wrapping_add(extra.wrapping_mul(*last as i64));
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
        // A view at a byte offset known at run time: the whole view must lie in shared memory.
        let base = match mr.shift {
            Some(shift) => {
                let start = (base as i64).wrapping_add(w.regs[at(shift, 0, lane)] as i64);
                if start < 0 || start as u128 + size as u128 > cta.shared.len() as u128 {
                    let message = format!(
                        "the view {} of {size} bytes at shared byte {start} passes the {} bytes of shared memory",
                        mr.name,
                        cta.shared.len()
                    );
                    return Err(self.fault(FaultKind::OutOfBounds, cta, Some((w, lane)), Some(loc), message));
                }
                start as usize
            }
            None => base,
        };
        if lin < 0 || (lin as u128 * eb as u128 + len as u128) > size as u128 {
            let elems = size / eb.max(1);
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

    /// An atomic on shared bytes a `cp.async` still writes is a race (atomics never race with
    /// each other, so they leave no record for the plain-access check).
    fn atomic_in_flight(&self, cta: &Cta, w: &Warp, lane: usize, src: &MemSrc, bytes: (usize, usize), loc: u32) -> Result<(), Fault> {
        let shared = matches!(src, MemSrc::Shared { .. } | MemSrc::Dynamic { .. });
        if shared && self.opts.check_races && cta.asyncs.any() {
            self.check_inflight(cta, w, lane, bytes, true, loc)?;
        }
        Ok(())
    }

    pub(super) fn check_race(
        &self,
        cta: &mut Cta,
        w: &Warp,
        lane: usize,
        off: usize,
        len: usize,
        write: bool,
        loc: u32,
    ) -> Result<(), Fault> {
        if !self.opts.check_races {
            return Ok(());
        }
        if cta.asyncs.any() {
            self.check_inflight(cta, w, lane, (off, len), write, loc)?;
        }
        if cta.tma.any() {
            self.check_tma(cta, (w, lane), (off, len, write), loc)?;
        }
        let t = (w.index * 32 + lane as u32 + 1) as u16; // 0 means "nobody"
        let epoch = cta.epoch;
        let end = (off + len).min(cta.words.len());
        let other_warp = |th: u16| (th as u32 - 1) / 32 != w.index;
        let read_by_other = |epoch_: u32, th: u16, warp: u8, multi: bool| epoch_ == epoch && th != 0 && (multi || warp as u32 != w.index);
        // A read of one whole chunk is recorded in the chunk, and needs no look at its bytes
        // unless the chunk was written this epoch.
        let whole_chunk = !write && len == CHUNK && off.is_multiple_of(CHUNK) && end == off + len;
        let mut from = off;
        while from < end {
            let c = from / CHUNK;
            let to = end.min((c + 1) * CHUNK);
            let ch = cta.chunks[c];
            // Byte by byte only where a byte's record may conflict: a chunk written this epoch,
            // or, for a write, one whose bytes were read one by one this epoch.
            if ch.w_epoch == epoch || (write && ch.byte_r_epoch == epoch) {
                for word in from..to {
                    let s = cta.words[word];
                    let conflict = if write {
                        if s.w_epoch == epoch && s.w_thread != 0 && other_warp(s.w_thread) {
                            Some((s.w_thread, "write after a write"))
                        } else if read_by_other(s.r_epoch, s.r_thread, s.r_warp, s.r_multi_warp) {
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
                }
            }
            if write && read_by_other(ch.r_epoch, ch.r_thread, ch.r_warp, ch.r_multi_warp) {
                let o = self.thread_xyz(ch.r_thread as u32 - 1);
                let message = format!(
                    "write after a read by thread ({}, {}, {}) of shared byte {from} with no barrier between them",
                    o[0], o[1], o[2]
                );
                return Err(self.fault(FaultKind::Race, cta, Some((w, lane)), Some(loc), message));
            }
            if write {
                for s in &mut cta.words[from..to] {
                    s.w_thread = t;
                    s.w_epoch = epoch;
                }
                cta.chunks[c].w_epoch = epoch;
            } else if !whole_chunk {
                cta.chunks[c].byte_r_epoch = epoch;
                for s in &mut cta.words[from..to] {
                    if s.r_epoch == epoch {
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
            }
            from = to;
        }
        if whole_chunk {
            let ch = &mut cta.chunks[off / CHUNK];
            if ch.r_epoch == epoch {
                if ch.r_warp as u32 != w.index {
                    ch.r_multi_warp = true;
                }
            } else {
                *ch = Chunk { r_epoch: epoch, r_thread: t, r_warp: w.index as u8, r_multi_warp: false, ..*ch };
            }
        }
        Ok(())
    }

    /// Global memory across CTAs (`ordering.rs`), when the kernel synchronises CTAs.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn order_global(
        &mut self,
        cta: &Cta,
        w: &Warp,
        lane: usize,
        arg: usize,
        off: usize,
        len: usize,
        access: Access,
        loc: u32,
    ) -> Result<(), Fault> {
        let Some(order) = self.ordering.as_mut() else { return Ok(()) };
        let Some(buf) = self.arg_buf[arg] else { return Ok(()) };
        let size = self.bufs[buf].len();
        let [gx, gy, _] = self.launch.grid;
        let me = cta.id[0] + gx * (cta.id[1] + gy * cta.id[2]);
        let r = match access {
            Access::Acquire => {
                order.acquire(me, buf, off);
                Ok(())
            }
            Access::Release => {
                order.release(me, buf, off);
                Ok(())
            }
            Access::Read => order.read(me, buf, size, off, len),
            Access::Write => order.write(me, buf, size, off, len),
        };
        let within = ordering::Accessor { warp: w.index, epoch: cta.epoch };
        let r = match access {
            Access::Read | Access::Write if self.opts.check_plain_races => {
                r.and_then(|()| order.within(me, within, buf, size, off, len, matches!(access, Access::Write)))
            }
            _ => r,
        };
        r.map_err(|c| {
            let name = &self.k.memrefs.iter().find(|m| m.src == MemSrc::Arg(arg)).map(|m| m.name.clone()).unwrap_or_default();
            let ordering = if c.warp.is_some() { "no barrier between them" } else { "no release/acquire pair ordering them" };
            self.fault(
                FaultKind::GlobalRace,
                cta,
                Some((w, lane)),
                Some(loc),
                format!("{} {} (byte {} of {name}) with {ordering}", c.what, c.whom(self.launch.grid), c.byte),
            )
        })
    }

    /// A scatter writes each position once between barriers: a second write is a repeated rank.
    fn check_scatter(&self, cta: &mut Cta, w: &Warp, lane: usize, off: usize, item: u32, loc: u32) -> Result<(), Fault> {
        let t = w.index * 32 + lane as u32 + 1;
        if let Some(&(other, other_item)) = cta.scattered.get(&off) {
            let o = self.thread_xyz(other - 1);
            return Err(self.fault(
                FaultKind::Assertion,
                cta,
                Some((w, lane)),
                Some(loc),
                format!(
                    "scatter: item {item} has the same rank as item {other_item} of thread ({}, {}, {}); the ranks must be a permutation",
                    o[0], o[1], o[2]
                ),
            ));
        }
        cta.scattered.insert(off, (t, item));
        Ok(())
    }

    /// A plain load of global memory when nothing watches it (no trace, no ordering model) and
    /// every lane's access is in bounds and aligned: the elements read straight from the
    /// buffer, the traffic counted once. False (nothing done) otherwise: the general path then
    /// runs it, and reports the fault of a lane out of bounds.
    #[allow(clippy::too_many_arguments)]
    fn load_global_untraced(&mut self, cta: &Cta, w: &mut Warp, dst: Slot, mem: usize, idx: &[Slot], n: u32, align: u32) -> bool {
        let mr = &self.k.memrefs[mem];
        let (MemSrc::Arg(arg), false) = (&mr.src, mr.elem == Prim::I1) else { return false };
        let Some(buf) = self.arg_buf[*arg] else { return false };
        if self.ordering.is_some() || self.traced(cta) {
            return false;
        }
        let eb = mr.elem.bytes();
        let len = n as usize * eb;
        let global = &self.bufs[buf];
        let mut offs = [0usize; 32];
        let mask = w.mask;
        for l in lanes(mask) {
            let mut lin: i64 = 0;
            for (d, s) in idx.iter().enumerate() {
                lin = lin.wrapping_add((w.regs[at(*s, 0, l)] as i64).wrapping_mul(mr.strides[d] as i64));
            }
            if lin < 0 || (lin as u128 * eb as u128 + len as u128) > global.len() as u128 {
                return false;
            }
            let off = lin as usize * eb;
            if align > 0 && !off.is_multiple_of(align as usize) {
                return false;
            }
            offs[l] = off;
        }
        let read_only = self.read_only[buf];
        for l in lanes(mask) {
            let bytes = &global[offs[l]..offs[l] + len];
            if read_only && len <= 16 {
                let p = bytes.as_ptr() as *const u8;
                let word = |i: usize| -> u64 {
                    // SAFETY: element `i < n` lies within `bytes` (in bounds, sliced above, `len`
                    // = n·eb bytes); no instruction of this launch writes this buffer, and the
                    // launches it is shared with do not either (`run`'s contract), so a plain
                    // read races with no write.
                    unsafe {
                        match eb {
                            4 => u32::from_le(std::ptr::read_unaligned(p.add(i * 4) as *const u32)) as u64,
                            8 => u64::from_le(std::ptr::read_unaligned(p.add(i * 8) as *const u64)),
                            2 => u16::from_le(std::ptr::read_unaligned(p.add(i * 2) as *const u16)) as u64,
                            _ => *p.add(i) as u64,
                        }
                    }
                };
                for e in 0..n as usize {
                    w.regs[at(dst, e as u32, l)] = word(e);
                }
                continue;
            }
            for e in 0..n as usize {
                let v = bytes[e * eb..(e + 1) * eb].iter().enumerate().fold(0u64, |v, (i, b)| v | (b.load(Relaxed) as u64) << (8 * i));
                w.regs[at(dst, e as u32, l)] = v;
            }
        }
        let arg = *arg;
        self.stats.traffic(arg, len * mask.count_ones() as usize, false);
        true
    }

    pub(super) fn read_bytes(&self, cta: &Cta, w: &Warp, lane: usize, src: &MemSrc, off: usize, len: usize) -> u128 {
        let bytes: &[u8] = match src {
            // Global memory may be shared with CTAs on other threads: byte by byte, relaxed.
            MemSrc::Arg(i) => {
                let global = &self.bufs[self.arg_buf[*i].expect("checked")][off..off + len];
                // Folded in 64 bits where it fits: a u128 shift costs several instructions.
                if len <= 8 {
                    return global.iter().enumerate().fold(0u64, |v, (i, b)| v | (b.load(Relaxed) as u64) << (8 * i)) as u128;
                }
                return global.iter().enumerate().fold(0u128, |v, (i, b)| v | (b.load(Relaxed) as u128) << (8 * i));
            }
            MemSrc::Shared { .. } | MemSrc::Dynamic { .. } => &cta.shared[off..off + len],
            MemSrc::Private { .. } => {
                let base = lane * self.k.private_bytes as usize;
                &w.private[base + off..base + off + len]
            }
        };
        if len <= 8 {
            let mut w = [0u8; 8];
            w[..len].copy_from_slice(bytes);
            return u64::from_le_bytes(w) as u128;
        }
        let mut w = [0u8; 16];
        w[..len].copy_from_slice(bytes);
        u128::from_le_bytes(w)
    }

    pub(super) fn write_raw(&mut self, cta: &mut Cta, w: &mut Warp, lane: usize, src: &MemSrc, off: usize, eb: usize, v: u64) {
        let bytes: &mut [u8] = match src {
            MemSrc::Arg(i) => {
                for (i, b) in self.bufs[self.arg_buf[*i].expect("checked")][off..off + eb].iter().enumerate() {
                    b.store((v >> (8 * i)) as u8, Relaxed);
                }
                return;
            }
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
}

/// A global access as the cross-CTA checker sees it.
#[derive(Clone, Copy)]
pub(super) enum Access {
    Read,
    Write,
    Acquire,
    Release,
}

/// The first byte two ranges `(offset, length)` share, if any.
fn overlap(a: (usize, usize), b: (usize, usize)) -> Option<usize> {
    let start = a.0.max(b.0);
    (start < (a.0 + a.1).min(b.0 + b.1)).then_some(start)
}
