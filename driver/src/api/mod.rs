//! The embedding API, for frontends other than Phobos's own language.
//!
//! 1. Hand in L1 IR: MLIR text ([`Compiler::compile_mlir`]), or a module built in code with
//!    [`KernelBuilder`] and the dialects' typed builders (`phobos_dialects::lane::build`,
//!    `cta::build`, `tile::build`, `layout::build`).
//! 2. Compile it through the named pipelines ([`Options`]: chip, optimization level, IR dumps).
//! 3. Get [`Kernel`]s: each with its PTX, block size, dynamic shared memory and parameters.
//! 4. Launch one on a [`Device`]: the simulator or a CUDA GPU, through one call.
//!
//! ```no_run
//! use phobos::api::{Arg, Compiler, Device, Options};
//! let compiler = Compiler::new()?;
//! let kernels = compiler.compile_mlir(include_str!("../../examples/lane_sum.mlir"), "lane_sum.mlir", &Options::default())?;
//! let mut x: Vec<u8> = (0..1024).flat_map(|i| (i as f32).to_le_bytes()).collect();
//! kernels[0].launch(&Device::best(), [1, 1, 1], &mut [Arg::Buffer(&mut x)])?;
//! # Ok::<(), phobos::api::Error>(())
//! ```

#![warn(missing_docs)]

mod error;

use crate::{
    compile::{self, CompileOptions, Stage},
    cuda::{self, Gpu},
    session::Session,
};
pub mod build;
pub use error::{Diagnostic, Diagnostics, Error, Fault, FaultKind, Severity, SrcLoc};
pub use phobos_ir::OwnedModule;
use phobos_ir::{Builder, Val};
use phobos_passes::pipelines::Target;
use std::path::PathBuf;

/// What to compile for.
#[derive(Clone, Debug)]
pub struct Options {
    /// The target chip, e.g. `sm_90`.
    pub chip: String,
    /// LLVM's optimization level, 0 to 3.
    pub opt_level: u32,
    /// Write the IR after every pass into this directory.
    pub dump_dir: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options { chip: "sm_90".into(), opt_level: 3, dump_dir: None }
    }
}

/// A kernel parameter, in launch order.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Param {
    /// A global-memory buffer of elements of `elem` (`f32`, `i32`, ...).
    Buffer {
        /// The tensor's name (`phobos.tensor`, or `argN`).
        name: String,
        /// The element type.
        elem: String,
    },
    /// A scalar of type `ty`.
    Scalar {
        /// The parameter's name (`phobos.dim`, or `argN`).
        name: String,
        /// `i32`, `i64` (also for `index`), `f32` or `f64`.
        ty: String,
    },
}

/// A launch argument: a buffer's bytes (read and written back), or a scalar of exactly the
/// parameter's type (see [`Kernel::check_args`]).
#[derive(Debug)]
pub enum Arg<'a> {
    /// A buffer's bytes, little-endian elements; the launch writes the kernel's results back.
    Buffer(&'a mut [u8]),
    /// An `i32` parameter.
    I32(i32),
    /// An `i64` or `index` parameter.
    I64(i64),
    /// An `f32` parameter.
    F32(f32),
    /// An `f64` parameter.
    F64(f64),
}

/// Where kernels run.
#[non_exhaustive]
pub enum Device {
    /// The CPU SIMT simulator (with its sanitizer).
    Simulator,
    /// A CUDA GPU, through cudarc.
    Cuda(Gpu),
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Device({})", self.name())
    }
}

impl Device {
    /// A GPU when one is usable, else the simulator.
    pub fn best() -> Device {
        Gpu::open().map(Device::Cuda).unwrap_or(Device::Simulator)
    }
    /// The first CUDA GPU, or why there is none.
    pub fn cuda() -> Result<Device, Error> {
        Ok(Device::Cuda(Gpu::open()?))
    }
    /// `simulator`, or the GPU's name and chip: `NVIDIA H200 (sm_90)`.
    pub fn name(&self) -> String {
        match self {
            Device::Simulator => "simulator".into(),
            Device::Cuda(g) => format!("{} ({})", g.name, g.chip),
        }
    }
}

