//! A compilation session: an MLIR context with Phobos's dialects, and the diagnostic channel
//! that MLIR's own diagnostics are fed into.

use crate::Error;
use melior::{diagnostic::DiagnosticSeverity, Context};
pub use phobos_ir::OwnedModule;
use phobos_ir::{
    diag::{Diagnostic, Diagnostics, Severity},
    Loc,
};

/// An MLIR context ready for Phobos, with every diagnostic routed to `diags`.
pub struct Session {
    pub ctx: Context,
    pub diags: Diagnostics,
    /// Whether the context runs passes on several threads (module-scope IR printing, which IR
    /// dumps need, turns it off for the run).
    pub threading: bool,
    /// The IRDL modules of the context's Phobos dialects, destroyed with it.
    irdl: Option<phobos_dialects::IrdlModules>,
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(m) = self.irdl.take() {
            // SAFETY: the session is going away and its context with it (the field drops right
            // after this): nothing verifies or builds a Phobos op in it any more.
            unsafe { m.destroy() };
        }
    }
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").field("threading", &self.threading).finish_non_exhaustive()
    }
}

fn convert(d: &melior::diagnostic::Diagnostic) -> Diagnostic {
    let severity = match d.severity() {
        DiagnosticSeverity::Error => Severity::Error,
        DiagnosticSeverity::Warning => Severity::Warning,
        DiagnosticSeverity::Note => Severity::Note,
        DiagnosticSeverity::Remark => Severity::Remark,
    };
    // SAFETY: the diagnostic's location is alive while the handler runs.
    let loc = unsafe { Loc::from_raw(d.location().to_raw()) }.src();
    let notes = (0..d.note_count()).filter_map(|i| d.note(i).ok()).map(|n| convert(&n)).collect();
    Diagnostic::new(severity, loc, d.to_string()).with_notes(notes)
}

impl Session {
    /// A new session. `threading: false` is needed for module-scope IR printing.
    pub fn new(threading: bool) -> Result<Session, Error> {
        // Pipelines link libdevice unless told otherwise: math functions resolve everywhere.
        crate::libdevice::install_default();
        let (ctx, irdl) = phobos_dialects::create_context(threading).map_err(Error::Internal)?;
        let diags = Diagnostics::new();
        let sink = diags.clone();
        ctx.attach_diagnostic_handler(move |d| {
            sink.emit(convert(&d));
            true
        });
        Ok(Session { ctx, diags, threading, irdl: Some(irdl) })
    }

    /// Parses MLIR bytecode; errors go to the session's diagnostics, as with [`Session::parse`].
    pub fn parse_bytecode(&self, bytes: &[u8], filename: &str) -> Option<OwnedModule<'_>> {
        crate::crash_stage::stage(&format!("parsing {filename}"));
        OwnedModule::parse_bytecode(&self.ctx, bytes, filename)
    }

    /// Parses MLIR text; locations carry `filename`. Top-level ops other than one
    /// `builtin.module` are wrapped into a module, as mlir-opt does. None on a parse error
    /// (reported to `diags`).
    pub fn parse(&self, text: &str, filename: &str) -> Option<OwnedModule<'_>> {
        self.parse_text(text, filename, true)
    }

    /// [`Session::parse`] of text that must hold one top-level op (mlir-opt's
    /// `--no-implicit-module`): an op other than a module is still held in one (the first op of
    /// its body), but several ops, or none, are an error.
    pub fn parse_single(&self, text: &str, filename: &str) -> Option<OwnedModule<'_>> {
        self.parse_text(text, filename, false)
    }

    fn parse_text(&self, text: &str, filename: &str, implicit: bool) -> Option<OwnedModule<'_>> {
        crate::crash_stage::stage(&format!("parsing {filename}"));
        if let Err(d) = check_nesting(text, filename) {
            self.diags.emit(d);
            return None;
        }
        // The parser's attempts are sorted out below: only what stands reaches a tee.
        let tee = self.diags.set_tee(None);
        let before = self.diags.take();
        let mut module = OwnedModule::parse(&self.ctx, text, filename);
        let mut produced = self.diags.take();
        if implicit
            && module.is_none()
            && produced.iter().any(|d| d.message.starts_with("source must contain a single top-level operation"))
        {
            // Several top-level ops: parsed inside a module made around them, as mlir-opt does.
            module = phobos_dialects::parse_implicit_module(&self.ctx, text, filename);
            produced = self.diags.take();
            // Reported at the start of the file (phobos-opt moves it to mlir-opt's 0:0).
            if let Some(m) = &module {
                m.op().set_loc(m.op().ctx().file_loc(filename, 1, 1));
            }
        }
        if module.is_none() && !produced.iter().any(|d| d.severity == Severity::Error) {
            // MLIR's parser fails silently on an IRDL op written in custom form: say where.
            produced.push(silent_parse_failure(text, filename));
        }
        self.diags.restore(before);
        self.diags.set_tee(tee);
        for d in produced {
            self.diags.emit(d);
        }
        module
    }
}

