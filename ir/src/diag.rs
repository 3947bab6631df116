//! The Phobos diagnostic channel.
//!
//! MLIR's C API can emit errors only (`mlirEmitError`): no warnings, notes or remarks, and no way
//! to attach a note to an error. Phobos verifiers and passes therefore report through this channel
//! instead, and the MLIR diagnostic handler that the driver installs feeds MLIR's own diagnostics
//! (parser, IRDL verifier, upstream passes) into the same channel. Everything is then printed,
//! and checked by `--verify-diagnostics`, in one place and one format.

use crate::{Loc, Op, SrcLoc};
use std::sync::{Arc, Mutex};

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum Severity {
    Error,
    Warning,
    Note,
    Remark,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }
}

/// One diagnostic, with the notes attached to it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Diagnostic {
    pub severity: Severity,
    /// The source position; None for an unknown location.
    pub loc: Option<SrcLoc>,
    pub message: String,
    pub notes: Vec<Diagnostic>,
}

impl Diagnostic {
    pub fn new(severity: Severity, loc: Option<SrcLoc>, message: impl Into<String>) -> Self {
        Diagnostic { severity, loc, message: message.into(), notes: Vec::new() }
    }
    /// This diagnostic with `notes` attached (replacing any it had).
    pub fn with_notes(mut self, notes: Vec<Diagnostic>) -> Self {
        self.notes = notes;
        self
    }
    pub fn error_at(loc: Loc, message: impl Into<String>) -> Self {
        Diagnostic::new(Severity::Error, loc.src(), message)
    }
    /// An error located at `op`, worded as MLIR words op errors: `'lane.reduce' op ...`.
    pub fn op_error(op: Op, message: impl std::fmt::Display) -> Self {
        Diagnostic::new(Severity::Error, op.loc().src(), format!("'{}' op {}", op.name(), message))
    }
    pub fn with_note(mut self, loc: Loc, message: impl Into<String>) -> Self {
        self.notes.push(Diagnostic::new(Severity::Note, loc.src(), message));
        self
    }

    /// `file:line:col: error: message`, then each note on its own line.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.render_into(&mut out, None);
        out
    }

    /// Like `render`, with the source line and a caret under the column when `source` can give
    /// the text of the file named in the location.
    pub fn render_with_source(&self, source: &dyn Fn(&str) -> Option<String>) -> String {
        let mut out = String::new();
        self.render_into(&mut out, Some(source));
        out
    }

    fn render_into(&self, out: &mut String, source: Option<&dyn Fn(&str) -> Option<String>>) {
        self.render_one(out, source);
        // As MLIR's handler: a note where the diagnostic before it was shows no source again.
        let mut previous = &self.loc;
        for n in &self.notes {
            n.render_one(out, source.filter(|_| n.loc.is_none() || n.loc != *previous));
            previous = &n.loc;
        }
    }

    /// This diagnostic's line, and its source line with a caret when `source` has it.
    fn render_one(&self, out: &mut String, source: Option<&dyn Fn(&str) -> Option<String>>) {
        match &self.loc {
            Some(l) => out.push_str(&format!("{l}: {}: {}\n", self.severity.as_str(), self.message)),
            // MLIR's spelling of an unknown location.
            None => out.push_str(&format!("<unknown>:0: {}: {}\n", self.severity.as_str(), self.message)),
        }
        // Line 0 is no line (a module made around the input).
        if let (Some(l), Some(src)) = (self.loc.as_ref().filter(|l| l.line > 0), source) {
            if let Some(text) = src(&l.file) {
                if let Some(line) = text.lines().nth(l.line.saturating_sub(1) as usize) {
                    let (line, caret) = phobos_source::excerpt(line, l.col as usize);
                    out.push_str(&line);
                    out.push('\n');
                    let pad: String = line.chars().take(caret).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
                    out.push_str(&pad);
                    out.push_str("^\n");
                }
            }
        }
    }
}

/// A shared, thread-safe sink of diagnostics. Cloning shares the sink: passes run on MLIR worker
/// threads and report into the same list as the driver.
#[derive(Clone, Default)]
pub struct Diagnostics(Arc<Mutex<Vec<Diagnostic>>>, Arc<Mutex<Option<Tee>>>);

/// What sees each diagnostic as it is emitted (a driver printing it at once, between the IR
/// dumps of the passes around it).
pub type Tee = Arc<dyn Fn(&Diagnostic) + Send + Sync>;

impl std::fmt::Debug for Diagnostics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Diagnostics").field(&self.0).finish()
    }
}

impl Diagnostics {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn emit(&self, d: Diagnostic) {
        let tee = self.1.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some(t) = tee {
            t(&d);
        }
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(d);
    }
    /// Hands each diagnostic emitted from now on to `tee` too (None: no longer), before it is kept;
    /// returns the tee it replaces.
    pub fn set_tee(&self, tee: Option<Tee>) -> Option<Tee> {
        std::mem::replace(&mut *self.1.lock().unwrap_or_else(|e| e.into_inner()), tee)
    }
    /// Puts back diagnostics taken earlier ([`Diagnostics::take`]), without handing them to the
    /// tee again.
    pub fn restore(&self, ds: Vec<Diagnostic>) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).extend(ds);
    }
    /// Takes every diagnostic reported so far, leaving the sink empty.
    pub fn take(&self) -> Vec<Diagnostic> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
    pub fn has_errors(&self) -> bool {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).iter().any(|d| d.severity == Severity::Error)
    }
    pub fn len(&self) -> usize {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
