//! Phobos's MLIR dialects.
//!
//! The IRDL files in `irdl/` are the source of truth for each dialect's ops; they are compiled
//! into the binary and loaded into every context that [`create_context`] makes. IRDL cannot
//! express everything (integer ranges, relations between attributes and constant operands,
//! region shapes), so each dialect module has Rust verifiers too; [`verify`] runs them all.

pub mod cta;
pub mod kernel;
pub mod lane;
pub mod layout;
pub mod ops;
pub mod tile;

use melior::{dialect::DialectRegistry, ir::Module, Context};
use phobos_ir::{Diagnostics, Op};
use std::sync::Once;

/// The IRDL source of each dialect, in load order.
pub const IRDL_SOURCES: &[(&str, &str)] = &[
    ("lane", include_str!("../irdl/lane.irdl.mlir")),
    ("cta", include_str!("../irdl/cta.irdl.mlir")),
    ("tile", include_str!("../irdl/tile.irdl.mlir")),
    ("layout", include_str!("../irdl/layout.irdl.mlir")),
];

/// Names of the Phobos dialects (the op-name prefixes).
pub const DIALECTS: &[&str] = &["lane", "cta", "tile", "layout"];

/// The IRDL modules the Phobos dialects of one context were loaded from: the dynamic dialects
/// refer to the definitions inside them, so they live as long as the context does.
#[derive(Debug, Default)]
pub struct IrdlModules(Vec<mlir_sys::MlirModule>);

impl IrdlModules {
    /// Destroys the modules, as the context that loaded them is destroyed.
    ///
    /// # Safety
    /// Nothing in their context verifies or builds a Phobos op afterwards: call it just before
    /// the context is destroyed.
    pub unsafe fn destroy(self) {
        for m in self.0 {
            // SAFETY: each module was parsed by `load_all` and is destroyed once, here.
            unsafe { mlir_sys::mlirModuleDestroy(m) };
        }
    }
}

/// Loads the Phobos dialects into `ctx`, once: a context that has them already is left as it is.
/// Returns the IRDL modules they came from, to destroy with the context
/// ([`IrdlModules::destroy`]; kept alive otherwise), or an error naming the dialect whose IRDL did
/// not load (a bug in Phobos, never in user input).
pub fn load_all(ctx: &Context) -> Result<IrdlModules, String> {
    let mut kept = IrdlModules::default();
    if ctx.is_registered_operation("lane.reduce") {
        return Ok(kept);
    }
    for (name, src) in IRDL_SOURCES {
        let module = Module::parse(ctx, src).ok_or_else(|| format!("IRDL of dialect `{name}` does not parse"))?;
        // SAFETY: `module` is a live module of `ctx` holding IRDL ops. (Not melior's wrapper: its
        // module also references MLIR's register-everything; see `register_upstream_dialects`.)
        if unsafe { mlir_sys::mlirLoadIRDLDialects(module.to_raw()) }.value != 1 {
            return Err(format!("IRDL of dialect `{name}` does not load"));
        }
        // The loaded dynamic dialect refers to definitions inside this module: kept with the
        // context.
        kept.0.push(module.to_raw());
        std::mem::forget(module);
    }
    Ok(kept)
}

/// Loads the dialects an IRDL module defines into its context (mlir-opt's `--irdl-file`). The
/// module must outlive every use of them: the loaded dialects refer to its ops. A dialect whose
/// namespace the context has already is a located error (MLIR would abort on it).
pub fn load_irdl(module: &phobos_ir::OwnedModule) -> Result<(), phobos_ir::Diagnostic> {
    let ctx = module.op().ctx();
    for op in module.op().region(0).first_block().into_iter().flat_map(|b| b.ops()).filter(|o| o.is("irdl.dialect")) {
        let name = op.str_attr("sym_name").unwrap_or_default();
        // SAFETY: the context is live; the name is borrowed for the call; a null result means no such
        // dialect (loading a registered one is what the parser would do on meeting it).
        let taken = !unsafe { mlir_sys::mlirContextGetOrLoadDialect(ctx.to_raw(), phobos_ir::sref(&name)) }.ptr.is_null();
        if taken {
            return Err(phobos_ir::Diagnostic::error_at(
                op.loc(),
                format!("dialect '{name}' exists already: an IRDL file defines new dialects"),
            ));
        }
    }
    // SAFETY: `module` is a live module; MLIR reads its IRDL ops and registers dialects in its context.
    match unsafe { mlir_sys::mlirLoadIRDLDialects(mlir_sys::mlirModuleFromOperation(module.op().to_raw())) }.value {
        1 => Ok(()),
        _ => Err(phobos_ir::Diagnostic::error_at(module.op().loc(), "the IRDL file's dialects did not load")),
    }
}

