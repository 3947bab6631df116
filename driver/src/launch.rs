//! `phobos run`: compile a kernel, bind its tensors from `.npy` files and its dimensions from
//! their shapes and `-D`, run it on a backend, and write every tensor back.

use crate::{
    compile::{self, CompileOptions, Stage},
    npy::{self, Array, Dtype},
    session::Session,
};
use phobos_frontend::AbiParam;
use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

/// Why a run stopped. Exit codes: usage, compile and argument errors are 1; a fault in the
/// kernel is 2.
#[derive(Debug)]
pub enum RunError {
    /// A message for the user (exit 1).
    Usage(String),
    /// A diagnostic that names its own location (`file:line:col: error: ...`, exit 1).
    Located(String),
    /// Diagnostics were printed already (exit 1).
    Compile,
    /// A fault in the kernel (exit 2).
    Fault(String),
}

impl RunError {
    pub fn exit_code(&self) -> i32 {
        match self {
            RunError::Fault(_) => 2,
            _ => 1,
        }
    }
}

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

/// The simulator's bounds and size as the command line gave them (None: the default).
#[derive(Clone, Debug, Default)]
pub struct SimBounds {
    /// Instructions per warp (a spin loop past it is a deadlock): `--max-warp-instructions`.
    pub max_warp_insts: Option<u64>,
    /// Warp instructions per launch, all warps together: `--max-launch-instructions`.
    pub max_launch_insts: Option<u64>,
    /// Threads per launch: `--max-sim-threads`.
    pub max_threads: Option<u64>,
    /// SMs of the simulated GPU: `--sim-sms`.
    pub sms: Option<u32>,
}

/// What a kernel takes, and what its compiled entries fix.
#[derive(Clone, Debug)]
pub struct Signature {
    pub kernel: String,
    pub params: Vec<AbiParam>,
    /// (entry name, dimensions it fixes)
    pub entries: Vec<(String, BTreeMap<String, i64>)>,
    pub aligned: BTreeMap<String, i64>,
    pub autotune: BTreeMap<String, Vec<i64>>,
}

/// Parses `X[,Y[,Z]]`.
pub fn parse_grid(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("--grid {s}: expected X[,Y[,Z]]"));
    }
    let mut g = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        let v: u64 = p.parse().ok().filter(|v| *v > 0).ok_or_else(|| format!("--grid {s}: '{p}' is not a positive integer"))?;
        let max = phobos_sim::MAX_GRID[i];
        if v > max {
            return Err(format!("--grid {s}: grid {} is {v}; CUDA allows 1 to {max}", ["x", "y", "z"][i]));
        }
        g[i] = v as u32;
    }
    phobos_sim::check_grid(g).map_err(|e| format!("--grid {s}: {e}"))?;
    Ok(g)
}

/// Parses `NAME=PATH`.
pub fn parse_arg(s: &str) -> Result<(String, PathBuf), String> {
    let (n, p) = s.split_once('=').ok_or_else(|| format!("--arg {s}: expected NAME=PATH.npy"))?;
    if n.is_empty() {
        return Err(format!("--arg {s}: the name is empty"));
    }
    Ok((n.to_string(), PathBuf::from(p)))
}

/// A shape as NumPy prints it, `(8,)` or `(2, 3)`; past 8 dimensions the first six and the
/// last, and the count (a hostile header can have thousands).
pub fn shape_text(shape: &[u64]) -> String {
    let join = |d: &[u64]| d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
    match shape.len() {
        1 => format!("({},)", shape[0]),
        n if n > 8 => format!("({}, ..., {}) ({n} dimensions)", join(&shape[..6]), shape[n - 1]),
        _ => format!("({})", join(shape)),
    }
}

