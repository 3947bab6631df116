//! Compiling L1 IR (Phobos dialects over upstream gpu) to each stage: SIMT, LLVM, PTX.

use crate::{
    pass_manager::{run_pipeline, IrPrinting, PipelineRunError},
    ptx,
    session::{OwnedModule, Session},
};
use phobos_ir::diag::Diagnostic;
use phobos_passes::{
    pipeline::BuildConfig,
    pipelines::{simt_passes, simt_to_llvm, Target},
};
use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

/// The stages a compile can stop at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// The Phobos dialects over upstream gpu/arith/scf/memref (what a frontend produces).
    L1,
    /// Upstream gpu/arith/scf/memref/vector/nvvm only: what the simulator executes.
    Simt,
    /// The LLVM dialect inside the gpu.module, with the NVVM target attached.
    Llvm,
    /// PTX text.
    Ptx,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::L1 => "l1",
            Stage::Simt => "simt",
            Stage::Llvm => "llvm",
            Stage::Ptx => "ptx",
        }
    }
}

/// What to compile for and what to keep.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    pub target: Target,
    /// Write the IR after every pass, one numbered file per pass, into this directory.
    pub dump_dir: Option<PathBuf>,
    /// Files a dump may not replace (the compile's inputs: the source, libdevice).
    pub inputs: Vec<PathBuf>,
    /// Keep the module's text at the input and after each stage ([`Lowered::stages`]).
    pub keep_stages: bool,
    /// Keep the IR after every pass ([`Lowered::passes`]).
    pub keep_passes: bool,
    /// mlir-opt style printing around passes.
    pub printing: IrPrinting,
    /// `--mlir-print-ir-before/after=FLAG` lists.
    pub print_before: Vec<String>,
    pub print_after: Vec<String>,
    /// Where the dumps they ask for go (the default drops them; the CLI writes stderr).
    pub ir_sink: phobos_passes::external::IrSink,
    /// Where each stage's and each Phobos pass's wall time goes (`--time-passes`), when asked:
    /// a stage as `simt`, `llvm`, `ptx`; a pass by its flag, before its stage.
    pub timings: Option<phobos_passes::external::Timings>,
}

/// Why a compile failed. The diagnostics are in the session's channel.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    #[error("the input does not parse or verify")]
    Invalid,
    #[error("{0}")]
    Run(String),
    #[error("{0}")]
    Io(String),
}

/// The IR after one pass, in run order (the API's `PassIr` has the API's stage type `S`).
#[derive(Clone, Debug)]
pub struct PassIr<S = Stage> {
    /// The pass's flag, e.g. `convert-lane-to-gpu`.
    pub pass: String,
    /// The stage the pass's output is in (every pass of the Phobos pipeline leaves SIMT IR).
    pub stage: S,
    /// The whole module as the pass left it.
    pub ir: String,
}

/// What lowering learned that the PTX does not say, and the IR it was asked to keep.
#[derive(Clone, Debug, Default)]
pub struct Lowered {
    /// Dynamic shared memory per kernel (entry name -> bytes), from the shared-memory plan.
    pub dynamic_shared: BTreeMap<String, u64>,
    /// The TMA tensor maps each kernel takes after its other parameters (entry name -> maps).
    pub tensor_maps: BTreeMap<String, Vec<phobos_frontend::AbiParam>>,
    /// The module's text at the input and at the end of each stage reached (with
    /// `keep_stages`): L1, SIMT, LLVM, then the module holding the PTX.
    pub stages: Vec<(Stage, String)>,
    /// The IR after every pass (with `keep_passes`, or a `dump_dir`).
    pub passes: Vec<PassIr>,
    /// Each stage's and each Phobos pass's wall time, in the order they ended (filled by the
    /// caller from [`CompileOptions::timings`]).
    pub timings: Vec<(String, std::time::Duration)>,
}

/// The pipeline from L1 to the SIMT level.
pub fn simt_pipeline(target: &Target) -> String {
    format!("builtin.module(gpu.module({}))", simt_passes(&target.chip, target.fma, target.fast_math, target.exchange))
}

