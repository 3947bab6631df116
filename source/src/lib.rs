//! Source text as a diagnostic shows it, shared by the language (`phobos-frontend`) and the IR
//! layer (`phobos-ir`), neither of which depends on the other.

/// The part of a source line shown under a diagnostic: the whole line when it is short, else a
/// window of [`EXCERPT_CHARS`] characters around the 1-based column `col`, with `...` where it
/// was cut. Returns the text and the caret's character offset in it.
pub fn excerpt(line: &str, col: usize) -> (String, usize) {
    let n = line.chars().count();
    let at = col.saturating_sub(1).min(n);
    if n <= EXCERPT_CHARS {
        return (line.to_string(), at);
    }
    let start = at.saturating_sub(EXCERPT_CHARS / 3).min(n - EXCERPT_CHARS);
    let end = start + EXCERPT_CHARS;
    let mut text: String = if start > 0 { "...".into() } else { String::new() };
    let caret = at - start + text.len();
    text.extend(line.chars().skip(start).take(EXCERPT_CHARS));
    if end < n {
        text.push_str("...");
    }
    (text, caret)
}

/// Source lines longer than this are cut around the column a diagnostic points at.
pub const EXCERPT_CHARS: usize = 120;

/// Whether a diagnostic's file holds Phobos language text: a `.phobos` file, or a `.py` file
/// whose string literal holds a kernel (Python compiles it located at the file's lines).
pub fn is_language_file(name: &str) -> bool {
    name.ends_with(".phobos") || name.ends_with(".py")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_are_whole() {
        assert_eq!(excerpt("let x = 1;", 5), ("let x = 1;".to_string(), 4));
    }

    #[test]
    fn long_lines_are_cut_around_the_column() {
        let line: String = (0..300).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
        let (text, caret) = excerpt(&line, 200);
        assert!(text.starts_with("...") && text.ends_with("..."));
        assert_eq!(text.chars().count(), EXCERPT_CHARS + 6);
        assert_eq!(text.chars().nth(caret), line.chars().nth(199));
    }
}
