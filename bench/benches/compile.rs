//! Compile latency of `lanes_matvec` to PTX: Phobos's whole process, cold, next to Triton's
//! whole-process cold compile (`../shared/anchors/triton_compile.py`), in one run on one machine;
//! and Phobos's warm compile through the library API (in process, repeated).
//!
//!   cargo bench -p phobos-bench --bench compile [-- --runs N]

use phobos_bench::*;
use std::process::Command;

fn main() {
    let runs: usize = std::env::args().skip_while(|a| a != "--runs").nth(1).and_then(|n| n.parse().ok()).unwrap_or(7);
    let phobos = phobos_release();
    let src = root().join("examples/lanes_matvec.phobos");
    let out = std::env::temp_dir().join(format!("phobos-bench-{}.ptx", std::process::id()));
    let compile = || {
        let mut c = Command::new(&phobos);
        c.arg("compile").arg(&src).arg("--emit=ptx").arg("-o").arg(&out);
        c
    };
    // Phobos: one discarded run (page cache), then `runs` fresh processes.
    time_once(&mut compile());
    let cold: Vec<f64> = (0..runs).map(|_| time_once(&mut compile())).collect();
    let (pmin, pmed, pmax) = stats(&cold);
    // Phobos, warm and in process: the library API compiles the same source repeatedly.
    let warm = run(Command::new(&phobos).arg("compile").arg(&src).arg("--emit=ptx").arg("-o").arg(&out).arg("--repeat").arg("30"));
    let warm_ms =
        warm.lines().find_map(|l| l.strip_prefix("repeat_median_ms: ")).and_then(|v| v.trim().parse::<f64>().ok()).unwrap_or(f64::NAN);
    let _ = std::fs::remove_file(&out);
    let mut report = serde_json::json!({
        "bench": "compile", "kernel": "lanes_matvec", "target": "sm_90 ptx", "machine": machine(), "runs": runs,
        "phobos_process_wall_s": {"min": pmin, "median": pmed, "max": pmax},
        "phobos_warm_in_process_ms": warm_ms,
    });
    if let Some((py, anchors)) = triton_python() {
        let o = run(Command::new(&py).arg(anchors.join("triton_compile.py")).arg("--runs").arg(runs.to_string()));
        let t = last_json(&o);
        let tmed = t["process_wall_s"]["median"].as_f64().unwrap_or(f64::NAN);
        report["triton"] = t;
        report["ratio_triton_over_phobos_process"] = serde_json::json!((tmed / pmed * 10.0).round() / 10.0);
    }
    println!("{report}");
}
