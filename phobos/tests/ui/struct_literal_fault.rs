// phobos::Fault is #[non_exhaustive] (made by the simulator only): a new field breaks no
// embedder, so no struct literal outside Phobos compiles.
fn main() {
    let _ = phobos::Fault {
        kind: phobos::FaultKind::Race,
        message: String::new(),
        kernel: String::new(),
        cta: [0; 3],
        thread: None,
        op: String::new(),
        loc: None,
    };
}
