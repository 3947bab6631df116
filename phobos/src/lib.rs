//! Phobos for embedders: the one dependency a frontend needs.
//!
//! 1. Hand in L1 IR: MLIR text ([`Compiler::compile_mlir`]), or a module built in code with
//!    [`KernelBuilder`] and the dialects' typed builders (`phobos_dialects::lane::build`,
//!    `cta::build`, `tile::build`, `layout::build`).
//! 2. Compile it through the named pipelines ([`Options`]: chip, optimization level, IR dumps),
//!    keeping every stage's text and the IR after every pass in memory when asked
//!    ([`Compiler::compile_staged`], [`Compiler::lower`]).
//! 3. Get [`Kernel`]s: each with its PTX, block size, dynamic shared memory and parameters.
//! 4. Launch one on a [`Device`] (the simulator or a CUDA GPU) with host bytes or
//!    [`DeviceBuffer`]s that live across launches, synchronously or on a [`Stream`].
//!
//! `docs/embedding.md` walks through `examples/row_max.rs`, which does all four.
//!
//! ```no_run
//! use phobos::{Arg, Compiler, Device, Options};
//! let compiler = Compiler::new()?;
//! let kernels = compiler.compile_mlir(include_str!("../../examples/lane_sum.mlir"), "lane_sum.mlir", &Options::default())?;
//! let mut x: Vec<u8> = (0..1024).flat_map(|i| (i as f32).to_le_bytes()).collect();
//! kernels[0].launch(&Device::best(), [1, 1, 1], &mut [Arg::Buffer(&mut x)])?;
//! # Ok::<(), phobos::Error>(())
//! ```

#![warn(missing_docs)]

mod autotune;
pub mod build;
pub mod embed;
pub mod program;
mod program_cache;
// Doctests only: what must not compile in an embedder's code.
#[cfg(doctest)]
mod promises;
pub use autotune::GridFn;
/// Scalar parameters' values (`eps: f32`) from literals.
pub use phobos_runtime::scalar;
mod stages;

use phobos_compiler::{
    compile::{self, CompileOptions},
    front_door, render,
    session::Session,
};
pub use phobos_passes::pipelines::Exchange;
use phobos_passes::pipelines::Target;
pub use phobos_runtime::cuda::CudaError;
pub use phobos_runtime::half;
pub use phobos_runtime::{
    Arg, Device, DeviceBuffer, Diagnostic, Diagnostics, Error, Event, Fault, FaultKind, ForeignBuffer, ForeignStream, Kernel,
    LaunchOptions, LaunchReport, Param, Severity, SrcLoc, Stream,
};
pub use program::{Array, Dtype, Program, Ran, Signature};
pub use stages::{Compiled, PassIr, Stage, Staged};
use std::{collections::BTreeMap, path::PathBuf};

// What building IR in code takes, so that an embedder needs no other dependency: the IR layer
// (builders, values, types, locations) and the dialects' typed builders.
pub use phobos_dialects as dialects;
pub use phobos_ir as ir;
pub use phobos_ir::{Builder, OwnedModule, Val};
/// Layouts (CuTe's shape:stride algebra with named spaces), for the layout dialect's builders.
pub use phobos_layout as layout;
/// The simulator's options for [`LaunchOptions::sim`]: bounds, SMs, and `host_threads` (CPU
/// threads for kernels whose CTAs do not talk; the results are the same for any count).
pub use phobos_sim::Options as SimOptions;

/// What to compile for.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// The target chip, e.g. `sm_90`.
    pub chip: String,
    /// LLVM's optimization level, 0 to 3.
    pub opt_level: u32,
    /// Write the IR after every pass into this directory.
    pub dump_dir: Option<PathBuf>,
    /// Keep float multiplies and adds apart: no fused multiply-add contraction, even of ops
    /// that carry the `contract` fastmath flag (`contract-fma`).
    pub no_fma: bool,
    /// Every f32 math function is the hardware's approximation (`ex2.approx`, ...), as the
    /// language's `@fast_math` (`lower-fast-math{all}`; docs/math.md has the errors).
    pub fast_math: bool,
    /// Dimensions of a `.phobos` source fixed at compile time, as `phobos compile -D N=1024`.
    pub defines: BTreeMap<String, i64>,
    /// How exchanges whose values stay in their warp move: the cost model's choice (default),
    /// or shuffles or staging forced (`phobos compile --exchange`).
    pub exchange: Exchange,
    /// Source line information in the PTX (`.loc` lines, as `nvcc -lineinfo`).
    pub lineinfo: bool,
    /// Also compile each entry's strided twin (`k__strided`, docs/abi.md), which takes tensors
    /// as strided views (`phobos compile --strided`); [`Program::run_foreign_views`] launches it
    /// for views that are not row-major and contiguous.
    pub strided: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            chip: "sm_90".into(),
            opt_level: 3,
            dump_dir: None,
            no_fma: false,
            fast_math: false,
            defines: BTreeMap::new(),
            exchange: Exchange::Auto,
            lineinfo: false,
            strided: false,
        }
    }
}

