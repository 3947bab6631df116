//! Shared pieces of the benchmarks: building the release binaries, timing processes, running
//! the Triton anchors of `../shared/anchors`, and printing one JSON line per result.
//!
//! The benchmarks spawn processes (the `phobos` CLI, Triton's Python scripts) and link no MLIR,
//! so they cost no long link.

use std::{
    path::{Path, PathBuf},
    process::Command,
    time::Instant,
};

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// Builds the release `phobos` binary and installs a copy of it, as `cargo install` or a
/// package would, returning the copy's path: `target/bench/phobos`.
///
/// Timing the linker's own output would measure how lld wrote it, not Phobos: lld writes its
/// output through a shared mapping, and the page cache keeps such a file in small folios, which
/// cost every later process about 2 ms more in page faults (18.2 against 20.5 ms a compile of
/// `lanes_matvec`, 60 alternating runs on 2 cores) than the large folios a copy is written in.
pub fn phobos_release() -> PathBuf {
    let st = Command::new(env!("CARGO"))
        .current_dir(root())
        .args(["build", "--release", "--quiet", "--bin", "phobos"])
        .status()
        .expect("cargo runs");
    assert!(st.success(), "cargo build --release --bin phobos failed");
    let dir = root().join("target/bench");
    std::fs::create_dir_all(&dir).expect("target/bench");
    let installed = dir.join("phobos");
    // A new file each time (not overwritten in place): a fresh copy of the bytes.
    let tmp = dir.join(format!("phobos.{}", std::process::id()));
    std::fs::copy(root().join("target/release/phobos"), &tmp).expect("copy the release binary");
    std::fs::rename(&tmp, &installed).expect("install the copy");
    installed
}

/// Runs a command to completion; panics with its stderr on failure.
pub fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    if !out.status.success() {
        panic!("{cmd:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    }
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// Wall time of one command, in seconds.
pub fn time_once(cmd: &mut Command) -> f64 {
    let t = Instant::now();
    run(cmd);
    t.elapsed().as_secs_f64()
}

/// min / median / max of samples.
pub fn stats(xs: &[f64]) -> (f64, f64, f64) {
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    (v[0], v[v.len() / 2], v[v.len() - 1])
}

/// `{"min", "median", "max"}` of samples, rounded to 4 significant decimals.
pub fn summary(xs: &[f64]) -> serde_json::Value {
    let (mn, med, mx) = stats(xs);
    let r = |v: f64| (v * 1e4).round() / 1e4;
    serde_json::json!({"min": r(mn), "median": r(med), "max": r(mx)})
}

/// The Triton anchors' Python, set up by `../shared/anchors/setup.sh` (network on first use).
/// None when the anchors are not next to the workspace or the setup fails.
pub fn triton_python() -> Option<(PathBuf, PathBuf)> {
    let anchors = root().join("../shared/anchors");
    if !anchors.join("setup.sh").is_file() {
        eprintln!("bench: no ../shared/anchors; Triton is not measured");
        return None;
    }
    let venv = std::env::var("PHOBOS_ANCHOR_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(std::env::var("HOME").unwrap_or_else(|_| "/root".into())).join(".cache/phobos-anchors/venv"));
    let ok = Command::new("bash")
        .arg(anchors.join("setup.sh"))
        .env("PHOBOS_ANCHOR_VENV", &venv)
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        eprintln!("bench: ../shared/anchors/setup.sh failed (no network?); Triton is not measured");
        return None;
    }
    Some((venv.join("bin/python"), anchors))
}

/// The last line of a command's stdout as JSON.
pub fn last_json(out: &str) -> serde_json::Value {
    let line = out.lines().rev().find(|l| l.trim_start().starts_with('{')).unwrap_or_else(|| panic!("no JSON line in:\n{out}"));
    serde_json::from_str(line).expect("the anchor prints JSON")
}

/// The machine, for the report: CPU model and core count.
pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| t.lines().find(|l| l.starts_with("model name")).map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string()))
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    format!("{cpu}, {cores} cores")
}
