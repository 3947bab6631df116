// Inserting consumes the clone: it cannot be inserted twice.
fn main() {
    let ctx = melior::Context::new();
    let m = phobos_ir::OwnedModule::parse(&ctx, "module { func.func private @f() }", "x.mlir").unwrap();
    let f = m.op().find_all("func.func")[0];
    let copy = f.clone_op();
    let b = phobos_ir::Builder::before(f);
    b.insert(copy);
    b.insert(copy);
}
