//! Phobos inside an embedder's own MLIR context, the MLIR C API way: load the dialects into a
//! context the embedder made, and add Phobos's passes (and any upstream ones, in `phobos-opt`'s
//! pipeline syntax) to a pass manager the embedder made and runs.
//!
//! ```no_run
//! # unsafe fn f(ctx: mlir_sys::MlirContext, pm: mlir_sys::MlirPassManager) -> Result<(), phobos::Error> {
//! phobos::embed::load_into(ctx)?;
//! let diags = phobos::embed::add_passes(pm, "builtin.module(gpu.module(convert-lane-to-gpu))")?;
//! // ... mlirPassManagerRunOnOp(pm, module) ...; then Phobos passes' own diagnostics:
//! for d in diags.take() { eprintln!("{d:?}"); }
//! # Ok(()) }
//! ```
//!
//! Upstream passes and the IRDL verifier report through MLIR's diagnostic handlers, as usual;
//! Phobos's passes report into the returned [`PassDiagnostics`] (MLIR's C API can only emit
//! plain errors, without notes), so read both.

use super::{Diagnostic, Diagnostics, Error};
use melior::{pass::PassManager, ContextRef};
use std::mem::ManuallyDrop;

/// Loads the upstream dialects Phobos lowers to, the LLVM translations and the Phobos dialects
/// into `ctx`, and registers the upstream passes by name (once per process). A second call on
/// one context does nothing and returns `Ok`. The Phobos dialects' definitions (a few KB) stay
/// allocated for the process: the embedder's context may outlive any handle Phobos could keep.
///
/// # Safety
/// `ctx` must be a live MLIR context of this process's MLIR (the one Phobos links).
pub unsafe fn load_into(ctx: mlir_sys::MlirContext) -> Result<(), Error> {
    // Borrowed: the embedder owns the context; a ContextRef never destroys it.
    // SAFETY: `ctx` is a live context (this function's contract); the ContextRef only borrows it.
    let ctx = unsafe { ContextRef::from_raw(ctx) };
    // SAFETY: the reference is used only during `prepare_context`, while `ctx` is alive.
    let irdl = phobos_dialects::prepare_context(unsafe { ctx.to_ref() }).map_err(|e| Error::Compile(Diagnostics::unlocated(e)))?;
    // Never destroyed: the embedder's context may be in use until the process ends.
    std::mem::forget(irdl);
    Ok(())
}

/// Where the Phobos passes added by [`add_passes`] report.
#[derive(Clone, Debug, Default)]
pub struct PassDiagnostics(phobos_ir::Diagnostics);

impl PassDiagnostics {
    /// Every diagnostic reported so far, leaving none.
    pub fn take(&self) -> Vec<Diagnostic> {
        self.0.take()
    }
}

/// Adds `pipeline` (anchored on `builtin.module`, as `phobos-opt --pass-pipeline` takes it) to
/// `pm`, whose root op is `builtin.module`. A pipeline that does not parse is an error and adds
/// nothing that ran; the embedder runs `pm` itself.
///
/// # Safety
/// `pm` must be a live pass manager on `builtin.module` of a context prepared by [`load_into`].
pub unsafe fn add_passes(pm: mlir_sys::MlirPassManager, pipeline: &str) -> Result<PassDiagnostics, Error> {
    // Borrowed: the embedder owns the pass manager, so it is never destroyed here.
    // SAFETY: `pm` is a live pass manager (this function's contract); ManuallyDrop keeps this
    // wrapper from destroying it.
    let pm = ManuallyDrop::new(unsafe { PassManager::from_raw(pm) });
    let sink = PassDiagnostics::default();
    let cfg = phobos_passes::pipeline::BuildConfig { diags: sink.0.clone(), ..Default::default() };
    phobos_passes::pipeline::build(&pm, pipeline, &cfg).map_err(crate::pipeline_error)?;
    Ok(sink)
}
