//! The one front door from source to module. [`l1_of`]: a `.phobos` source through the language
//! frontend, or `.mlir` text, as L1 MLIR text; every compile starts there (`phobos compile`, the
//! embedding API's `compile_phobos`, and what follows). [`load_text`]: on to a SIMT-level module
//! with the kernel's [`Signature`]; [`execute`]: from such a module and named arrays to a launch
//! on a [`Device`] through the runtime. `phobos run`, `phobos explain`, selftest and the tests
//! go through `load_text` and `execute`; the embedding API launches through the same runtime.
//! Nothing here prints: diagnostics come back rendered, for the caller to show.

use crate::{
    compile::{self, CompileOptions, Stage},
    render::render_for,
    session::{OwnedModule, Session},
};
use phobos_frontend::AbiParam;
use phobos_ir::diag::{Diagnostic, Severity};
use phobos_runtime::{
    bind::{self, Signature},
    cuda::CudaError,
    npy::Array,
    Device, Kernel, LaunchOptions, LaunchReport,
};
use std::{collections::BTreeMap, path::PathBuf};

/// Why a run stopped. Exit codes: usage, compile and argument errors are 1; a fault in the
/// kernel is 2.
#[derive(Debug)]
pub enum RunError {
    /// A message for the user (exit 1).
    Usage(String),
    /// A diagnostic that names its own location (`file:line:col: error: ...`, exit 1).
    Located(String),
    /// The input's diagnostics, rendered (exit 1); `failure` is what failed when no diagnostic
    /// is an error (a pass pipeline that did not run).
    Compile { diagnostics: String, failure: Option<String> },
    /// A fault in the kernel (exit 2).
    Fault(String),
}

impl RunError {
    /// 2 for a fault of the kernel, else 1.
    pub fn exit_code(&self) -> i32 {
        match self {
            RunError::Fault(_) => 2,
            _ => 1,
        }
    }
}

impl From<phobos_runtime::Error> for RunError {
    fn from(e: phobos_runtime::Error) -> RunError {
        use phobos_runtime::Error as E;
        match e {
            E::Compile(d) => match d.first_error() {
                Some(first) if first.loc.is_some() => RunError::Located(d.to_string()),
                Some(first) => RunError::Usage(first.message.clone()),
                None => RunError::Usage(d.to_string()),
            },
            E::Fault(f) => RunError::Fault(f.to_string()),
            E::Cuda(CudaError::Fault(m)) => RunError::Fault(m),
            e => RunError::Usage(e.to_string()),
        }
    }
}

/// A source compiled to the SIMT level.
pub struct Loaded<'s> {
    /// The module, at the SIMT level: what the simulator runs, and what [`simt_to_ptx`] lowers.
    pub module: OwnedModule<'s>,
    /// The kernel's parameters and entries.
    pub sig: Signature,
    /// The compiler's remarks (the shared-memory plan, the barriers elided and why).
    pub remarks: Vec<Diagnostic>,
    /// The warnings, rendered for the user.
    pub warnings: String,
}

/// A source as L1 MLIR text: where every compile starts (`phobos compile`, `phobos run`,
/// `phobos explain`, the embedding API).
pub struct L1 {
    /// The L1 MLIR text.
    pub text: String,
    /// The name it is parsed under: `k.phobos.l1.mlir` for a source (its ops are located in the
    /// source), the file's own name for `.mlir`.
    pub name: String,
    /// The frontend's entries (kernels and their specializations) for a `.phobos` source.
    pub entries: Option<Vec<phobos_frontend::Entry>>,
}

/// The frontend's diagnostics on a `.phobos` source, and their rendering.
#[derive(Debug)]
pub struct FrontendErrors {
    /// Each diagnostic, located in the source.
    pub diagnostics: Vec<Diagnostic>,
    /// As the CLI prints them, with the source lines.
    pub rendered: String,
}

