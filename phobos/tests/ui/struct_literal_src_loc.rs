// phobos::SrcLoc is #[non_exhaustive] (made with SrcLoc::new): a new field breaks no embedder,
// so no struct literal outside Phobos compiles.
fn main() {
    let _ = phobos::SrcLoc { file: String::new(), line: 1, col: 1 };
}
