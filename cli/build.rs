//! Links `phobos` and `phobos-opt` as position-dependent executables with the C++ runtime
//! linked in statically.
//!
//! - `-no-pie`: the MLIR binaries hold hundreds of thousands of pointers (276,000 when they
//!   linked every LLVM backend) that a PIE has the dynamic loader relocate at every start (and
//!   so write, page by page); fixed at link time, they cost nothing when a process starts.
//! - A static libstdc++: linked dynamically, about 17,300 pointers to its RTTI vtables (every
//!   polymorphic class of MLIR and LLVM) are still relocated at start, which writes to most of
//!   the 3 MB of `.data.rel.ro`: about 350 page faults.
//! - `-z keep-text-section-prefix`: the ~380 static constructors of LLVM and MLIR (compiled
//!   into `.text.startup`) sit together instead of one per object across 57 MB of code, so
//!   that starting a process faults in a few pages for them instead of a few hundred
//!   (`lanes_matvec` compile 18.8 -> 18.1 ms).
//! - `--symbol-ordering-file=symbol-order.txt`: the ~20,000 LLVM and MLIR functions a compile
//!   runs (written by `scripts/symbol-order.py` from callgrind) laid out together, about 9 MB,
//!   instead of spread over the 57 MB of code: a compile faults in and walks far fewer pages of
//!   code (`lanes_matvec` 21.8 -> 16.9 ms, page faults 1,492 -> 1,145). Names the linker does not
//!   find (another LLVM build) are skipped.
use std::path::PathBuf;
use std::process::Command;

fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        return;
    }
    println!("cargo:rustc-link-arg-bins=-no-pie");
    // Bind the C runtime's symbols when first called, not all at start.
    println!("cargo:rustc-link-arg-bins=-Wl,-z,lazy");
    // Static constructors together (`.text.startup`), cold code apart (`.text.unlikely`).
    println!("cargo:rustc-link-arg-bins=-Wl,-z,keep-text-section-prefix");
    // The functions a compile runs, together (scripts/symbol-order.py wrote the list).
    if let Some(order) = symbol_order() {
        println!("cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={}", order.display());
        println!("cargo:rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
    }
    if let Some(dir) = static_libstdcxx_dir() {
        // mlir-sys asks for `-lstdc++`: a directory holding only the archive makes the linker
        // take it before the shared library it would find later in the compiler's own paths.
        println!("cargo:rustc-link-search=native={}", dir.display());
    }
}

/// `symbol-order.txt` copied to OUT_DIR under a name holding a hash of its contents: the link
/// arguments change when the list does, which makes cargo link again.
fn symbol_order() -> Option<PathBuf> {
    let list = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").ok()?).join("symbol-order.txt");
    println!("cargo:rerun-if-changed={}", list.display());
    let bytes = std::fs::read(&list).ok()?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    std::hash::Hash::hash(&bytes, &mut h);
    let copy = PathBuf::from(std::env::var("OUT_DIR").ok()?).join(format!("symbol-order-{:016x}.txt", std::hash::Hasher::finish(&h)));
    std::fs::write(&copy, bytes).ok()?;
    Some(copy)
}

/// A directory with `libstdc++.a` alone in it (a link to the compiler's), or None when the
/// compiler has no static libstdc++ (then the shared one is linked, as before).
fn static_libstdcxx_dir() -> Option<PathBuf> {
    let out = Command::new("cc").arg("-print-file-name=libstdc++.a").output().ok()?;
    let archive = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    if !archive.is_absolute() || !archive.is_file() {
        return None;
    }
    let dir = PathBuf::from(std::env::var("OUT_DIR").ok()?).join("static-libstdcxx");
    std::fs::create_dir_all(&dir).ok()?;
    let link = dir.join("libstdc++.a");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&archive, &link).ok()?;
    println!("cargo:rerun-if-changed={}", archive.display());
    Some(dir)
}
