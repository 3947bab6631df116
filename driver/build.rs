//! Sets `PHOBOS_BUILD_ID`: a hash of every source that shapes compiled kernels (the crates'
//! sources, the IRDL files, Cargo.lock). The kernel cache keys entries by it, so a rebuilt
//! compiler never reads a stale kernel, and nothing hashes the binary at run time.

use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("..");
    let mut files = Vec::new();
    for d in ["dialects", "passes", "frontend", "driver", "layout", "sim"] {
        for sub in ["src", "irdl"] {
            let dir = root.join(d).join(sub);
            if dir.exists() {
                println!("cargo:rerun-if-changed={}", dir.display());
                walk(&dir, &mut files);
            }
        }
    }
    files.push(root.join("Cargo.lock"));
    println!("cargo:rerun-if-changed={}", root.join("Cargo.lock").display());
    files.sort();
    // FNV-1a, 64-bit, over (path, contents) of each file.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap_or(f).to_string_lossy().into_owned();
        for b in rel.bytes().chain(std::fs::read(f).unwrap_or_default()) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=PHOBOS_BUILD_ID={}-{h:016x}", std::env::var("CARGO_PKG_VERSION").unwrap_or_default());
}
