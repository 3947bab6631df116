//! Warpgroup tensor-core products (`wgmma.mma_async`), per warp: a warpgroup's product is the
//! four warps' 16-row slices, each computed from its own rows of A and all of B, so each warp
//! runs its slice when it reaches the instruction (the operands sit in shared memory, which
//! the instruction's rules keep unchanged until the wait). A and B are read through their
//! matrix descriptors ([`crate::mma::WgmmaDesc`]) when the instruction issues; products are
//! exact in f64 and rounded once, as `mma.sync`'s. The results are pending until a
//! `wgmma.wait_group` covers their commit group: reading one before (an `llvm.extractvalue` of
//! it) is a fault naming the `wgmma`; passing it to the next `wgmma` as its accumulator is the
//! chaining the instruction allows.

use super::*;
use crate::mma::{wgmma_d_at, MmaType, WgmmaDesc};

/// One result not yet waited for: its warp, commit group (`None`: not committed), registers
/// and the `wgmma` that writes them.
struct Result_ {
    warp: u32,
    group: Option<u32>,
    dst: Slot,
    loc: u32,
}

/// A CTA's `wgmma` results in flight, and what each warpgroup's warps issued: the four warps
/// of a warpgroup issue the same instructions (`.sync.aligned` across the warpgroup).
#[derive(Default)]
pub(super) struct Pending {
    results: Vec<Result_>,
    /// Per warp: the `wgmma.mma_async` it issued so far.
    pub(super) issued: Vec<u32>,
    /// Per (warpgroup, sequence number): the descriptors, the warp that issued it first, and
    /// how many of the four have.
    seen: std::collections::HashMap<(u32, u32), ([u64; 2], u32, u8)>,
}

impl Pending {
    pub(super) fn any(&self) -> bool {
        !self.results.is_empty()
    }
}