/// A compiled kernel, independent of the compiler that made it.
#[derive(Debug)]
pub struct Kernel {
    /// The entry's name (the `gpu.func`'s symbol).
    pub name: String,
    /// The PTX of the gpu.module that holds the kernel (the entry is `.entry <name>`): one PTX
    /// module per gpu.module, as `ptxas` and the CUDA driver take it.
    pub ptx: String,
    /// The chip it was compiled for, e.g. `sm_90`.
    pub chip: String,
    /// The block size (`known_block_size`), which every launch uses.
    pub block: [u32; 3],
    /// Bytes of dynamic shared memory a launch reserves (the shared-memory plan's).
    pub dynamic_shared: u32,
    /// The parameters, in launch order.
    pub params: Vec<Param>,
    sim: phobos_sim::Kernel,
}

/// What a launch measured.
#[derive(Clone, Debug, Default)]
pub struct LaunchReport {
    /// Wall time of the launch in ms (on a GPU: including the copies).
    pub ms: f64,
    /// The simulator's thread-instruction count (0 on a GPU).
    pub thread_instructions: u64,
}

/// A compiler: an MLIR context with the Phobos dialects and passes.
#[derive(Debug)]
pub struct Compiler {
    session: Session,
}

impl Compiler {
    /// A context with the Phobos dialects and passes loaded.
    pub fn new() -> Result<Compiler, Error> {
        Ok(Compiler { session: Session::new(true).map_err(|e| Error::Compile(Diagnostics::unlocated(e.to_string())))? })
    }

    /// Compiles L1 MLIR text; `filename` names it in diagnostics.
    pub fn compile_mlir(&self, text: &str, filename: &str, opts: &Options) -> Result<Vec<Kernel>, Error> {
        let source = Some((filename, text));
        // Diagnostics left from earlier use of this context (e.g. by builders) are not this input's.
        self.session.diags.take();
        let Some(module) = self.session.parse(text, filename) else { return Err(Error::Compile(self.render(source))) };
        self.compile(&module, opts, source)
    }

    /// Compiles a `.phobos` source.
    pub fn compile_phobos(&self, source: &str, filename: &str, opts: &Options) -> Result<Vec<Kernel>, Error> {
        let src = phobos_frontend::Source::new(filename, source);
        let out = phobos_frontend::compile(&src, &phobos_frontend::Options::default()).map_err(|ds| {
            let list: Vec<Diagnostic> = ds.iter().map(|d| compile::frontend_diagnostic(d, &src)).collect();
            Error::Compile(Diagnostics::new(list, ds.iter().map(|d| d.render(&src)).collect()))
        })?;
        self.compile_mlir(&out.mlir, &format!("{filename}.l1.mlir"), opts)
    }

    /// Compiles a module (e.g. from [`KernelBuilder::finish`]); the module is left as it was.
    pub fn compile_module(&self, module: &OwnedModule, opts: &Options) -> Result<Vec<Kernel>, Error> {
        self.session.diags.take();
        self.compile(module, opts, None)
    }

