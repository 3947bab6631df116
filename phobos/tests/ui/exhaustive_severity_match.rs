// phobos::Severity is #[non_exhaustive]: a match must have a `_` arm.
fn rank(s: phobos::Severity) -> i32 {
    match s {
        phobos::Severity::Error => 3,
        phobos::Severity::Warning => 2,
        phobos::Severity::Note => 1,
        phobos::Severity::Remark => 0,
    }
}

fn main() {
    let _ = rank;
}
