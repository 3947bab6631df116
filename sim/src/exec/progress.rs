//! Loops that provably make no progress (no memory read, no change of the carried values).

use super::*;

impl Ctx<'_> {
    /// At a loop's latch: a loop whose carried values (and the warp's mask) are the same as at
    /// its previous latch, with no memory read in between, runs the same iteration forever; it
    /// is reported at once as a deadlock at the loop. A spin on memory reads is left to the
    /// instruction bound.
    pub(super) fn check_progress(&self, cta: &Cta, w: &mut Warp, carried: impl Iterator<Item = Slot>, loc: u32) -> Result<(), Fault> {
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
        let (pc, reads, writes) = (w.pc, w.progress.reads, self.writes);
        match w.progress.seen.iter_mut().find(|(p, ..)| *p == pc) {
            Some((_, r, _, old)) if *r == reads && *old == h => Err(self.fault(
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
                // The same state, and nothing written anywhere since: this iteration read what
                // the last one read.
                w.progress.stalled = e.2 == writes && e.3 == h;
                *e = (pc, reads, writes, h);
                Ok(())
            }
            None => {
                w.progress.seen.push((pc, reads, writes, h));
                Ok(())
            }
        }
    }
}