    /// Lowers two clones of `module` (they keep its locations, so diagnostics point into the
    /// input): one to the SIMT level for the simulator, one to PTX.
    fn compile(&self, module: &OwnedModule, opts: &Options, source: Option<(&str, &str)>) -> Result<Vec<Kernel>, Error> {
        self.check_context(module)?;
        let target =
            Target::parse(&format!("chip={} O={}", opts.chip, opts.opt_level)).map_err(|e| Error::Compile(Diagnostics::unlocated(e)))?;
        let copts = CompileOptions { target: target.clone(), dump_dir: opts.dump_dir.clone(), ..Default::default() };
        // SAFETY: a clone is a detached module that only this OwnedModule owns.
        let simt = module.clone_module();
        compile::lower(&self.session, &simt, Stage::Simt, &CompileOptions { target, ..Default::default() })
            .map_err(|e| self.failed(e, source))?;
        let ptx_module = module.clone_module();
        compile::lower(&self.session, &ptx_module, Stage::Ptx, &copts).map_err(|e| self.failed(e, source))?;
        let mut kernels = Vec::new();
        for gm in simt.op().find_all("gpu.module") {
            let ptx = compile::ptx_of(&ptx_module, &gm.str_attr("sym_name").unwrap_or_default())
                .map_err(|e| Error::Compile(Diagnostics::unlocated(e.to_string())))?;
            for f in gm.find_all("gpu.func").into_iter().filter(|f| f.attr("gpu.kernel").is_some() || f.attr("kernel").is_some()) {
                let name = f.str_attr("sym_name").unwrap_or_default();
                let sim = phobos_sim::translate(gm, &name).map_err(|u| {
                    let rendered = u.to_string();
                    Error::Compile(Diagnostics::new(vec![Diagnostic::new(Severity::Error, u.loc, u.message)], rendered))
                })?;
                let block = sim.block.ok_or_else(|| Error::Compile(Diagnostics::unlocated(format!("{name} has no known_block_size"))))?;
                let params = sim
                    .args
                    .iter()
                    .map(|a| match a {
                        phobos_sim::ArgKind::Buffer { name, elem, .. } => Param::Buffer { name: name.clone(), elem: elem.name().into() },
                        phobos_sim::ArgKind::Scalar { name, ty } => Param::Scalar { name: name.clone(), ty: ty.name().into() },
                    })
                    .collect();
                kernels.push(Kernel {
                    name,
                    ptx: ptx.clone(),
                    chip: opts.chip.clone(),
                    block,
                    dynamic_shared: sim.dynamic_shared,
                    params,
                    sim,
                });
            }
        }
        Ok(kernels)
    }

    /// Runs a pass pipeline, in `phobos-opt`'s syntax, on `module` in place, then the
    /// verifiers: `builtin.module(gpu.module(convert-lane-to-gpu))`, or a named pipeline such as
    /// `builtin.module(phobos-to-simt{chip=sm_90})`. A pipeline that does not parse is an
    /// unlocated error; a pass that fails returns its located diagnostics.
    pub fn run_pipeline(&self, module: &OwnedModule, pipeline: &str) -> Result<(), Error> {
        self.check_context(module)?;
        self.session.diags.take();
        let cfg = phobos_passes::pipeline::BuildConfig { diags: self.session.diags.clone(), ..Default::default() };
        let printing = crate::pass_manager::IrPrinting::default();
        match crate::pass_manager::run_pipeline(&self.session, module, pipeline, &cfg, &printing) {
            Err(crate::pass_manager::PipelineRunError::Pipeline(e)) => Err(Error::Compile(Diagnostics::unlocated(e.to_string()))),
            Err(e) => {
                let d = self.render(None);
                Err(Error::Compile(if d.all().is_empty() { Diagnostics::unlocated(e.to_string()) } else { d }))
            }
            Ok(()) if phobos_dialects::verify(module.op(), &self.session.diags) => Ok(()),
            Ok(()) => Err(Error::Compile(self.render(None))),
        }
    }

    /// An error when `module` was built in another Compiler's context (its ops cannot mix with
    /// this one's).
    fn check_context(&self, module: &OwnedModule) -> Result<(), Error> {
        if module.op().ctx() != phobos_ir::Ctx::of(&self.session.ctx) {
            return Err(Error::Compile(Diagnostics::unlocated(
                "the module belongs to another Compiler's context: build it with this Compiler's session()",
            )));
        }
        Ok(())
    }

    /// The MLIR context, for building IR with [`KernelBuilder`].
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// A lowering that failed: its diagnostics, or what failed when it reported none (an
    /// unwritable dump directory, a pipeline that did not build).
    fn failed(&self, e: compile::CompileError, source: Option<(&str, &str)>) -> Error {
        let d = self.render(source);
        Error::Compile(if d.all().is_empty() { Diagnostics::unlocated(e.to_string()) } else { d })
    }

    /// The session's diagnostics, with their rendering (the source's lines when it is known).
    fn render(&self, source: Option<(&str, &str)>) -> Diagnostics {
        let diags = self.session.diags.take();
        let text = compile::render(&diags, &|f| source.filter(|(name, _)| *name == f).map(|(_, text)| text.to_string()));
        Diagnostics::new(diags, text)
    }
}

