//! The misuses of the IR handles that must not compile, as rustdoc `compile_fail` tests, each
//! pinned to the error code it must fail with (a test fails when a misuse starts compiling or
//! fails for another reason). Doctests compile against the already-built crate, so they cost no
//! second build of MLIR's bindings (trybuild's separate target directory took 1.8 GB).

/// A context handle cannot outlive the melior context it was taken from.
///
/// ```compile_fail,E0597
/// fn main() {
///     let ctx = {
///         let c = melior::Context::new();
///         phobos_ir::Ctx::of(&c)
///     };
///     println!("{}", ctx.index());
/// }
/// ```
pub struct CtxOutlivesContext;

/// A handle into a module cannot outlive the module.
///
/// ```compile_fail,E0597
/// fn main() {
///     let ctx = melior::Context::new();
///     let op = {
///         let m = phobos_ir::OwnedModule::parse(&ctx, "module {}", "x.mlir").unwrap();
///         m.op()
///     };
///     println!("{}", op.name());
/// }
/// ```
pub struct HandleOutlivesModule;

/// An op that is already in a block cannot be inserted again: only an OwnedOp (a clone) can.
///
/// ```compile_fail,E0308
/// fn main() {
///     let ctx = melior::Context::new();
///     let m = phobos_ir::OwnedModule::parse(&ctx, "module { func.func private @f() }", "x.mlir").unwrap();
///     let f = m.op().find_all("func.func")[0];
///     phobos_ir::Builder::before(f).insert(f);
/// }
/// ```
pub struct InsertAttachedOp;

/// Inserting consumes the clone: it cannot be inserted twice.
///
/// ```compile_fail,E0382
/// fn main() {
///     let ctx = melior::Context::new();
///     let m = phobos_ir::OwnedModule::parse(&ctx, "module { func.func private @f() }", "x.mlir").unwrap();
///     let f = m.op().find_all("func.func")[0];
///     let copy = f.clone_op();
///     let b = phobos_ir::Builder::before(f);
///     b.insert(copy);
///     b.insert(copy);
/// }
/// ```
pub struct OwnedOpInsertedTwice;

/// Making a handle from a raw C-API pointer is unsafe: safe code cannot forge one.
///
/// ```compile_fail,E0133
/// fn main() {
///     let ctx = melior::Context::new();
///     let m = phobos_ir::OwnedModule::parse(&ctx, "module {}", "x.mlir").unwrap();
///     let op = phobos_ir::Op::from_raw(m.op().to_raw());
///     println!("{}", op.name());
/// }
/// ```
pub struct RawHandleIsUnsafe;

/// An op takes over its regions: a region cannot be given to a second op.
///
/// ```compile_fail,E0382
/// fn main() {
///     let ctx = melior::Context::new();
///     let m = phobos_ir::OwnedModule::parse(&ctx, "module { func.func private @f() }", "x.mlir").unwrap();
///     let f = m.op().find_all("func.func")[0];
///     let b = phobos_ir::Builder::before(f);
///     let r = phobos_ir::OwnedRegion::new();
///     b.op_with_regions("scf.execute_region", &[], &[], &[], vec![r]);
///     b.op_with_regions("scf.execute_region", &[], &[], &[], vec![r]);
/// }
/// ```
pub struct RegionGivenTwice;