/// The front door's first step: a `.phobos` source (by its name; or a `.py` file's kernel text,
/// from Python) through the language frontend, anything else taken as MLIR text as it is.
pub fn l1_of(filename: &str, text: &str, opts: &phobos_frontend::Options) -> Result<L1, FrontendErrors> {
    if !phobos_source::is_language_file(filename) {
        return Ok(L1 { text: text.to_string(), name: filename.to_string(), entries: None });
    }
    let src = phobos_frontend::Source::new(filename, text);
    match phobos_frontend::compile(&src, opts) {
        Ok(o) => Ok(L1 { text: o.mlir, name: format!("{filename}.l1.mlir"), entries: Some(o.entries) }),
        Err(ds) => Err(FrontendErrors {
            diagnostics: ds.iter().map(|d| crate::render::frontend_diagnostic(d, &src)).collect(),
            rendered: ds.iter().map(|d| d.render(&src)).collect(),
        }),
    }
}

/// Compiles the source at `path` (`.phobos` or `.mlir`) to the SIMT level.
pub fn load_file<'s>(
    session: &'s Session,
    path: &std::path::Path,
    kernel: Option<&str>,
    chip: &str,
    opts: &phobos_frontend::Options,
) -> Result<Loaded<'s>, RunError> {
    let text = crate::read_source(path).map_err(RunError::Usage)?;
    load_text(session, &path.display().to_string(), &text, kernel, chip, opts)
}

/// Compiles source text to the SIMT level; `filename` ends in `.phobos` or `.mlir`. `kernel`
/// picks one of several; frontend options other than `no_fma` and `fast_math` are bound at
/// launch.
pub fn load_text<'s>(
    session: &'s Session,
    filename: &str,
    text: &str,
    kernel: Option<&str>,
    chip: &str,
    opts: &phobos_frontend::Options,
) -> Result<Loaded<'s>, RunError> {
    let filename = filename.to_string();
    let text = text.to_string();
    let is_phobos = filename.ends_with(".phobos");
    if !is_phobos && !filename.ends_with(".mlir") {
        return Err(RunError::Usage(format!("{filename}: expected a .phobos source or an .mlir file")));
    }
    let source = |f: &str| (f == filename).then(|| text.clone());
    let l1 = l1_of(&filename, &text, opts).map_err(|e| RunError::Compile { diagnostics: e.rendered, failure: None })?;
    let entries = l1.entries;
    let module = session.parse(&l1.text, &l1.name);
    // An .mlir file already at the SIMT level (no Phobos op) runs as written: the simulator can
    // then run kernels the compiler would reject or never produce (a missing barrier).
    let is_l1 = |m: &OwnedModule| {
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
            let target = phobos_passes::pipelines::Target {
                chip: chip.to_string(),
                fma: !opts.no_fma,
                fast_math: opts.fast_math,
                ..Default::default()
            }
            .checked()
            .map_err(RunError::Usage)?;
            compile::lower(session, m, Stage::Simt, &CompileOptions { target, ..Default::default() })
        }
        None => Err(compile::CompileError::Invalid),
    };
    let (remarks, diags): (Vec<_>, Vec<_>) = session.diags.take().into_iter().partition(|d| d.severity == Severity::Remark);
    let diagnostics = render_for(&diags, is_phobos, &source);
    let module = match (module, lowered) {
        (Some(m), Ok(_)) => m,
        (_, Err(compile::CompileError::Run(m))) => {
            // After a located error, "pass 'X' failed" says nothing more.
            let failure = (!diags.iter().any(|d| d.severity == Severity::Error)).then_some(m);
            return Err(RunError::Compile { diagnostics, failure });
        }
        _ => return Err(RunError::Compile { diagnostics, failure: None }),
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
    Ok(Loaded { module, sig, remarks, warnings: diagnostics })
}

