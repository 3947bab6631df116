//! The race checker of global memory across CTAs, for kernels that synchronise CTAs.
//!
//! Each CTA is one agent with a vector clock (CTA -> count). A release store snapshots the
//! releasing CTA's clock on the location, then ticks its own count; an acquire load joins the
//! location's snapshot into the acquiring CTA's clock. Every plain global access records the
//! CTA and its count; an access of a byte that another CTA wrote (or, for a write, read) at a
//! count the accessing CTA's clock has not reached is a race: nothing orders the two. Within a
//! CTA, threads are one agent (its barriers order them; the shared-memory checker covers
//! shared memory); atomics neither race nor order (they are relaxed, as CUDA's); `fence()`
//! orders nothing here (the clocks move only at release/acquire pairs).
//!
//! It runs when the kernel has an ordered access or an atomic (kernels that talk across CTAs),
//! or for every kernel with `Options::check_plain_races`; its shadow costs 16 bytes per global
//! byte the kernel touches. With `check_plain_races` it also checks the warps of each CTA
//! against each other: two plain accesses of a byte by different warps of one CTA, one a write,
//! in one barrier epoch (no `barrier()` between them) race (24 more bytes per byte).

use std::collections::{BTreeMap, HashMap};

/// A vector clock: CTA (linear id) -> count.
type Clock = BTreeMap<u32, u32>;

/// An access record: (CTA + 1, the CTA's count then); CTA 0 means nobody.
type Stamp = (u32, u32);

#[derive(Default)]
pub(super) struct Ordering {
    clocks: HashMap<u32, Clock>,
    /// Per buffer: per byte, the last plain write, and a read since it (the first reader CTA's
    /// latest); reads of the byte by further CTAs since that write go to `more_reads`.
    writes: HashMap<usize, Vec<Stamp>>,
    reads: HashMap<usize, Vec<Stamp>>,
    more_reads: HashMap<(usize, usize), Vec<Stamp>>,
    /// Per (buffer, byte) of a release store: the releasing CTA's clock.
    released: HashMap<(usize, usize), Clock>,
    /// Per buffer, per byte: the last plain write and read within a CTA ([`Within`]).
    within_writes: HashMap<usize, Vec<Within>>,
    within_reads: HashMap<usize, Vec<Within>>,
}

/// An access within a CTA: (CTA + 1, warp, barrier epoch); CTA 0 means nobody, warp
/// [`SEVERAL`] that more than one warp read it in that epoch.
type Within = (u32, u32, u32);

/// The warp of a read that several warps made.
const SEVERAL: u32 = u32::MAX;

/// Who accesses, for the check between the warps of a CTA: its warp and barrier epoch.
#[derive(Clone, Copy)]
pub(super) struct Accessor {
    pub(super) warp: u32,
    pub(super) epoch: u32,
}

/// A race found: the other CTA (or, `warp`, the other warp of this CTA: [`SEVERAL`] for
/// several) and what it did.
pub(super) struct Conflict {
    pub(super) other: u32,
    pub(super) warp: Option<u32>,
    pub(super) what: &'static str,
    pub(super) byte: usize,
}

impl Conflict {
    /// Whom the conflict is with, in words: `CTA (1, 0, 0)`, `warp 3 of this CTA`.
    pub(super) fn whom(&self, grid: [u32; 3]) -> String {
        let [gx, gy, _] = grid;
        match self.warp {
            Some(SEVERAL) => "other warps of this CTA".into(),
            Some(w) => format!("warp {w} of this CTA"),
            None => format!("CTA ({}, {}, {})", self.other % gx, (self.other / gx) % gy, self.other / (gx * gy)),
        }
    }
}

impl Ordering {
    fn count(&mut self, cta: u32) -> u32 {
        *self.clocks.entry(cta).or_default().entry(cta).or_insert(1)
    }

    fn ordered(&self, cta: u32, stamp: Stamp) -> bool {
        let (who, at) = stamp;
        who == 0 || who - 1 == cta || self.clocks.get(&cta).and_then(|c| c.get(&(who - 1))).is_some_and(|seen| *seen >= at)
    }

    fn shadow(map: &mut HashMap<usize, Vec<Stamp>>, buf: usize, size: usize) -> &mut Vec<Stamp> {
        let v = map.entry(buf).or_default();
        if v.len() < size {
            v.resize(size, (0, 0));
        }
        v
    }

    /// A plain read of bytes `[off, off + len)` of buffer `buf` (`size` bytes) by `cta`.
    pub(super) fn read(&mut self, cta: u32, buf: usize, size: usize, off: usize, len: usize) -> Result<(), Conflict> {
        let now = self.count(cta);
        let writes = Self::shadow(&mut self.writes, buf, size)[off..off + len].to_vec();
        for (i, w) in writes.into_iter().enumerate() {
            if !self.ordered(cta, w) {
                return Err(Conflict { other: w.0 - 1, warp: None, what: "a read of data written by", byte: off + i });
            }
        }
        let reads = Self::shadow(&mut self.reads, buf, size);
        for (i, s) in reads[off..off + len].iter_mut().enumerate() {
            let b = off + i;
            if s.0 == 0 || s.0 == cta + 1 {
                *s = (cta + 1, now);
            } else {
                // Another CTA read it too: keep every reader CTA's latest read until a write.
                let more = self.more_reads.entry((buf, b)).or_default();
                match more.iter_mut().find(|m| m.0 == cta + 1) {
                    Some(m) => m.1 = now,
                    None => more.push((cta + 1, now)),
                }
            }
        }
        Ok(())
    }

