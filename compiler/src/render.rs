//! The one diagnostic renderer: `file:line:col: severity: message`, the source line and a caret
//! under the column when the source is known, then the notes. The CLI, `phobos-opt`, explain
//! and the embedding API all render through here, so an error reads the same from each.

use phobos_ir::diag::Diagnostic;

/// Renders diagnostics with source lines.
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

/// Renders diagnostics. For a .phobos source, the dialect's op names mean nothing to the author:
/// `'lane.reduce' op width must be ...` reads `width must be ...`.
pub fn render_for(diags: &[Diagnostic], is_phobos: bool, source: &dyn Fn(&str) -> Option<String>) -> String {
    render_map(diags, is_phobos).iter().map(|d| d.render_with_source(source)).collect()
}

/// The diagnostics as a .phobos author reads them (see [`render_for`]).
pub fn render_map(diags: &[Diagnostic], is_phobos: bool) -> Vec<Diagnostic> {
    let strip = |d: &Diagnostic| -> Diagnostic {
        let mut d = d.clone();
        if is_phobos {
            if let Some(rest) = d.message.strip_prefix('\'').and_then(|m| m.split_once("' op ")).map(|(_, r)| r.to_string()) {
                d.message = rest;
            }
            // Control flow as the source spells it.
            for (ir, src) in [
                ("enclosing scf.if", "enclosing if"),
                ("enclosing scf.for", "enclosing for loop"),
                ("enclosing scf.while", "enclosing loop"),
            ] {
                d.message = d.message.replace(ir, src);
            }
            d.notes.retain(|n| !n.message.starts_with("see current operation"));
            for n in &mut d.notes {
                if let Some(rest) = n.message.split_once("' op ").map(|(_, r)| r.to_string()) {
                    n.message = rest;
                }
            }
        }
        d
    };
    diags.iter().map(strip).collect()
}
