// phobos::build::Dim is #[non_exhaustive]: a match must have a `_` arm.
fn index(d: phobos::build::Dim) -> usize {
    match d {
        phobos::build::Dim::X => 0,
        phobos::build::Dim::Y => 1,
        phobos::build::Dim::Z => 2,
    }
}

fn main() {
    let _ = index;
}
