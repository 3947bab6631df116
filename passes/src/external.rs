//! Wraps a Phobos pass function as an MLIR external pass.
//!
//! MLIR clones a pass per worker thread and runs the clones concurrently, so the wrapper holds
//! only `Send + Sync` state: the diagnostics sink (an `Arc`) and the parsed options.

use crate::registry::{Options, PassInfo};
use melior::{
    dialect::DialectHandle,
    ir::{r#type::TypeId, OperationRef},
    pass::{create_external, ExternalPass, Pass, RunExternalPass},
    ContextRef,
};
use phobos_ir::{
    diag::{Diagnostic, Diagnostics},
    Op, Rewriter, Val,
};

/// What a pass function gets: where to report, its options, and the rewriter that erases ops.
pub struct PassCx<'a> {
    pub diags: Diagnostics,
    pub options: &'a Options,
    rewriter: Rewriter<'a>,
}

impl<'a> PassCx<'a> {
    /// The context of one run of a pass body on `anchor` (the pass wrapper makes one per run;
    /// tests and tools may run a body, or a pattern driver, outside MLIR's pass manager).
    ///
    /// # Safety
    /// As [`Rewriter::for_pass`]: no handle to an op erased through it may be used after it is
    /// dropped.
    pub unsafe fn new(diags: Diagnostics, options: &'a Options, anchor: Op<'a>) -> PassCx<'a> {
        // SAFETY: the caller's contract is the rewriter's.
        PassCx { diags, options, rewriter: unsafe { Rewriter::for_pass(anchor) } }
    }
    /// Erases `op` (its results must be unused); see [`Rewriter::erase`].
    pub fn erase(&self, op: Op<'a>) {
        self.rewriter.erase(op)
    }
    /// Replaces `op`'s results with `vals` and erases it; see [`Rewriter::replace`].
    pub fn replace(&self, op: Op<'a>, vals: &[Val<'a>]) {
        self.rewriter.replace(op, vals)
    }
    /// Ends the run: destroys what was erased; see [`Rewriter::finish`].
    pub fn finish(self) -> Result<(), String> {
        self.rewriter.finish()
    }
}

/// A pass body: rewrites `op` (the anchor op) in place. On failure it has reported at least one
/// error to `cx.diags`. Its handles live for `'a`, one run: nothing it erased is destroyed
/// before it returns.
pub type PassFn = for<'a> fn(Op<'a>, &PassCx<'a>) -> Result<(), ()>;

/// What the MLIR pass object keeps between runs (it is cloned per worker thread).
#[derive(Clone, Debug)]
pub struct PassState {
    pub diags: Diagnostics,
    pub options: Options,
    /// Where the pass's wall time goes (`phobos compile --time-passes`), when asked.
    pub timings: Option<Timings>,
}

/// Wall times of a compile's parts in the order they ended, `(name, time)`; cloning shares
/// them (passes run on MLIR's worker threads).
#[derive(Clone, Debug, Default)]
pub struct Timings(std::sync::Arc<std::sync::Mutex<Vec<(String, std::time::Duration)>>>);

impl Timings {
    /// Records that `name` took `time`.
    pub fn record(&self, name: impl Into<String>, time: std::time::Duration) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push((name.into(), time));
    }
    /// Everything recorded so far, in order.
    pub fn all(&self) -> Vec<(String, std::time::Duration)> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Applies `f` to each op, reporting every failure (not just the first) to `cx.diags`; fails
/// when any did.
pub fn for_each_op<'a>(
    ops: impl IntoIterator<Item = Op<'a>>,
    cx: &PassCx<'a>,
    mut f: impl FnMut(Op<'a>) -> Result<(), Diagnostic>,
) -> Result<(), ()> {
    let mut failed = false;
    for op in ops {
        if let Err(d) = f(op) {
            cx.diags.emit(d);
            failed = true;
        }
    }
    if failed {
        Err(())
    } else {
        Ok(())
    }
}

#[derive(Clone)]
struct Wrapper {
    run: PassFn,
    flag: &'static str,
    state: PassState,
}

