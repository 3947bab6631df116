//! `--verify-diagnostics`: checks the diagnostics of a run against `expected-*` comments, as
//! mlir-opt does: `// expected-error {{text}}`, `@+N`, `@-N`, `@above`, `@below`, `@unknown`.

use phobos_ir::diag::{Diagnostic, Severity};

/// One expectation written in the source.
#[derive(Clone, Debug)]
pub struct Expected {
    pub severity: Severity,
    /// The line the diagnostic must be on; None for `@unknown`.
    pub line: Option<u32>,
    pub text: String,
    /// Where the comment is (line, column), to report it when unmatched.
    pub at: (u32, u32),
}

/// Parses every `expected-<severity>[@where] {{text}}` in `src`.
pub fn parse_expectations(src: &str) -> Result<Vec<Expected>, (u32, u32, String)> {
    let mut out = Vec::new();
    for (i, line) in src.lines().enumerate() {
        let lineno = i as u32 + 1;
        let mut rest = line;
        let mut offset = 0;
        while let Some(p) = rest.find("expected-") {
            let col = (offset + p) as u32 + 1;
            let s = &rest[p + "expected-".len()..];
            let (sev, s) = if let Some(s) = s.strip_prefix("error") {
                (Severity::Error, s)
            } else if let Some(s) = s.strip_prefix("warning") {
                (Severity::Warning, s)
            } else if let Some(s) = s.strip_prefix("note") {
                (Severity::Note, s)
            } else if let Some(s) = s.strip_prefix("remark") {
                (Severity::Remark, s)
            } else {
                offset += p + 9;
                rest = &rest[p + 9..];
                continue;
            };
            if s.starts_with("-re") {
                return Err((lineno, col, "expected-*-re (regex) is not supported; use a plain substring".into()));
            }
            let s = s.trim_start_matches(' ');
            let (target, s) = if let Some(s) = s.strip_prefix('@') {
                let end = s.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(s.len());
                let w = &s[..end];
                let t = match w {
                    "above" => Some(lineno - 1),
                    "below" => Some(lineno + 1),
                    "unknown" => None,
                    _ => {
                        let n: i64 = w.parse().map_err(|_| (lineno, col, format!("bad expected-* offset '@{w}'")))?;
                        let t = lineno as i64 + n;
                        if t < 1 {
                            return Err((lineno, col, format!("expected-* offset '@{w}' points before the file")));
                        }
                        Some(t as u32)
                    }
                };
                (t, &s[end..])
            } else {
                (Some(lineno), s)
            };
            let s = s.trim_start();
            let Some(body) = s.strip_prefix("{{") else {
                return Err((lineno, col, "expected '{{' after expected-*".into()));
            };
            let Some(end) = body.find("}}") else {
                return Err((lineno, col, "expected '}}' to close expected-* text".into()));
            };
            out.push(Expected { severity: sev, line: target, text: body[..end].to_string(), at: (lineno, col) });
            let consumed = line.len() - body[end + 2..].len();
            offset = consumed;
            rest = &line[consumed..];
        }
    }
    Ok(out)
}

/// Flattens diagnostics and their notes, dropping MLIR's "see current operation" notes (mlir-opt
/// turns them off under --verify-diagnostics).
pub fn flatten(diags: &[Diagnostic]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for d in diags {
        out.push(d.clone().with_notes(Vec::new()));
        for n in &d.notes {
            if !n.message.starts_with("see current operation") {
                out.extend(flatten(std::slice::from_ref(n)));
            }
        }
    }
    out
}

/// What `--verify-diagnostics` found wrong, as rendered messages, each with its source line and
/// a caret under the place, as mlir-opt prints them.
#[derive(Debug, Default)]
pub struct Failures {
    /// Diagnostics nothing expected, in the order they came.
    pub unexpected: Vec<String>,
    /// Expectations no diagnostic met, in the file's order (mlir-opt reports these after every
    /// chunk's unexpected ones).
    pub missing: Vec<String>,
}

impl Failures {
    pub fn is_empty(&self) -> bool {
        self.unexpected.is_empty() && self.missing.is_empty()
    }
}

/// Matches `produced` against `expected` (parsed from `source`, the text of `file` whose lines
/// the locations count). `only_expected` (mlir-opt's `--verify-diagnostics=only-expected`): a
/// diagnostic nothing expects is no failure.
pub fn check(file: &str, source: &str, expected: &[Expected], produced: &[Diagnostic], only_expected: bool) -> Failures {
    let excerpt = |line: u32, col: u32, width: usize| -> String {
        let Some(text) = source.lines().nth(line.saturating_sub(1) as usize).filter(|_| line > 0) else { return String::new() };
        let (shown, caret) = phobos_source::excerpt(text, col as usize);
        format!("\n{shown}\n{}^{}", " ".repeat(caret), "~".repeat(width.saturating_sub(1)))
    };
    let mut used = vec![false; expected.len()];
    let mut failures = Failures::default();
    for d in flatten(produced) {
        let line = d.loc.as_ref().filter(|l| l.file == file).map(|l| l.line);
        let hit = expected
            .iter()
            .enumerate()
            .position(|(i, e)| !used[i] && e.severity == d.severity && e.line == line && d.message.contains(&e.text));
        match hit {
            Some(i) => used[i] = true,
            None if only_expected => {}
            None => {
                let at = d.loc.as_ref().map(|l| l.to_string()).unwrap_or_else(|| "<unknown>:0".into());
                let shown = d.loc.as_ref().filter(|l| l.file == file).map(|l| excerpt(l.line, l.col, 1)).unwrap_or_default();
                failures.unexpected.push(format!("{at}: error: unexpected {}: {}{shown}", d.severity.as_str(), d.message));
            }
        }
    }
    for (i, e) in expected.iter().enumerate() {
        if !used[i] {
            let shown = excerpt(e.at.0, e.at.1, e.text.chars().count());
            failures.missing.push(format!(
                "{file}:{}:{}: error: expected {} \"{}\" was not produced{shown}",
                e.at.0,
                e.at.1,
                e.severity.as_str(),
                e.text
            ));
        }
    }
    failures
}
