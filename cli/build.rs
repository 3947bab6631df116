//! Links `phobos` and `phobos-opt` as position-dependent executables: the ~230 MB binaries
//! hold about 276,000 pointers that a PIE has the dynamic loader relocate at every start
//! (and so write, page by page); fixed at link time, they cost nothing when a process starts.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
        // Bind the C++ runtime's symbols when first called, not all at start.
        println!("cargo:rustc-link-arg-bins=-Wl,-z,lazy");
    }
}
