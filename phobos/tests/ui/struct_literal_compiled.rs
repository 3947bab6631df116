// phobos::Compiled is #[non_exhaustive] (made by the compiler only): a new field breaks no
// embedder, so no struct literal outside Phobos compiles.
fn main() {
    let _ = phobos::Compiled { kernels: Vec::new(), ir: phobos::Staged::default(), diagnostics: Vec::new(), timings: Vec::new() };
}
