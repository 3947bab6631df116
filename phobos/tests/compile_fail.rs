//! What the API's docs promise that only the compiler can keep, as code that must not compile,
//! each with its exact error (`tests/ui/*.stderr`): the public enums are `#[non_exhaustive]`, so
//! an embedder's `match` needs a `_` arm and keeps compiling when a variant is added
//! (`exhaustive_*`); the public structs an embedder reads or configures are too, so a new field
//! breaks no struct literal outside Phobos: options are built with their `with_*` methods,
//! diagnostics and locations with `new` (`struct_literal_*`). Regenerate
//! the expected errors after a deliberate change with
//! `TRYBUILD=overwrite cargo test -p phobos --test compile_fail`.

#[test]
fn promises_the_compiler_keeps() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
