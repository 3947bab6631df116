// phobos::Device is #[non_exhaustive]: a match must have a `_` arm.
fn name(d: &phobos::Device) -> &'static str {
    match d {
        phobos::Device::Simulator => "sim",
        phobos::Device::Cuda(_) => "gpu",
    }
}

fn main() {
    let _ = name;
}