/// Binds tensors and dimensions; returns the arrays in parameter order and the dimension values.
pub fn bind(
    sig: &Signature,
    arrays: &BTreeMap<String, (Array, PathBuf)>,
    defines: &BTreeMap<String, i64>,
) -> Result<(Vec<Option<Array>>, BTreeMap<String, i64>), String> {
    let (out, dims) = bound_dims(sig, arrays, defines, true)?;
    for p in &sig.params {
        if let AbiParam::Dim { name } = p {
            if !dims.contains_key(name) {
                return Err(format!("dimension {name} is not bound: no --arg array has it; give -D {name}=VALUE"));
            }
        }
    }
    let values: BTreeMap<String, i64> = dims.into_iter().map(|(k, (v, _))| (k, v)).collect();
    for (k, a) in &sig.aligned {
        if let Some(v) = values.get(k) {
            if v % a != 0 {
                return Err(format!("@aligned({k} = {a}) promises {k} is a multiple of {a}, but {k} = {v}"));
            }
        }
    }
    for (k, v) in &values {
        if *v > i32::MAX as i64 || *v < 0 {
            return Err(format!("{k} = {v} is outside 0..2^31-1"));
        }
    }
    Ok((out, values))
}

/// The dimensions `arrays` and `defines` bind, each with where its value came from, after
/// checking every array against its parameter (element type, rank, literal extents) and the
/// values against each other; also the arrays in parameter order. A tensor without an array is
/// an error when `all`, else left out (`phobos explain` generates it).
pub fn bound_dims(
    sig: &Signature,
    arrays: &BTreeMap<String, (Array, PathBuf)>,
    defines: &BTreeMap<String, i64>,
    all: bool,
) -> Result<(Vec<Option<Array>>, BTreeMap<String, (i64, String)>), String> {
    let tensor_names: Vec<&str> =
        sig.params.iter().filter_map(|p| if let AbiParam::Tensor { name, .. } = p { Some(name.as_str()) } else { None }).collect();
    for name in arrays.keys() {
        if !tensor_names.contains(&name.as_str()) {
            return Err(format!("{} has no tensor named '{name}' (it has {})", sig.kernel, tensor_names.join(", ")));
        }
    }
    let mut dims: BTreeMap<String, (i64, String)> = BTreeMap::new();
    let mut known_dims: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for p in &sig.params {
        match p {
            AbiParam::Tensor { name, elem, dims: tdims } => {
                let Some((a, path)) = arrays.get(name) else {
                    if !all {
                        known_dims.extend(tdims.iter().filter(|d| d.parse::<i64>().is_err()).cloned());
                        out.push(None);
                        continue;
                    }
                    return Err(format!("missing --arg {name}=FILE.npy ({} takes {})", sig.kernel, tensor_names.join(", ")));
                };
                let want =
                    Dtype::from_phobos(elem).ok_or_else(|| format!("tensor {name} has element type {elem}, which .npy cannot hold"))?;
                if a.dtype != want {
                    return Err(format!("{name} is tensor<{elem}>, but {} holds {}", path.display(), a.dtype.numpy()));
                }
                if !tdims.is_empty() && a.shape.len() != tdims.len() {
                    return Err(format!(
                        "{name} is tensor<{elem}>[{}] ({} dimension{}), but {} has shape {}",
                        tdims.join(", "),
                        tdims.len(),
                        if tdims.len() == 1 { "" } else { "s" },
                        path.display(),
                        shape_text(&a.shape)
                    ));
                }
                for (i, d) in tdims.iter().enumerate() {
                    let v = a.shape[i] as i64;
                    if let Ok(lit) = d.parse::<i64>() {
                        if lit != v {
                            return Err(format!(
                                "dimension {i} of {name} is {lit}, but {} has shape {}",
                                path.display(),
                                shape_text(&a.shape)
                            ));
                        }
                        continue;
                    }
                    known_dims.push(d.clone());
                    match dims.get(d) {
                        Some((old, from)) if *old != v => {
                            return Err(format!("{d} is {old} from {from} but {v} from {}", path.display()));
                        }
                        Some(_) => {}
                        None => {
                            dims.insert(d.clone(), (v, path.display().to_string()));
                        }
                    }
                }
                out.push(Some(a.clone()));
            }
            AbiParam::Dim { name } => {
                known_dims.push(name.clone());
                out.push(None);
            }
        }
    }
    for (k, _) in &sig.entries.iter().flat_map(|(_, f)| f.iter()).collect::<Vec<_>>() {
        known_dims.push((*k).clone());
    }
    for (k, v) in defines {
        if !known_dims.contains(k) {
            return Err(format!("-D {k}={v}: {} has no dimension {k}", sig.kernel));
        }
        match dims.get(k) {
            Some((old, from)) if old != v => return Err(format!("-D {k}={v} conflicts with {k} = {old} from {from}")),
            _ => {
                dims.insert(k.clone(), (*v, "-D".into()));
            }
        }
    }
    Ok((out, dims))
}