/// Element and scalar types a kernel parameter can have (what the simulator and the ABI take).
const PARAM_TYPES: [&str; 8] = ["i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"];

/// The checks [`KernelBuilder::new`] makes before writing any IR, so that a bad name or type is
/// an error that says which, not a parse error in text the caller never saw.
fn check_signature(name: &str, threads: u32, params: &[(&str, ParamType)]) -> Result<(), String> {
    let ident = |n: &str| {
        n.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if !ident(name) {
        return Err(format!("kernel name '{name}' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)"));
    }
    if !(1..=1024).contains(&threads) {
        return Err(format!("kernel {name} has {threads} threads per block; CUDA allows 1 to 1024"));
    }
    for (i, (n, t)) in params.iter().enumerate() {
        if !ident(n) {
            return Err(format!("parameter {i} of {name}: '{n}' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)"));
        }
        if params[..i].iter().any(|(m, _)| m == n) {
            return Err(format!("parameter {i} of {name}: '{n}' names an earlier parameter too"));
        }
        let (ParamType::Buffer(ty) | ParamType::Scalar(ty)) = t;
        let ok = PARAM_TYPES.contains(ty) || (matches!(t, ParamType::Scalar(_)) && *ty == "index");
        if !ok {
            return Err(format!(
                "parameter {i} ({n}) of {name} has type '{ty}'; a parameter is one of {} (or index, for a scalar)",
                PARAM_TYPES.join(", ")
            ));
        }
    }
    Ok(())
}

/// Builds one kernel in code: a `gpu.module` holding a `gpu.func` with the given parameters and
/// block size; add its body with [`KernelBuilder::builder`] and the typed builders.
pub struct KernelBuilder<'s> {
    module: OwnedModule<'s>,
}

/// A parameter type for [`KernelBuilder::new`].
#[derive(Clone, Copy, Debug)]
pub enum ParamType {
    /// A buffer of this element type (`"f32"`, `"i32"`, ...).
    Buffer(&'static str),
    /// A scalar of this type (`"i32"`, `"index"`, `"f32"`, ...).
    Scalar(&'static str),
}

impl<'s> KernelBuilder<'s> {
    /// A kernel `name` of `threads` threads per block (x only) with `params`, its body empty.
    pub fn new(compiler: &'s Compiler, name: &str, threads: u32, params: &[(&str, ParamType)]) -> Result<KernelBuilder<'s>, Error> {
        check_signature(name, threads, params).map_err(|m| Error::Compile(Diagnostics::unlocated(m)))?;
        let args: Vec<String> = params
            .iter()
            .map(|(n, t)| match t {
                ParamType::Buffer(e) => {
                    format!("%{n}: memref<1099511627776x{e}> {{llvm.noalias, llvm.align = 16 : i64, phobos.tensor = \"{n}\"}}")
                }
                ParamType::Scalar(ty) => format!("%{n}: {ty} {{phobos.dim = \"{n}\"}}"),
            })
            .collect();
        let text = format!(
            "gpu.module @kernels {{\n  gpu.func @{name}({}) kernel attributes {{known_block_size = array<i32: {threads}, 1, 1>}} {{\n    gpu.return\n  }}\n}}\n",
            args.join(", ")
        );
        let module = compiler.session.parse(&text, &format!("{name}.builder")).ok_or_else(|| Error::Compile(compiler.render(None)))?;
        Ok(KernelBuilder { module })
    }
    /// The kernel's parameters as values, in order.
    pub fn args(&self) -> Vec<Val<'_>> {
        let func = self.module.op().find_all("gpu.func")[0];
        func.region(0).first_block().map(|b| b.args()).unwrap_or_default()
    }
    /// A builder inserting at the end of the kernel's body. Its ops are located in the kernel's
    /// generated text (`<name>.builder:3:5`, its `gpu.return`); use [`KernelBuilder::builder_at`] to give them
    /// the frontend's own source position, which diagnostics and faults then report.
    pub fn builder(&self) -> Builder<'_> {
        Builder::before(self.module.op().find_all("gpu.return")[0])
    }
    /// A builder inserting at the end of the kernel's body whose ops are located at
    /// `file:line:col` (1-based).
    pub fn builder_at(&self, file: &str, line: u32, col: u32) -> Builder<'_> {
        let b = self.builder();
        let loc = b.ctx.file_loc(file, line, col);
        b.with_loc(loc)
    }
    /// The module, verified.
    pub fn finish(self, compiler: &Compiler) -> Result<OwnedModule<'s>, Error> {
        if !self.module.op().verify() || !phobos_dialects::verify(self.module.op(), &compiler.session.diags) {
            return Err(Error::Compile(compiler.render(None)));
        }
        Ok(self.module)
    }
}

