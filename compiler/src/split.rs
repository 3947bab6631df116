//! `--split-input-file`: the input cut into chunks at a marker (`// -----`), exactly as MLIR's
//! `splitAndProcessBuffer` cuts it, each chunk padded with blank lines and spaces so that lines
//! and columns in diagnostics match the file.
//!
//! MLIR's rule, byte for byte: the input is split at every occurrence of the marker less its
//! last two characters (`// ---`); a piece that starts with those two characters (`--`), has
//! more after them, and whose third character is not `0`, begins a new chunk after them. Any
//! other piece is a near miss (a warning at its first byte) and stays in the chunk before it.
//! A marker anywhere on a line splits there, and `// --------` leaves `---` at the start of the
//! next chunk.

/// mlir-opt's marker, in the input and (followed by a newline) between the outputs.
pub const DEFAULT_MARKER: &str = "// -----";

/// One chunk: its text (padded) and where it starts in the file (1-based).
pub struct Chunk {
    pub text: String,
    pub first_line: usize,
    pub first_col: usize,
}

impl Chunk {
    /// The whole input as one chunk.
    pub fn whole(text: &str) -> Chunk {
        Chunk { text: text.to_string(), first_line: 1, first_col: 1 }
    }
}

/// The chunks of an input, and the near misses (line, column; 1-based) to warn about.
pub struct Split {
    pub chunks: Vec<Chunk>,
    pub near_misses: Vec<(usize, usize)>,
}

/// Splits `text` at `marker` (at least 3 characters: [`check_marker`]).
pub fn split(text: &str, marker: &str) -> Split {
    let (prefix, suffix) = marker.split_at(marker.len() - 2);
    // The pieces between occurrences of `prefix`, as byte ranges.
    let mut pieces = Vec::new();
    let mut start = 0;
    while let Some(i) = text[start..].find(prefix) {
        pieces.push(start..start + i);
        start += i + prefix.len();
    }
    pieces.push(start..text.len());
    let mut ranges = Vec::new();
    let mut near_misses = Vec::new();
    let mut prev = 0..0;
    for piece in pieces {
        if prev.is_empty() {
            prev = piece;
            continue;
        }
        let bytes = &text.as_bytes()[piece.clone()];
        if bytes.starts_with(suffix.as_bytes()) && bytes.len() > 2 && bytes[2] != b'0' {
            ranges.push(std::mem::replace(&mut prev, piece.start + 2..piece.end));
        } else {
            near_misses.push(position(text, piece.start));
            prev.end = piece.end;
        }
    }
    if !prev.is_empty() {
        ranges.push(prev);
    }
    let chunks = ranges
        .into_iter()
        .map(|r| {
            let (line, col) = position(text, r.start);
            let text = format!("{}{}{}", "\n".repeat(line - 1), " ".repeat(col - 1), &text[r]);
            Chunk { text, first_line: line, first_col: col }
        })
        .collect();
    Split { chunks, near_misses }
}

/// A marker `split` can cut at, or why not.
pub fn check_marker(marker: &str) -> Result<(), String> {
    if marker.chars().count() < 3 || !marker.is_char_boundary(marker.len() - 2) {
        return Err(format!("--split-input-file marker '{marker}': give at least 3 characters, the last two ASCII"));
    }
    Ok(())
}

/// The 1-based line and byte column of byte `at`.
fn position(text: &str, at: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..at];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = at - before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str) -> (Vec<String>, Vec<(usize, usize)>) {
        let s = split(text, DEFAULT_MARKER);
        (s.chunks.into_iter().map(|c| c.text).collect(), s.near_misses)
    }

    #[test]
    fn chunks_keep_their_lines_and_columns() {
        let (chunks, near) = cut("a\n  // -----\nb\n");
        assert_eq!(chunks, ["a\n  ", "\n          \nb\n"]);
        assert!(near.is_empty());
    }

    #[test]
    fn near_misses_stay_in_the_chunk_before() {
        // `// ----` (one dash short), `// ---x`, a marker with nothing after it, and `--0`.
        for text in ["a\n// ----\nb", "a\n// ---x\nb", "a\n// -----", "a\n// -----0\n"] {
            let (chunks, near) = cut(text);
            assert_eq!(chunks, [text], "{text:?}");
            assert_eq!(near, [(2, 7)], "{text:?}");
        }
    }

    #[test]
    fn a_marker_anywhere_splits_and_extra_dashes_stay() {
        let (chunks, _) = cut("a // -----b\n// --------\nc");
        assert_eq!(chunks, ["a ", "          b\n", "\n        ---\nc"]);
    }

    #[test]
    fn a_first_piece_that_is_empty_takes_the_next_whole() {
        // MLIR's quirk: nothing before the first marker, and the piece after it keeps its `--`.
        let (chunks, near) = cut("// -----\nb");
        assert_eq!(chunks, ["      --\nb"]);
        assert!(near.is_empty());
        assert!(cut("").0.is_empty());
    }

    #[test]
    fn custom_markers() {
        let s = split("a\n//== x\nb", "//==");
        assert_eq!(s.chunks.iter().map(|c| c.text.as_str()).collect::<Vec<_>>(), ["a\n", "\n     x\nb"]);
        assert!(check_marker("ab").is_err());
        assert!(check_marker("//==").is_ok());
    }
}
