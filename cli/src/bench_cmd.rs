//! `phobos bench`: each example kernel and tutorial at a size that fills the GPU, timed by CUDA
//! events (median of `reps` after 5 warm-up launches), checked against its CPU reference and
//! compared with a device-to-device copy of the same bytes in the same run; then the in-place
//! rotate from 1 MiB to 4 GiB. Each row runs in a process of its own (killed after
//! `--case-timeout`), so that a fault or a hang in one row cannot poison the rows after it.

use crate::selftest::{compare, load, output, run, BENCH};
use crate::session::Session;
use phobos_runtime::{cuda::Gpu, Device};
use std::path::PathBuf;

/// `phobos bench`'s flags.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Timed launches per kernel (after 5 warm-up launches).
    #[arg(long, default_value = "20")]
    reps: usize,
    /// Also append the table to this file.
    #[arg(long, value_name = "FILE")]
    summary: Option<PathBuf>,
    /// Seconds a row may take before its process is killed and the row fails.
    #[arg(long, value_name = "SECONDS", default_value = "120", value_parser = crate::isolate::parse_limit)]
    case_timeout: std::time::Duration,
    /// Run only row N (from 0, in the table's order) in this process; what each row's process
    /// runs.
    #[arg(long, value_name = "N")]
    case: Option<usize>,
}

/// The rotate rows: sizes in MiB, each at a small and a large distance.
const ROTATE_MIB: [usize; 4] = [1, 64, 1024, 4096];

/// The number of rows: the kernels, then two rotate rows per size.
fn rows() -> usize {
    BENCH.len() + 2 * ROTATE_MIB.len()
}

const ROTATE_HEADER: [&str; 3] = [
    "",
    "| rotate | bytes | distance | kernels | median ms | GB/s rotated | copy ms | fraction of copy | check |",
    "|---|---|---|---|---|---|---|---|---|",
];

/// Runs the benchmark; exit 0 when every row ran and was right.
pub fn bench(a: &BenchArgs) -> i32 {
    let reps = a.reps.max(1);
    if let Some(n) = a.case.filter(|n| *n >= rows()) {
        errln!("phobos: error: --case {n}: the benchmark has rows 0 to {}", rows() - 1);
        return 1;
    }
    let gpu = match Gpu::open() {
        Ok(g) => g,
        Err(e) => {
            errln!("phobos: error: phobos bench needs a GPU: {e}");
            return 1;
        }
    };
    if let Some(i) = a.case {
        // One row, in this process: its line only.
        let (line, ok) = row(&gpu, i, reps);
        outln!("{line}");
        return if ok { 0 } else { 1 };
    }
    let mut lines = vec![
        format!(
            "phobos bench on {} ({}); median of {reps} after 5 warm-up launches; each row in its own process ({} s limit)",
            gpu.name,
            gpu.chip,
            a.case_timeout.as_secs_f64()
        ),
        "| kernel | size | median ms | GB/s | copy GB/s | fraction of copy | check |".into(),
        "|---|---|---|---|---|---|---|".into(),
    ];
    for l in &lines {
        outln!("{l}");
    }
    let peak = gpu.peak_bandwidth();
    drop(gpu);
    let mut code = 0;
    for i in 0..rows() {
        if i == BENCH.len() {
            for l in ROTATE_HEADER {
                outln!("{l}");
                lines.push(l.into());
            }
        }
        let args = ["bench".to_string(), "--case".into(), i.to_string(), "--reps".into(), reps.to_string()];
        let child = crate::isolate::run(&args, a.case_timeout);
        let mut printed: Vec<String> = child.lines.into_iter().filter(|l| l.starts_with('|')).collect();
        if let Some(why) = child.trouble {
            printed.push(format!("| {} | | | | | | FAILED: {why} |", row_name(i)));
        }
        if printed.is_empty() || printed.iter().any(|l| l.contains("FAILED") || l.contains("WRONG")) {
            code = 1;
        }
        for l in printed {
            outln!("{l}");
            lines.push(l);
        }
    }
    if let Some(bw) = peak {
        lines.push(format!("data-sheet peak bandwidth: {:.0} GB/s", bw / 1e9));
        outln!("{}", lines.last().expect("just pushed"));
    }
    if let Some(p) = &a.summary {
        let mut text = std::fs::read_to_string(p).unwrap_or_default();
        text.push_str(&(lines.join("\n") + "\n"));
        if let Err(e) = std::fs::write(p, text) {
            errln!("phobos: error: {}: {e}", p.display());
            return 1;
        }
    }
    code
}

/// What row `i` measures, for a row whose process gave no line.
fn row_name(i: usize) -> String {
    if i < BENCH.len() {
        BENCH[i].0.to_string()
    } else {
        let (n, by) = rotate_size(i - BENCH.len());
        format!("rotate {n} bytes by {by}")
    }
}

