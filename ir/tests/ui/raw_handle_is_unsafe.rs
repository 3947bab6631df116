// Making a handle from a raw C-API pointer is unsafe: safe code cannot forge one.
fn main() {
    let ctx = melior::Context::new();
    let m = phobos_ir::OwnedModule::parse(&ctx, "module {}", "x.mlir").unwrap();
    let op = phobos_ir::Op::from_raw(m.op().to_raw());
    println!("{}", op.name());
}
