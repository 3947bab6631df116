// phobos::FaultKind is #[non_exhaustive]: a match must have a `_` arm.
fn serious(k: phobos::FaultKind) -> bool {
    use phobos::FaultKind::*;
    match k {
        OutOfBounds | Misaligned | Race | GlobalRace | DivergentBarrier | DivergentShuffle => true,
        Deadlock | DivisionByZero | Assertion | BadLaunch => false,
    }
}

fn main() {
    let _ = serious;
}