/// Each option set by a method returning the options (the struct is `#[non_exhaustive]`: a new
/// option breaks no embedder): `Options::default().with_chip("sm_80").with_fast_math(true)`.
impl Options {
    /// [`Options::chip`].
    pub fn with_chip(mut self, chip: impl Into<String>) -> Self {
        self.chip = chip.into();
        self
    }
    /// [`Options::opt_level`].
    pub fn with_opt_level(mut self, level: u32) -> Self {
        self.opt_level = level;
        self
    }
    /// [`Options::dump_dir`].
    pub fn with_dump_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.dump_dir = Some(dir.into());
        self
    }
    /// [`Options::no_fma`].
    pub fn with_no_fma(mut self, no_fma: bool) -> Self {
        self.no_fma = no_fma;
        self
    }
    /// [`Options::fast_math`].
    pub fn with_fast_math(mut self, fast_math: bool) -> Self {
        self.fast_math = fast_math;
        self
    }
    /// One more of [`Options::defines`]: `name` fixed to `value`.
    pub fn with_define(mut self, name: impl Into<String>, value: i64) -> Self {
        self.defines.insert(name.into(), value);
        self
    }
    /// [`Options::exchange`].
    pub fn with_exchange(mut self, exchange: Exchange) -> Self {
        self.exchange = exchange;
        self
    }
    /// [`Options::strided`].
    pub fn with_strided(mut self, strided: bool) -> Self {
        self.strided = strided;
        self
    }

    /// [`Options::lineinfo`].
    pub fn with_lineinfo(mut self, lineinfo: bool) -> Self {
        self.lineinfo = lineinfo;
        self
    }
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
        self.compile(&module, opts, source, false).map(|(k, _)| k)
    }

    /// Compiles a `.phobos` source.
    pub fn compile_phobos(&self, source: &str, filename: &str, opts: &Options) -> Result<Vec<Kernel>, Error> {
        let (_, module) = self.parse_phobos(source, filename, opts)?;
        // Diagnostics point into the source (the L1 text carries its locations).
        self.compile(&module, opts, Some((filename, source)), false).map(|(k, _)| k)
    }

    /// A `.phobos` source through the frontend (the front door's first step, as `phobos
    /// compile` and `phobos run` take it), parsed as L1 MLIR in this context.
    fn parse_phobos(&self, source: &str, filename: &str, opts: &Options) -> Result<(front_door::L1, OwnedModule<'_>), Error> {
        let fopts = phobos_frontend::Options {
            no_fma: opts.no_fma,
            fast_math: opts.fast_math,
            defines: opts.defines.clone(),
            strided: opts.strided,
            ..Default::default()
        };
        let l1 = front_door::l1_of(filename, source, &fopts).map_err(|e| Error::Compile(Diagnostics::new(e.diagnostics, e.rendered)))?;
        self.session.diags.take();
        let Some(module) = self.session.parse(&l1.text, &l1.name) else {
            return Err(Error::Compile(self.render(Some((&l1.name, &l1.text)))));
        };
        Ok((l1, module))
    }

    /// Compiles a module (e.g. from [`KernelBuilder::finish`]); the module is left as it was.
    pub fn compile_module(&self, module: &OwnedModule, opts: &Options) -> Result<Vec<Kernel>, Error> {
        self.session.diags.take();
        self.compile(module, opts, None, false).map(|(k, _)| k)
    }

    /// The lowering options `opts` stand for.
    fn compile_options(&self, opts: &Options) -> Result<CompileOptions, Error> {
        if opts.opt_level > 3 {
            return Err(Error::Compile(Diagnostics::unlocated(format!("O must be 0 to 3, got '{}'", opts.opt_level))));
        }
        let target = Target {
            chip: opts.chip.clone(),
            opt_level: opts.opt_level,
            fma: !opts.no_fma,
            fast_math: opts.fast_math,
            exchange: opts.exchange,
            lineinfo: opts.lineinfo,
            ..Target::default()
        }
        .checked()
        .map_err(|e| Error::Compile(Diagnostics::unlocated(e)))?;
        Ok(CompileOptions { target, dump_dir: opts.dump_dir.clone(), ..Default::default() })
    }

    /// Lowers two clones of `module` (they keep its locations, so diagnostics point into the
    /// input): one to the SIMT level for the simulator, one to PTX (keeping its IR with `keep`).
    fn compile(
        &self,
        module: &OwnedModule,
        opts: &Options,
        source: Option<(&str, &str)>,
        keep: bool,
    ) -> Result<(Vec<Kernel>, compile::Lowered), Error> {
        self.check_context(module)?;
        // One lowering: L1 to SIMT (what the simulator runs), then a copy of that on to PTX. The
        // IR is kept for `keep` and for a dump directory, written once, after a failure too.
        let dump = opts.dump_dir.is_some();
        // With `keep` (a staged compile), each stage's and each Phobos pass's wall time too.
        let timings = keep.then(phobos_passes::external::Timings::default);
        let copts = CompileOptions {
            keep_stages: keep || dump,
            keep_passes: keep || dump,
            timings: timings.clone(),
            ..self.compile_options(opts)?
        };
        let copts = CompileOptions { dump_dir: None, ..copts };
        let simt = module.clone_module();
        let (mut lowered, first) = compile::lower_keeping(&self.session, &simt, compile::Stage::L1, compile::Stage::Simt, &copts);
        let ptx_module = simt.clone_module();
        let result = first.and_then(|()| {
            let (rest, r) = compile::lower_keeping(&self.session, &ptx_module, compile::Stage::Simt, compile::Stage::Ptx, &copts);
            // Its first stage is the SIMT text the first lowering ended with.
            lowered.stages.extend(rest.stages.into_iter().skip(1));
            lowered.passes.extend(rest.passes);
            r
        });
        let dumped = match &opts.dump_dir {
            Some(dir) => {
                let input = lowered.stages.first().map(|(_, t)| t.as_str()).unwrap_or_default();
                compile::write_dumps(dir, input, &lowered.passes, &[])
            }
            None => Ok(()),
        };
        // A compile that failed reports why, with its IR, even when its dumps could not be
        // written either.
        if let Err(e) = result {
            return Err(self.failed_with_ir(e, source, &lowered));
        }
        dumped.map_err(|e| self.failed(e, source))?;
        if !keep {
            lowered.stages.clear();
            lowered.passes.clear();
        }
        lowered.timings = timings.map(|t| t.all()).unwrap_or_default();
        let mut kernels = Vec::new();
        for gm in simt.op().find_all("gpu.module") {
            let ptx = compile::ptx_of(&ptx_module, &gm.str_attr("sym_name").unwrap_or_default())
                .map_err(|e| Error::Compile(Diagnostics::unlocated(e.to_string())))?;
            for f in gm.find_all("gpu.func").into_iter().filter(|f| f.attr("gpu.kernel").is_some() || f.attr("kernel").is_some()) {
                let name = f.str_attr("sym_name").unwrap_or_default();
                kernels.push(Kernel::translate(gm, &name, &opts.chip, ptx.clone())?);
            }
        }
        Ok((kernels, lowered))
    }

    /// Runs a pass pipeline, in `phobos-opt`'s syntax, on `module` in place, then the
    /// verifiers: `builtin.module(gpu.module(convert-lane-to-gpu))`, or a named pipeline such as
    /// `builtin.module(phobos-to-simt{chip=sm_90})`. A pipeline that does not parse is an
    /// unlocated error; a pass that fails returns its located diagnostics.
    pub fn run_pipeline(&self, module: &OwnedModule, pipeline: &str) -> Result<(), Error> {
        self.check_context(module)?;
        self.session.diags.take();
        let cfg = phobos_passes::pipeline::BuildConfig { diags: self.session.diags.clone(), ..Default::default() };
        let printing = phobos_compiler::pass_manager::IrPrinting::default();
        match phobos_compiler::pass_manager::run_pipeline(&self.session, module, pipeline, &cfg, &printing) {
            Err(phobos_compiler::pass_manager::PipelineRunError::Pipeline(e)) => Err(pipeline_error(e)),
            Err(e) => {
                let d = self.render(None);
                Err(Error::Compile(if d.all().is_empty() { Diagnostics::unlocated(e.to_string()) } else { d }))
            }
            // A success's remarks (barriers elided, ...) belong to no later call.
            Ok(()) if phobos_dialects::verify(module.op(), &self.session.diags) => {
                self.session.diags.take();
                Ok(())
            }
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
    /// [`Compiler::failed`], the compile's error carrying the IR that ran ([`Diagnostics::ir`]):
    /// the input, then what each pass left, up to the failing one.
    pub(crate) fn failed_with_ir(&self, e: compile::CompileError, source: Option<(&str, &str)>, lowered: &compile::Lowered) -> Error {
        let ir = lowered.stages.iter().take(1).map(|(s, t)| (s.name().to_string(), t.clone()));
        let ir = ir.chain(lowered.passes.iter().map(|p| (format!("{}/{}", p.stage.name(), p.pass), p.ir.clone()))).collect();
        match self.failed(e, source) {
            Error::Compile(d) => Error::Compile(d.with_ir(ir)),
            other => other,
        }
    }

    fn failed(&self, e: compile::CompileError, source: Option<(&str, &str)>) -> Error {
        let d = self.render(source);
        if let compile::CompileError::Io(m) = e {
            return Error::Io(m);
        }
        // Remarks of a compile that failed for another reason (a pipeline, no PTX) are not the
        // error: the message is.
        Error::Compile(if d.all().iter().any(|x| x.severity == Severity::Error) { d } else { Diagnostics::unlocated(e.to_string()) })
    }

    /// The session's diagnostics, with their rendering (the source's lines when it is known), as
    /// the CLI renders them: for a `.phobos` source, without the dialects' op names.
    fn render(&self, source: Option<(&str, &str)>) -> Diagnostics {
        let phobos = source.is_some_and(|(name, _)| phobos_source::is_language_file(name));
        let diags = render::render_map(&self.session.diags.take(), phobos);
        let text = render::render(&diags, &|f| source.filter(|(name, _)| *name == f).map(|(_, text)| text.to_string()));
        Diagnostics::new(diags, text)
    }
}

/// A pipeline that does not parse: one error located in the pipeline text
/// (`<pass-pipeline>:1:COL: error: ...`), read once.
pub(crate) fn pipeline_error(e: phobos_passes::pipeline::PipelineError) -> Error {
    let loc = SrcLoc::new("<pass-pipeline>", 1, e.col as u32);
    let d = Diagnostic::new(Severity::Error, Some(loc), e.message);
    let rendered = d.render();
    Error::Compile(Diagnostics::new(vec![d], rendered))
}

/// Element and scalar types a kernel parameter can have (what the simulator and the ABI take):
/// the language's scalar types but `bool`.
const PARAM_TYPES: [&str; 8] = {
    let mut names = [""; 8];
    let mut i = 0;
    while i < 8 {
        names[i] = phobos_frontend::types::Scalar::NAMES[i];
        i += 1;
    }
    // `bool` is the list's last, the one left out.
    assert!(matches!(phobos_frontend::types::Scalar::ALL[8], phobos_frontend::types::Scalar::Bool));
    names
};

/// A module holding one gpu.module with the kernel `name` (empty body), parsed in `compiler`'s
/// context.
fn kernel_module<'s>(compiler: &'s Compiler, name: &str, block: [u32; 3], params: &[(&str, ParamType)]) -> Result<OwnedModule<'s>, Error> {
    check_signature(name, block, params).map_err(|m| Error::Compile(Diagnostics::unlocated(m)))?;
    let args: Vec<String> = params
        .iter()
        .map(|(n, t)| match t {
            ParamType::Buffer(e) => {
                format!("%{n}: memref<1099511627776x{e}> {{llvm.noalias, llvm.align = 16 : i64, phobos.tensor = \"{n}\"}}")
            }
            ParamType::Scalar(ty) => format!("%{n}: {ty} {{phobos.dim = \"{n}\"}}"),
            ParamType::Tensor { elem, dims } => {
                let dims: Vec<String> = dims.iter().map(|d| format!("\"{d}\"")).collect();
                format!(
                    "%{n}: memref<1099511627776x{}> {{llvm.noalias, llvm.align = 16 : i64, phobos.tensor = \"{n}\", phobos.dims = [{}]}}",
                    elem.name(),
                    dims.join(", ")
                )
            }
        })
        .collect();
    let [x, y, z] = block;
    let text = format!(
        "gpu.module @kernels {{\n  gpu.func @{name}({}) kernel attributes {{known_block_size = array<i32: {x}, {y}, {z}>}} {{\n    gpu.return\n  }}\n}}\n",
        args.join(", ")
    );
    compiler.session.parse(&text, &format!("{name}.builder")).ok_or_else(|| Error::Compile(compiler.render(None)))
}

