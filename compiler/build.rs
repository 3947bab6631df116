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
    // runtime and phobos: the program cache stores their kernels and programs as they serialize.
    for d in ["ir", "source", "dialects", "passes", "frontend", "compiler", "layout", "sim", "runtime", "phobos"] {
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
    embed_libdevice(&root);
}

/// Carries NVIDIA's libdevice (which third_party/install.sh puts in .tools/) inside the
/// binary, so math functions link wherever Phobos runs: `OUT_DIR/libdevice.10.bc`, empty when
/// the build machine has none (then only `--libdevice`/`PHOBOS_LIBDEVICE` link it).
fn embed_libdevice(root: &Path) {
    let src = root.join(".tools/cuda/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc");
    println!("cargo:rerun-if-changed={}", src.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("libdevice.10.bc");
    let bytes = std::fs::read(&src).unwrap_or_default();
    std::fs::write(&out, bytes).expect("OUT_DIR is writable");
}
