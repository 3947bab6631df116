// phobos::Error is #[non_exhaustive]: a match must have a `_` arm.
fn code(e: &phobos::Error) -> i32 {
    match e {
        phobos::Error::Compile(_) => 1,
        phobos::Error::Launch(_) => 1,
        phobos::Error::Fault(_) => 2,
        phobos::Error::Io(_) => 1,
        phobos::Error::Cuda(_) => 1,
    }
}

fn main() {
    let _ = code;
}
