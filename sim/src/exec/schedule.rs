//! Running a launch's CTAs. As many are resident at once as the simulated SMs hold; each round
//! gives every ready warp of every resident CTA a time slice and opens the barriers every warp
//! of a CTA reached. Kernels whose CTAs talk (atomics, ordered accesses) run their CTAs in one
//! round-robin on one thread, and the first fault met stops the launch. Kernels whose CTAs do
//! not talk run on [`Options::threads`] threads, each taking the next CTA in order: results and
//! statistics are the same whatever the thread count, and the fault reported is that of the
//! lowest-numbered CTA that faults (every CTA below it runs to its end).

use super::*;
use std::sync::{
    atomic::{AtomicU64, Ordering as MemOrder},
    Mutex,
};

/// The launch's shape, as the scheduler needs it.
pub(super) struct Grid {
    pub(super) total: u64,
    pub(super) nwarps: u32,
    pub(super) threads: u32,
    pub(super) shared_bytes: usize,
    pub(super) resident_limit: usize,
}

impl Ctx<'_> {
    /// CTA number `index` (x fastest), its warps ready.
    fn new_cta(&mut self, g: &Grid, index: u64) -> Cta {
        let gx = self.launch.grid[0] as u64;
        let gy = self.launch.grid[1] as u64;
        let id = [(index % gx) as u32, ((index / gx) % gy) as u32, (index / (gx * gy)) as u32];
        // A retired CTA's race records serve again unzeroed: this CTA's epochs start past its
        // last, and every record counts only in the epoch it was made in.
        let (words, chunks, epoch) = match self.spare_records.pop() {
            // Far from the epochs' end: a wrapped epoch would revive stale records.
            Some((words, chunks, last)) if words.len() == g.shared_bytes && last < u32::MAX / 2 => (words, chunks, last + 1),
            _ => (vec![Word::default(); g.shared_bytes], vec![Chunk::default(); g.shared_bytes.div_ceil(CHUNK)], 1),
        };
        Cta {
            id,
            warps: (0..g.nwarps).map(|i| self.new_warp(i, g.threads)).collect(),
            shared: vec![0u8; g.shared_bytes],
            words,
            chunks,
            epoch,
            scattered: HashMap::new(),
            asyncs: Default::default(),
            wgmma: Default::default(),
            tma: Default::default(),
        }
    }

    /// CTA `id`'s number in the grid (x fastest).
    fn index_of(&self, id: [u32; 3]) -> u64 {
        let [gx, gy, _] = self.launch.grid;
        id[0] as u64 + gx as u64 * (id[1] as u64 + gy as u64 * id[2] as u64)
    }

    /// One round over `resident`: a slice of each ready warp, then the barriers every warp of
    /// a CTA waits at open. A CTA that faults stops there: its position and fault are pushed to
    /// `faults`, in the order met. Returns whether anything ran.
    fn round(&mut self, resident: &mut [Cta], faults: &mut Vec<(usize, Fault)>) -> bool {
        let mut progressed = false;
        'ctas: for ci in 0..resident.len() {
            for wi in 0..resident[ci].warps.len() {
                if let Status::Mbarrier(pc) = resident[ci].warps[wi].status {
                    // Its phase may have completed since: the wait is over if so.
                    let Inst::MbarWait { addr, parity, loc } = self.k.insts[pc] else { unreachable!("a warp waits at a wait") };
                    let cta = &mut resident[ci];
                    let w = std::mem::replace(&mut cta.warps[wi], Warp::placeholder());
                    let done = self.mbar_done(cta, &w, (addr, parity), loc);
                    cta.warps[wi] = w;
                    match done {
                        Ok(true) => {
                            cta.warps[wi].status = Status::Ready;
                            cta.warps[wi].pc = pc + 1;
                            progressed = true;
                        }
                        Ok(false) => {}
                        Err(f) => {
                            faults.push((ci, f));
                            continue 'ctas;
                        }
                    }
                }
                if resident[ci].warps[wi].status == Status::Ready {
                    if let Err(f) = self.step(&mut resident[ci], wi, self.opts.slice) {
                        faults.push((ci, f));
                        continue 'ctas;
                    }
                    progressed = true;
                    // Past the launch's bound (this thread's or another's instructions): the
                    // fault of the lowest CTA still running, resident first.
                    if self.past_launch_bound() {
                        faults.push((0, self.runaway(&resident[0])));
                        return progressed;
                    }
                }
            }
            let cta = &mut resident[ci];
            match self.open_barrier(cta) {
                Ok(opened) => progressed |= opened,
                Err(f) => faults.push((ci, f)),
            }
        }
        progressed
    }

    /// Opens the barrier every warp of `cta` waits at, if they all do; a barrier some warps
    /// skipped (returned, or wait at another one) is a fault.
    fn open_barrier(&self, cta: &mut Cta) -> Result<bool, Fault> {
        let waiting: Vec<usize> =
            cta.warps.iter().enumerate().filter(|(_, w)| matches!(w.status, Status::Barrier(_))).map(|(i, _)| i).collect();
        if waiting.is_empty() || cta.warps.iter().any(|w| matches!(w.status, Status::Ready | Status::Mbarrier(_))) {
            return Ok(false);
        }
        let k = self.k;
        let done: Vec<u32> = cta.warps.iter().filter(|w| w.status == Status::Done).map(|w| w.index).collect();
        let first = &cta.warps[waiting[0]];
        let Status::Barrier(pc) = first.status else { unreachable!() };
        let loc = inst_loc(&k.insts[pc]);
        if !done.is_empty() {
            return Err(self.fault(
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
            return Err(self.fault(
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
        cta.scattered.clear();
        for w in cta.warps.iter_mut() {
            if matches!(w.status, Status::Barrier(_)) {
                w.status = Status::Ready;
            }
        }
        Ok(true)
    }

    /// After a round: every live warp spins on memory nobody writes (or waits at a barrier
    /// that such a warp never reaches), or nothing ran at all: nothing can change any more. The
    /// fault of the first such CTA, and its position.
    fn stuck(&self, resident: &[Cta], progressed: bool) -> Option<(usize, Fault)> {
        let live = || {
            resident
                .iter()
                .enumerate()
                .flat_map(|(i, c)| c.warps.iter().map(move |w| (i, c, w)))
                .filter(|(_, _, w)| w.status != Status::Done)
        };
        if live().any(|(_, _, w)| w.progress.stalled)
            && live().all(|(_, _, w)| w.progress.stalled || matches!(w.status, Status::Barrier(_)))
        {
            let (i, cta, w) = live().find(|(_, _, w)| w.progress.stalled).expect("a stalled warp");
            let f = self.fault(
                FaultKind::Deadlock,
                cta,
                Some((w, w.mask.trailing_zeros().min(31) as usize)),
                w.progress.last_loop,
                format!(
                    "warp {} spins in this loop on memory that no thread writes any more: every live warp of the resident CTAs is spinning or waiting at a barrier",
                    w.index
                ),
            );
            return Some((i, f));
        }
        let running = resident.iter().any(|c| c.warps.iter().any(|w| w.status != Status::Done));
        if !progressed && running {
            if let Some((i, f)) = resident.iter().enumerate().find_map(|(i, c)| self.mbar_stuck(c).map(|f| (i, f))) {
                return Some((i, f));
            }
        }
        (!progressed && running)
            .then(|| (0, self.fault(FaultKind::Deadlock, &resident[0], None, None, "no warp can run: every live warp waits".into())))
    }

    /// Drops the CTAs whose warps all returned, counting them.
    fn retire(&mut self, resident: &mut Vec<Cta>) {
        let before = resident.len();
        let mut kept = Vec::with_capacity(before);
        for c in resident.drain(..) {
            if c.warps.iter().any(|w| w.status != Status::Done) {
                kept.push(c);
            } else {
                self.spare_records.push((c.words, c.chunks, c.epoch));
                self.spare_regs.extend(c.warps.into_iter().map(|w| w.regs));
            }
        }
        *resident = kept;
        self.stats.ctas += (before - resident.len()) as u64;
    }
}

/// Every CTA in one round-robin on this thread; the first fault met stops the launch.
pub(super) fn in_turn(ctx: &mut Ctx, g: &Grid) -> Result<(), Fault> {
    let mut next = 0;
    let mut resident: Vec<Cta> = Vec::new();
    loop {
        while resident.len() < g.resident_limit && next < g.total {
            resident.push(ctx.new_cta(g, next));
            next += 1;
        }
        if resident.is_empty() {
            return Ok(());
        }
        let mut faults = Vec::new();
        let progressed = ctx.round(&mut resident, &mut faults);
        if let Some((_, f)) = faults.into_iter().next() {
            return Err(f);
        }
        if let Some((_, f)) = ctx.stuck(&resident, progressed) {
            return Err(f);
        }
        ctx.retire(&mut resident);
    }
}

/// Keeps the lowest-numbered of `faults` (and of those recorded before) as the launch's fault;
/// drops the CTAs that faulted, and those past the lowest fault (they cannot change the report).
fn record(ctx: &Ctx, resident: &mut Vec<Cta>, faults: Vec<(usize, Fault)>, lowest: &AtomicU64, fault: &Mutex<Option<Fault>>) {
    let mut failed = vec![false; resident.len()];
    for (ci, f) in faults {
        failed[ci] = true;
        let i = ctx.index_of(f.cta);
        let mut held = fault.lock().unwrap_or_else(|e| e.into_inner());
        if i < lowest.load(MemOrder::Relaxed) {
            lowest.store(i, MemOrder::Relaxed);
            *held = Some(f);
        }
    }
    let bound = lowest.load(MemOrder::Relaxed);
    let mut keep = failed.into_iter().map(|f| !f);
    resident.retain(|c| keep.next().unwrap_or(false) && ctx.index_of(c.id) < bound);
}

/// CTAs that do not talk, on `workers` threads (scoped), each with a context of its own made
/// by `context` over the same global memory; their statistics added up. The fault reported is
/// that of the lowest-numbered CTA that faults.
pub(super) fn independent<'a>(workers: usize, g: &Grid, context: impl Fn() -> Ctx<'a> + Sync) -> Result<Stats, Fault> {
    let next = AtomicU64::new(0);
    // The lowest CTA that faulted so far (u64::MAX: none), and its fault.
    let lowest = AtomicU64::new(u64::MAX);
    let fault: Mutex<Option<Fault>> = Mutex::new(None);
    // CTAs that do not talk need not be resident together: two per worker keep its warps busy
    // without holding every CTA's register files at once (megabytes each for a tensor-core
    // kernel), and reuse the files of the CTAs that return.
    let limit = (g.resident_limit / workers).clamp(1, 2);
    let stats: Vec<Stats> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut ctx = context();
                    let mut resident: Vec<Cta> = Vec::new();
                    let mut fetching = true;
                    loop {
                        while fetching && resident.len() < limit {
                            let i = next.fetch_add(1, MemOrder::Relaxed);
                            if i >= g.total || i > lowest.load(MemOrder::Relaxed) {
                                fetching = false;
                                break;
                            }
                            resident.push(ctx.new_cta(g, i));
                        }
                        if resident.is_empty() {
                            return ctx.stats;
                        }
                        let mut faults = Vec::new();
                        let progressed = ctx.round(&mut resident, &mut faults);
                        record(&ctx, &mut resident, faults, &lowest, &fault);
                        let stuck: Vec<(usize, Fault)> = ctx.stuck(&resident, progressed).into_iter().collect();
                        record(&ctx, &mut resident, stuck, &lowest, &fault);
                        ctx.retire(&mut resident);
                    }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a simulator thread panicked")).collect()
    });
    if let Some(f) = fault.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(f);
    }
    Ok(stats.iter().fold(Stats::default(), |a, s| a.plus(s)))
}
