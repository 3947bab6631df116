//! `--split-input-file`: chunks separated by `// -----`, each padded with blank lines so that
//! line numbers in diagnostics match the file.

/// One chunk: its text (padded) and the line it starts on (1-based).
pub struct Chunk {
    pub text: String,
    pub first_line: usize,
}

/// True for a separator line: `// -----` (and only dashes after it).
fn is_separator(line: &str) -> bool {
    let t = line.trim();
    t.strip_prefix("//").map(str::trim_start).is_some_and(|r| r.len() >= 5 && r.chars().all(|c| c == '-'))
}

/// A line that looks like a separator attempt but is not one (upstream warns about these too).
pub fn is_near_miss(line: &str) -> bool {
    let t = line.trim();
    !is_separator(line) && t.starts_with("//") && t.contains("---") && t.trim_start_matches('/').trim().starts_with('-')
}

/// Splits `text` on separator lines.
pub fn split(text: &str) -> Vec<Chunk> {
    let mut chunks = Vec::new();
    let mut cur = String::new();
    let mut first_line = 1;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if is_separator(line) {
            chunks.push(Chunk { text: std::mem::take(&mut cur), first_line });
            first_line = i + 2;
            // Pad the next chunk so its lines keep their numbers.
            cur = "\n".repeat(i + 1);
            continue;
        }
        cur.push_str(line);
    }
    chunks.push(Chunk { text: cur, first_line });
    chunks
}
