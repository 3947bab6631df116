// A context handle cannot outlive the melior context it was taken from.
fn main() {
    let ctx = {
        let c = melior::Context::new();
        phobos_ir::Ctx::of(&c)
    };
    println!("{}", ctx.index());
}