/// The entry whose fixed dimensions match the bound values.
pub fn select_entry(sig: &Signature, values: &BTreeMap<String, i64>) -> Result<String, String> {
    for (name, fixed) in &sig.entries {
        if fixed.iter().all(|(k, v)| values.get(k).is_none_or(|b| b == v)) {
            return Ok(name.clone());
        }
    }
    for (k, list) in &sig.autotune {
        if let Some(v) = values.get(k) {
            if !list.contains(v) {
                return Err(format!(
                    "{k} = {v} is not one of the values @autotune lists for {k}: {}",
                    list.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
                ));
            }
        }
    }
    Err(format!("no compiled entry of {} matches the bound dimensions", sig.kernel))
}

/// Compiles `req.file` to the SIMT level; returns the session's module, the signature, and the
/// source text for messages.
pub fn load<'s>(session: &'s Session, req: &RunRequest) -> Result<(crate::session::OwnedModule<'s>, Signature), RunError> {
    let filename = req.file.display().to_string();
    let text = crate::read_source(&req.file).map_err(RunError::Usage)?;
    let opts = phobos_frontend::Options { no_fma: req.no_fma, fast_math: req.fast_math, ..Default::default() };
    load_text_with(session, &filename, &text, req.kernel.as_deref(), &req.chip, &opts)
}

/// Like [`load`], for source text in memory; `filename` ends in `.phobos` or `.mlir`.
pub fn load_text<'s>(
    session: &'s Session,
    filename: &str,
    text: &str,
    kernel: Option<&str>,
    chip: &str,
) -> Result<(crate::session::OwnedModule<'s>, Signature), RunError> {
    load_text_with(session, filename, text, kernel, chip, &phobos_frontend::Options::default())
}

/// [`load_text`] with frontend options (`-D` is bound at launch, so only `no_fma` matters).
pub fn load_text_with<'s>(
    session: &'s Session,
    filename: &str,
    text: &str,
    kernel: Option<&str>,
    chip: &str,
    opts: &phobos_frontend::Options,
) -> Result<(crate::session::OwnedModule<'s>, Signature), RunError> {
    load_text_remarks(session, filename, text, kernel, chip, opts).map(|(m, s, _)| (m, s))
}