/// The pipelines from the SIMT level to `stage`, one per stage on the way (LLVM, then PTX).
pub fn backend_pipelines(stage: Stage, target: &Target) -> Vec<(Stage, String)> {
    let llvm = (Stage::Llvm, format!("builtin.module({})", simt_to_llvm(target)));
    match stage {
        Stage::L1 | Stage::Simt => vec![],
        Stage::Llvm => vec![llvm],
        Stage::Ptx => vec![llvm, (Stage::Ptx, "builtin.module(gpu-module-to-binary{format=isa})".into())],
    }
}

/// Lowers `module` (L1) in place to `stage`: the Phobos pipeline to the SIMT level, then MLIR's
/// own to LLVM and PTX. The IR it keeps (`opts.keep_stages`, `opts.keep_passes`) comes back in
/// memory; a `dump_dir` is written from it, one file per pass, once the compile succeeded or
/// failed (what ran up to the failure is written too).
pub fn lower(session: &Session, module: &OwnedModule, stage: Stage, opts: &CompileOptions) -> Result<Lowered, CompileError> {
    lower_from(session, module, Stage::L1, stage, opts)
}

/// [`lower`] for a module already at stage `from` (L1 or SIMT): only the pipelines after it
/// run. The SIMT level must not go through the Phobos pipeline again: its checks (uniformity)
/// read the source's structure, which lowering replaced (`ctx.warp` is thread arithmetic there).
pub fn lower_from(
    session: &Session,
    module: &OwnedModule,
    from: Stage,
    stage: Stage,
    opts: &CompileOptions,
) -> Result<Lowered, CompileError> {
    let (info, result) = lower_keeping(session, module, from, stage, opts);
    result.map(|()| info)
}

/// [`lower_from`], giving back what it kept (stages, passes) on failure too: the IR of every
/// stage and pass that ran, up to the failing pass's input.
pub fn lower_keeping(
    session: &Session,
    module: &OwnedModule,
    from: Stage,
    stage: Stage,
    opts: &CompileOptions,
) -> (Lowered, Result<(), CompileError>) {
    let mut info = Lowered::default();
    let result = lower_into(session, module, from, stage, opts, &mut info);
    (info, result)
}

fn lower_into(
    session: &Session,
    module: &OwnedModule,
    from: Stage,
    stage: Stage,
    opts: &CompileOptions,
    info: &mut Lowered,
) -> Result<(), CompileError> {
    assert!(matches!(from, Stage::L1 | Stage::Simt), "lowering starts at L1 or SIMT, not {from:?}");
    if !has_kernel(session, module) || !phobos_dialects::verify(module.op(), &session.diags) {
        return Err(CompileError::Invalid);
    }
    let keep_passes = opts.keep_passes || opts.dump_dir.is_some();
    let input = if keep_passes || opts.keep_stages { module.op().to_string() } else { String::new() };
    if opts.keep_stages {
        info.stages.push((from, input.clone()));
    }
    // Where each gpu.module's first kernel is (its source, for a .phobos input): an error about
    // the PTX names it, since the PTX has no locations.
    let sites: Vec<(String, Option<phobos_ir::SrcLoc>)> = module
        .op()
        .find_all("gpu.module")
        .into_iter()
        .map(|m| (m.str_attr("sym_name").unwrap_or_default(), m.find_all("gpu.func").first().and_then(|f| f.loc().src())))
        .collect();
    let mut result = Ok(());
    if stage != Stage::L1 {
        let mut steps = if from == Stage::L1 { vec![(Stage::Simt, simt_pipeline(&opts.target))] } else { vec![] };
        // From the SIMT level, libdevice is linked only when the module calls it, as below.
        let lean = phobos_passes::pipelines::Target { libdevice: None, ..opts.target.clone() };
        let backend_target = if from == Stage::Simt && !needs_libdevice(module) { &lean } else { &opts.target };
        steps.extend(backend_pipelines(stage, backend_target));
        for i in 0..steps.len() {
            let (reached, pipeline) = steps[i].clone();
            // Strings NVPTX trusts (it aborts on a bad one): checked, located, before it runs.
            if reached == Stage::Ptx && !backend_strings_ok(session, module) {
                result = Err(CompileError::Invalid);
                break;
            }
            let t0 = std::time::Instant::now();
            result = run_stage(session, module, &pipeline, opts, reached, keep_passes, &mut info.passes);
            if let Some(t) = &opts.timings {
                t.record(reached.name(), t0.elapsed());
            }
            if result.is_err() {
                break;
            }
            if reached == Stage::Simt {
                for f in module.op().find_all("gpu.func") {
                    if let (Some(name), Some(b)) = (f.str_attr("sym_name"), f.int_attr("phobos.dynamic_shared_bytes")) {
                        info.dynamic_shared.insert(name, b as u64);
                    }
                    let maps = tensor_maps(f);
                    if let (Some(name), false) = (f.str_attr("sym_name"), maps.is_empty()) {
                        info.tensor_maps.insert(name, maps);
                    }
                }
                // Linking libdevice costs LLVM about a millisecond: only a kernel that calls it
                // links it.
                if opts.target.libdevice.is_some() && !needs_libdevice(module) {
                    let target = phobos_passes::pipelines::Target { libdevice: None, ..opts.target.clone() };
                    let rest: Vec<(Stage, String)> = backend_pipelines(stage, &target);
                    steps.truncate(i + 1);
                    steps.extend(rest);
                }
            }
            if opts.keep_stages {
                info.stages.push((reached, module.op().to_string()));
            }
        }
    }
    let dumped = match &opts.dump_dir {
        Some(dir) => write_dumps(dir, &input, &info.passes, &opts.inputs),
        None => Ok(()),
    };
    if result.is_err() {
        relocate_l1_errors(session, &sites);
    }
    // The compile's own failure first: dumps that could not be written come after it.
    result?;
    dumped?;
    if stage == Stage::Ptx && !resolved(session, module, &sites) {
        return Err(CompileError::Invalid);
    }
    if !phobos_dialects::verify(module.op(), &session.diags) {
        return Err(CompileError::Invalid);
    }
    Ok(())
}

