//! The IR layer's misuses that must not compile, each with the exact error (`tests/ui/*.stderr`):
//! a test fails when a misuse starts compiling or fails for another reason. Regenerate the
//! expected errors after a deliberate change with `TRYBUILD=overwrite cargo test -p phobos-ir`.

#[test]
fn misuses_do_not_compile() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
