//! The state of a run: warps (registers, masks, control frames), CTAs (shared memory and the
//! race checker's words), and the context every step reads.

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Frame {
    If { saved: u32, else_mask: u32 },
    Loop { saved: u32 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Status {
    Ready,
    Barrier(usize),
    /// Waiting at the `mbarrier.try_wait.parity` at this pc for its phase.
    Mbarrier(usize),
    Done,
}

pub(super) struct Warp {
    pub(super) pc: usize,
    pub(super) mask: u32,
    pub(super) live: u32,
    pub(super) frames: Vec<Frame>,
    pub(super) regs: Vec<u64>,
    pub(super) private: Vec<u8>,
    pub(super) index: u32,
    pub(super) status: Status,
    pub(super) insts: u64,
    pub(super) progress: Progress,
    /// Tensor-core fragment registers decoded lately (`mma`).
    pub(super) fragments: super::mma::Fragments,
}

impl Warp {
    /// A warp that holds nothing: what stands in a CTA's list while its warp runs.
    pub(super) fn placeholder() -> Warp {
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
            fragments: Default::default(),
        }
    }
}

/// What the no-progress check of loops knows about one warp.
#[derive(Default)]
pub(super) struct Progress {
    /// Memory reads (loads, atomics) so far: what a loop could observe changing.
    pub(super) reads: u64,
    /// Per loop latch (its pc): the reads count, the launch's write count and a hash of the
    /// loop-carried state the last time the warp passed it.
    pub(super) seen: Vec<(usize, u64, u64, u64)>,
    /// The location of the loop latch passed last.
    pub(super) last_loop: Option<u32>,
    /// In this time slice, the warp came back to a loop latch in the same state with no memory
    /// written by anyone since: spinning on memory nobody changes. When every live warp of the
    /// resident CTAs is stalled (or waits at a barrier), nothing can ever change: a deadlock.
    pub(super) stalled: bool,
}

/// Loops are checked for progress only once a warp has run this many instructions, so that
/// ordinary kernels pay nothing for the check.
pub(super) const PROGRESS_CHECK_AFTER: u64 = 100_000;

/// FNV-1a over 64-bit words.
pub(super) fn hash_words(words: impl Iterator<Item = u64>) -> u64 {
    words.fold(0xcbf2_9ce4_8422_2325, |h, w| (h ^ w).wrapping_mul(0x0000_0100_0000_01b3))
}

/// Who touched a shared byte last, in which barrier epoch (for the race check). Threads are
/// numbered from 1 (0 means nobody).
#[derive(Clone, Copy, Default)]
pub(super) struct Word {
    pub(super) w_epoch: u32,
    pub(super) r_epoch: u32,
    pub(super) w_thread: u16,
    pub(super) r_thread: u16,
    pub(super) r_warp: u8,
    pub(super) r_multi_warp: bool,
}

/// A 16-byte chunk of shared memory for the race check: the last epoch any of its bytes was
/// written in (a read of a chunk not written this epoch races with no write) and the last its
/// bytes were read in one by one (a write to a chunk touched by neither this epoch races with no
/// byte's record), and the reads of the whole chunk at once (`ldmatrix` rows, 16-byte loads),
/// recorded here instead of per byte.
#[derive(Clone, Copy, Default)]
pub(super) struct Chunk {
    pub(super) w_epoch: u32,
    /// The last epoch any byte of the chunk was read in on its own (not as the whole chunk).
    pub(super) byte_r_epoch: u32,
    pub(super) r_epoch: u32,
    pub(super) r_thread: u16,
    pub(super) r_warp: u8,
    pub(super) r_multi_warp: bool,
}

/// Bytes per [`Chunk`].
pub(super) const CHUNK: usize = 16;

pub(super) struct Cta {
    pub(super) id: [u32; 3],
    pub(super) warps: Vec<Warp>,
    pub(super) shared: Vec<u8>,
    pub(super) words: Vec<Word>,
    pub(super) chunks: Vec<Chunk>,
    pub(super) epoch: u32,
    /// Shared bytes written by a scatter since the last barrier: byte -> (thread + 1, item).
    pub(super) scattered: HashMap<usize, (u32, u32)>,
    /// Asynchronous copies in flight.
    pub(super) asyncs: super::async_copy::AsyncCopies,
    /// `wgmma` results not yet waited for.
    pub(super) wgmma: super::wgmma::Pending,
    /// mbarriers and TMA copies.
    pub(super) tma: super::tma::Tma,
}

pub(super) struct Ctx<'a> {
    pub(super) k: &'a Kernel,
    /// The launch's buffers (global memory), shared with the threads running other CTAs.
    pub(super) bufs: &'a [&'a [std::sync::atomic::AtomicU8]],
    /// Per buffer: no instruction of the kernel writes it, so nothing does during the launch.
    pub(super) read_only: &'a [bool],
    /// Kernel argument index -> buffer index.
    pub(super) arg_buf: Vec<Option<usize>>,
    pub(super) launch: &'a Launch,
    pub(super) opts: &'a Options,
    pub(super) stats: Stats,
    /// Stores and atomics so far, by any thread: what a spinning loop waits for.
    pub(super) writes: u64,
    /// The cross-CTA checker of global memory, for kernels that synchronise CTAs.
    pub(super) ordering: Option<super::ordering::Ordering>,
    /// The record of the picked CTA (`phobos explain`), when asked for.
    pub(super) trace: Option<super::trace::Trace>,
    /// Warp instructions the launch ran, all threads together (this context adds its own at
    /// the end of each slice): the launch's bound is on this sum, whatever the thread count.
    pub(super) launch_insts: &'a std::sync::atomic::AtomicU64,
    /// How much of `stats.warp_insts` is already in `launch_insts`.
    pub(super) flushed: u64,
    /// The launch's bound was passed during the last slice.
    pub(super) over_bound: bool,
    /// Register files of warps that returned, for the next CTAs' warps: a kernel with many
    /// values (an unrolled tensor-core loop) has megabytes per warp, and fresh pages cost the
    /// kernel's zeroing on every CTA.
    pub(super) spare_regs: Vec<Vec<u64>>,
    /// Retired CTAs' race records (bytes, chunks) and their last epoch, for the next CTAs.
    pub(super) spare_records: Vec<(Vec<Word>, Vec<Chunk>, u32)>,
}

