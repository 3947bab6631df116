//! The race checker of global memory across CTAs, for kernels that synchronise CTAs (issue 15).
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
//! It runs when the kernel has an ordered access or an atomic (kernels that talk across CTAs);
//! its shadow costs 16 bytes per global byte the kernel touches.

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
}

/// A race found: the other CTA and what it did.
pub(super) struct Conflict {
    pub(super) other: u32,
    pub(super) what: &'static str,
    pub(super) byte: usize,
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
                return Err(Conflict { other: w.0 - 1, what: "a read of data written by", byte: off + i });
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
                return Err(Conflict { other: writes[i].0 - 1, what: "a write of data written by", byte: off + i });
            }
            let more = self.more_reads.get(&(buf, off + i)).map(|m| m.as_slice()).unwrap_or(&[]);
            if let Some(r) = std::iter::once(&reads[i]).chain(more).find(|r| !self.ordered(cta, **r)) {
                return Err(Conflict { other: r.0 - 1, what: "a write of data read by", byte: off + i });
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