/// [`load_text_with`], also giving the compiler's remarks (the shared-memory plan, the
/// barriers elided and why), which it does not print.
pub fn load_text_remarks<'s>(
    session: &'s Session,
    filename: &str,
    text: &str,
    kernel: Option<&str>,
    chip: &str,
    opts: &phobos_frontend::Options,
) -> Result<(crate::session::OwnedModule<'s>, Signature, Vec<phobos_ir::diag::Diagnostic>), RunError> {
    let filename = filename.to_string();
    let text = text.to_string();
    let is_phobos = filename.ends_with(".phobos");
    if !is_phobos && !filename.ends_with(".mlir") {
        return Err(RunError::Usage(format!("{filename}: expected a .phobos source or an .mlir file")));
    }
    let source = |f: &str| (f == filename).then(|| text.clone());
    let (mlir, entries) = if is_phobos {
        let src = phobos_frontend::Source::new(filename.clone(), text.clone());
        match phobos_frontend::compile(&src, opts) {
            Ok(o) => (o.mlir, Some(o.entries)),
            Err(ds) => {
                for d in ds {
                    eprint!("{}", d.render(&src));
                }
                return Err(RunError::Compile);
            }
        }
    } else {
        (text.clone(), None)
    };
    let module = session.parse(&mlir, &if is_phobos { format!("{filename}.l1.mlir") } else { filename.clone() });
    // An .mlir file already at the SIMT level (no Phobos op) runs as written: the simulator can
    // then run kernels the compiler would reject or never produce (a missing barrier).
    let is_l1 = |m: &crate::session::OwnedModule| {
        m.op().walk().into_iter().any(|o| phobos_dialects::is_phobos_op(o) || o.is("gpu.subgroup_id") || o.is("gpu.num_subgroups"))
    };
    let lowered = match &module {
        Some(m) if !is_phobos && !is_l1(m) => {
            if compile::has_kernel(session, m) && phobos_dialects::verify(m.op(), &session.diags) {
                Ok(compile::Lowered::default())
            } else {
                Err(compile::CompileError::Invalid)
            }
        }
        Some(m) => {
            let target = phobos_passes::pipelines::Target::parse(&format!("chip={chip} fma={} fast-math={}", !opts.no_fma, opts.fast_math))
                .map_err(RunError::Usage)?;
            compile::lower(session, m, Stage::Simt, &CompileOptions { target, ..Default::default() })
        }
        None => Err(compile::CompileError::Invalid),
    };
    let (remarks, diags): (Vec<_>, Vec<_>) =
        session.diags.take().into_iter().partition(|d| d.severity == phobos_ir::diag::Severity::Remark);
    eprint!("{}", crate::cli::render_for(&diags, is_phobos, &source));
    let module = match (module, lowered) {
        (Some(m), Ok(_)) => m,
        (_, Err(compile::CompileError::Run(m))) => {
            // After a located error, "pass 'X' failed" says nothing more.
            if !diags.iter().any(|d| d.severity == phobos_ir::diag::Severity::Error) {
                eprintln!("phobos: error: {m}");
            }
            return Err(RunError::Compile);
        }
        _ => return Err(RunError::Compile),
    };
    let sig = match entries {
        Some(entries) => {
            let kernels: Vec<String> = entries.iter().map(|e| e.kernel.clone()).fold(Vec::new(), |mut v, k| {
                if !v.contains(&k) {
                    v.push(k)
                }
                v
            });
            let kernel = match kernel.map(str::to_string) {
                Some(k) if kernels.contains(&k) => k,
                Some(k) => return Err(RunError::Usage(format!("no kernel named '{k}' (the file has: {})", kernels.join(", ")))),
                None if kernels.len() == 1 => kernels[0].clone(),
                None => {
                    return Err(RunError::Usage(format!("the file has several kernels; pick one with --kernel ({})", kernels.join(", "))))
                }
            };
            signature(&entries, &kernel)
        }
        None => mlir_signature(&module, kernel)?,
    };
    Ok((module, sig, remarks))
}

/// The signature of `kernel` from the frontend's entries (all its specializations).
pub fn signature(entries: &[phobos_frontend::Entry], kernel: &str) -> Signature {
    let mine: Vec<&phobos_frontend::Entry> = entries.iter().filter(|e| e.kernel == kernel).collect();
    Signature {
        kernel: kernel.to_string(),
        params: mine.first().map(|e| e.params.clone()).unwrap_or_default(),
        entries: mine.iter().map(|e| (e.name.clone(), e.fixed.clone())).collect(),
        aligned: mine.first().map(|e| e.aligned.clone()).unwrap_or_default(),
        autotune: mine.first().map(|e| e.autotune.clone()).unwrap_or_default(),
    }
}

/// The signature of a kernel in an `.mlir` file, from its arguments (`phobos.tensor`,
/// `phobos.dims` and `phobos.dim` name them when present).
fn mlir_signature(module: &crate::session::OwnedModule, kernel: Option<&str>) -> Result<Signature, RunError> {
    let kernels: Vec<String> = kernel_funcs(module).iter().filter_map(|(_, f)| f.str_attr("sym_name")).collect();
    let kernel = match kernel {
        Some(k) if kernels.iter().any(|n| n == k) => k.to_string(),
        Some(k) => return Err(RunError::Usage(format!("no kernel named '{k}' (the module has: {})", kernels.join(", ")))),
        None if kernels.len() == 1 => kernels[0].clone(),
        None if kernels.is_empty() => return Err(RunError::Usage("the module has no kernel".into())),
        None => return Err(RunError::Usage(format!("the module has several kernels; pick one with --kernel ({})", kernels.join(", ")))),
    };
    let gm = gpu_module_of(module, &kernel)?;
    let k = phobos_sim::translate(gm, &kernel).map_err(|u| RunError::Located(u.to_string()))?;
    let params = k
        .args
        .iter()
        .map(|a| match a {
            phobos_sim::ArgKind::Buffer { name, elem, dims } => AbiParam::Tensor {
                name: name.clone(),
                elem: match elem {
                    phobos_sim::Prim::I1 => "bool".into(),
                    p => p.name().to_string(),
                },
                dims: dims.clone(),
            },
            phobos_sim::ArgKind::Scalar { name, .. } => AbiParam::Dim { name: name.clone() },
        })
        .collect();
    Ok(Signature {
        kernel: kernel.clone(),
        params,
        entries: vec![(kernel, BTreeMap::new())],
        aligned: BTreeMap::new(),
        autotune: BTreeMap::new(),
    })
}

