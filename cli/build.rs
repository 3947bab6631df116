//! Links `phobos` and `phobos-opt` as position-dependent executables with the C++ runtime,
//! zlib and zstd linked in statically.
//!
//! - `-no-pie`: the MLIR binaries hold hundreds of thousands of pointers (276,000 when they
//!   linked every LLVM backend) that a PIE has the dynamic loader relocate at every start (and
//!   so write, page by page); fixed at link time, they cost nothing when a process starts.
//! - A static libstdc++: linked dynamically, about 17,300 pointers to its RTTI vtables (every
//!   polymorphic class of MLIR and LLVM) are still relocated at start, which writes to most of
//!   the 3 MB of `.data.rel.ro`: about 350 page faults. zlib's and zstd's archives too (LLVM
//!   links them for compressed sections): two shared libraries fewer to map and relocate at
//!   every start (19 page faults; `phobos --version` 3.40 -> 3.26 ms).
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
    if let Some(dir) = static_libs_dir() {
        // mlir-sys asks for `-lstdc++ -lz -lzstd`: a directory holding only their archives makes
        // the linker take them before the shared libraries it would find later.
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

/// A directory holding links to the static archives of the C++ runtime and of zlib and zstd
/// (which LLVM asks for), those the compiler has; None when it has none (then the shared
/// libraries are linked, as before).
fn static_libs_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var("OUT_DIR").ok()?).join("static-libs");
    std::fs::create_dir_all(&dir).ok()?;
    let mut any = false;
    for name in ["libstdc++.a", "libz.a", "libzstd.a"] {
        let out = Command::new("cc").arg(format!("-print-file-name={name}")).output().ok()?;
        let archive = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
        let link = dir.join(name);
        let _ = std::fs::remove_file(&link);
        if archive.is_absolute() && archive.is_file() && std::os::unix::fs::symlink(&archive, &link).is_ok() {
            println!("cargo:rerun-if-changed={}", archive.display());
            any = true;
        }
    }
    any.then_some(dir)
}