/// Errors MLIR reports at a source's L1 text (`NAME.phobos.l1.mlir`, a file that does not
/// exist: a gpu.module's own location) are moved to the source's first kernel; a libdevice that
/// fails to load says so in Phobos's words, once (not again as "an error happened while
/// serializing the module").
fn relocate_l1_errors(session: &Session, sites: &[(String, Option<phobos_ir::SrcLoc>)]) {
    let site = sites.iter().find_map(|(_, l)| l.clone());
    let mut libdevice_failed = false;
    let mut out = Vec::new();
    for mut d in session.diags.take() {
        if d.loc.as_ref().is_some_and(|l| l.file.ends_with(".phobos.l1.mlir")) {
            d.loc = site.clone();
        }
        if let Some(rest) = d.message.strip_prefix("Failed loading file from ") {
            let (path, why) = rest.split_once(", error: ").unwrap_or((rest, "it is not a bitcode module"));
            d.message = format!("libdevice '{path}' cannot be linked: {why}");
            libdevice_failed = true;
        } else if libdevice_failed && d.message.starts_with("An error happened while serializing the module") {
            continue;
        }
        out.push(d);
    }
    for d in out {
        session.diags.emit(d);
    }
}

/// The synchronization scopes NVPTX knows (`syncscope("...")` on an LLVM fence, atomic, load or
/// store); any other aborts the back end ("NVPTX backend does not support syncscope").
pub const NVPTX_SYNCSCOPES: [&str; 5] = ["", "singlethread", "block", "cluster", "device"];

/// Whether every string the NVPTX back end trusts without checking is one it knows; reports
/// each that is not, located at its op.
pub fn backend_strings_ok(session: &Session, module: &OwnedModule) -> bool {
    let mut ok = true;
    for op in module.op().walk() {
        if let Some(scope) = op.str_attr("syncscope") {
            if !NVPTX_SYNCSCOPES.contains(&scope.as_str()) {
                session.diags.emit(Diagnostic::error_at(
                    op.loc(),
                    format!(
                        "'{}' has syncscope(\"{scope}\"), which NVPTX does not know; the scopes are {}",
                        op.name(),
                        NVPTX_SYNCSCOPES.iter().map(|s| format!("\"{s}\"")).collect::<Vec<_>>().join(", ")
                    ),
                ));
                ok = false;
            }
        }
    }
    ok
}

