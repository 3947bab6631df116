//! Compile latency of `lanes_matvec` to PTX, whole processes on one machine in one run:
//! Phobos cold (`--no-cache`: a real compile) next to Triton's cold compile in a fresh process
//! with a fresh cache (`../shared/anchors/triton_compile.py --once`), alternating, pair by pair;
//! Phobos's kernel-cache hit, labelled as such; Phobos's warm compile in process (the library
//! API, repeated); and `phobos.compile` in Python, cold and served by the cache.
//!
//!   cargo bench -p phobos-bench --bench compile [-- --runs N]

use phobos_bench::*;
use std::process::Command;

fn main() {
    let runs: usize = std::env::args().skip_while(|a| a != "--runs").nth(1).and_then(|n| n.parse().ok()).unwrap_or(9);
    let phobos = phobos_release();
    let src = root().join("examples/lanes_matvec.phobos");
    let out = std::env::temp_dir().join(format!("phobos-bench-{}.ptx", std::process::id()));
    let cache = std::env::temp_dir().join(format!("phobos-bench-cache-{}", std::process::id()));
    let compile = |cached: bool| {
        let mut c = Command::new(&phobos);
        c.arg("compile").arg(&src).arg("--emit=ptx").arg("-o").arg(&out).env("PHOBOS_CACHE_DIR", &cache);
        if !cached {
            c.arg("--no-cache");
        }
        c
    };
    let triton = triton_python();
    let triton_once = |(py, anchors): &(std::path::PathBuf, std::path::PathBuf)| {
        let mut c = Command::new(py);
        c.arg(anchors.join("triton_compile.py")).arg("--once");
        c
    };
    // One discarded run of each (page cache, Triton's .pyc files), then alternating pairs.
    time_once(&mut compile(false));
    if let Some(t) = &triton {
        time_once(&mut triton_once(t));
    }
    let (mut cold, mut tri, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        let p = time_once(&mut compile(false));
        cold.push(p);
        if let Some(t) = &triton {
            let w = time_once(&mut triton_once(t));
            tri.push(w);
            ratios.push(w / p);
        }
    }
    // Cache hits: the first compile fills the cache, each later one reads it.
    time_once(&mut compile(true));
    let hits: Vec<f64> = (0..runs).map(|_| time_once(&mut compile(true))).collect();
    // Warm and in process: the library API compiles the same source repeatedly.
    let warm = run(compile(false).arg("--repeat").arg("30"));
    let warm_ms =
        warm.lines().find_map(|l| l.strip_prefix("repeat_median_ms: ")).and_then(|v| v.trim().parse::<f64>().ok()).unwrap_or(f64::NAN);
    // Where the time goes: --time-passes, whose phases must add up to its total (from main)
    // within 10%; the process's wall time next to it (the difference: loading before main, whose
    // CPU time --time-passes prints last, and exiting).
    let mut timed = compile(false);
    timed.arg("--time-passes");
    let t0 = std::time::Instant::now();
    let phases = run(&mut timed);
    let wall_ms = t0.elapsed().as_secs_f64() * 1e3;
    let top: Vec<(String, f64)> = phases
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("    "))
        .filter_map(|l| Some((l.split_whitespace().next()?.to_string(), l.split_whitespace().last()?.parse().ok()?)))
        .collect();
    let total_ms = top.iter().find(|(n, _)| n == "total").map(|(_, v)| *v).unwrap_or(f64::NAN);
    let sum_ms: f64 = top.iter().filter(|(n, _)| n != "total").map(|(_, v)| v).sum();
    let before_main_ms =
        phases.lines().find_map(|l| l.strip_prefix("before main (CPU ms):")).and_then(|v| v.trim().parse::<f64>().ok()).unwrap_or(f64::NAN);
    assert!((sum_ms - total_ms).abs() <= 0.1 * total_ms, "--time-passes phases add up to {sum_ms:.3} ms of {total_ms:.3} ms");
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_dir_all(&cache);
    let mut report = serde_json::json!({
        "bench": "compile", "kernel": "lanes_matvec", "target": "sm_90 ptx", "machine": machine(), "runs": runs,
        "phobos_cold_process_s": summary(&cold),
        "phobos_cache_hit_process_s": summary(&hits),
        "phobos_warm_in_process_ms": warm_ms,
        "time_passes_ms": top.iter().map(|(n, v)| (n.clone(), serde_json::json!(v))).collect::<serde_json::Map<_, _>>(),
        "time_passes_phases_sum_ms": (sum_ms * 1e3).round() / 1e3,
        "time_passes_process_wall_ms": (wall_ms * 1e3).round() / 1e3,
        "time_passes_before_main_cpu_ms": before_main_ms,
    });
    if let Some((cold_ms, hit_ms)) = python_compiles(&src, runs) {
        report["python_compile_cold_ms"] = summary(&cold_ms);
        report["python_compile_cache_hit_ms"] = summary(&hit_ms);
    }
    if !tri.is_empty() {
        report["triton_cold_process_s"] = summary(&tri);
        report["ratio_triton_over_phobos_by_pair"] = summary(&ratios);
    }
    println!("{report}");
}

/// `phobos.compile` of `src` in new Python processes (the package built by
/// `scripts/test-python.sh`, when it is there), timed inside each: with an empty cache, then
/// served by the disk cache. Milliseconds.
fn python_compiles(src: &std::path::Path, runs: usize) -> Option<(Vec<f64>, Vec<f64>)> {
    let python = root().join("target/py-venv/bin/python");
    if !python.exists() {
        return None;
    }
    let script = "import sys, time, phobos\nt = time.perf_counter()\nphobos.compile(sys.argv[1])\nprint((time.perf_counter() - t) * 1e3)";
    let (mut cold, mut hit) = (Vec::new(), Vec::new());
    for i in 0..runs {
        let cache = std::env::temp_dir().join(format!("phobos-bench-py-cache-{}-{i}", std::process::id()));
        let once = || run(Command::new(&python).arg("-c").arg(script).arg(src).env("PHOBOS_CACHE_DIR", &cache)).trim().parse::<f64>().ok();
        cold.push(once()?);
        hit.push(once()?);
        let _ = std::fs::remove_dir_all(&cache);
    }
    Some((cold, hit))
}