#[inline(always)]
pub(super) fn at(s: Slot, e: u32, l: usize) -> usize {
    (s.off + e) as usize * 32 + l
}

#[inline(always)]
pub(super) fn lanes(mut m: u32) -> impl Iterator<Item = usize> {
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
pub(super) fn copy_pairs(regs: &mut [u64], pairs: &[(Slot, Slot)], mask: u32) {
    for (d, s) in pairs {
        if mask == u32::MAX && d.len == s.len {
            // Every lane: the slots' rows at once.
            regs.copy_within(at(*s, 0, 0)..at(*s, s.len, 0), at(*d, 0, 0));
            continue;
        }
        for e in 0..d.len {
            for l in lanes(mask) {
                regs[at(*d, e, l)] = regs[at(*s, e, l)];
            }
        }
    }
}

impl Ctx<'_> {
    /// Is `cta` the CTA being traced?
    #[inline(always)]
    pub(super) fn traced(&self, cta: &Cta) -> bool {
        self.trace.as_ref().is_some_and(|t| t.cta == cta.id)
    }

    /// The trace, when `cta` is the CTA being traced.
    #[inline(always)]
    pub(super) fn tracing(&mut self, cta: &Cta) -> Option<&mut super::trace::Trace> {
        self.trace.as_mut().filter(|t| t.cta == cta.id)
    }

    pub(super) fn thread_xyz(&self, t: u32) -> [u32; 3] {
        let [bx, by, _] = self.launch.block;
        [t % bx, (t / bx) % by, t / (bx * by)]
    }

    pub(super) fn new_warp(&mut self, index: u32, threads: u32) -> Warp {
        let first = index * 32;
        let n = threads.saturating_sub(first).min(32);
        let live = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let n_regs = self.k.regs as usize * 32;
        let mut regs = match self.spare_regs.pop() {
            Some(mut r) if r.len() == n_regs => {
                r.fill(0);
                r
            }
            _ => vec![0u64; n_regs],
        };
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
            fragments: Default::default(),
        }
    }
}