/// Whether a SIMT-level module has an op that lowers to a libdevice call: a `math` op other
/// than those Phobos lowers itself (`math.fma`, `math.trunc`, `math.absi`), or
/// `arith.maxnumf`/`minnumf`/`remf`.
fn needs_libdevice(module: &OwnedModule) -> bool {
    module.op().walk().into_iter().any(|o| {
        let n = o.name();
        (n.starts_with("math.") && !matches!(n.as_str(), "math.fma" | "math.trunc" | "math.absi"))
            || matches!(n.as_str(), "arith.maxnumf" | "arith.minnumf" | "arith.remf")
    })
}

/// Whether every function each PTX calls is defined; reports each one that is not at the
/// kernel `sites` gives for its module (else at its gpu.binary). Such a PTX would fail in
/// `ptxas` or at load.
pub fn resolved(session: &Session, module: &OwnedModule, sites: &[(String, Option<phobos_ir::SrcLoc>)]) -> bool {
    let mut ok = true;
    for bin in module.op().find_all("gpu.binary") {
        let name = bin.str_attr("sym_name").unwrap_or_default();
        let at = sites.iter().find(|(m, _)| *m == name).and_then(|(_, l)| l.clone()).or_else(|| bin.loc().src());
        let Some(objects) = bin.attr("objects").and_then(|a| a.array()) else { continue };
        for name in objects.iter().flat_map(|o| ptx::unresolved(&o.gpu_object_text())) {
            let why = if name.starts_with("__nv_") {
                "; it is libdevice's: give --libdevice PATH or PHOBOS_LIBDEVICE (third_party/install.sh installs one)"
            } else {
                ""
            };
            session.diags.emit(Diagnostic::new(
                phobos_ir::Severity::Error,
                at.clone(),
                format!("the PTX calls '{name}', which nothing defines{why}"),
            ));
            ok = false;
        }
    }
    ok
}

/// Writes `dir/00-l1-input.mlir`, then one numbered file per pass, in run order:
/// `01-simt-convert-lane-to-gpu.mlir`, ...
pub fn write_dumps(dir: &Path, input: &str, passes: &[PassIr], inputs: &[PathBuf]) -> Result<(), CompileError> {
    let io = |e: std::io::Error, p: &Path| CompileError::Io(format!("{}: {e}", p.display()));
    std::fs::create_dir_all(dir).map_err(|e| io(e, dir))?;
    let names = std::iter::once(("00-l1-input.mlir".to_string(), input))
        .chain(passes.iter().enumerate().map(|(i, p)| (format!("{:02}-{}-{}.mlir", i + 1, p.stage.name(), p.pass), p.ir.as_str())));
    for (name, ir) in names {
        let dest = dir.join(name);
        // An input kept in the dump directory under a dump's name is never replaced.
        crate::staged::refuse_overwrite(&dest, inputs).map_err(CompileError::Io)?;
        std::fs::write(&dest, ir).map_err(|e| io(e, &dest))?;
    }
    Ok(())
}

/// Whether `module` holds a kernel (a `gpu.func` with `gpu.kernel` in a `gpu.module`); reports
/// an error located at the file when not.
pub fn has_kernel(session: &Session, module: &OwnedModule) -> bool {
    let modules = module.op().find_all("gpu.module");
    let why = if modules.is_empty() {
        "the input has no gpu.module: a kernel is a gpu.func with the `kernel` keyword inside a gpu.module"
    } else if !modules.iter().any(|m| m.find_all("gpu.func").iter().any(|f| f.attr("gpu.kernel").is_some())) {
        "the input defines no kernel: no gpu.func in its gpu.module has the `kernel` keyword"
    } else {
        return true;
    };
    session.diags.emit(Diagnostic::error_at(module.op().loc(), why));
    false
}

