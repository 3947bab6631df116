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
    Diagnostic::new(severity, Some(phobos_ir::SrcLoc::new(src.name.clone(), line, col)), d.message.clone())
        .with_notes(d.notes.iter().map(|n| frontend_diagnostic(n, src)).collect())
}

/// Renders diagnostics. For a .phobos source, the dialect's op names mean nothing to the author:
/// `'lane.reduce' op width must be ...` reads `width must be ...`.
pub fn render_for(diags: &[Diagnostic], is_phobos: bool, source: &dyn Fn(&str) -> Option<String>) -> String {
    render_map(diags, is_phobos).iter().map(|d| d.render_with_source(source)).collect()
}

/// A message about IR in the words of a `.phobos` author: an MLIR op named in parentheses, `(gpu.lane_id)`,
/// goes (the text before it already says what it is), and the type `i1` reads `bool`.
pub fn in_source_words(message: &str) -> String {
    const DIALECTS: [&str; 13] =
        ["gpu", "memref", "arith", "vector", "scf", "math", "nvvm", "lane", "cta", "tile", "layout", "func", "llvm"];
    let is_op = |s: &str| {
        s.split_once('.').is_some_and(|(d, rest)| {
            DIALECTS.contains(&d)
                && !rest.is_empty()
                && rest.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
        })
    };
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find(" (") {
        let after = &rest[i + 2..];
        match after.find(')') {
            Some(j) if is_op(&after[..j]) => {
                out.push_str(&rest[..i]);
                rest = &after[j + 1..];
            }
            _ => {
                out.push_str(&rest[..i + 2]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    // `i1` as a word (not `i16`, `%i1`): the language's `bool`.
    let mut words = String::with_capacity(out.len());
    let bytes = out.as_bytes();
    let mut k = 0;
    while k < out.len() {
        let boundary_before = k == 0 || !(bytes[k - 1].is_ascii_alphanumeric() || bytes[k - 1] == b'_' || bytes[k - 1] == b'%');
        if boundary_before
            && out[k..].starts_with("i1")
            && out[k + 2..].chars().next().is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
        {
            words.push_str("bool");
            k += 2;
        } else {
            let c = out[k..].chars().next().expect("in bounds");
            words.push(c);
            k += c.len_utf8();
        }
    }
    words
}

/// The diagnostics as a .phobos author reads them (see [`render_for`]).
pub fn render_map(diags: &[Diagnostic], is_phobos: bool) -> Vec<Diagnostic> {
    let strip = |d: &Diagnostic| -> Diagnostic {
        let mut d = d.clone();
        if is_phobos {
            if let Some(rest) = d.message.strip_prefix('\'').and_then(|m| m.split_once("' op ")).map(|(_, r)| r.to_string()) {
                d.message = rest;
            }
            d.message = in_source_words(&d.message);
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

#[cfg(test)]
mod tests {
    use super::in_source_words;

    #[test]
    fn op_names_and_i1_read_in_the_languages_words() {
        assert_eq!(in_source_words("'ctx.lane < 3' depends on the lane id (gpu.lane_id)"), "'ctx.lane < 3' depends on the lane id");
        assert_eq!(in_source_words("a load (memref.load) of global memory"), "a load of global memory");
        assert_eq!(in_source_words("expected i1, found i16 (see above)"), "expected bool, found i16 (see above)");
        assert_eq!(in_source_words("%i1 and i1x and (i1)"), "%i1 and i1x and (bool)");
        // Parentheses that hold no op stay.
        assert_eq!(in_source_words("f(x) (at most 32) (foo.bar)"), "f(x) (at most 32) (foo.bar)");
        assert_eq!(in_source_words("unclosed (gpu.lane_id"), "unclosed (gpu.lane_id");
    }
}
