// A handle into a module cannot outlive the module.
fn main() {
    let ctx = melior::Context::new();
    let op = {
        let m = phobos_ir::OwnedModule::parse(&ctx, "module {}", "x.mlir").unwrap();
        m.op()
    };
    println!("{}", op.name());
}