static REGISTER_PASSES: Once = Once::new();
static REGISTER_ALL_PASSES: Once = Once::new();

/// Registers the upstream passes Phobos's own pipelines name (about 0.1 ms, where registering
/// all of MLIR's takes 1.5 ms of every compile's process).
fn register_pipeline_passes() {
    // SAFETY: each call adds one pass to MLIR's global registry; registering one twice is
    // harmless (the same pass), and Once keeps this to one thread.
    unsafe {
        use mlir_sys::*;
        mlirRegisterTransformsCanonicalizer();
        mlirRegisterTransformsCSE();
        mlirRegisterTransformsLoopInvariantCodeMotion();
        mlirRegisterConversionConvertNVGPUToNVVMPass();
        mlirRegisterConversionConvertGpuOpsToNVVMOps();
        mlirRegisterConversionConvertVectorToSCF();
        mlirRegisterConversionLowerAffinePass();
        mlirRegisterConversionSCFToControlFlowPass();
        mlirRegisterConversionReconcileUnrealizedCastsPass();
        mlirRegisterMemRefExpandStridedMetadataPass();
        mlirRegisterGPUGpuNVVMAttachTarget();
        mlirRegisterGPUGpuModuleToBinaryPass();
        mlirRegisterLLVMDIScopeForLLVMFuncOpPass();
    }
}

/// Registers the passes of the upstream groups a GPU pipeline draws on (general transforms,
/// conversions, and those of gpu, affine, arith, func, llvm, math, memref, nvgpu, scf and
/// vector, and `gpu-lower-to-nvvm-pipeline`), once per process: for pipelines that name passes
/// Phobos's own do not (`phobos-opt`, an embedder's pipeline text). Not MLIR's
/// register-everything: see [`register_upstream_dialects`].
pub fn register_every_upstream_pass() {
    // SAFETY: adds passes to MLIR's global registry; Once keeps this to one thread.
    REGISTER_ALL_PASSES.call_once(|| unsafe { phobosRegisterUpstreamPasses() });
}

extern "C" {
    // `cpp/upstream.cpp`.
    fn phobosRegisterUpstreamDialects(registry: mlir_sys::MlirDialectRegistry);
    fn phobosRegisterUpstreamPasses();
    fn phobosParseImplicitModule(
        ctx: mlir_sys::MlirContext,
        text: mlir_sys::MlirStringRef,
        name: mlir_sys::MlirStringRef,
    ) -> mlir_sys::MlirOperation;
    fn phobosParseMlirPrintingOptions(
        argc: std::ffi::c_int,
        argv: *const *const std::ffi::c_char,
        callback: mlir_sys::MlirStringCallback,
        user: *mut std::ffi::c_void,
    ) -> bool;
    fn phobosDumpPassPipeline(pm: mlir_sys::MlirPassManager, callback: mlir_sys::MlirStringCallback, user: *mut std::ffi::c_void);
    fn phobosPrintRegisteredPasses() -> bool;
    fn phobosTimingCreate() -> *mut std::ffi::c_void;
    fn phobosTimingPhase(timing: *mut std::ffi::c_void, phase: std::ffi::c_int);
    fn phobosTimingAttach(timing: *mut std::ffi::c_void, pm: mlir_sys::MlirPassManager);
    fn phobosTimingReport(timing: *mut std::ffi::c_void);
    fn phobosUpstreamPassInfo(flag: mlir_sys::MlirStringRef, callback: mlir_sys::MlirStringCallback, user: *mut std::ffi::c_void) -> bool;
}

/// MLIR text parsed as mlir-opt parses its input: a lone `builtin.module` as it is, any other
/// top-level ops inside a module made around them (at line 0, column 0), their positions those
/// of the text. None on an error (the context's diagnostic handler has it).
pub fn parse_implicit_module<'c>(ctx: &'c melior::Context, text: &str, filename: &str) -> Option<phobos_ir::OwnedModule<'c>> {
    // SAFETY: the context is alive for 'c and the strings for the call; the parsed op, when not null, is a
    // detached module nobody else owns.
    unsafe {
        let raw = phobosParseImplicitModule(ctx.to_raw(), phobos_ir::sref(text), phobos_ir::sref(filename));
        (!raw.ptr.is_null()).then(|| phobos_ir::OwnedModule::adopt(raw))
    }
}

