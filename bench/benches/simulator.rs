//! The simulator on `lanes_matvec` at N = K = 1024 (256 CTAs of 128 threads): the time of the
//! launch and simulated thread-instructions per second, next to Triton's CPU interpreter on the
//! same kernel, sizes and grid (`../shared/anchors/triton_interpret.py`, one timed call a
//! process), alternating, pair by pair, in the same run. Both exclude process start and file I/O:
//! Phobos reports the launch alone (`phobos run --stats`).
//!
//! Then a 512 x 512 x 512 f16 GEMM on tensor cores (`examples/tutorials/gemm.phobos`'s
//! `gemm_f16`, 128 x 128 x 32 tiles, sanitizer on, default `--sim-threads`) next to Triton's
//! tutorial matmul with the same tiles under the interpreter (`bench/anchors/
//! triton_matmul_interpret.py`, whose `tl.dot` NumPy computes): a second JSON line.
//!
//!   cargo bench -p phobos-bench --bench simulator [-- --reps N]

use phobos_bench::*;
use std::process::Command;

fn npy_f32(path: &std::path::Path, shape: &[usize], vals: impl Iterator<Item = f32>) {
    let dims = shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
    let comma = if shape.len() == 1 { "," } else { "" };
    let mut header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({dims}{comma}), }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend((header.len() as u16).to_le_bytes());
    bytes.extend(header.as_bytes());
    for v in vals {
        bytes.extend(v.to_le_bytes());
    }
    std::fs::write(path, bytes).expect("writes the input");
}

