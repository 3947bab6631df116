//! The interpreter: CTAs of warps of 32 lanes in lockstep, with sanitizer checks.
//!
//! Each warp runs its kernel's instructions with a mask of active lanes; structured control
//! pushes and pops masks. A warp runs until it finishes, reaches a barrier, or uses up its time
//! slice, so CTAs that wait on each other (spin loops over flags) make progress together. As
//! many CTAs are resident at once as `sms` SMs hold by occupancy (threads and shared memory per
//! CTA), as on a GPU.
//!
//! Checks, each a [`Fault`] naming the kernel, CTA, thread, op and source location:
//! out-of-bounds global, shared and private accesses; vector accesses that break their proven
//! alignment; shared-memory races between warps with no barrier between them (read after
//! write, write after write, write after read); barriers and shuffles reached by part of a warp,
//! or barriers by part of a CTA; integer division by zero; and deadlocks (every live warp
//! waiting) or spin loops past a bound.
//!
//! Files: this one (launches and options), `schedule` (the CTAs in turn, or on several threads
//! for kernels whose CTAs do not talk), `state` (warps, CTAs and the
//! run's context), `step` (a warp's instruction loop and its control flow), `lane` (per-lane
//! arithmetic and vector ops), `alu` (the arithmetic itself, pure functions), `memory`
//! (addresses, bounds and the race checker), `async_copy` (`cp.async` in flight), `ordering` (global memory across CTAs), `cross_lane` (shuffles and votes), `progress`
//! (loops that make no progress), `fault` (what a fault reports).

mod alu;
mod async_copy;
mod cross_lane;
mod fault;
mod lane;
mod lanewise;
pub mod math;
mod memory;
mod mma;
mod ordering;
mod progress;
mod schedule;
mod state;
mod step;
mod tma;
pub mod trace;
mod wgmma;

use crate::program::*;
use alu::*;
pub use alu::{fget, fma, fput};
use fault::inst_loc;
pub use fault::{lane_list, Fault, FaultKind};
use phobos_ir::SrcLoc;
use state::*;
use std::collections::HashMap;
use std::sync::atomic::AtomicU8;

/// A kernel argument value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ArgValue {
    /// Index into the buffers passed to [`run`].
    Buffer(usize),
    Int(i64),
    Float(f64),
}

/// A launch: grid and block sizes, arguments, dynamic shared memory.
#[derive(Clone, Debug)]
pub struct Launch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub args: Vec<ArgValue>,
    pub dynamic_shared: u32,
}

/// Knobs of the simulator.
#[derive(Clone, Debug)]
pub struct Options {
    /// A warp that runs more instructions than this is reported as a deadlock or runaway loop.
    pub max_warp_insts: u64,
    /// A launch whose warps run more instructions than this in all is reported as a runaway
    /// kernel: the per-warp bound alone lets a spin in every warp of a large grid run for
    /// minutes. Counted in the simulator's own (deterministic) warp order.
    pub max_launch_insts: u64,
    /// Streaming multiprocessors of the simulated GPU: CTAs resident at once are this many
    /// times what one SM holds for the launch ([`ctas_per_sm`]), as on a GPU, so a persistent
    /// kernel sized from occupancy has all its CTAs live.
    pub sms: u32,
    /// Instructions a warp runs before the next warp gets its turn.
    pub slice: u64,
    /// Checks shared memory for races, and global memory across CTAs in kernels that talk
    /// across them (atomics, ordered accesses).
    pub check_races: bool,
    /// Also checks every plain global access of any kernel (`phobos run --check-races`):
    /// between CTAs, between the warps of a CTA within a barrier epoch, and between the lanes
    /// of one store. Slower: the CTAs run in turn, with a shadow of each byte touched.
    pub check_plain_races: bool,
    /// Set by another thread to stop the launch (Python's Ctrl-C): each warp's next time slice
    /// ends it with an `interrupted` fault.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Shared memory per CTA the simulated chip allows (sm_90: 232448 bytes).
    pub shared_limit: u32,
    /// CPU threads that run the CTAs of a kernel whose CTAs do not talk (no atomics, no ordered
    /// accesses); the results, statistics and fault are the same for any count. Default: the
    /// machine's cores (`phobos run --sim-threads`).
    pub host_threads: usize,
    /// Threads one launch may have in all (grid x block): a grid CUDA accepts can still take
    /// the simulator hours, so larger launches are refused unless this is raised
    /// (`phobos run --max-sim-threads`).
    pub max_threads: u64,
}