/// MLIR's printing options as mlir-opt takes them (`--mlir-print-unique-ssa-ids`,
/// `--mlir-pretty-debuginfo`, `--mlir-print-value-users`, ...): every printing made afterwards in
/// this process starts from them. `args` are the options alone; Err with LLVM's message on one
/// it does not know or a bad value.
pub fn parse_mlir_printing_options(tool: &str, args: &[String]) -> Result<(), String> {
    unsafe extern "C" fn collect(s: mlir_sys::MlirStringRef, data: *mut std::ffi::c_void) {
        // SAFETY: `data` is the `&mut String` passed below, alive and unborrowed during the call.
        let out = unsafe { &mut *(data as *mut String) };
        // SAFETY: `s` points at bytes the shim holds for the call.
        out.push_str(&unsafe { phobos_ir::from_sref(s) });
    }
    let strings: Vec<std::ffi::CString> = std::iter::once(tool)
        .chain(args.iter().map(String::as_str))
        .map(|a| std::ffi::CString::new(a).map_err(|_| format!("'{a}': an option holds a NUL byte")))
        .collect::<Result<_, _>>()?;
    let argv: Vec<*const std::ffi::c_char> = strings.iter().map(|s| s.as_ptr()).collect();
    let mut message = String::new();
    // SAFETY: `argv` holds `argv.len()` NUL-terminated strings alive for the call; the callback only
    // appends to `message`. LLVM's option registry is process-global: the driver calls this once, on
    // its main thread, before any IR is printed.
    let ok = unsafe {
        phobosParseMlirPrintingOptions(
            argv.len() as std::ffi::c_int,
            argv.as_ptr(),
            Some(collect),
            &mut message as *mut String as *mut std::ffi::c_void,
        )
    };
    if ok {
        Ok(())
    } else {
        Err(message.trim().to_string())
    }
}

/// The pass manager's pipeline as mlir-opt's `--dump-pass-pipeline` prints it: "Pass Manager
/// with N passes:", then the pipeline, indented.
pub fn dump_pass_pipeline(pm: &melior::pass::PassManager) -> String {
    // SAFETY: `pm` is a live pass manager for the call; the callback only appends to the String that
    // print_with keeps alive.
    phobos_ir::print_with(|cb, d| unsafe { phobosDumpPassPipeline(pm.to_raw(), cb, d) })
}

/// Prints every registered upstream pass and pass pipeline with its options on stdout, as
/// mlir-opt's `--list-passes` does (registering them first). Err when stdout failed.
pub fn print_upstream_passes() -> Result<(), String> {
    register_every_upstream_pass();
    // SAFETY: reads MLIR's pass registry, complete after the registration above, and writes to stdout.
    match unsafe { phobosPrintRegisteredPasses() } {
        true => Ok(()),
        false => Err("stdout: the list of passes could not be written".into()),
    }
}

/// mlir-opt's `--mlir-timing` report of one input: the parse, the passes and the output, each
/// timed by MLIR's timing manager (`--mlir-timing-display=list|tree` and `--mlir-output-format`
/// from [`parse_mlir_printing_options`]); printed on stderr when dropped.
pub struct Timing(*mut std::ffi::c_void);

/// A phase of [`Timing`] outside the passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimingPhase {
    Parser = 0,
    Output = 1,
}

impl Timing {
    pub fn new() -> Timing {
        // SAFETY: creates a timing manager the returned value owns and destroys once, on drop.
        Timing(unsafe { phobosTimingCreate() })
    }
    /// Starts `phase` (ending the one running); None ends it.
    pub fn phase(&self, phase: Option<TimingPhase>) {
        // SAFETY: `self.0` is the live timing manager made in `new`.
        unsafe { phobosTimingPhase(self.0, phase.map_or(-1, |p| p as std::ffi::c_int)) }
    }
    /// Times the passes `pm` runs, under the root.
    pub fn attach(&self, pm: &melior::pass::PassManager) {
        // SAFETY: both are live; the pass manager keeps a handle of the root's timer, and is
        // destroyed (by its owner, after its run) before this timing reports.
        unsafe { phobosTimingAttach(self.0, pm.to_raw()) }
    }
}

impl Default for Timing {
    fn default() -> Timing {
        Timing::new()
    }
}

impl Drop for Timing {
    fn drop(&mut self) {
        // SAFETY: `self.0` is live and destroyed only here.
        unsafe { phobosTimingReport(self.0) }
    }
}

impl std::fmt::Debug for Timing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Timing")
    }
}

