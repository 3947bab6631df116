//! The runtime's and the API's errors: each keeps the structure a frontend matches on (diagnostics with their
//! locations, the simulator's fault) and prints as the CLI would.

use crate::cuda::CudaError;
pub use phobos_ir::diag::{Diagnostic, Severity};
pub use phobos_ir::SrcLoc;
pub use phobos_sim::{Fault, FaultKind};

/// Why a compile or a launch failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input's diagnostics (parser, verifiers, passes, the frontend); prints them as
    /// `file:line:col: error: ...` with the source lines when the source is known.
    #[error("{0}")]
    Compile(Diagnostics),
    /// Arguments that do not match the kernel's parameters, or a launch the device refuses.
    #[error("{0}")]
    Launch(String),
    /// The kernel faulted on the simulator: the sanitizer's report, with kind, CTA, thread, op
    /// and source location.
    #[error("{0}")]
    Fault(Box<Fault>),
    /// A file could not be read or written (an IR dump directory, ...): the message names the
    /// path.
    #[error("{0}")]
    Io(String),
    /// The CUDA driver's failure (no device, out of memory, a fault on the GPU, ...).
    #[error(transparent)]
    Cuda(#[from] CudaError),
}

/// The diagnostics of a failed compile, in the order they were reported.
#[derive(Clone)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
    rendered: String,
    ir: Vec<(String, String)>,
}

impl Diagnostics {
    /// Diagnostics, and their text (rendered with source lines by the caller).
    pub fn new(list: Vec<Diagnostic>, rendered: String) -> Diagnostics {
        Diagnostics { list, rendered, ir: Vec::new() }
    }
    /// These diagnostics with the IR of the compile that failed (see [`Diagnostics::ir`]).
    pub fn with_ir(mut self, ir: Vec<(String, String)>) -> Diagnostics {
        self.ir = ir;
        self
    }
    /// The IR of the compile that failed, in order, as `(name, text)`: `l1` (the input), then
    /// after each pass (`simt/convert-lane-to-gpu`, ...), the last being what the failing pass
    /// left; empty unless the compile kept its IR (`Compiler::compile_staged`, or a `dump_dir`).
    pub fn ir(&self) -> &[(String, String)] {
        &self.ir
    }
    /// One error with no source location (an API misuse, not a fault of the input's text).
    pub fn unlocated(message: impl Into<String>) -> Diagnostics {
        let d = Diagnostic::new(Severity::Error, None, message);
        let rendered = d.render();
        Diagnostics { list: vec![d], rendered, ir: Vec::new() }
    }
    /// Every diagnostic, notes attached to the one they explain.
    pub fn all(&self) -> &[Diagnostic] {
        &self.list
    }
    /// The errors (not warnings or remarks).
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.list.iter().filter(|d| d.severity == Severity::Error)
    }
    /// The first error, the one to show when there is room for one.
    pub fn first_error(&self) -> Option<&Diagnostic> {
        self.errors().next()
    }
}

/// The diagnostics, and how much IR is kept behind [`Diagnostics::ir`] (not the IR itself:
/// `.unwrap()` on a failed staged compile prints this).
impl std::fmt::Debug for Diagnostics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Diagnostics")
            .field("list", &self.list)
            .field(
                "ir",
                &format_args!("{} texts, {} bytes (Diagnostics::ir)", self.ir.len(), self.ir.iter().map(|(_, t)| t.len()).sum::<usize>()),
            )
            .finish()
    }
}

impl std::fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.rendered.trim_end())
    }
}

impl From<Fault> for Error {
    fn from(f: Fault) -> Error {
        match f.kind {
            FaultKind::BadLaunch => Error::Launch(f.message),
            _ => Error::Fault(Box::new(f)),
        }
    }
}