/// Runs a request end to end: reads the arrays, runs, writes every tensor to `req.out`.
pub fn run(req: &RunRequest) -> Result<(), RunError> {
    let backend = choose_backend(req.backend)?;
    let mut req = req.clone();
    if let (Chosen::Cuda(gpu), None) = (&backend, &req.chip_given) {
        // Compile for the GPU at hand unless told otherwise.
        req.chip = gpu.chip.clone();
    }
    let session = Session::new(true).map_err(|e| RunError::Usage(e.to_string()))?;
    let (module, sig) = load(&session, &req)?;
    // No tensor written back may replace an input (the source, or an --arg array in --out).
    let inputs: Vec<PathBuf> = std::iter::once(req.file.clone()).chain(req.args.iter().map(|(_, p)| p.clone())).collect();
    for p in &sig.params {
        if let AbiParam::Tensor { name, .. } = p {
            crate::staged::refuse_overwrite(&req.out.join(format!("{name}.npy")), &inputs).map_err(RunError::Usage)?;
        }
    }
    let arrays = read_arrays(&req.args)?;
    let outputs = match &backend {
        Chosen::Sim => {
            eprintln!("backend: sim");
            let opts = sim_options(&req.chip, &req.sim)?;
            let (outputs, stats, secs) = execute_timed(&module, &sig, &arrays, &req.defines, req.grid, &opts)?;
            if req.stats {
                eprintln!("sim_ms: {:.3}", secs * 1e3);
                eprintln!("ctas: {}", stats.ctas);
                eprintln!("warp_instructions: {}", stats.warp_insts);
                eprintln!("thread_instructions: {}", stats.thread_insts);
                eprintln!("thread_instructions_per_s: {:.0}", stats.thread_insts as f64 / secs.max(1e-9));
                eprintln!("bank_conflicts: {}", stats.bank_conflicts);
            }
            outputs
        }
        Chosen::Cuda(gpu) => {
            eprintln!("backend: cuda ({}, {})", gpu.name, gpu.chip);
            let (outputs, ms) = execute_cuda(&session, &module, &sig, &arrays, &req.defines, req.grid, &req.chip, gpu, None)?;
            if req.stats {
                eprintln!("gpu_ms: {:.3}", ms[0]);
            }
            outputs
        }
    };
    // Every tensor is written, or none: temporaries renamed into place at the end. Names are
    // plain identifiers (the verifier checks `phobos.tensor`), so each file is inside --out.
    std::fs::create_dir_all(&req.out).map_err(|e| RunError::Usage(format!("{}: {e}", req.out.display())))?;
    let mut staged = crate::staged::Staged::new();
    for (name, arr) in outputs {
        if !phobos_dialects::kernel::is_identifier(&name) {
            return Err(RunError::Usage(format!("tensor name '{name}' is not a plain identifier; it cannot name a file in --out")));
        }
        let bytes = npy::encode(&arr).map_err(RunError::Usage)?;
        staged.write(&Path::new(&req.out).join(format!("{name}.npy")), &bytes).map_err(RunError::Usage)?;
    }
    staged.commit().map_err(RunError::Usage)
}

/// The simulator's options for `chip` (its shared-memory limit) and the bounds the command line
/// gave.
pub fn sim_options(chip: &str, b: &SimBounds) -> Result<phobos_sim::Options, RunError> {
    let d = phobos_sim::Options::default();
    Ok(phobos_sim::Options {
        shared_limit: phobos_passes::target::chip(chip).map_err(RunError::Usage)?.shared_optin as u32,
        max_warp_insts: b.max_warp_insts.unwrap_or(d.max_warp_insts),
        max_launch_insts: b.max_launch_insts.unwrap_or(d.max_launch_insts),
        max_threads: b.max_threads.unwrap_or(d.max_threads),
        sms: b.sms.unwrap_or(d.sms),
        ..d
    })
}

