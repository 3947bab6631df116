//! `phobos run`: compile a kernel through the front door, bind its tensors from `.npy` files
//! and its dimensions from their shapes and `-D`, launch it through the runtime on a backend,
//! and write every tensor back.

use phobos_compiler::{
    front_door::{self, RunError},
    session::Session,
    staged::{refuse_overwrite, Staged},
};
use phobos_frontend::AbiParam;
use phobos_runtime::{
    bind::{read_arrays, sim_options, SimBounds},
    cuda::Gpu,
    npy, Device, LaunchOptions,
};
use std::{collections::BTreeMap, path::PathBuf};

/// Which machine runs the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Backend {
    /// A usable GPU if there is one, else the simulator.
    Auto,
    Sim,
    Cuda,
}

/// Everything `phobos run` takes.
#[derive(Clone, Debug)]
pub struct RunRequest {
    pub file: PathBuf,
    pub kernel: Option<String>,
    pub grid: [u32; 3],
    pub args: Vec<(String, PathBuf)>,
    pub out: PathBuf,
    pub backend: Backend,
    pub defines: BTreeMap<String, i64>,
    pub chip: String,
    /// `--chip` as given (None: the GPU's own chip on the CUDA backend, sm_90 on the simulator).
    pub chip_given: Option<String>,
    /// The simulator's bounds and size.
    pub sim: SimBounds,
    /// Print the launch's time and counts.
    pub stats: bool,
    /// No fused multiply-add contraction.
    pub no_fma: bool,
    /// Approximate f32 math functions (`--fast-math`).
    pub fast_math: bool,
}

/// The simulator's bounds and size on the command line (`phobos run`, `phobos explain`).
#[derive(clap::Args, Debug)]
pub struct SimArgs {
    /// The simulator reports a warp that runs more instructions than this as a deadlock or a
    /// runaway spin loop.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_warp_instructions: Option<u64>,
    /// The simulator reports a launch whose warps run more instructions than this in all
    /// (default 25000000) as a runaway kernel, whatever the grid.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_launch_instructions: Option<u64>,
    /// The simulator refuses a launch of more threads than this (grid x block) in all
    /// (default 16777216, 2^24), so that no grid runs for hours unasked.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_sim_threads: Option<u64>,
    /// SMs of the simulated GPU (default 8): CTAs resident at once are N times what one SM
    /// holds for the launch by occupancy (threads and shared memory per CTA).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub sim_sms: Option<u32>,
    /// CPU threads running the CTAs of a kernel whose CTAs do not talk (default: the cores);
    /// results, counts and the fault reported are the same for any N.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub sim_threads: Option<u32>,
    /// Check every plain global-memory access for races on the simulator (exit 2 on one): two
    /// threads touching the same bytes, one writing, with nothing ordering them: different CTAs
    /// (no release/acquire pair), different warps of a CTA (no barrier), or two lanes of one
    /// store. Slower: the CTAs run in turn.
    #[arg(long)]
    pub check_races: bool,
}

impl SimArgs {
    /// The bounds as the runtime takes them (None: the default).
    pub fn bounds(&self) -> SimBounds {
        SimBounds {
            max_warp_insts: self.max_warp_instructions,
            max_launch_insts: self.max_launch_instructions,
            max_threads: self.max_sim_threads,
            sms: self.sim_sms,
            threads: self.sim_threads.map(|n| n as usize),
            check_races: self.check_races,
        }
    }
}

