//! An embedder's crate, out of the tree, set up only as `docs/embedding.md` says: the dependency
//! line and the build configuration are taken from the doc's "Depend on it" section, so a doc
//! that stops being enough fails here. Built in the dev profile into a target directory of its
//! own (`target/embedder-target`: the workspace's is locked while tests run), offline, with the
//! workspace's lock file, without debug info; the first build compiles MLIR's bindings and
//! Phobos again (about 3 minutes on 2 cores), later ones only the crate.

use super::workspace_root;

const MAIN: &str = r#"use phobos::{Arg, Compiler, Device, Options};

fn main() -> Result<(), phobos::Error> {
    let compiler = Compiler::new()?;
    let kernels = compiler.compile_mlir(include_str!("lane_sum.mlir"), "lane_sum.mlir", &Options::default())?;
    let mut x: Vec<u8> = (0..1024).flat_map(|i| (i as f32).to_le_bytes()).collect();
    kernels[0].launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Buffer(&mut x)])?;
    let v = |i: usize| f32::from_le_bytes(x[4 * i..4 * i + 4].try_into().expect("4 bytes"));
    println!("embedder: {} {} {}", kernels[0].name, v(0), v(127));
    Ok(())
}
"#;

#[test]
fn an_out_of_tree_embedder_builds_and_runs_from_the_docs() {
    let root = workspace_root();
    let doc = std::fs::read_to_string(root.join("docs/embedding.md")).expect("docs/embedding.md");
    let section = doc.split("## 0. Depend on it").nth(1).and_then(|s| s.split("\n## ").next()).expect("a 'Depend on it' section");
    let blocks: Vec<&str> = section.split("```toml\n").skip(1).filter_map(|b| b.split("```").next()).collect();
    assert_eq!(blocks.len(), 2, "the section holds the dependency line and the configuration");
    // Outside the workspace, so that its .cargo/config.toml does not apply: only the doc's does.
    let dir = std::env::temp_dir().join(format!("phobos-embedder-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("src")).expect("a crate directory");
    std::fs::create_dir_all(dir.join(".cargo")).expect("its .cargo");
    let deps = blocks[0].replace("../phobos/phobos", &root.join("phobos").display().to_string());
    let manifest = format!("[package]\nname = \"embedder\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n\n{deps}");
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("Cargo.toml");
    std::fs::write(dir.join(".cargo/config.toml"), blocks[1]).expect("config.toml");
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).expect("the lock file");
    std::fs::copy(root.join("rust-toolchain.toml"), dir.join("rust-toolchain.toml")).expect("the toolchain");
    std::fs::copy(root.join("examples/lane_sum.mlir"), dir.join("src/lane_sum.mlir")).expect("the kernel");
    std::fs::write(dir.join("src/main.rs"), MAIN).expect("main.rs");
    let out = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["run", "--offline", "--quiet"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", root.join("target/embedder-target"))
        // Disk, not behaviour: no debug info and no incremental cache (2 GB less on CI's disk).
        .env("CARGO_PROFILE_DEV_DEBUG", "0")
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("PHOBOS_BUILD_ID")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let _ = std::fs::remove_dir_all(&dir);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the embedder did not build or run:\n{stderr}");
    // Each warp's sum (32 w·32 + 496), the same in every lane after the 8-lane max.
    assert_eq!(stdout.trim(), "embedder: sum32 496 3568", "{stderr}");
}