/// The simulated GPU's SMs unless told otherwise (`phobos run --sim-sms`).
pub const DEFAULT_SMS: u32 = 8;

/// CTAs of `threads` threads and `shared` bytes of shared memory one SM holds at once, by
/// sm_90's limits: 32 CTAs, 2048 threads, 228 KiB of shared memory (registers are not known
/// before ptxas; they are taken as no tighter than the threads).
pub fn ctas_per_sm(threads: u32, shared: u32) -> u32 {
    let by_threads = 2048 / threads.max(1);
    let by_shared = (228u32 << 10).checked_div(shared).unwrap_or(32);
    by_threads.min(by_shared).clamp(1, 32)
}

/// The default of [`Options::max_threads`]: 2^24 threads (16,777,216); at the simulator's
/// ~100 M thread-instructions per second, 17 s for a kernel of 100 instructions per thread.
pub const DEFAULT_MAX_THREADS: u64 = 1 << 24;

/// The default of [`Options::max_launch_insts`]: 2.5 x 10^7 warp instructions (75 times
/// `lanes_matvec` on a 1024 x 1024 matrix): 2.5 s of plain code on one thread here, 6 s of a
/// loop of atomics (kernels whose CTAs talk run on one thread; 5 x 10^7 took 11 s).
pub const DEFAULT_MAX_LAUNCH_INSTS: u64 = 25_000_000;

/// CUDA's limits on a grid: x up to 2^31 - 1, y and z up to 65535.
pub const MAX_GRID: [u64; 3] = [(1 << 31) - 1, 65535, 65535];

/// Checks a grid against CUDA's limits: the same rule on every backend.
pub fn check_grid(grid: [u32; 3]) -> Result<(), String> {
    for (i, (g, m)) in grid.iter().zip(MAX_GRID).enumerate() {
        if *g == 0 || *g as u64 > m {
            return Err(format!("grid {} is {g}; CUDA allows 1 to {m}", ["x", "y", "z"][i]));
        }
    }
    Ok(())
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_warp_insts: 10_000_000,
            max_launch_insts: DEFAULT_MAX_LAUNCH_INSTS,
            sms: DEFAULT_SMS,
            slice: 20_000,
            check_races: true,
            check_plain_races: false,
            cancel: None,
            shared_limit: 232448,
            max_threads: DEFAULT_MAX_THREADS,
            host_threads: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Instructions executed per warp, summed.
    pub warp_insts: u64,
    /// Instructions executed per active lane, summed.
    pub thread_insts: u64,
    pub ctas: u64,
    /// Shared-memory bank conflicts (the pinned model of `phobos_layout::banks`), summed.
    pub bank_conflicts: u64,
    /// Tensor-core multiply-adds (`mma.sync`), one per warp that runs one.
    pub mma: u64,
    /// Matrix loads from shared memory (`ldmatrix`), one per warp that runs one.
    pub ldmatrix: u64,
    /// Bytes that asynchronous copies (`cp.async`) moved into shared memory.
    pub async_bytes: u64,
    /// Warpgroup tensor-core multiply-adds (`wgmma.mma_async`), one per warp that runs one.
    pub wgmma: u64,
    /// Bytes of global memory each lane's loads (and atomics) read, per kernel argument (by its
    /// index; 0 for scalars).
    pub global_read: Vec<u64>,
    /// Bytes of global memory each lane's stores (and atomics) wrote, per kernel argument.
    pub global_written: Vec<u64>,
}