/// The checks [`KernelBuilder::new`] makes before writing any IR, so that a bad name or type is
/// an error that says which, not a parse error in text the caller never saw.
fn check_signature(name: &str, block: [u32; 3], params: &[(&str, ParamType)]) -> Result<(), String> {
    let ident = |n: &str| {
        n.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if !ident(name) {
        return Err(format!("kernel name '{name}' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)"));
    }
    let threads = block.iter().map(|d| *d as u64).product::<u64>();
    if block.contains(&0) || block[2] > 64 || !(1..=1024).contains(&threads) {
        let [x, y, z] = block;
        return Err(format!(
            "kernel {name} has a block of {x}x{y}x{z} threads; CUDA allows 1 to 1024 threads, each extent at least 1 and z at most 64"
        ));
    }
    for (i, (n, t)) in params.iter().enumerate() {
        if !ident(n) {
            return Err(format!("parameter {i} of {name}: '{n}' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)"));
        }
        if params[..i].iter().any(|(m, _)| m == n) {
            return Err(format!("parameter {i} of {name}: '{n}' names an earlier parameter too"));
        }
        let ty = t.type_name();
        let ok = PARAM_TYPES.contains(&ty) || (matches!(t, ParamType::Scalar(_)) && ty == "index");
        if let ParamType::Tensor { dims, .. } = t {
            for d in dims {
                let constant = d.parse::<i64>().is_ok_and(|v| v > 0);
                let scalar = params.iter().any(|(m, p)| m == d && matches!(p, ParamType::Scalar(_)));
                if !constant && !scalar {
                    return Err(format!(
                        "parameter {i} ({n}) of {name}: dimension '{d}' is neither a positive constant nor a scalar parameter"
                    ));
                }
            }
        }
        if !ok {
            return Err(format!(
                "parameter {i} ({n}) of {name} has type '{ty}'; a parameter is one of {} (or index, for a scalar)",
                PARAM_TYPES.join(", ")
            ));
        }
    }
    Ok(())
}

/// Builds kernels in code: a `gpu.module` holding `gpu.func` kernels with the given parameters
/// and block sizes; add each body with [`KernelBuilder::builder`] and the typed builders
/// ([`build`], `phobos_dialects::*::build`).
pub struct KernelBuilder<'s> {
    module: OwnedModule<'s>,
    /// The kernel that `args` and `builder` work on: the last one added.
    current: usize,
}

