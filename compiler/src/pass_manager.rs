//! Running a pass pipeline on a module, with mlir-opt's IR-printing options, and naming the pass
//! that failed when one does.

use crate::session::{OwnedModule, Session};
use melior::{
    ir::operation::OperationPrintingFlags,
    pass::{PassIrPrintingOptions, PassManager},
};
use phobos_ir::sref;
use phobos_passes::pipeline::{self, BuildConfig, PipelineError};
use std::path::PathBuf;

/// How printed IR looks (mlir-opt's `--mlir-print-*` flags).
#[derive(Clone, Debug, Default)]
pub struct PrintFlags {
    pub generic: bool,
    pub debuginfo: bool,
    /// Locations in MLIR's pretty form (`file:1:2`, not `loc("file":1:2)`), with `debuginfo`.
    pub pretty_debuginfo: bool,
    pub local_scope: bool,
    pub elide_elements_above: Option<usize>,
    pub extras: phobos_ir::PrintExtras,
}

impl PrintFlags {
    pub fn to_melior(&self) -> OperationPrintingFlags {
        let mut f = OperationPrintingFlags::new();
        if self.generic {
            f = f.print_generic_operation_form();
        }
        if self.debuginfo {
            f = f.enable_debug_info(true, self.pretty_debuginfo);
        }
        if self.local_scope {
            f = f.use_local_scope();
        }
        if let Some(n) = self.elide_elements_above {
            f = f.elide_large_elements_attributes(n);
        }
        self.extras.apply(&f);
        f
    }
}

/// IR printing around passes (mlir-opt's `--mlir-print-ir-*`).
#[derive(Clone, Debug, Default)]
pub struct IrPrinting {
    pub before_all: bool,
    pub after_all: bool,
    pub after_change: bool,
    pub after_failure: bool,
    pub module_scope: bool,
    pub tree_dir: Option<PathBuf>,
    pub flags: PrintFlags,
    /// The pipeline printed before it runs (`phobos-opt --dump-pass-pipeline`), on the IR sink.
    pub dump_pipeline: bool,
    /// MLIR's own timing report (`phobos-opt --mlir-timing`): the passes are timed under it.
    pub timing: Option<std::rc::Rc<phobos_dialects::Timing>>,
}

impl IrPrinting {
    fn any(&self) -> bool {
        self.before_all || self.after_all || self.after_change || self.after_failure
    }
}

/// Why a pipeline did not complete.
#[derive(Debug)]
pub enum PipelineRunError {
    /// The pipeline text is wrong (nothing ran).
    Pipeline(PipelineError),
    /// A pass failed: its flag and the op it ran on, when known. Its own diagnostics are in the
    /// session's channel.
    PassFailed { pass: Option<String>, on: Option<String> },
    /// The pipeline could not run on the module (e.g. it belongs to another context).
    Run(String),
}

impl std::fmt::Display for PipelineRunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PipelineRunError::Pipeline(e) => write!(f, "{e}"),
            PipelineRunError::Run(m) => write!(f, "{m}"),
            PipelineRunError::PassFailed { pass: Some(p), on: Some(o) } => write!(f, "pass '{p}' failed on {o}"),
            PipelineRunError::PassFailed { pass: Some(p), on: None } => write!(f, "pass '{p}' failed"),
            PipelineRunError::PassFailed { .. } => write!(f, "the pass pipeline failed"),
        }
    }
}

static FAILURE_DIR_COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Builds `pipeline_text` (anchored `builtin.module(...)`) and runs it on `module`.
pub fn run_pipeline(
    session: &Session,
    module: &OwnedModule,
    pipeline_text: &str,
    cfg: &BuildConfig,
    printing: &IrPrinting,
) -> Result<(), PipelineRunError> {
    let file = module.op().loc().src().map(|l| l.file).unwrap_or_default();
    // A source's L1 is parsed under `NAME.phobos.l1.mlir`, a file that does not exist: name the
    // source the user gave.
    let input = match file.strip_suffix(".l1.mlir") {
        Some(src) if phobos_source::is_language_file(src) => format!("{src} (its L1 IR)"),
        _ => file,
    };
    // The pass manager runs in the session's context: a module of another one would mix them.
    if module.op().ctx() != phobos_ir::Ctx::of(&session.ctx) {
        return Err(PipelineRunError::Run("the module belongs to another context than the session's".into()));
    }
    crate::crash_stage::stage(&format!("running the pass pipeline '{pipeline_text}' on {input}"));
    // Module-scope printing (IR dumps) needs a single-threaded context: MLIR aborts otherwise.
    // And Phobos's passes run on a gpu.module: with MLIR's threads, sibling gpu.modules would be
    // rewritten at once, and a pass body can reach a sibling through its op's parent. A module
    // with several runs them on one thread.
    let gpu_modules = module.op().region(0).first_block().map_or(0, |b| b.ops().filter(|o| o.is("gpu.module")).count());
    let single = (printing.module_scope || gpu_modules > 1) && session.threading;
    if single {
        session.ctx.enable_multi_threading(false);
    }
    let result = run_pipeline_on(session, module, pipeline_text, cfg, printing);
    if single {
        session.ctx.enable_multi_threading(true);
    }
    result
}

