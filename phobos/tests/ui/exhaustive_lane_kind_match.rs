// phobos::dialects::lane::Kind is #[non_exhaustive]: a match must have a `_` arm.
fn is_logic(k: phobos::dialects::lane::Kind) -> bool {
    use phobos::dialects::lane::Kind;
    match k {
        Kind::Sum | Kind::Max | Kind::Min => false,
        Kind::Any | Kind::All => true,
    }
}

fn main() {
    let _ = is_logic;
}