/// The `--arg NAME=PATH.npy` arrays, read; a name given twice is an error.
pub fn read_arrays(args: &[(String, PathBuf)]) -> Result<BTreeMap<String, (Array, PathBuf)>, RunError> {
    let mut arrays = BTreeMap::new();
    for (name, path) in args {
        if arrays.contains_key(name) {
            return Err(RunError::Usage(format!("--arg {name} is given twice")));
        }
        arrays.insert(name.clone(), (npy::read(path).map_err(RunError::Usage)?, path.clone()));
    }
    Ok(arrays)
}

/// The machine a run gets.
pub enum Chosen {
    Sim,
    Cuda(crate::cuda::Gpu),
}

/// Opens the backend a request asks for: `cuda` fails with the reason when there is no usable
/// GPU; `auto` falls back to the simulator.
pub fn choose_backend(b: Backend) -> Result<Chosen, RunError> {
    match b {
        Backend::Sim => Ok(Chosen::Sim),
        Backend::Cuda => crate::cuda::Gpu::open()
            .map(Chosen::Cuda)
            .map_err(|e| RunError::Usage(format!("--backend cuda: {e}; use --backend sim or auto"))),
        Backend::Auto => Ok(crate::cuda::Gpu::open().map(Chosen::Cuda).unwrap_or(Chosen::Sim)),
    }
}

/// Binds `arrays`, compiles the SIMT module on to PTX, and runs the entry on the GPU; returns
/// every tensor after the run, and the run's wall time in ms; with `timing` = (warm-up, reps),
/// the kernel times of `reps` more launches by CUDA events instead.
#[allow(clippy::too_many_arguments)]
pub fn execute_cuda(
    session: &Session,
    module: &crate::session::OwnedModule,
    sig: &Signature,
    arrays: &BTreeMap<String, (Array, PathBuf)>,
    defines: &BTreeMap<String, i64>,
    grid: [u32; 3],
    chip: &str,
    gpu: &crate::cuda::Gpu,
    timing: Option<(usize, usize)>,
) -> Result<(Vec<(String, Array)>, Vec<f32>), RunError> {
    let Bound { entry, kernel, block, mut tensors, params } = prepare(module, sig, arrays, defines)?;
    let ptx = simt_to_ptx(session, module, &entry, chip)?;
    let gpu_err = |e: crate::cuda::CudaError| match e {
        crate::cuda::CudaError::Fault(m) => RunError::Fault(m),
        e => RunError::Usage(e.to_string()),
    };
    let loaded = gpu.load(&ptx, &entry, chip, kernel.dynamic_shared).map_err(gpu_err)?;
    // The arguments in parameter order: buffers borrow the tensors' bytes; a dimension is as
    // wide as its PTX parameter.
    let mut buffers = tensors.iter_mut().map(|(_, a)| a.data.as_mut_slice());
    let mut args: Vec<crate::cuda::Arg> = params
        .iter()
        .enumerate()
        .map(|(i, p)| match p {
            BoundParam::Tensor => crate::cuda::Arg::Buffer(buffers.next().expect("a buffer per tensor")),
            BoundParam::Dim(v) => match kernel.args.get(i) {
                Some(phobos_sim::ArgKind::Scalar { ty, .. }) if ty.bytes() == 4 => crate::cuda::Arg::U32(*v as u32),
                _ => crate::cuda::Arg::U64(*v as u64),
            },
        })
        .collect();
    let t0 = std::time::Instant::now();
    gpu.run(&loaded, grid, block, &mut args).map_err(gpu_err)?;
    let ms = t0.elapsed().as_secs_f32() * 1e3;
    let times = match timing {
        Some((warmup, reps)) => gpu.time(&loaded, grid, block, &mut args, warmup, reps).map_err(gpu_err)?,
        None => Vec::new(),
    };
    drop(args);
    Ok((tensors, if timing.is_some() { times } else { vec![ms] }))
}

