// phobos::Diagnostic is #[non_exhaustive] (made with Diagnostic::new): a new field breaks no embedder,
// so no struct literal outside Phobos compiles.
fn main() {
    let _ = phobos::Diagnostic { severity: phobos::Severity::Error, loc: None, message: String::new(), notes: Vec::new() };
}