/// A parameter type for [`KernelBuilder::new`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum ParamType {
    /// A buffer of this element type (`"f32"`, `"i32"`, ...), of any length.
    Buffer(String),
    /// A scalar of this type (`"i32"`, `"index"`, `"f32"`, ...).
    Scalar(String),
    /// A tensor of `elem` elements with these dimensions: each the name of a scalar parameter
    /// (bound at launch) or a constant (`"128"`). Every launch checks that its buffer holds at
    /// least their product, on every device, as for a `.phobos` kernel's tensors.
    Tensor {
        /// The element type.
        elem: build::Scalar,
        /// The dimensions, outermost first.
        dims: Vec<String>,
    },
}

impl ParamType {
    /// The element or scalar type's name.
    fn type_name(&self) -> &str {
        match self {
            ParamType::Buffer(t) | ParamType::Scalar(t) => t,
            ParamType::Tensor { elem, .. } => elem.name(),
        }
    }
}

impl<'s> KernelBuilder<'s> {
    /// A kernel `name` of `threads` threads per block (x only) with `params`, its body empty.
    pub fn new(compiler: &'s Compiler, name: &str, threads: u32, params: &[(&str, ParamType)]) -> Result<KernelBuilder<'s>, Error> {
        KernelBuilder::with_block(compiler, name, [threads, 1, 1], params)
    }

    /// A kernel `name` with a 1-, 2- or 3-D block of `block` threads (x, y, z) and `params`.
    pub fn with_block(
        compiler: &'s Compiler,
        name: &str,
        block: [u32; 3],
        params: &[(&str, ParamType)],
    ) -> Result<KernelBuilder<'s>, Error> {
        let module = kernel_module(compiler, name, block, params)?;
        Ok(KernelBuilder { module, current: 0 })
    }