/// Runs one pipeline, whose passes leave IR of stage `reached`; with `keep`, appends the IR
/// after each pass to `passes` (MLIR prints it into a scratch tree, read back and removed here).
fn run_stage(
    session: &Session,
    module: &OwnedModule,
    pipeline: &str,
    opts: &CompileOptions,
    reached: Stage,
    keep: bool,
    passes: &mut Vec<PassIr>,
) -> Result<(), CompileError> {
    let cfg = BuildConfig {
        diags: session.diags.clone(),
        print_before: opts.print_before.clone(),
        print_after: opts.print_after.clone(),
        generic: opts.printing.flags.generic,
        ir_sink: opts.ir_sink.clone(),
        timings: opts.timings.clone(),
        implicit_nesting: false,
        print_module_scope: false,
        // Tests (debug builds) check every pass's output; a release compile checks each stage's.
        verify_once: !cfg!(debug_assertions),
    };
    let scratch = keep.then(|| std::env::temp_dir().join(format!("phobos-dump-{}-{}", std::process::id(), unique())));
    let mut printing = opts.printing.clone();
    if let Some(s) = &scratch {
        printing.after_all = true;
        printing.module_scope = true;
        printing.tree_dir = Some(s.clone());
    }
    let result = run_pipeline(session, module, pipeline, &cfg, &printing);
    if let Some(s) = &scratch {
        for (_, pass, path) in crate::pass_manager::tree_dumps(s) {
            let ir = std::fs::read_to_string(&path).map_err(|e| CompileError::Io(format!("{}: {e}", path.display())))?;
            passes.push(PassIr { pass, stage: reached, ir });
        }
        let _ = std::fs::remove_dir_all(s);
    }
    result.map_err(|e| match e {
        PipelineRunError::Pipeline(p) => CompileError::Run(p.to_string()),
        other => CompileError::Run(other.to_string()),
    })
}

fn unique() -> usize {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The text of `module` at `stage`: the IR, or the PTX for `Stage::Ptx` (one module: PTX files
/// cannot be concatenated, so [`one_gpu_module`] is checked before lowering).
pub fn output_text(module: &OwnedModule, stage: Stage) -> Result<String, CompileError> {
    if stage == Stage::Ptx {
        let mut ptx = ptx::extract(module.op());
        return match ptx.len() {
            1 => Ok(ptx.remove(0).1),
            0 => Err(CompileError::Run("no gpu.binary was produced".into())),
            n => Err(CompileError::Run(format!("{n} PTX modules were produced; a PTX file holds one"))),
        };
    }
    Ok(module.op().to_string())
}

/// The PTX of the gpu.module named `gpu_module`, after lowering to `Stage::Ptx`.
pub fn ptx_of(module: &OwnedModule, gpu_module: &str) -> Result<String, CompileError> {
    ptx::extract(module.op())
        .into_iter()
        .find(|(name, _)| name == gpu_module)
        .map(|(_, text)| text)
        .ok_or_else(|| CompileError::Run(format!("no PTX was produced for gpu.module '{gpu_module}'")))
}

/// Whether `module` has at most one gpu.module, as one PTX file needs; reports an error at the
/// second one when not.
pub fn one_gpu_module(session: &Session, module: &OwnedModule) -> bool {
    let modules = module.op().find_all("gpu.module");
    let [first, second, ..] = modules.as_slice() else { return true };
    let name = |m: &phobos_ir::Op| m.str_attr("sym_name").unwrap_or_default();
    let why = format!(
        "a second gpu.module ('{}', after '{}'): a PTX file holds one module, so PTX output takes one \
         gpu.module; put every kernel in one, or compile each module from its own file",
        name(second),
        name(first)
    );
    session.diags.emit(Diagnostic::error_at(second.loc(), why));
    false
}

/// The tensor-map parameters of a lowered kernel (`phobos.tensor_map`), in order.
fn tensor_maps(f: phobos_ir::Op) -> Vec<phobos_frontend::AbiParam> {
    let attrs = f.attr("arg_attrs").and_then(|a| a.array()).unwrap_or_default();
    attrs
        .iter()
        .filter_map(|d| {
            let tensor = d.dict_get("phobos.tensor_map")?.str()?;
            let shape = d.dict_get("phobos.box").and_then(|a| a.dense_ints()).unwrap_or_default();
            let swizzle = d.dict_get("phobos.swizzle").and_then(|a| a.int()).unwrap_or(0);
            Some(phobos_frontend::AbiParam::TensorMap { tensor, shape, swizzle })
        })
        .collect()
}
