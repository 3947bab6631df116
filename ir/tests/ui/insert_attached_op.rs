// An op that is already in a block cannot be inserted again: only an OwnedOp (a clone) can.
fn main() {
    let ctx = melior::Context::new();
    let m = phobos_ir::OwnedModule::parse(&ctx, "module { func.func private @f() }", "x.mlir").unwrap();
    let f = m.op().find_all("func.func")[0];
    phobos_ir::Builder::before(f).insert(f);
}
