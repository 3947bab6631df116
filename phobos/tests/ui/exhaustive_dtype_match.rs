// phobos::Dtype is #[non_exhaustive]: a match must have a `_` arm.
fn code(d: phobos::Dtype) -> u32 {
    match d {
        phobos::Dtype::Bool => 0,
        phobos::Dtype::I8 => 1,
        phobos::Dtype::I16 => 2,
        phobos::Dtype::I32 => 3,
        phobos::Dtype::I64 => 4,
        phobos::Dtype::U8 => 5,
        phobos::Dtype::U16 => 6,
        phobos::Dtype::U32 => 7,
        phobos::Dtype::U64 => 8,
        phobos::Dtype::F16 => 9,
        phobos::Dtype::F32 => 10,
        phobos::Dtype::F64 => 11,
    }
}

fn main() {
    let _ = code;
}
