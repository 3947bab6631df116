//! What the API's docs promise that only the compiler can keep, as code that must not compile,
//! each with its exact error (`tests/ui/*.stderr`): the public enums are `#[non_exhaustive]`, so
//! an embedder's `match` without a `_` arm keeps compiling when a variant is added. Regenerate
//! the expected errors after a deliberate change with
//! `TRYBUILD=overwrite cargo test -p phobos --test compile_fail`.

#[test]
fn promises_the_compiler_keeps() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