/// The error for a parse that failed with no message: a Phobos op in custom form (IRDL gives
/// its ops the generic form only), located at its name, or else a plain located error.
fn silent_parse_failure(text: &str, filename: &str) -> Diagnostic {
    let at = |line: usize, col: usize| Some(phobos_ir::SrcLoc::new(filename, line as u32, col as u32));
    for (i, l) in text.lines().enumerate() {
        let code = l.split("//").next().unwrap_or("");
        for dialect in ["lane.", "cta.", "tile.", "layout."] {
            let mut from = 0;
            while let Some(p) = code[from..].find(dialect).map(|p| p + from) {
                from = p + dialect.len();
                // An op name in custom form: not quoted, not part of a longer name, followed by
                // its own name.
                let before = code[..p].chars().last();
                let name: String = code[p..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.').collect();
                if matches!(before, Some('"' | '_' | '.' | '@' | '%' | '#' | '!')) || before.is_some_and(|c| c.is_ascii_alphanumeric()) {
                    continue;
                }
                if name.len() > dialect.len() {
                    return Diagnostic::new(
                        Severity::Error,
                        at(i + 1, p + 1),
                        format!(
                            "'{name}' is written in custom form, which Phobos's ops do not have (IRDL defines them): write it in generic form, \"{name}\"(operands) {{attributes}} : (operand types) -> result types"
                        ),
                    );
                }
            }
        }
    }
    Diagnostic::new(Severity::Error, at(1, 1), "the MLIR parser rejected the input without saying why".to_string())
}

/// MLIR's parser recurses per level of `(`, `[` and `{`, and slows down quadratically on deep
/// nesting (200,000 levels of `dense<[[...` take minutes, 19,000 nested regions 17 s and 2 GB):
/// deeper input is refused before parsing, at the bracket that goes too deep.
pub const MAX_MLIR_NESTING: usize = 5_000;

/// The most dimensions a shaped type may spell (`memref<1x1x...>`): MLIR's type parser is slow
/// on long ones too (80,000 take 18 s).
pub const MAX_MLIR_DIMS: usize = 1_000;

/// Checks the bracket nesting of MLIR text (strings and `//` comments skipped).
fn check_nesting(text: &str, filename: &str) -> Result<(), Diagnostic> {
    let (mut depth, mut dims, mut line, mut col) = (0usize, 0usize, 1u32, 0u32);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        col += 1;
        match c {
            '\n' => {
                line += 1;
                col = 0;
            }
            '"' => {
                while let Some(d) = chars.next() {
                    col += 1;
                    match d {
                        '\\' => {
                            chars.next();
                            col += 1;
                        }
                        '"' => break,
                        '\n' => {
                            line += 1;
                            col = 0;
                        }
                        _ => {}
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        line += 1;
                        col = 0;
                        break;
                    }
                }
            }
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_MLIR_NESTING {
                    let loc = phobos_ir::SrcLoc::new(filename, line, col);
                    return Err(Diagnostic::new(
                        Severity::Error,
                        Some(loc),
                        format!("brackets nest deeper than {MAX_MLIR_NESTING} levels; MLIR's parser cannot take such input"),
                    ));
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            '0'..='9' | '?' => {
                // A run of dimensions `4x?x8x`: count the `x` after each size.
                while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                    chars.next();
                    col += 1;
                }
                if chars.peek() == Some(&'x') {
                    dims += 1;
                    if dims > MAX_MLIR_DIMS {
                        let loc = phobos_ir::SrcLoc::new(filename, line, col);
                        return Err(Diagnostic::new(
                            Severity::Error,
                            Some(loc),
                            format!("a shaped type with more than {MAX_MLIR_DIMS} dimensions; MLIR's parser cannot take such input"),
                        ));
                    }
                    chars.next();
                    col += 1;
                    continue;
                }
            }
            _ => {}
        }
        dims = 0;
    }
    Ok(())
}