/// Runs a request end to end: reads the arrays, runs, writes every tensor to `req.out`.
pub fn run(req: &RunRequest) -> Result<(), RunError> {
    let device = choose_backend(req.backend)?;
    let mut req = req.clone();
    if let (Device::Cuda(gpu), None) = (&device, &req.chip_given) {
        // Compile for the GPU at hand unless told otherwise.
        req.chip = gpu.chip.clone();
    }
    let session = Session::new(true).map_err(|e| RunError::Usage(e.to_string()))?;
    // Tensors read from Fortran-order files run as strided views (the entries' strided twins).
    let fortran: Vec<String> = req.args.iter().filter(|(_, p)| npy::is_fortran(p)).map(|(n, _)| n.clone()).collect();
    let fopts =
        phobos_frontend::Options { no_fma: req.no_fma, fast_math: req.fast_math, strided: !fortran.is_empty(), ..Default::default() };
    let loaded = front_door::load_file(&session, &req.file, req.kernel.as_deref(), &req.chip, &fopts)?;
    err!("{}", loaded.warnings);
    // No tensor written back may replace an input (the source, or an --arg array in --out).
    let inputs: Vec<PathBuf> = std::iter::once(req.file.clone()).chain(req.args.iter().map(|(_, p)| p.clone())).collect();
    for p in &loaded.sig.params {
        if let AbiParam::Tensor { name, .. } = p {
            refuse_overwrite(&req.out.join(format!("{name}.npy")), &inputs).map_err(RunError::Usage)?;
        }
    }
    let arrays = read_arrays(&loaded.sig.kernel, &loaded.sig.params, &req.args).map_err(RunError::Usage)?;
    let (opts, backend) = match &device {
        Device::Cuda(gpu) => (LaunchOptions::default(), format!("cuda ({}, {})", gpu.name, gpu.chip)),
        _ => (LaunchOptions::default().with_sim(sim_options(&req.chip, &req.sim).map_err(RunError::Usage)?), "sim".into()),
    };
    let run =
        front_door::execute(&session, &loaded.module, &loaded.sig, &arrays, &req.defines, req.grid, &device, &req.chip, &opts, &fortran)?;
    // Said once the launch ran: the first line of a failure is its error.
    errln!("backend: {backend}");
    if req.stats {
        match &run.report.stats {
            Some(stats) => {
                let secs = run.report.ms / 1e3;
                errln!("sim_ms: {:.3}", run.report.ms);
                errln!("ctas: {}", stats.ctas);
                errln!("warp_instructions: {}", stats.warp_insts);
                errln!("thread_instructions: {}", stats.thread_insts);
                errln!("thread_instructions_per_s: {:.0}", stats.thread_insts as f64 / secs.max(1e-9));
                errln!("bank_conflicts: {}", stats.bank_conflicts);
                errln!("mma: {}", stats.mma);
                errln!("ldmatrix: {}", stats.ldmatrix);
                errln!("async_bytes: {}", stats.async_bytes);
                errln!("wgmma: {}", stats.wgmma);
            }
            None => errln!("gpu_ms: {:.3}", run.report.ms),
        }
    }
    // Every tensor is written, or none: temporaries renamed into place at the end. Names are
    // plain identifiers (the verifier checks `phobos.tensor`), so each file is inside --out.
    std::fs::create_dir_all(&req.out).map_err(|e| RunError::Usage(format!("{}: {e}", req.out.display())))?;
    let mut staged = Staged::new();
    for (name, arr) in run.outputs {
        if !phobos_dialects::kernel::is_identifier(&name) {
            return Err(RunError::Usage(format!("tensor name '{name}' is not a plain identifier; it cannot name a file in --out")));
        }
        // A tensor read from a Fortran-order file is written back in Fortran order.
        let fortran = req.args.iter().any(|(n, p)| *n == name && npy::is_fortran(p));
        let bytes = npy::encode_in_order(&arr, fortran).map_err(RunError::Usage)?;
        staged.write(&req.out.join(format!("{name}.npy")), &bytes).map_err(RunError::Usage)?;
    }
    // The stats above were written first: if they failed, no tensor is written.
    staged.commit_after(crate::out::written).map_err(RunError::Usage)
}

/// Opens the backend a request asks for: `cuda` fails with the reason when there is no usable
/// GPU; `auto` falls back to the simulator.
pub fn choose_backend(b: Backend) -> Result<Device, RunError> {
    match b {
        Backend::Sim => Ok(Device::Simulator),
        Backend::Cuda => {
            Gpu::open().map(Device::Cuda).map_err(|e| RunError::Usage(format!("--backend cuda: {e}; use --backend sim or auto")))
        }
        Backend::Auto => Ok(Device::best()),
    }
}

/// Prints why a run or an explain stopped; returns its exit code.
pub fn report(e: &RunError) -> i32 {
    match e {
        RunError::Usage(m) => errln!("phobos: error: {m}"),
        RunError::Located(m) | RunError::Fault(m) => errln!("{m}"),
        RunError::Compile { diagnostics, failure } => {
            err!("{diagnostics}");
            if let Some(m) = failure {
                errln!("phobos: error: {m}");
            }
        }
    }
    e.exit_code()
}
