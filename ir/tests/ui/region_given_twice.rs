// An op takes over its regions: a region cannot be given to a second op.
fn main() {
    let ctx = melior::Context::new();
    let m = phobos_ir::OwnedModule::parse(&ctx, "module { func.func private @f() }", "x.mlir").unwrap();
    let f = m.op().find_all("func.func")[0];
    let b = phobos_ir::Builder::before(f);
    let r = phobos_ir::OwnedRegion::new();
    b.op_with_regions("scf.execute_region", &[], &[], &[], vec![r]);
    b.op_with_regions("scf.execute_region", &[], &[], &[], vec![r]);
}