/// An upstream pass (or pass pipeline) by its flag (`canonicalize`): the op it runs on (empty:
/// any op) and its name (`Canonicalizer`), as `mlir-opt` names it in IR dumps. None when MLIR
/// registers nothing of that flag (every upstream pass is registered first).
pub fn upstream_pass_info(flag: &str) -> Option<(String, String)> {
    unsafe extern "C" fn collect(s: mlir_sys::MlirStringRef, data: *mut std::ffi::c_void) {
        // SAFETY: `data` is the `&mut String` passed below, alive and unborrowed during the call.
        let out = unsafe { &mut *(data as *mut String) };
        // SAFETY: `s` points at bytes MLIR holds for the call.
        out.push_str(&unsafe { phobos_ir::from_sref(s) });
    }
    register_every_upstream_pass();
    let mut out = String::new();
    let sref = mlir_sys::MlirStringRef { data: flag.as_ptr() as *const std::ffi::c_char, length: flag.len() };
    // SAFETY: `sref` points into `flag`, alive for the call; the callback only appends to `out`.
    let found = unsafe { phobosUpstreamPassInfo(sref, Some(collect), &mut out as *mut String as *mut std::ffi::c_void) };
    let (anchor, name) = out.split_once('\n')?;
    found.then(|| (anchor.to_string(), name.to_string()))
}

/// Adds to `registry` the upstream dialects Phobos's pipelines and IR use (affine, arith, cf,
/// complex, dlti, func, gpu, index, irdl, llvm, math, memref, nvgpu, nvvm, scf, tensor, ub,
/// vector), with the interfaces those pipelines need: lowering to LLVM, the NVVM target, the
/// translation to LLVM IR; and bufferization and rocdl, which upstream's gpu and memref IR
/// names (`#rocdl.target`, `bufferization.alloc_tensor`), without their lowerings.
///
/// Not MLIR's `mlirRegisterAllDialects`: the object defining it also registers every pass, one
/// of which initialises every LLVM backend, so linking it links them all (AArch64, AMDGPU, X86
/// and a dozen more) and runs their static constructors at every process start
/// (`cpp/upstream.cpp` says how the binaries avoid it).
pub fn register_upstream_dialects(registry: &DialectRegistry) {
    // SAFETY: `registry` is a live registry for the call.
    unsafe { phobosRegisterUpstreamDialects(registry.to_raw()) }
}

/// A context with the upstream dialects, the LLVM translations (for `gpu-module-to-binary`) and
/// the Phobos dialects. Upstream passes are registered once per process so pipelines can name
/// them. Dialects load lazily as the parser meets them.
pub fn create_context(threading: bool) -> Result<(Context, IrdlModules), String> {
    let registry = DialectRegistry::new();
    let ctx = Context::new_with_registry(&registry, threading);
    let irdl = prepare_context(&ctx)?;
    Ok((ctx, irdl))
}

/// Makes any context ready for Phobos (an embedder's own too): the upstream dialects appended
/// to its registry, the LLVM translations, the upstream passes registered once per process, and
/// the Phobos dialects loaded.
pub fn prepare_context(ctx: &Context) -> Result<IrdlModules, String> {
    REGISTER_PASSES.call_once(register_pipeline_passes);
    let registry = DialectRegistry::new();
    register_upstream_dialects(&registry);
    ctx.append_dialect_registry(&registry);
    // Ops Phobos builds from Rust must have their dialects loaded up front.
    for d in ["builtin", "func", "gpu", "arith", "scf", "memref", "vector", "nvvm", "llvm", "math", "irdl"] {
        ctx.get_or_load_dialect(d);
    }
    load_all(ctx)
}

/// True for ops of a Phobos dialect.
pub fn is_phobos_op(op: Op) -> bool {
    let name = op.name();
    DIALECTS.iter().any(|d| name.len() > d.len() && name.starts_with(d) && name.as_bytes()[d.len()] == b'.')
}

/// Runs the Rust verifiers of every Phobos op nested in `root` (root included), and the
/// launch-interface checks of every `gpu.func` ([`kernel`]). Reports each
/// problem to `diags`; returns false when any was found.
pub fn verify(root: Op, diags: &Diagnostics) -> bool {
    let mut ok = true;
    for op in root.walk() {
        let r = match ops::PhobosOp::of(op) {
            Some(ops::PhobosOp::Lane(_)) => lane::verify(op),
            Some(ops::PhobosOp::Cta(_)) => cta::verify(op),
            Some(ops::PhobosOp::Tile(_)) => tile::verify(op),
            Some(ops::PhobosOp::Layout(_)) => layout::verify(op),
            None if op.is("gpu.func") => kernel::verify(op),
            None => Ok(()),
        };
        if let Err(d) = r {
            diags.emit(d);
            ok = false;
        }
    }
    ok
}