impl Stats {
    /// Both runs' counts together.
    pub fn plus(mut self, s: &Stats) -> Stats {
        self.ctas += s.ctas;
        self.warp_insts += s.warp_insts;
        self.thread_insts += s.thread_insts;
        self.bank_conflicts += s.bank_conflicts;
        self.mma += s.mma;
        self.ldmatrix += s.ldmatrix;
        self.async_bytes += s.async_bytes;
        self.wgmma += s.wgmma;
        for (mine, theirs) in [(&mut self.global_read, &s.global_read), (&mut self.global_written, &s.global_written)] {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
        self
    }

    /// Counts `bytes` read (or written) in argument `arg`.
    pub(crate) fn traffic(&mut self, arg: usize, bytes: usize, write: bool) {
        let v = if write { &mut self.global_written } else { &mut self.global_read };
        if v.len() <= arg {
            v.resize(arg + 1, 0);
        }
        v[arg] += bytes as u64;
    }
}

/// A buffer's bytes as the simulator reads and writes them: atomic bytes, shared with the CTAs
/// that run on other threads (the exclusive borrow makes the view sound).
pub fn atomic_bytes(b: &mut [u8]) -> &[AtomicU8] {
    let bytes: *mut [u8] = b;
    // SAFETY: `b` is borrowed exclusively for the view's lifetime, and AtomicU8 has u8's size and
    // alignment: the same bytes, viewed as shared atomic bytes.
    unsafe { &*(bytes as *const [AtomicU8]) }
}

/// Runs `k` with `launch` over `bufs` (the buffers the launch's arguments index). A buffer no
/// instruction of `k` writes may be shared with other launches that do not write it either (it
/// is read with plain loads); one it writes must be this launch's alone.
pub fn run(k: &Kernel, launch: &Launch, bufs: &[&[AtomicU8]], opts: &Options) -> Result<Stats, Fault> {
    run_with(k, launch, bufs, opts, None).map(|r| r.0)
}

/// [`run`], recording what CTA `cta` does ([`trace::Trace`]); the whole grid runs.
pub fn run_traced(
    k: &Kernel,
    launch: &Launch,
    bufs: &[&[AtomicU8]],
    opts: &Options,
    cta: [u32; 3],
) -> Result<(Stats, trace::Trace), Fault> {
    if cta.iter().zip(launch.grid).any(|(c, g)| *c >= g) {
        return Err(Fault {
            kind: FaultKind::BadLaunch,
            message: format!("CTA {cta:?} is outside the grid {:?}", launch.grid),
            kernel: k.name.clone(),
            cta: [0, 0, 0],
            thread: None,
            op: String::new(),
            loc: None,
        });
    }
    let threads = launch.block.iter().product::<u32>();
    let trace = trace::Trace::new(cta, threads, k.insts.len());
    let (stats, trace) = run_with(k, launch, bufs, opts, Some(trace))?;
    let mut trace = trace.expect("a traced run returns its trace");
    trace.finish();
    Ok((stats, trace))
}

fn run_with(
    k: &Kernel,
    launch: &Launch,
    bufs: &[&[AtomicU8]],
    opts: &Options,
    trace: Option<trace::Trace>,
) -> Result<(Stats, Option<trace::Trace>), Fault> {
    let bad = |message: String| Fault {
        kind: FaultKind::BadLaunch,
        message,
        kernel: k.name.clone(),
        cta: [0, 0, 0],
        thread: None,
        op: String::new(),
        loc: None,
    };
    // Tensor maps are the launcher's: the simulator's map is its argument's address.
    let given = k.args.iter().filter(|a| a.given()).count();
    let with_maps;
    let launch = if launch.args.len() == given && given < k.args.len() {
        let mut l = launch.clone();
        l.args.extend((given..k.args.len()).map(|i| ArgValue::Int(crate::program::global_address(i) as i64)));
        with_maps = l;
        &with_maps
    } else {
        launch
    };
    if launch.args.len() != k.args.len() {
        return Err(bad(format!("{} takes {} arguments, got {}", k.name, given, launch.args.len())));
    }
    let mut arg_buf = Vec::new();
    for (i, (a, kind)) in launch.args.iter().zip(&k.args).enumerate() {
        match (a, kind) {
            (ArgValue::Buffer(b), ArgKind::Buffer { .. }) => {
                if *b >= bufs.len() {
                    return Err(bad(format!("argument {i} names buffer {b}, but there are {}", bufs.len())));
                }
                arg_buf.push(Some(*b));
            }
            (ArgValue::Int(_) | ArgValue::Float(_), ArgKind::Scalar { .. }) => arg_buf.push(None),
            (ArgValue::Int(v), ArgKind::TensorMap { .. }) if *v as u64 == crate::program::global_address(i) => arg_buf.push(None),
            _ => return Err(bad(format!("argument {i} ({kind:?}) got {a:?}"))),
        }
    }
    if let Some(b) = k.block {
        if b != launch.block {
            return Err(bad(format!("the kernel is compiled for blocks of {b:?}, launched with {:?}", launch.block)));
        }
    }
    let threads = launch.block.iter().product::<u32>();
    if threads == 0 || threads > 1024 || launch.grid.contains(&0) {
        return Err(bad(format!(
            "block {:?} and grid {:?} must be non-empty, with at most 1024 threads per block",
            launch.block, launch.grid
        )));
    }
    check_grid(launch.grid).map_err(bad)?;
    // CUDA's largest grid of 1024 threads is 2^73 threads: count in u128.
    let all_threads = launch.grid.iter().map(|g| *g as u128).product::<u128>() * threads as u128;
    if all_threads > opts.max_threads as u128 {
        return Err(bad(format!(
            "the launch has {all_threads} threads; the simulator runs at most {} per launch (raise it with --max-sim-threads)",
            opts.max_threads
        )));
    }
    // Kernels that talk across CTAs (ordered accesses, atomics) get global memory checked too.
    let talks = k.insts.iter().any(|i| {
        matches!(i, Inst::Atomic { .. } | Inst::Cas { .. } | Inst::Load { acquire: true, .. } | Inst::Store { release: true, .. })
    });
    let ordering = ((talks || opts.check_plain_races) && opts.check_races).then(ordering::Ordering::default);
    // Global memory: the bytes every CTA reads and writes, from whichever thread runs it.
    let global: Vec<&[AtomicU8]> = bufs.to_vec();
    let nwarps = threads.div_ceil(32);
    let total: u64 = launch.grid.iter().map(|g| *g as u64).product();
    let shared_bytes = (k.shared_bytes + launch.dynamic_shared) as usize;
    if shared_bytes > opts.shared_limit as usize {
        return Err(bad(format!("the launch needs {shared_bytes} bytes of shared memory per CTA; the chip allows {}", opts.shared_limit)));
    }
    let resident_limit = (opts.sms.max(1) * ctas_per_sm(threads, shared_bytes as u32)) as usize;
    let grid = schedule::Grid { total, nwarps, threads, shared_bytes, resident_limit };
    // Buffers no instruction of the kernel writes: nothing changes them during the launch.
    let mut written = vec![false; global.len()];
    for (a, w) in k.written_args().into_iter().enumerate() {
        if let Some(Some(b)) = arg_buf.get(a) {
            written[*b] |= w;
        }
    }
    let read_only: Vec<bool> = written.iter().map(|w| !w).collect();
    let launch_insts = std::sync::atomic::AtomicU64::new(0);
    if !talks && !opts.check_plain_races && trace.is_none() {
        let context = || Ctx {
            k,
            bufs: &global,
            read_only: &read_only,
            arg_buf: arg_buf.clone(),
            launch,
            opts,
            stats: Stats::default(),
            writes: 0,
            ordering: None,
            trace: None,
            launch_insts: &launch_insts,
            flushed: 0,
            over_bound: false,
            spare_regs: Vec::new(),
            spare_records: Vec::new(),
        };
        return schedule::independent(opts.host_threads.max(1), &grid, context).map(|s| (s, None));
    }
    let mut ctx = Ctx {
        k,
        bufs: &global,
        read_only: &read_only,
        arg_buf,
        launch,
        opts,
        stats: Stats::default(),
        writes: 0,
        ordering,
        trace,
        launch_insts: &launch_insts,
        flushed: 0,
        over_bound: false,
        spare_regs: Vec::new(),
        spare_records: Vec::new(),
    };
    schedule::in_turn(&mut ctx, &grid)?;
    Ok((ctx.stats, ctx.trace))
}
