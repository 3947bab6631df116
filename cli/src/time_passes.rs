//! `phobos compile --time-passes`: the wall time of each phase of the compile, from the
//! process's `main`: setup (arguments, libdevice), the frontend, the MLIR context (dialects,
//! IRDL, passes), parsing, each stage of lowering (`simt`, `llvm`, `ptx`, with each Phobos pass
//! under its stage), and writing the output. Printed on stderr; the phases add up to `total`.
//! What ran before `main` (the kernel's exec, the dynamic loader, LLVM's and MLIR's static
//! constructors, the page faults of all three) is not in it: a last line gives the process's
//! CPU time when `main` started, which on a machine with the binary in its page cache is that
//! part's wall time too.

use phobos_passes::external::Timings;
use std::time::{Duration, Instant};

static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
static BEFORE_MAIN: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();

/// Marks the start of `main` (the first call counts).
pub fn started() {
    START.get_or_init(Instant::now);
    BEFORE_MAIN.get_or_init(process_cpu_time);
}

/// The CPU time this process has used, user and system, since it was forked.
fn process_cpu_time() -> Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for clock_gettime to fill.
    if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The phases of one compile, each from the end of the one before.
pub struct Clock {
    pub timings: Timings,
    last: Instant,
    /// Records made before the last phase ended.
    seen: usize,
}

impl Clock {
    /// A clock whose first phase, `setup`, runs from `main` to now.
    pub fn start() -> Clock {
        let mut clock = Clock { timings: Timings::default(), last: *START.get_or_init(Instant::now), seen: 0 };
        clock.mark("setup");
        clock
    }
    /// Ends the phase `name` now. Stages the compile recorded since the last phase count as
    /// theirs: `name` gets the rest.
    pub fn mark(&mut self, name: &str) {
        let now = Instant::now();
        let all = self.timings.all();
        let stages: Duration = all[self.seen..].iter().filter(|(n, _)| TOP.contains(&n.as_str())).map(|(_, d)| *d).sum();
        self.timings.record(name, (now - self.last).saturating_sub(stages));
        self.last = now;
        self.seen = all.len() + 1;
    }
    /// The report: a line a phase (passes indented under their stage), then `total`.
    pub fn report(&self) -> String {
        let total = START.get().map(|s| s.elapsed()).unwrap_or_default();
        let mut out = String::from("time-passes (wall ms):\n");
        let mut pending: Vec<(String, Duration)> = Vec::new();
        for (name, d) in self.timings.all() {
            if TOP.contains(&name.as_str()) {
                out += &format!("  {name:<28}{:>9.3}\n", ms(d));
                for (p, pd) in pending.drain(..) {
                    out += &format!("    {p:<26}{:>9.3}\n", ms(pd));
                }
            } else {
                pending.push((name, d));
            }
        }
        out += &format!("  {:<28}{:>9.3}\n", "total", ms(total));
        // Unindented: not a phase of `total`.
        out + &format!("{:<30}{:>9.3}\n", "before main (CPU ms):", ms(BEFORE_MAIN.get().copied().unwrap_or_default()))
    }
}

/// Ends the phase `name` when the compile is timed.
pub fn mark(clock: &mut Option<Clock>, name: &str) {
    if let Some(c) = clock.as_mut() {
        c.mark(name)
    }
}

/// The top-level phases; any other name is a pass, reported under the stage after it.
const TOP: [&str; 9] = ["setup", "frontend", "context", "parse", "simt", "llvm", "ptx", "checks", "output"];

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