    /// A plain write of bytes `[off, off + len)` of buffer `buf` by `cta`.
    pub(super) fn write(&mut self, cta: u32, buf: usize, size: usize, off: usize, len: usize) -> Result<(), Conflict> {
        let now = self.count(cta);
        let writes = Self::shadow(&mut self.writes, buf, size)[off..off + len].to_vec();
        let reads = Self::shadow(&mut self.reads, buf, size)[off..off + len].to_vec();
        for i in 0..len {
            if !self.ordered(cta, writes[i]) {
                return Err(Conflict { other: writes[i].0 - 1, warp: None, what: "a write of data written by", byte: off + i });
            }
            let more = self.more_reads.get(&(buf, off + i)).map(|m| m.as_slice()).unwrap_or(&[]);
            if let Some(r) = std::iter::once(&reads[i]).chain(more).find(|r| !self.ordered(cta, **r)) {
                return Err(Conflict { other: r.0 - 1, warp: None, what: "a write of data read by", byte: off + i });
            }
        }
        for s in &mut Self::shadow(&mut self.writes, buf, size)[off..off + len] {
            *s = (cta + 1, now);
        }
        // The reads are ordered before this write, and so before any write ordered after it.
        for (i, s) in Self::shadow(&mut self.reads, buf, size)[off..off + len].iter_mut().enumerate() {
            *s = (0, 0);
            self.more_reads.remove(&(buf, off + i));
        }
        Ok(())
    }

    /// A plain access of bytes `[off, off + len)` of `buf` (`size` bytes) by warp `by` of `cta`,
    /// against the other warps of the CTA since its last barrier.
    pub(super) fn within(
        &mut self,
        cta: u32,
        by: Accessor,
        buf: usize,
        size: usize,
        off: usize,
        len: usize,
        write: bool,
    ) -> Result<(), Conflict> {
        let me = (cta + 1, by.warp, by.epoch);
        let other = |s: &Within| s.0 == me.0 && s.2 == me.2 && s.1 != me.1;
        let writes = Self::shadow3(&mut self.within_writes, buf, size);
        if let Some(i) = (off..off + len).find(|i| other(&writes[*i])) {
            let what = if write { "a write of data written by" } else { "a read of data written by" };
            return Err(Conflict { other: cta, warp: Some(writes[i].1), what, byte: i });
        }
        if write {
            writes[off..off + len].iter_mut().for_each(|s| *s = me);
            let reads = Self::shadow3(&mut self.within_reads, buf, size);
            if let Some(i) = (off..off + len).find(|i| other(&reads[*i])) {
                return Err(Conflict { other: cta, warp: Some(reads[i].1), what: "a write of data read by", byte: i });
            }
            return Ok(());
        }
        for s in &mut Self::shadow3(&mut self.within_reads, buf, size)[off..off + len] {
            *s = if other(s) {
                (me.0, SEVERAL, me.2)
            } else if s.1 == SEVERAL && s.0 == me.0 && s.2 == me.2 {
                *s
            } else {
                me
            };
        }
        Ok(())
    }

    fn shadow3(map: &mut HashMap<usize, Vec<Within>>, buf: usize, size: usize) -> &mut Vec<Within> {
        let v = map.entry(buf).or_default();
        if v.len() < size {
            v.resize(size, (0, 0, 0));
        }
        v
    }

    /// A release store by `cta` to byte `off` of `buf`: publishes everything `cta` did so far.
    pub(super) fn release(&mut self, cta: u32, buf: usize, off: usize) {
        self.count(cta);
        let clock = self.clocks.get(&cta).cloned().unwrap_or_default();
        self.released.insert((buf, off), clock);
        *self.clocks.entry(cta).or_default().entry(cta).or_insert(1) += 1;
    }

    /// An acquire load by `cta` of byte `off` of `buf`: sees what the last release there saw.
    pub(super) fn acquire(&mut self, cta: u32, buf: usize, off: usize) {
        let Some(seen) = self.released.get(&(buf, off)).cloned() else { return };
        let mine = self.clocks.entry(cta).or_default();
        for (k, v) in seen {
            let e = mine.entry(k).or_insert(0);
            *e = (*e).max(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(warp: u32, epoch: u32) -> Accessor {
        Accessor { warp, epoch }
    }

    #[test]
    fn warps_of_a_cta_race_within_an_epoch_only() {
        let mut o = Ordering::default();
        // Two warps read byte 0, then one of them writes it: the other read is unordered.
        o.within(0, at(0, 1), 0, 8, 0, 4, false).unwrap_or_else(|_| panic!("a first read"));
        o.within(0, at(1, 1), 0, 8, 0, 4, false).unwrap_or_else(|_| panic!("reads do not race"));
        let c = o.within(0, at(0, 1), 0, 8, 0, 4, true).expect_err("a write after another warp's read");
        assert_eq!((c.warp, c.what, c.byte), (Some(SEVERAL), "a write of data read by", 0));
        // After a barrier (a new epoch) the same write is ordered; the same warp never races.
        let mut o = Ordering::default();
        o.within(0, at(1, 1), 0, 8, 2, 2, false).unwrap_or_else(|_| panic!("a read"));
        o.within(0, at(0, 2), 0, 8, 0, 4, true).unwrap_or_else(|_| panic!("ordered by the barrier"));
        o.within(0, at(0, 2), 0, 8, 0, 4, false).unwrap_or_else(|_| panic!("the writer's own warp"));
        let c = o.within(0, at(3, 2), 0, 8, 3, 1, false).expect_err("another warp reads the write");
        assert_eq!((c.warp, c.byte), (Some(0), 3));
        // Another CTA's records are not this check's (the clocks order CTAs).
        o.within(1, at(3, 2), 0, 8, 0, 4, true).unwrap_or_else(|_| panic!("another CTA"));
    }
}