/// The signature of `kernel` from the frontend's entries (all its specializations).
pub fn signature(entries: &[phobos_frontend::Entry], kernel: &str) -> Signature {
    // Strided twins are picked by the views at launch, never by the dimensions.
    let mine: Vec<&phobos_frontend::Entry> = entries.iter().filter(|e| e.kernel == kernel && !e.strided).collect();
    Signature {
        kernel: kernel.to_string(),
        params: mine.first().map(|e| e.params.clone()).unwrap_or_default(),
        // An entry's meta-parameters join what it fixes: no bound value names them, so every
        // candidate matches the dimensions, and the first is the default.
        entries: mine.iter().map(|e| (e.name.clone(), e.fixed.clone().into_iter().chain(e.meta.clone()).collect())).collect(),
        aligned: mine.first().map(|e| e.aligned.clone()).unwrap_or_default(),
        autotune: mine
            .first()
            .map(|e| e.autotune.iter().filter(|(n, _)| !e.meta.contains_key(*n)).map(|(n, v)| (n.clone(), v.clone())).collect())
            .unwrap_or_default(),
        meta: mine
            .first()
            .map(|e| e.autotune.iter().filter(|(n, _)| e.meta.contains_key(*n)).map(|(n, v)| (n.clone(), v.clone())).collect())
            .unwrap_or_default(),
    }
}

/// The signature of a kernel in an `.mlir` file, from its arguments (`phobos.tensor`,
/// `phobos.dims`, `phobos.scalar` and `phobos.dim` name them when present).
fn mlir_signature(module: &OwnedModule, kernel: Option<&str>) -> Result<Signature, RunError> {
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
        .filter(|a| a.given())
        .map(|a| match a {
            phobos_sim::ArgKind::Buffer { name, elem, dims, .. } => AbiParam::Tensor {
                name: name.clone(),
                elem: match elem {
                    phobos_sim::Prim::I1 => "bool".into(),
                    p => p.name().to_string(),
                },
                dims: dims.clone(),
            },
            phobos_sim::ArgKind::Scalar { name, dim: true, .. } => AbiParam::Dim { name: name.clone() },
            phobos_sim::ArgKind::TensorMap { .. } => unreachable!("filtered: the launcher builds tensor maps"),
            phobos_sim::ArgKind::Scalar { name, ty, dim: false } => AbiParam::Scalar {
                name: name.clone(),
                ty: match ty {
                    phobos_sim::Prim::I1 => "bool".into(),
                    p => p.name().to_string(),
                },
            },
        })
        .collect();
    Ok(Signature {
        kernel: kernel.clone(),
        params,
        entries: vec![(kernel, BTreeMap::new())],
        aligned: BTreeMap::new(),
        autotune: BTreeMap::new(),
        meta: BTreeMap::new(),
    })
}

/// The PTX of the gpu.module that holds `entry` in a SIMT-level module: a clone (with the
/// module's locations) is lowered by MLIR's pipeline; the module is kept for the simulator.
pub fn simt_to_ptx(session: &Session, module: &OwnedModule, entry: &str, chip: &str) -> Result<String, RunError> {
    let gm = gpu_module_of(module, entry)?.str_attr("sym_name").unwrap_or_default();
    let copy = module.clone_module();
    let target = phobos_passes::pipelines::Target { chip: chip.to_string(), ..Default::default() }.checked().map_err(RunError::Usage)?;
    compile::lower_from(session, &copy, Stage::Simt, Stage::Ptx, &CompileOptions { target, ..Default::default() }).map_err(|e| {
        // The diagnostics say what failed; the error alone names only the pass.
        let why: Vec<String> =
            session.diags.take().iter().filter(|d| d.severity == Severity::Error).map(|d| d.render().trim().to_string()).collect();
        RunError::Usage(if why.is_empty() { e.to_string() } else { format!("{e}: {}", why.join("; ")) })
    })?;
    compile::ptx_of(&copy, &gm).map_err(|e| RunError::Usage(e.to_string()))
}

/// Every kernel `gpu.func` of `module`, with the gpu.module that holds it.
fn kernel_funcs<'a>(module: &'a OwnedModule<'_>) -> Vec<(phobos_ir::Op<'a>, phobos_ir::Op<'a>)> {
    let mut out = Vec::new();
    for gm in module.op().find_all("gpu.module") {
        let body = gm.region(0).first_block().expect("gpu.module body");
        out.extend(body.ops().filter(|o| o.is("gpu.func") && o.attr("gpu.kernel").is_some()).map(|f| (gm, f)));
    }
    out
}

