// phobos::Staged is #[non_exhaustive] (made by the compiler only): a new field breaks no embedder,
// so no struct literal outside Phobos compiles.
fn main() {
    let _ = phobos::Staged { stages: Vec::new(), ..Default::default() };
}