fn run_pipeline_on(
    session: &Session,
    module: &OwnedModule,
    pipeline_text: &str,
    cfg: &BuildConfig,
    printing: &IrPrinting,
) -> Result<(), PipelineRunError> {
    // SAFETY: the session's context is alive for this whole call, and `pm`, which owns the new pass
    // manager and destroys it on drop, does not outlive the call; the string ref points at a
    // literal.
    let pm = unsafe { PassManager::from_raw(mlir_sys::mlirPassManagerCreateOnOperation(session.ctx.to_raw(), sref("builtin.module"))) };
    pipeline::build(&pm, pipeline_text, cfg).map_err(PipelineRunError::Pipeline)?;
    if printing.dump_pipeline {
        (cfg.ir_sink.0)(&phobos_dialects::dump_pass_pipeline(&pm));
    }
    if cfg.verify_once {
        pm.enable_verifier(false);
    }
    if let Some(t) = &printing.timing {
        t.attach(&pm);
    }
    if printing.any() || printing.tree_dir.is_some() {
        pm.enable_ir_printing(&PassIrPrintingOptions {
            before_all: printing.before_all,
            // MLIR prints "after failure" only when after-all printing is on too.
            after_all: printing.after_all || printing.after_change || printing.after_failure,
            module_scope: printing.module_scope,
            on_change: printing.after_change,
            on_failure: printing.after_failure,
            flags: printing.flags.to_melior(),
            tree_printing_path: printing.tree_dir.clone().unwrap_or_default(),
        });
    }
    // A second printer that writes only on failure, into a scratch directory: the file it writes
    // is named after the failing pass, and its folder after the op the pass ran on.
    let failure_dir = std::env::temp_dir().join(format!(
        "phobos-failure-{}-{}",
        std::process::id(),
        FAILURE_DIR_COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    pm.enable_ir_printing(&PassIrPrintingOptions {
        before_all: false,
        after_all: true,
        module_scope: false,
        on_change: false,
        on_failure: true,
        flags: OperationPrintingFlags::new().elide_large_elements_attributes(16),
        tree_printing_path: failure_dir.clone(),
    });
    // SAFETY: `pm` and `module` are alive for the call (`module` is borrowed); MLIR runs the pipeline on
    // the module in place. The module must be of the session's context: the callers parse it with
    // this session, or check (`phobos`'s `check_context`); this function does not check.
    let ok = unsafe { mlir_sys::mlirPassManagerRunOnOp(pm.to_raw(), module.op().to_raw()).value != 0 };
    if ok && cfg.verify_once && !module.op().verify() {
        return Err(PipelineRunError::Run(format!("the IR after the pass pipeline '{pipeline_text}' does not verify")));
    }
    // The failure printer writes only when a pass fails: after a success there is nothing to
    // remove (and looking costs a directory lookup in the temporary directory per stage).
    if ok {
        return Ok(());
    }
    let (pass, on) = failed_pass(&failure_dir);
    let _ = std::fs::remove_dir_all(&failure_dir);
    Err(PipelineRunError::PassFailed { pass, on })
}

/// The files of an `--mlir-print-ir-tree-dir` dump under `dir`, each with its run-order key
/// and pass flag, in run order. MLIR names a top-level pass's dump `N_flag` and a nested one
/// `N_M_flag`, where N counts top-level entries and M counts nested passes across the run; the
/// key is (N, M or -1). Folders are `<op_name_with_underscores>_<symbol>`.
pub(crate) fn tree_dumps(dir: &std::path::Path) -> Vec<((i64, i64), String, PathBuf)> {
    fn walk(d: &std::path::Path, out: &mut Vec<PathBuf>) {
        if let Ok(rd) = std::fs::read_dir(d) {
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, out)
                } else {
                    out.push(p)
                }
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, &mut files);
    let mut keyed: Vec<((i64, i64), String, PathBuf)> = files
        .into_iter()
        .filter_map(|p| {
            let stem = p.file_stem()?.to_str()?.to_string();
            let parts: Vec<&str> = stem.splitn(3, '_').collect();
            let n: i64 = parts.first()?.parse().ok()?;
            match parts.get(1).and_then(|s| s.parse::<i64>().ok()) {
                Some(m) => Some(((n, m), parts.get(2)?.to_string(), p)),
                None => Some(((n, -1), stem.split_once('_')?.1.to_string(), p)),
            }
        })
        .collect();
    keyed.sort_by_key(|(k, _, _)| *k);
    keyed
}

/// Reads the failing pass's flag and its op out of the failure dump's path.
fn failed_pass(dir: &std::path::Path) -> (Option<String>, Option<String>) {
    let Some((_, flag, f)) = tree_dumps(dir).into_iter().next() else { return (None, None) };
    let flag = Some(flag);
    let on = f.parent().and_then(|p| p.file_name()).and_then(|n| n.to_str()).map(|n| {
        for (prefix, op) in [("gpu_module_", "gpu.module"), ("builtin_module_", "builtin.module"), ("gpu_func_", "gpu.func")] {
            if let Some(sym) = n.strip_prefix(prefix) {
                return if sym == "no-symbol-name" { format!("'{op}'") } else { format!("'{op}' @{sym}") };
            }
        }
        format!("'{n}'")
    });
    (flag, on)
}