impl Ctx<'_> {
    pub(super) fn exec_wgmma(&mut self, cta: &mut Cta, w: &mut Warp, inst: &Inst) -> Result<(), Fault> {
        match inst {
            Inst::WgmmaFence { loc } => self.whole_warp(cta, w, "wgmma.fence", *loc),
            Inst::WgmmaCommit { loc } => {
                self.whole_warp(cta, w, "wgmma.commit_group", *loc)?;
                let mine = cta.wgmma.results.iter().filter(|r| r.warp == w.index);
                let next = mine.filter_map(|r| r.group).max().map_or(0, |g| g + 1);
                for r in cta.wgmma.results.iter_mut().filter(|r| r.warp == w.index && r.group.is_none()) {
                    r.group = Some(next);
                }
                Ok(())
            }
            Inst::WgmmaWait { n, loc } => {
                self.whole_warp(cta, w, "wgmma.wait_group", *loc)?;
                let mut groups: Vec<u32> = cta.wgmma.results.iter().filter(|r| r.warp == w.index).filter_map(|r| r.group).collect();
                groups.sort_unstable();
                groups.dedup();
                let keep = groups.len().saturating_sub(*n as usize);
                let done: Vec<u32> = groups[..keep].to_vec();
                cta.wgmma.results.retain(|r| r.warp != w.index || !r.group.is_some_and(|g| done.contains(&g)));
                Ok(())
            }
            Inst::Wgmma { .. } => self.wgmma(cta, w, inst),
            _ => Ok(()),
        }
    }

    /// A read of registers `src`: a fault if a `wgmma` this warp issued still writes them.
    pub(super) fn wgmma_read(&self, cta: &Cta, w: &Warp, src: Slot) -> Result<(), Fault> {
        let overlaps = |d: Slot| src.off < d.off + d.len && d.off < src.off + src.len;
        let Some(r) = cta.wgmma.results.iter().find(|r| r.warp == w.index && overlaps(r.dst)) else { return Ok(()) };
        let site = match &self.k.locs[r.loc as usize].1 {
            Some(l) => format!("at {l}"),
            None => format!("`{}`", self.k.locs[r.loc as usize].0),
        };
        let message = format!(
            "read of the result of the wgmma.mma_async {site} before a wgmma.wait_group covers it ({})",
            if r.group.is_some() { "its group is committed, not waited for" } else { "it is not even committed" }
        );
        Err(self.fault(FaultKind::Race, cta, Some((w, w.mask.trailing_zeros().min(31) as usize)), None, message))
    }

    /// Warp `w`'s next `wgmma` against the same one of the other warps of its warpgroup.
    fn same_in_warpgroup(&self, cta: &mut Cta, w: &Warp, descs: [u64; 2], loc: u32) -> Result<(), Fault> {
        let p = &mut cta.wgmma;
        if p.issued.len() <= w.index as usize {
            p.issued.resize(w.index as usize + 1, 0);
        }
        let seq = p.issued[w.index as usize];
        p.issued[w.index as usize] += 1;
        let key = (w.index / 4, seq);
        match p.seen.get(&key).copied() {
            None => {
                p.seen.insert(key, (descs, w.index, 1));
            }
            // All four issued it: forget it.
            Some((first, _, 3)) if first == descs => {
                p.seen.remove(&key);
            }
            Some((first, by, n)) if first == descs => {
                p.seen.insert(key, (first, by, n + 1));
            }
            Some((first, by, _)) => {
                let message = format!(
                    "wgmma.mma_async number {} of warp {} reads A and B through descriptors {:#x}, {:#x}; warp {by}'s of the same warpgroup through {:#x}, {:#x}: a warpgroup's four warps issue the same wgmma",
                    seq + 1,
                    w.index,
                    descs[0],
                    descs[1],
                    first[0],
                    first[1]
                );
                return Err(self.fault(FaultKind::DivergentShuffle, cta, Some((w, 0)), Some(loc), message));
            }
        }
        Ok(())
    }

    /// Warp `w` returns: the warps of its warpgroup that returned before issued as many wgmma.
    pub(super) fn wgmma_retire(&self, cta: &Cta, w: &Warp) -> Result<(), Fault> {
        let issued = |i: u32| cta.wgmma.issued.get(i as usize).copied().unwrap_or(0);
        let group = w.index / 4;
        for v in (4 * group..4 * group + 4).filter(|v| *v != w.index && (*v as usize) < cta.warps.len()) {
            if cta.warps[v as usize].status == Status::Done && issued(v) != issued(w.index) {
                let message = format!(
                    "warp {} issued {} wgmma.mma_async and warp {v} of the same warpgroup {}: a warpgroup's four warps run each wgmma together (not under control that differs between them)",
                    w.index,
                    issued(w.index),
                    issued(v)
                );
                return Err(self.fault(FaultKind::DivergentShuffle, cta, Some((w, 0)), None, message));
            }
        }
        Ok(())
    }

    fn wgmma(&mut self, cta: &mut Cta, w: &mut Warp, inst: &Inst) -> Result<(), Fault> {
        let Inst::Wgmma { n, ty, a_kmajor, b_kmajor, scale_d, neg_a, neg_b, a_desc, b_desc, c, dst, loc } = inst else {
            return Ok(());
        };
        let (n, loc) = (*n as usize, *loc);
        self.whole_warp(cta, w, "wgmma.mma_async", loc)?;
        let warps = cta.warps.len() as u32;
        if (w.index / 4) * 4 + 3 >= warps {
            let plural = if warps == 1 { "" } else { "s" };
            let message =
                format!("wgmma.mma_async needs a warpgroup of 4 warps; warp {} has none (the CTA has {warps} warp{plural})", w.index);
            return Err(self.fault(FaultKind::DivergentShuffle, cta, Some((w, 0)), Some(loc), message));
        }
        // The descriptors are the warpgroup's: the same in every lane.
        let mut descs = [WgmmaDesc::decode(0); 2];
        for (d, slot, name) in [(0, *a_desc, "A"), (1, *b_desc, "B")] {
            let first = w.regs[at(slot, 0, 0)];
            if let Some(l) = (1..32).find(|l| w.regs[at(slot, 0, *l)] != first) {
                let message = format!("wgmma.mma_async's {name} descriptor differs between lanes 0 and {l}: a warpgroup has one");
                return Err(self.fault(FaultKind::DivergentShuffle, cta, Some((w, l)), Some(loc), message));
            }
            descs[d] = WgmmaDesc::decode(first);
            if !descs[d].aligned() {
                let message = format!(
                    "wgmma.mma_async's {name} at shared byte {} is not where its {}-byte swizzle pattern starts (a multiple of {} bytes, base offset 0)",
                    descs[d].start,
                    descs[d].width(),
                    8 * descs[d].width()
                );
                return Err(self.fault(FaultKind::Misaligned, cta, Some((w, 0)), Some(loc), message));
            }
        }
        self.same_in_warpgroup(cta, w, [w.regs[at(*a_desc, 0, 0)], w.regs[at(*b_desc, 0, 0)]], loc)?;
        let elem = (ty.bits() / 8) as u64;
        let slice = w.index % 4;
        // This warp's 16 rows of A and all of B, each element read at its address.
        let mut span = [(u64::MAX, 0u64); 2];
        let mut read = |this: &mut Self, cta: &mut Cta, which: usize, d: WgmmaDesc, kmajor: bool, mn: u64, k: u64| -> Result<f64, Fault> {
            let addr = d.address(kmajor, mn, k, elem) as usize;
            span[which] = (span[which].0.min(addr as u64), span[which].1.max(addr as u64 + elem));
            if addr + elem as usize > cta.shared.len() {
                let message = format!("wgmma.mma_async reads shared byte {addr}, past the {} bytes of shared memory", cta.shared.len());
                return Err(this.fault(FaultKind::OutOfBounds, cta, Some((w, 0)), Some(loc), message));
            }
            this.check_race(cta, w, 0, addr, elem as usize, false, loc)?;
            Ok(ty.value(u16::from_le_bytes([cta.shared[addr], cta.shared[addr + 1]]) as u64))
        };
        let mut am = [0f64; 16 * 16];
        for r in 0..16 {
            for k in 0..16 {
                let v = read(self, cta, 0, descs[0], *a_kmajor, (16 * slice + r) as u64, k as u64)?;
                am[r as usize * 16 + k] = if *neg_a { -v } else { v };
            }
        }
        let mut bm = vec![0f64; n * 16];
        for col in 0..n {
            for k in 0..16 {
                let v = read(self, cta, 1, descs[1], *b_kmajor, col as u64, k as u64)?;
                bm[col * 16 + k] = if *neg_b { -v } else { v };
            }
        }
        for lane in 0..32u32 {
            for i in 0..n as u32 / 2 {
                let (row, col) = wgmma_d_at(slice, lane, i);
                let (r, col) = ((row - 16 * slice) as usize, col as usize);
                let acc = if *scale_d { MmaType::F32.value(w.regs[at(*c, i, lane as usize)]) } else { 0.0 };
                let s: f64 = am[r * 16..r * 16 + 16].iter().zip(&bm[col * 16..col * 16 + 16]).map(|(x, y)| x * y).sum::<f64>() + acc;
                w.regs[at(*dst, i, lane as usize)] = (s as f32).to_bits() as u64;
            }
        }
        if let Some(t) = self.tracing(cta) {
            for (lo, hi) in span {
                t.event(w.pc, w.index, super::trace::EventKind::Read, [(lo, hi - lo)]);
            }
        }
        cta.wgmma.results.push(Result_ { warp: w.index, group: None, dst: *dst, loc });
        self.stats.wgmma += 1;
        Ok(())
    }
}
