//! Source positions and the frontend's diagnostics.

/// A byte range in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start: start as u32, end: end as u32 }
    }
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}

/// A source file: its name, its text, and where its lines start.
#[derive(Clone, Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Source {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Source { name: name.into(), text, line_starts }
    }
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let off = (offset as usize).min(self.text.len());
        let line = match self.line_starts.binary_search(&off) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let col = self.text.get(start..off).map(|s| s.chars().count()).unwrap_or(off - start) + 1;
        (line as u32 + 1, col as u32)
    }
    /// The byte offset of a 1-based line and column (in characters), the inverse of
    /// [`Source::line_col`]; a column past the line's end is its end; `None` past the last line.
    pub fn offset_of(&self, line: u32, col: u32) -> Option<u32> {
        let i = line.checked_sub(1)? as usize;
        let start = *self.line_starts.get(i)?;
        let end = self.line_starts.get(i + 1).map(|e| e - 1).unwrap_or(self.text.len());
        let text = self.text.get(start..end)?;
        let skip = text.char_indices().nth(col.saturating_sub(1) as usize).map(|(i, _)| i).unwrap_or(text.len());
        Some((start + skip) as u32)
    }
    /// The text of a 1-based line, without its newline.
    pub fn line(&self, line: u32) -> &str {
        let i = line.saturating_sub(1) as usize;
        let start = self.line_starts.get(i).copied().unwrap_or(self.text.len());
        let end = self.line_starts.get(i + 1).map(|e| e - 1).unwrap_or(self.text.len());
        self.text.get(start..end.max(start)).unwrap_or("").trim_end_matches('\r')
    }
}

/// Severity of a frontend diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Level {
    Error,
    Note,
}

/// One diagnostic: a message at a span, with notes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diag {
    pub level: Level,
    pub span: Span,
    pub message: String,
    pub notes: Vec<Diag>,
}

impl Diag {
    pub fn error(span: Span, message: impl Into<String>) -> Diag {
        Diag { level: Level::Error, span, message: message.into(), notes: vec![] }
    }
    pub fn note(mut self, span: Span, message: impl Into<String>) -> Diag {
        self.notes.push(Diag { level: Level::Note, span, message: message.into(), notes: vec![] });
        self
    }
    /// `file:line:col: error: message`, the source line, a caret; then the notes.
    pub fn render(&self, src: &Source) -> String {
        let (line, col) = src.line_col(self.span.start);
        let level = match self.level {
            Level::Error => "error",
            Level::Note => "note",
        };
        let (text, caret) = excerpt(src.line(line), col as usize);
        let pad: String = text.chars().take(caret).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
        let width = if self.span.end > self.span.start {
            let (el, ec) = src.line_col(self.span.end);
            if el == line {
                (ec - col).max(1) as usize
            } else {
                1
            }
        } else {
            1
        };
        let width = width.min(text.chars().count().saturating_sub(caret).max(1));
        let mut out = format!("{}:{line}:{col}: {level}: {}\n{text}\n{pad}^{}\n", src.name, self.message, "~".repeat(width - 1));
        for n in &self.notes {
            out.push_str(&n.render(src));
        }
        out
    }
}

/// The result type of frontend stages.
pub type Result<T> = std::result::Result<T, Diag>;

pub use phobos_source::{excerpt, EXCERPT_CHARS};
