// phobos::Exchange is #[non_exhaustive]: a match must have a `_` arm.
fn name(e: phobos::Exchange) -> &'static str {
    match e {
        phobos::Exchange::Auto => "auto",
        phobos::Exchange::Shuffle => "shuffle",
        phobos::Exchange::Staging => "staging",
    }
}

fn main() {
    let _ = name;
}