/// The PTX of the gpu.module that holds `entry` in a SIMT-level module: a clone (with the
/// module's locations) is lowered by MLIR's pipeline; the module is kept for the simulator.
pub fn simt_to_ptx(session: &Session, module: &crate::session::OwnedModule, entry: &str, chip: &str) -> Result<String, RunError> {
    let gm = gpu_module_of(module, entry)?.str_attr("sym_name").unwrap_or_default();
    let copy = module.clone_module();
    let target = phobos_passes::pipelines::Target::parse(&format!("chip={chip}")).map_err(RunError::Usage)?;
    compile::lower_from(session, &copy, Stage::Simt, Stage::Ptx, &CompileOptions { target, ..Default::default() }).map_err(|e| {
        // The diagnostics say what failed; the error alone names only the pass.
        let why: Vec<String> = session
            .diags
            .take()
            .iter()
            .filter(|d| d.severity == phobos_ir::diag::Severity::Error)
            .map(|d| d.render().trim().to_string())
            .collect();
        RunError::Usage(if why.is_empty() { e.to_string() } else { format!("{e}: {}", why.join("; ")) })
    })?;
    compile::ptx_of(&copy, &gm).map_err(|e| RunError::Usage(e.to_string()))
}

/// Every kernel `gpu.func` of `module`, with the gpu.module that holds it.
fn kernel_funcs<'a>(module: &'a crate::session::OwnedModule<'_>) -> Vec<(phobos_ir::Op<'a>, phobos_ir::Op<'a>)> {
    let mut out = Vec::new();
    for gm in module.op().find_all("gpu.module") {
        let body = gm.region(0).first_block().expect("gpu.module body");
        out.extend(body.ops().filter(|o| o.is("gpu.func") && o.attr("gpu.kernel").is_some()).map(|f| (gm, f)));
    }
    out
}

/// The gpu.module that holds the kernel named `entry`.
pub fn gpu_module_of<'a>(module: &'a crate::session::OwnedModule<'_>, entry: &str) -> Result<phobos_ir::Op<'a>, RunError> {
    kernel_funcs(module)
        .into_iter()
        .find(|(_, f)| f.str_attr("sym_name").as_deref() == Some(entry))
        .map(|(gm, _)| gm)
        .ok_or_else(|| RunError::Usage(format!("no kernel named '{entry}'")))
}

/// Binds `arrays` to the kernel, runs it on the simulator, and returns every tensor after the
/// run, in parameter order.
pub fn execute(
    module: &crate::session::OwnedModule,
    sig: &Signature,
    arrays: &BTreeMap<String, (Array, PathBuf)>,
    defines: &BTreeMap<String, i64>,
    grid: [u32; 3],
) -> Result<Vec<(String, Array)>, RunError> {
    execute_timed(module, sig, arrays, defines, grid, &phobos_sim::Options::default()).map(|(o, _, _)| o)
}

/// [`execute`] with simulator options, also giving the simulator's counts and the launch's wall
/// time in seconds.
pub fn execute_timed(
    module: &crate::session::OwnedModule,
    sig: &Signature,
    arrays: &BTreeMap<String, (Array, PathBuf)>,
    defines: &BTreeMap<String, i64>,
    grid: [u32; 3],
    opts: &phobos_sim::Options,
) -> Result<(Vec<(String, Array)>, phobos_sim::Stats, f64), RunError> {
    simulate(module, sig, arrays, defines, grid, opts, None).map(|s| (s.outputs, s.stats, s.secs))
}

/// What a simulator run gives back.
pub struct Simulated {
    /// The entry that ran, and its translation.
    pub entry: String,
    pub kernel: phobos_sim::Kernel,
    pub block: [u32; 3],
    /// Every tensor after the run, in parameter order.
    pub outputs: Vec<(String, Array)>,
    pub stats: phobos_sim::Stats,
    /// Wall time of the launch, in seconds.
    pub secs: f64,
    /// The record of the CTA asked for.
    pub trace: Option<phobos_sim::trace::Trace>,
}