/// The gpu.module that holds the kernel named `entry`.
pub fn gpu_module_of<'a>(module: &'a OwnedModule<'_>, entry: &str) -> Result<phobos_ir::Op<'a>, RunError> {
    kernel_funcs(module)
        .into_iter()
        .find(|(_, f)| f.str_attr("sym_name").as_deref() == Some(entry))
        .map(|(gm, _)| gm)
        .ok_or_else(|| RunError::Usage(format!("no kernel named '{entry}'")))
}

/// What [`execute`] ran, and what came back.
pub struct Executed {
    /// The entry that ran, compiled (its simulator program, block and parameters).
    pub kernel: Kernel,
    /// Every tensor after the run, in parameter order.
    pub outputs: Vec<(String, Array)>,
    /// The launch's time and counts.
    pub report: LaunchReport,
}

/// Binds `arrays` and `defines` to `sig`, compiles the entry they pick from the SIMT-level
/// `module` (on to PTX for a GPU), and launches it on `device`. The tensors named in `fortran`
/// (read from Fortran-order files) run as Fortran-order views through the entry's strided twin
/// where the module has one (loaded with `strided`), else in C order like the others.
#[allow(clippy::too_many_arguments)]
pub fn execute(
    session: &Session,
    module: &OwnedModule,
    sig: &Signature,
    arrays: &BTreeMap<String, (Array, PathBuf)>,
    defines: &BTreeMap<String, i64>,
    grid: [u32; 3],
    device: &Device,
    chip: &str,
    opts: &LaunchOptions,
    fortran: &[String],
) -> Result<Executed, RunError> {
    launch_entry(Some(session), module, sig, arrays, defines, grid, device, chip, opts, fortran)
}

/// [`execute`] on the simulator (which needs no PTX, so no session).
pub fn simulate(
    module: &OwnedModule,
    sig: &Signature,
    arrays: &BTreeMap<String, (Array, PathBuf)>,
    defines: &BTreeMap<String, i64>,
    grid: [u32; 3],
    opts: &LaunchOptions,
) -> Result<Executed, RunError> {
    launch_entry(None, module, sig, arrays, defines, grid, &Device::Simulator, "sm_90", opts, &[])
}

#[allow(clippy::too_many_arguments)]
fn launch_entry(
    session: Option<&Session>,
    module: &OwnedModule,
    sig: &Signature,
    arrays: &BTreeMap<String, (Array, PathBuf)>,
    defines: &BTreeMap<String, i64>,
    grid: [u32; 3],
    device: &Device,
    chip: &str,
    opts: &LaunchOptions,
    fortran: &[String],
) -> Result<Executed, RunError> {
    let mut bound = bind::prepare(sig, arrays, defines).map_err(RunError::Usage)?;
    let twin = phobos_frontend::strided_name(&bound.entry);
    let views = !fortran.is_empty() && gpu_module_of(module, &twin).is_ok();
    if views {
        bound.into_fortran_views(&twin, sig, fortran);
    }
    let mut kernel = Kernel::translate(gpu_module_of(module, &bound.entry)?, &bound.entry, chip, String::new())?;
    match (device, session) {
        (Device::Cuda(_), Some(session)) => kernel.ptx = simt_to_ptx(session, module, &bound.entry, chip)?,
        (Device::Cuda(_), None) => return Err(RunError::Usage("a GPU launch needs a session to compile PTX".into())),
        _ => crate::crash_stage::stage(&format!("simulating {}", bound.entry)),
    }
    let (mut outputs, report) = bound.launch(&kernel, device, grid, opts)?;
    if views {
        bind::Bound::from_fortran_views(&mut outputs, fortran);
    }
    Ok(Executed { kernel, outputs, report })
}
