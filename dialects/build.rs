//! Compiles `cpp/upstream.cpp`, the registration of the upstream dialects, interfaces and passes
//! Phobos uses (MLIR's C API offers them only all together, with every LLVM backend).
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
    let mut build = cc::Build::new();
    // The clang++ of the same LLVM (`third_party/install.sh` installs it) unless CXX says
    // otherwise: its headers are the ones it was made for.
    let clangxx = format!("{prefix}/bin/clang++");
    println!("cargo:rerun-if-env-changed=CXX");
    if std::env::var_os("CXX").is_none() && std::path::Path::new(&clangxx).exists() {
        build.compiler(clangxx);
    }
    build
        .cpp(true)
        .file("cpp/upstream.cpp")
        .include(include)
        .flag("-std=c++17")
        .flag("-fno-exceptions")
        .flag("-w")
        .opt_level(2)
        .compile("phobos_upstream");
}