/// Binds `arrays` to the kernel and runs it on the simulator; with `trace`, records what that
/// CTA does.
pub fn simulate(
    module: &crate::session::OwnedModule,
    sig: &Signature,
    arrays: &BTreeMap<String, (Array, PathBuf)>,
    defines: &BTreeMap<String, i64>,
    grid: [u32; 3],
    opts: &phobos_sim::Options,
    trace: Option<[u32; 3]>,
) -> Result<Simulated, RunError> {
    let Bound { entry, kernel, block, tensors, params } = prepare(module, sig, arrays, defines)?;
    let mut bufs: Vec<Vec<u8>> = tensors.iter().map(|(_, a)| a.data.clone()).collect();
    let mut next = 0;
    let args = params
        .iter()
        .map(|p| match p {
            BoundParam::Tensor => {
                next += 1;
                phobos_sim::ArgValue::Buffer(next - 1)
            }
            BoundParam::Dim(v) => phobos_sim::ArgValue::Int(*v),
        })
        .collect();
    let launch = phobos_sim::Launch { grid, block, args, dynamic_shared: kernel.dynamic_shared };
    crate::crash::stage(&format!("simulating {entry}"));
    let t0 = std::time::Instant::now();
    let result = match trace {
        Some(cta) => phobos_sim::run_traced(&kernel, &launch, &mut bufs, opts, cta).map(|(s, t)| (s, Some(t))),
        None => phobos_sim::run(&kernel, &launch, &mut bufs, opts).map(|s| (s, None)),
    };
    let (stats, trace) = result.map_err(|f| match f.kind {
        // A launch the simulator refuses is a usage error (exit 1), not a fault of the kernel.
        phobos_sim::FaultKind::BadLaunch => RunError::Usage(f.message),
        _ => RunError::Fault(f.to_string()),
    })?;
    let secs = t0.elapsed().as_secs_f64();
    tracing::info!("{entry}: {} CTAs, {} thread-instructions in {:.1} ms", stats.ctas, stats.thread_insts, secs * 1e3);
    let outputs = tensors
        .into_iter()
        .zip(bufs)
        .map(|((name, mut arr), data)| {
            arr.data = data;
            (name, arr)
        })
        .collect();
    Ok(Simulated { entry, kernel, block, outputs, stats, secs, trace })
}

/// A launch bound to its arguments, for either backend.
struct Bound {
    entry: String,
    /// The entry translated for the simulator; its argument kinds are the PTX parameters' too.
    kernel: phobos_sim::Kernel,
    block: [u32; 3],
    /// Every tensor, in parameter order.
    tensors: Vec<(String, Array)>,
    /// The entry's parameters in order: the tensors (in `tensors` order), then the dimensions it
    /// does not fix.
    params: Vec<BoundParam>,
}

enum BoundParam {
    Tensor,
    Dim(i64),
}

/// Binds `arrays` and `defines` to the signature, picks the entry, and translates it.
fn prepare(
    module: &crate::session::OwnedModule,
    sig: &Signature,
    arrays: &BTreeMap<String, (Array, PathBuf)>,
    defines: &BTreeMap<String, i64>,
) -> Result<Bound, RunError> {
    let (bound, values) = bind(sig, arrays, defines).map_err(RunError::Usage)?;
    let entry = select_entry(sig, &values).map_err(RunError::Usage)?;
    let gm = gpu_module_of(module, &entry)?;
    let kernel = phobos_sim::translate(gm, &entry).map_err(|u| RunError::Located(u.to_string()))?;
    let block = kernel.block.ok_or_else(|| RunError::Usage(format!("{entry} has no known_block_size; a launch needs the block size")))?;
    let fixed = sig.entries.iter().find(|(n, _)| *n == entry).map(|(_, f)| f.clone()).unwrap_or_default();
    let mut tensors = Vec::new();
    let mut params = Vec::new();
    for (p, a) in sig.params.iter().zip(bound) {
        match (p, a) {
            (AbiParam::Tensor { name, .. }, Some(arr)) => {
                tensors.push((name.clone(), arr));
                params.push(BoundParam::Tensor);
            }
            (AbiParam::Dim { name }, _) => {
                if !fixed.contains_key(name) {
                    params.push(BoundParam::Dim(values[name]));
                }
            }
            _ => unreachable!("bind gives an array per tensor"),
        }
    }
    Ok(Bound { entry, kernel, block, tensors, params })
}