    /// Adds another kernel to the same gpu.module (so one PTX module holds both); `args` and
    /// `builder` then work on it. A name already used is an error.
    pub fn add_kernel(&mut self, compiler: &Compiler, name: &str, block: [u32; 3], params: &[(&str, ParamType)]) -> Result<(), Error> {
        compiler.check_context(&self.module)?;
        let funcs = self.module.op().find_all("gpu.func");
        if funcs.iter().any(|f| f.str_attr("sym_name").as_deref() == Some(name)) {
            return Err(Error::Compile(Diagnostics::unlocated(format!("a kernel named {name} is already in the module"))));
        }
        let other = kernel_module(compiler, name, block, params)?;
        let new = other.op().find_all("gpu.func")[0];
        let last = *funcs.last().expect("the first kernel");
        // Put the new kernel after the last one: before it, then the last one before it.
        new.move_before(last);
        last.move_before(new);
        self.current = funcs.len();
        Ok(())
    }

    /// Adds a device function `name` (a `func.func` in the kernels' gpu.module) taking
    /// `params` and returning `results` (type names: `"f32"`, `"index"`, ...): `body(builder,
    /// args)` builds it and returns its results. Kernels call it with [`build::call`]; it is
    /// inlined on the simulator and a `.func` in the PTX.
    pub fn add_function(
        &mut self,
        compiler: &Compiler,
        name: &str,
        params: &[&str],
        results: &[&str],
        body: impl for<'b> FnOnce(Builder<'b>, &[Val<'b>]) -> Vec<Val<'b>>,
    ) -> Result<(), Error> {
        compiler.check_context(&self.module)?;
        let misuse = |m: String| Error::Compile(Diagnostics::unlocated(m));
        check_signature(name, [1, 1, 1], &[]).map_err(misuse)?;
        let symbols = self.module.op().find_all("gpu.func").into_iter().chain(self.module.op().find_all("func.func"));
        if symbols.into_iter().any(|f| f.str_attr("sym_name").as_deref() == Some(name)) {
            return Err(misuse(format!("a kernel or function named {name} is already in the module")));
        }
        if let Some(t) = params.iter().chain(results).find(|t| !PARAM_TYPES.contains(t) && **t != "index" && **t != "i1") {
            return Err(misuse(format!("function {name}: type '{t}' is not one of {}, index or i1", PARAM_TYPES.join(", "))));
        }
        let gm = self.module.op().find_all("gpu.module")[0];
        let at = Builder::at_end(gm.region(0).first_block().expect("a gpu.module body"), gm.loc());
        let ctx = at.ctx;
        let param_tys: Vec<_> = params.iter().map(|t| ctx.known_type(t)).collect();
        let region = phobos_ir::OwnedRegion::new();
        let blk = region.add_block(&param_tys, at.loc);
        let inner = Builder::at_end(blk, at.loc);
        let returned = body(inner, &blk.args());
        let got: Vec<String> = returned.iter().map(|v| v.ty().to_string()).collect();
        if got != results {
            return Err(misuse(format!("function {name} returns ({}) but is declared to return ({})", got.join(", "), results.join(", "))));
        }
        inner.op("func.return", &returned, &[], &[]);
        let fn_type = ctx.known_attr(&format!("({}) -> ({})", params.join(", "), results.join(", ")));
        at.op_with_regions("func.func", &[], &[], &[("sym_name", ctx.str_attr(name)), ("function_type", fn_type)], vec![region]);
        Ok(())
    }

    fn func(&self) -> phobos_ir::Op<'_> {
        self.module.op().find_all("gpu.func")[self.current]
    }
    /// The current kernel's parameters as values, in order.
    pub fn args(&self) -> Vec<Val<'_>> {
        self.func().region(0).first_block().map(|b| b.args()).unwrap_or_default()
    }
    /// A builder inserting at the end of the current kernel's body. Its ops are located in the
    /// kernel's generated text (`<name>.builder:2:5`, its `gpu.return`); use
    /// [`KernelBuilder::builder_at`] to give them the frontend's own source position, which
    /// diagnostics and faults then report.
    pub fn builder(&self) -> Builder<'_> {
        Builder::before(self.func().find_all("gpu.return")[0])
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
        // Only this call's diagnostics: none left from earlier use of the context.
        compiler.session.diags.take();
        if !self.module.op().verify() || !phobos_dialects::verify(self.module.op(), &compiler.session.diags) {
            return Err(Error::Compile(compiler.render(None)));
        }
        Ok(self.module)
    }
}