impl Kernel {
    /// Checks `args` against the parameters, with the same rules for every device, so that a
    /// launch that runs on the simulator means the same on a GPU: the count; a buffer for a
    /// buffer, holding whole elements; for a scalar, the argument of exactly its type (`I32` for
    /// `i32`, `I64` for `i64` and `index`, `F32`, `F64`): no conversion, on any device.
    pub fn check_args(&self, args: &[Arg]) -> Result<(), Error> {
        if args.len() != self.params.len() {
            return Err(Error::Launch(format!("{} takes {} arguments, got {}", self.name, self.params.len(), args.len())));
        }
        for (i, (kind, a)) in self.sim.args.iter().zip(args.iter()).enumerate() {
            let given = match a {
                Arg::Buffer(_) => "a buffer",
                Arg::I32(_) => "Arg::I32",
                Arg::I64(_) => "Arg::I64",
                Arg::F32(_) => "Arg::F32",
                Arg::F64(_) => "Arg::F64",
            };
            match (kind, a) {
                (phobos_sim::ArgKind::Buffer { name, elem, .. }, Arg::Buffer(b)) => {
                    if b.len() % elem.bytes() != 0 {
                        return Err(Error::Launch(format!(
                            "argument {i} ({name}) of {}: a buffer of {} holds whole {}-byte elements, got {} bytes",
                            self.name,
                            elem.name(),
                            elem.bytes(),
                            b.len()
                        )));
                    }
                }
                (phobos_sim::ArgKind::Buffer { name, elem, .. }, _) => {
                    return Err(Error::Launch(format!(
                        "argument {i} ({name}) of {} is a buffer of {}, got {given}",
                        self.name,
                        elem.name()
                    )));
                }
                (phobos_sim::ArgKind::Scalar { name, ty }, _) => {
                    let want = match ty {
                        phobos_sim::Prim::I32 => "Arg::I32",
                        phobos_sim::Prim::I64 => "Arg::I64",
                        phobos_sim::Prim::F32 => "Arg::F32",
                        phobos_sim::Prim::F64 => "Arg::F64",
                        other => {
                            return Err(Error::Launch(format!(
                                "argument {i} ({name}) of {} has type {}, which a launch cannot pass",
                                self.name,
                                other.name()
                            )))
                        }
                    };
                    if want != given {
                        return Err(Error::Launch(format!(
                            "argument {i} ({name}) of {} is {}: pass {want}, got {given}",
                            self.name,
                            ty.name()
                        )));
                    }
                }
            }
        }
        self.check_lengths(args)
    }