/// An f16 `.npy` of values exact in f16 (multiples of 1/4 in [-2, 2]).
fn npy_f16(path: &std::path::Path, shape: &[usize], vals: impl Iterator<Item = f32>) {
    let dims = shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
    let mut header = format!("{{'descr': '<f2', 'fortran_order': False, 'shape': ({dims}), }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend((header.len() as u16).to_le_bytes());
    bytes.extend(header.as_bytes());
    for v in vals {
        let v = (v * 4.0).round() / 4.0;
        let b = v.to_bits();
        let half: u16 =
            if v == 0.0 { 0 } else { (((b >> 16) & 0x8000) | ((((b >> 23) & 0xFF) - 127 + 15) << 10) | ((b >> 13) & 0x3FF)) as u16 };
        bytes.extend(half.to_le_bytes());
    }
    std::fs::write(path, bytes).expect("writes the input");
}

/// The GEMM row: Phobos's `gemm_f16` on the simulator and Triton's matmul in its interpreter,
/// pair by pair.
fn gemm(reps: usize, rnd: &mut impl FnMut() -> f32) -> serde_json::Value {
    let n = 512usize;
    let phobos = phobos_release();
    let dir = std::env::temp_dir().join(format!("phobos-gemmbench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    npy_f16(&dir.join("A.npy"), &[n, n], (0..n * n).map(|_| 2.0 * rnd()));
    npy_f16(&dir.join("B.npy"), &[n, n], (0..n * n).map(|_| 2.0 * rnd()));
    npy_f16(&dir.join("C.npy"), &[n, n], (0..n * n).map(|_| 0.0));
    let launch = || {
        let mut c = Command::new(&phobos);
        c.arg("run").arg(root().join("examples/tutorials/gemm.phobos"));
        c.args(["--kernel", "gemm_f16", "--grid", &format!("{},{}", n / 128, n / 128), "--backend", "sim", "--stats"]);
        for t in ["A", "B", "C"] {
            c.arg("--arg").arg(format!("{t}={}", dir.join(format!("{t}.npy")).display()));
        }
        c.arg("--out").arg(dir.join("out"));
        c
    };
    let parse =
        |o: &str, key: &str| o.lines().find_map(|l| l.strip_prefix(key)).and_then(|v| v.trim().parse::<f64>().ok()).unwrap_or(f64::NAN);
    run(&mut launch()); // discarded warm-up
    let triton = triton_python();
    let (mut ms, mut tri, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let mut mma = 0.0;
    for _ in 0..reps {
        let o = run(&mut launch());
        let p = parse(&o, "sim_ms: ") / 1e3;
        mma = parse(&o, "mma: ");
        ms.push(p);
        if let Some((py, _)) = &triton {
            let mut c = Command::new(py);
            c.arg(root().join("bench/anchors/triton_matmul_interpret.py")).args(["--reps", "1"]);
            let call = last_json(&run(&mut c))["call_s"]["median"].as_f64().unwrap_or(f64::NAN);
            tri.push(call);
            ratios.push(call / p);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let mut report = serde_json::json!({
        "bench": "simulator", "kernel": "gemm_f16", "m": n, "n": n, "k": n, "tiles": "128x128x32", "machine": machine(),
        "reps": reps, "phobos_launch_s": summary(&ms), "mma": mma,
    });
    if !tri.is_empty() {
        report["triton_interpreter_call_s"] = summary(&tri);
        report["ratio_triton_over_phobos_by_pair"] = summary(&ratios);
    }
    report
}

fn main() {
    let reps: usize = std::env::args().skip_while(|a| a != "--reps").nth(1).and_then(|n| n.parse().ok()).unwrap_or(5);
    let (n, k) = (1024usize, 1024usize);
    let phobos = phobos_release();
    let dir = std::env::temp_dir().join(format!("phobos-simbench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut s: u64 = 0x2545F4914F6CDD1D;
    let mut rnd = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        ((s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0) as f32
    };
    npy_f32(&dir.join("W.npy"), &[n, k], (0..n * k).map(|_| rnd()));
    npy_f32(&dir.join("x.npy"), &[1, k], (0..k).map(|_| rnd()));
    npy_f32(&dir.join("y.npy"), &[1, n], (0..n).map(|_| f32::NAN));
    let launch = || {
        let mut c = Command::new(&phobos);
        c.arg("run").arg(root().join("examples/lanes_matvec.phobos")).args(["--grid", &(n / 4).to_string(), "--backend", "sim", "--stats"]);
        for t in ["W", "x", "y"] {
            c.arg("--arg").arg(format!("{t}={}", dir.join(format!("{t}.npy")).display()));
        }
        c.arg("--out").arg(dir.join("out"));
        c
    };
    let parse =
        |o: &str, key: &str| o.lines().find_map(|l| l.strip_prefix(key)).and_then(|v| v.trim().parse::<f64>().ok()).unwrap_or(f64::NAN);
    run(&mut launch()); // discarded warm-up
    let triton = triton_python();
    let interpret = |(py, anchors): &(std::path::PathBuf, std::path::PathBuf)| {
        let mut c = Command::new(py);
        c.arg(anchors.join("triton_interpret.py")).args(["--n", &n.to_string(), "--k", &k.to_string(), "--reps", "1"]);
        c
    };
    let (mut ms, mut tri, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let mut insts = 0.0;
    for _ in 0..reps {
        let o = run(&mut launch());
        let p = parse(&o, "sim_ms: ") / 1e3;
        ms.push(p);
        insts = parse(&o, "thread_instructions: ");
        if let Some(t) = &triton {
            let call = last_json(&run(&mut interpret(t)))["call_s"]["median"].as_f64().unwrap_or(f64::NAN);
            tri.push(call);
            ratios.push(call / p);
        }
    }
    let (_, med, _) = stats(&ms);
    let mut report = serde_json::json!({
        "bench": "simulator", "kernel": "lanes_matvec", "n": n, "k": k, "grid": n / 4, "machine": machine(), "reps": reps,
        "phobos_launch_s": summary(&ms),
        "thread_instructions": insts,
        "thread_instructions_per_s": insts / med,
    });
    if !tri.is_empty() {
        report["triton_interpreter_call_s"] = summary(&tri);
        report["ratio_triton_over_phobos_by_pair"] = summary(&ratios);
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("{report}");
    println!("{}", gemm(reps, &mut rnd));
}