/// The bytes and distance of rotate row `j`: small distances (the single pass, 2 bytes
/// of traffic per byte) and large (reversals, 4).
fn rotate_size(j: usize) -> (usize, u64) {
    let n = ROTATE_MIB[j / 2] << 20;
    // From 2 GiB the byte indices pass i32: the passes move 8-byte items, so the distances are
    // multiples of 8 there (4096 + 8: still not a multiple of a tile).
    let (small, large) = if n >= 2 << 30 { (4104u64, n as u64 / 2 + 8) } else { (4099, n as u64 / 2 + 1) };
    (n, if j.is_multiple_of(2) { small } else { large })
}

/// Row `i`'s line, and whether it ran and was right.
fn row(gpu: &Gpu, i: usize, reps: usize) -> (String, bool) {
    if i >= BENCH.len() {
        let (n, by) = rotate_size(i - BENCH.len());
        return match rotate_row(gpu, n, by, reps) {
            Ok(line) => {
                let ok = !line.contains("WRONG");
                (line, ok)
            }
            // A GPU too small for a size skips it; any other failure fails the bench.
            Err(e) if e.contains("out of GPU memory") => (format!("| rotate | {n} | {by} | | | | | | skipped: {e} |"), true),
            Err(e) => (format!("| rotate | {n} | {by} | | | | | | FAILED: {e} |"), false),
        };
    }
    let c = (BENCH[i].1)();
    let session = match Session::new(true) {
        Ok(s) => s,
        Err(e) => return (format!("| {} | | | | | | FAILED: {e} |", c.name), false),
    };
    let measured = (|| -> Result<String, String> {
        let (module, sig) = load(&session, &c, &gpu.chip)?;
        let (outs, times) = run(&session, (&module, &sig), &c, &Device::Cuda(gpu.clone()), &gpu.chip, Some((5, reps)))?;
        let check = match compare(&output(&outs, c.output), &c.reference, &c.tolerance) {
            Ok(d) => format!("ok (max error {d:.1e})"),
            Err(e) => format!("WRONG: {e}"),
        };
        let med = median(times);
        let copy = median(gpu.copy_time(c.bytes, reps).map_err(|e| e.to_string())?);
        let gbs = c.bytes as f64 / (med as f64 * 1e6);
        // A copy reads and writes each byte: its DRAM traffic is twice the bytes.
        let copy_gbs = 2.0 * c.bytes as f64 / (copy as f64 * 1e6);
        let size = c.arrays.iter().map(|(n, (a, _))| format!("{n}{:?}", a.shape)).collect::<Vec<_>>().join(" ");
        // A matmul is measured in GFLOP/s, next to its bytes.
        let check = if c.flops > 0 { format!("{:.0} GFLOP/s; {check}", c.flops as f64 / (med as f64 * 1e6)) } else { check };
        Ok(format!("| {} | {size} | {med:.4} | {gbs:.0} | {copy_gbs:.0} | {:.2} | {check} |", c.name, gbs / copy_gbs))
    })();
    match measured {
        Ok(line) => {
            let ok = !line.contains("WRONG");
            (line, ok)
        }
        Err(e) => (format!("| {} | | | | | | FAILED: {e} |", c.name), false),
    }
}

/// One row of the rotate table: `n` random bytes rotated left by `by` on the GPU, `reps` timed
/// rotations after 2 untimed ones, checked against the host's rotation by the total distance.
fn rotate_row(gpu: &Gpu, n: usize, by: u64, reps: usize) -> Result<String, String> {
    let device = Device::Cuda(gpu.clone());
    let host: Vec<u8> = (0..n as u64).map(|i| (i.wrapping_mul(0x9e37_79b9) >> 13) as u8).collect();
    let buf = device.upload(&host).map_err(|e| e.to_string())?;
    crate::rotate::time_device(&device, &buf, by, 2).map_err(|e| e.to_string())?;
    let timed = crate::rotate::time_device(&device, &buf, by, reps).map_err(|e| e.to_string())?;
    let got = buf.read().map_err(|e| e.to_string())?;
    // The copy's two buffers and the rotated one need not all fit the GPU at once.
    drop(buf);
    let total = (by % n as u64) as u128 * (reps as u128 + 2) % n as u128;
    let mut want = host;
    want.rotate_left(total as usize);
    let check = if got == want {
        "ok".to_string()
    } else {
        format!("WRONG at byte {}", got.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(0))
    };
    let med = median(timed.times);
    let copy = median(gpu.copy_time(n, reps).map_err(|e| e.to_string())?);
    let gbs = n as f64 / (med as f64 * 1e6);
    let kernels = timed.kernels.join(" + ");
    Ok(format!("| rotate | {n} | {by} | {kernels} | {med:.4} | {gbs:.0} | {copy:.4} | {:.2} | {check} |", copy / med))
}

fn median(mut v: Vec<f32>) -> f32 {
    v.sort_by(|a, b| a.partial_cmp(b).expect("no NaN times"));
    v.get(v.len() / 2).copied().unwrap_or(f32::NAN)
}
