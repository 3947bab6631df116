// phobos::Options is #[non_exhaustive] (built with its methods: Options::default().with_chip("sm_80")): a new field breaks no embedder,
// so no struct literal outside Phobos compiles.
fn main() {
    let _ = phobos::Options { chip: "sm_80".into(), ..Default::default() };
}
