// phobos::LaunchOptions is #[non_exhaustive] (built with its methods: LaunchOptions::default().with_cooperative(true)): a new field breaks no embedder,
// so no struct literal outside Phobos compiles.
fn main() {
    let _ = phobos::LaunchOptions { cooperative: true, ..Default::default() };
}
