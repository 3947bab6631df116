//! Compiles `cpp/upstream.cpp`, the registration of the upstream dialect interfaces Phobos uses
//! (MLIR's C API offers them only all together, with every LLVM backend).
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=cpp/upstream.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let prefix = std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let config = format!("{prefix}/bin/llvm-config");
    let include = Command::new(&config)
        .arg("--includedir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| format!("{prefix}/include"));
    cc::Build::new()
        .cpp(true)
        .file("cpp/upstream.cpp")
        .include(include)
        .flag("-std=c++17")
        .flag("-fno-exceptions")
        .flag("-w")
        .opt_level(2)
        .compile("phobos_upstream");
}
