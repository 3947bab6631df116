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
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
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
    /// mlir-opt style printing around passes.
    pub printing: IrPrinting,
    /// `--mlir-print-ir-before/after=FLAG` lists.
    pub print_before: Vec<String>,
    pub print_after: Vec<String>,
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

/// What lowering learned that the PTX does not say.
#[derive(Clone, Debug, Default)]
pub struct Lowered {
    /// Dynamic shared memory per kernel (entry name -> bytes), from the shared-memory plan.
    pub dynamic_shared: BTreeMap<String, u64>,
}

/// The pipeline from L1 to the SIMT level.
pub fn simt_pipeline(target: &Target) -> String {
    format!("builtin.module(gpu.module({}))", simt_passes(&target.chip))
}

/// The pipeline from the SIMT level to `stage` (LLVM or PTX).
pub fn backend_pipeline(stage: Stage, target: &Target) -> Option<String> {
    match stage {
        Stage::L1 | Stage::Simt => None,
        Stage::Llvm => Some(format!("builtin.module({})", simt_to_llvm(target))),
        Stage::Ptx => Some(format!("builtin.module({},gpu-module-to-binary{{format=isa}})", simt_to_llvm(target))),
    }
}

/// Lowers `module` (L1) in place to `stage`: the Phobos pipeline to the SIMT level, then MLIR's
/// own to LLVM and PTX.
pub fn lower(session: &Session, module: &OwnedModule, stage: Stage, opts: &CompileOptions) -> Result<Lowered, CompileError> {
    if !has_kernel(session, module) || !phobos_dialects::verify(module.op(), &session.diags) {
        return Err(CompileError::Invalid);
    }
    let mut info = Lowered::default();
    if stage == Stage::L1 {
        return Ok(info);
    }
    if let Some(dir) = &opts.dump_dir {
        std::fs::create_dir_all(dir).map_err(|e| CompileError::Io(format!("{}: {e}", dir.display())))?;
        std::fs::write(dir.join("00-l1-input.mlir"), module.op().to_string())
            .map_err(|e| CompileError::Io(format!("{}: {e}", dir.display())))?;
    }
    let mut dumped = run_stage(session, module, &simt_pipeline(&opts.target), opts, 0, true)?;
    for f in module.op().find_all("gpu.func") {
        if let (Some(name), Some(b)) = (f.str_attr("sym_name"), f.int_attr("phobos.dynamic_shared_bytes")) {
            info.dynamic_shared.insert(name, b as u64);
        }
    }
    if let Some(p) = backend_pipeline(stage, &opts.target) {
        dumped += run_stage(session, module, &p, opts, dumped, false)?;
    }
    let _ = dumped;
    if !phobos_dialects::verify(module.op(), &session.diags) {
        return Err(CompileError::Invalid);
    }
    Ok(info)
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

/// Runs one pipeline, dumping into `opts.dump_dir` after file number `first`; returns how many
/// files it dumped.
fn run_stage(
    session: &Session,
    module: &OwnedModule,
    pipeline: &str,
    opts: &CompileOptions,
    first: usize,
    simt: bool,
) -> Result<usize, CompileError> {
    let cfg = BuildConfig {
        diags: session.diags.clone(),
        print_before: opts.print_before.clone(),
        print_after: opts.print_after.clone(),
        generic: opts.printing.flags.generic,
        implicit_nesting: false,
    };
    let scratch = opts.dump_dir.as_ref().map(|_| std::env::temp_dir().join(format!("phobos-dump-{}-{}", std::process::id(), unique())));
    let mut printing = opts.printing.clone();
    if let Some(s) = &scratch {
        printing.after_all = true;
        printing.module_scope = true;
        printing.tree_dir = Some(s.clone());
    }
    let result = run_pipeline(session, module, pipeline, &cfg, &printing);
    let mut n = 0;
    if let (Some(dir), Some(s)) = (&opts.dump_dir, &scratch) {
        n = flatten_dumps(s, dir, first, simt)?;
        let _ = std::fs::remove_dir_all(s);
    }
    result.map_err(|e| match e {
        PipelineRunError::Pipeline(p) => CompileError::Run(p.to_string()),
        other => CompileError::Run(other.to_string()),
    })?;
    Ok(n)
}

fn unique() -> usize {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The stage the output of a pass is in: every pass of the Phobos pipeline leaves SIMT IR; after
/// it, the binary pass gives PTX and the rest lead to LLVM.
fn stage_after(simt: bool, flag: &str) -> &'static str {
    if simt {
        "simt"
    } else if flag == "gpu-module-to-binary" {
        "ptx"
    } else {
        "llvm"
    }
}

/// Turns MLIR's per-op tree of dumps into one numbered file per pass, in execution order:
/// `01-simt-convert-lane-to-gpu.mlir`, ...
fn flatten_dumps(tree: &Path, out: &Path, first: usize, simt: bool) -> Result<usize, CompileError> {
    let keyed = crate::pass_manager::tree_dumps(tree);
    for (i, (_, flag, path)) in keyed.iter().enumerate() {
        let dest = out.join(format!("{:02}-{}-{}.mlir", first + i + 1, stage_after(simt, flag), flag));
        std::fs::copy(path, &dest).map_err(|e| CompileError::Io(format!("{}: {e}", dest.display())))?;
    }
    Ok(keyed.len())
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

/// Renders diagnostics with source lines, for the CLI.
pub fn render(diags: &[Diagnostic], source: &dyn Fn(&str) -> Option<String>) -> String {
    diags.iter().map(|d| d.render_with_source(source)).collect()
}

/// A frontend diagnostic in the shared form (its span turned into line and column).
pub fn frontend_diagnostic(d: &phobos_frontend::Diag, src: &phobos_frontend::Source) -> Diagnostic {
    let (line, col) = src.line_col(d.span.start);
    let severity = match d.level {
        phobos_frontend::span::Level::Error => phobos_ir::diag::Severity::Error,
        phobos_frontend::span::Level::Note => phobos_ir::diag::Severity::Note,
    };
    Diagnostic {
        severity,
        loc: Some(phobos_ir::SrcLoc { file: src.name.clone(), line, col }),
        message: d.message.clone(),
        notes: d.notes.iter().map(|n| frontend_diagnostic(n, src)).collect(),
    }
}