    /// Every buffer holds at least the elements its dimensions say (`W: f32[N, K]` needs N·K),
    /// the dimensions being constants or the values of the scalar arguments that bind them.
    fn check_lengths(&self, args: &[Arg]) -> Result<(), Error> {
        let mut dims: std::collections::HashMap<&str, i64> = std::collections::HashMap::new();
        for (kind, a) in self.sim.args.iter().zip(args.iter()) {
            if let (phobos_sim::ArgKind::Scalar { name, .. }, Arg::I32(v)) = (kind, a) {
                dims.insert(name, *v as i64);
            }
            if let (phobos_sim::ArgKind::Scalar { name, .. }, Arg::I64(v)) = (kind, a) {
                dims.insert(name, *v);
            }
        }
        for (i, (kind, a)) in self.sim.args.iter().zip(args.iter()).enumerate() {
            let (phobos_sim::ArgKind::Buffer { name, elem, dims: names }, Arg::Buffer(b)) = (kind, a) else { continue };
            if names.is_empty() {
                continue;
            }
            let mut values = Vec::new();
            for d in names {
                match d.parse::<i64>().ok().or_else(|| dims.get(d.as_str()).copied()) {
                    Some(v) if v < 0 => {
                        return Err(Error::Launch(format!("argument {i} ({name}) of {}: dimension {d} is {v}", self.name)));
                    }
                    Some(v) => values.push(v),
                    None => return Ok(()), // bound by nothing the launch passes: not checkable
                }
            }
            let need = values.iter().try_fold(1i64, |a, v| a.checked_mul(*v)).unwrap_or(i64::MAX);
            let have = (b.len() / elem.bytes().max(1)) as i64;
            if have < need {
                let shown: Vec<String> =
                    names.iter().zip(&values).map(|(n, v)| if n.parse::<i64>().is_ok() { n.clone() } else { format!("{n}={v}") }).collect();
                return Err(Error::Launch(format!(
                    "argument {i} ({name}) of {}: {name} is {}[{}], {need} elements, but the buffer holds {have}",
                    self.name,
                    elem.name(),
                    shown.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// Runs the kernel on `device` with `args` in parameter order; buffers are written back.
    pub fn launch(&self, device: &Device, grid: [u32; 3], args: &mut [Arg]) -> Result<LaunchReport, Error> {
        self.check_args(args)?;
        phobos_sim::check_grid(grid).map_err(Error::Launch)?;
        let t0 = std::time::Instant::now();
        match device {
            Device::Simulator => {
                let mut bufs: Vec<Vec<u8>> = Vec::new();
                let values = args
                    .iter()
                    .map(|a| match a {
                        Arg::Buffer(b) => {
                            bufs.push(b.to_vec());
                            phobos_sim::ArgValue::Buffer(bufs.len() - 1)
                        }
                        Arg::I32(v) => phobos_sim::ArgValue::Int(*v as i64),
                        Arg::I64(v) => phobos_sim::ArgValue::Int(*v),
                        Arg::F32(v) => phobos_sim::ArgValue::Float(*v as f64),
                        Arg::F64(v) => phobos_sim::ArgValue::Float(*v),
                    })
                    .collect();
                let launch = phobos_sim::Launch { grid, block: self.block, args: values, dynamic_shared: self.dynamic_shared };
                let opts = phobos_sim::Options {
                    shared_limit: phobos_passes::target::chip(&self.chip)
                        .map(|c| c.shared_optin)
                        .unwrap_or(phobos_passes::target::SHARED_DEFAULT) as u32,
                    ..Default::default()
                };
                let stats = phobos_sim::run(&self.sim, &launch, &mut bufs, &opts).map_err(Error::from)?;
                let mut filled = bufs.into_iter();
                for a in args.iter_mut() {
                    if let Arg::Buffer(b) = a {
                        b.copy_from_slice(&filled.next().expect("a buffer per argument"));
                    }
                }
                Ok(LaunchReport { ms: t0.elapsed().as_secs_f64() * 1e3, thread_instructions: stats.thread_insts })
            }
            Device::Cuda(gpu) => {
                let loaded = gpu.load(&self.ptx, &self.name, &self.chip, self.dynamic_shared)?;
                let mut cargs: Vec<cuda::Arg> = args
                    .iter_mut()
                    .map(|a| match a {
                        Arg::Buffer(b) => cuda::Arg::Buffer(b),
                        Arg::I32(v) => cuda::Arg::U32(*v as u32),
                        Arg::I64(v) => cuda::Arg::U64(*v as u64),
                        Arg::F32(v) => cuda::Arg::F32(*v),
                        Arg::F64(v) => cuda::Arg::F64(*v),
                    })
                    .collect();
                gpu.run(&loaded, grid, self.block, &mut cargs)?;
                Ok(LaunchReport { ms: t0.elapsed().as_secs_f64() * 1e3, thread_instructions: 0 })
            }
        }
    }
}