impl<'c> RunExternalPass<'c> for Wrapper {
    fn initialize(&mut self, _context: ContextRef<'c>) {}

    fn run(&mut self, operation: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        // SAFETY: MLIR runs the pass on this op for the duration of this call; the handles of
        // the body are branded by this call, and the rewriter (dropped at its end) outlives them.
        let op = unsafe { Op::from_raw(operation.to_raw()) };
        // SAFETY: `cx`, and with it the rewriter, is dropped (`drop(cx)` below) only after `run` has
        // returned, so no handle the body made is used after the rewriter destroys what it erased.
        // `op` itself is used after that (by the verifier): the rewriter refuses to erase it or an
        // op around it (`for_pass`).
        let cx = unsafe { PassCx::new(self.state.diags.clone(), &self.state.options, op) };
        // A panic must not cross the C API (it would abort the process): report it as an
        // internal error at the op the pass ran on, and fail the pass.
        let run = self.run;
        let t0 = std::time::Instant::now();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(op, &cx)));
        if let Some(t) = &self.state.timings {
            t.record(self.flag, t0.elapsed());
        }
        let ok = match result {
            Ok(r) => r.is_ok(),
            Err(p) => {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown panic".into());
                cx.diags.emit(Diagnostic::error_at(op.loc(), format!("internal error in a Phobos pass: {msg}")));
                false
            }
        };
        let diags = cx.diags.clone();
        let finished = cx.finish();
        if let Err(m) = &finished {
            diags.emit(Diagnostic::error_at(op.loc(), format!("internal error in a Phobos pass: {m}")));
        }
        let ok = ok && finished.is_ok();
        // Step 2. The Rust verifiers run after every Phobos pass, on what it produced.
        let verified = phobos_dialects::verify(op, &self.state.diags);
        if !ok || !verified {
            pass.signal_failure();
        }
    }
}

// MLIR wants each TypeID pointer 8-byte aligned.
#[repr(align(8))]
struct PassId(#[allow(dead_code)] u8);

/// One TypeID address per registry entry, and one more for the IR printer (the last): as many
/// as the registry holds, made once.
fn pass_id(index: usize) -> &'static PassId {
    static IDS: std::sync::OnceLock<&'static [PassId]> = std::sync::OnceLock::new();
    let ids = IDS.get_or_init(|| Box::leak((0..=crate::PASSES.len()).map(|_| PassId(0)).collect::<Vec<_>>().into_boxed_slice()));
    &ids[index]
}

/// Builds the MLIR pass for registry entry `index`.
pub fn make_pass(index: usize, info: &PassInfo, state: PassState) -> Pass {
    let handles = [
        DialectHandle::gpu(),
        DialectHandle::arith(),
        DialectHandle::scf(),
        DialectHandle::memref(),
        DialectHandle::func(),
        DialectHandle::llvm(),
    ];
    create_external(
        Wrapper { run: info.run, flag: info.flag, state },
        TypeId::create(pass_id(index)),
        info.name,
        info.flag,
        info.summary,
        info.anchor,
        &handles,
    )
}

/// Where `--mlir-print-ir-before/after` dumps go: the caller decides (the CLI writes them to
/// stderr, as mlir-opt does); the default drops them. Libraries never print.
#[derive(Clone)]
pub struct IrSink(pub std::sync::Arc<dyn Fn(&str) + Send + Sync>);

impl Default for IrSink {
    fn default() -> IrSink {
        IrSink(std::sync::Arc::new(|_| {}))
    }
}

impl std::fmt::Debug for IrSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("IrSink")
    }
}

#[derive(Clone)]
struct Printer {
    header: String,
    generic: bool,
    module_scope: bool,
    sink: IrSink,
}

impl<'c> RunExternalPass<'c> for Printer {
    fn initialize(&mut self, _context: ContextRef<'c>) {}
    fn run(&mut self, operation: OperationRef<'c, '_>, _pass: ExternalPass<'_>) {
        // SAFETY: the op MLIR runs the pass on, alive for this call.
        let op = unsafe { Op::from_raw(operation.to_raw()) };
        // At module scope, as MLIR's printer: the op named in the banner, the top-level op printed.
        let (mut shown, mut scope) = (op, String::new());
        if self.module_scope {
            let sym = op.str_attr("sym_name").map(|s| format!(": @{s}")).unwrap_or_default();
            scope = format!(" ('{}' operation{sym})", op.name());
            while let Some(p) = shown.parent() {
                shown = p;
            }
        }
        let text = if self.generic { shown.to_generic_string() } else { shown.to_string() };
        (self.sink.0)(&format!("// -----// IR Dump {}{scope} //----- //\n{}\n\n", self.header, text));
    }
}

/// A pass that writes the IR it runs on to `sink` under `// -----// IR Dump <header> //----- //`,
/// for `--mlir-print-ir-before=FLAG` / `--mlir-print-ir-after=FLAG`.
pub fn print_pass(header: String, generic: bool, module_scope: bool, sink: IrSink) -> Pass {
    create_external(
        Printer { header, generic, module_scope, sink },
        TypeId::create(pass_id(crate::PASSES.len())),
        "PrintIR",
        "phobos-print-ir",
        "prints the IR",
        "",
        &[],
    )
}
