//! `phobos selftest [--gpu]` and `phobos bench`: the seed kernels (compiled into the binary) on
//! random data, checked against CPU references computed here. The self-test runs each on the
//! simulator, and with `--gpu` on the GPU too (compared with both the reference and the
//! simulator); the benchmark times them on the GPU with CUDA events against a device-to-device
//! copy of the same bytes. Made for a GPU machine with no Rust, LLVM or network
//! (`scripts/gpu-check.sh` carries the binary there).

use crate::{
    npy::{Array, Dtype},
    session::Session,
};
use phobos_compiler::front_door::{self, RunError};
use phobos_runtime::{cuda::Gpu, Device, LaunchOptions};
use std::{collections::BTreeMap, path::PathBuf};

#[path = "selftest_tutorials.rs"]
mod tutorials;

/// One seed kernel on one input.
struct Case {
    name: &'static str,
    file: &'static str,
    source: &'static str,
    /// The kernel, when the file has several.
    kernel: Option<&'static str>,
    grid: [u32; 3],
    arrays: BTreeMap<String, (Array, PathBuf)>,
    /// The output tensor and its reference values.
    output: &'static str,
    reference: Vec<f64>,
    /// Absolute tolerance per element.
    tolerance: Vec<f64>,
    /// Bytes the kernel must move (its inputs and outputs once).
    bytes: usize,
    /// Floating-point operations (a matmul's 2 M N K; 0 for a memory-bound kernel).
    flops: usize,
}

/// A deterministic generator (xorshift64*), for test data and the fuzzing harness.
pub struct Rng(u64);
impl Rng {
    /// A generator from a nonzero seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// An integer in [0, n) (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    /// A float in [-1, 1), exactly representable in f32.
    fn f32(&mut self) -> f32 {
        ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
    fn i8(&mut self) -> i8 {
        (self.next_u64() >> 56) as i8
    }
}

fn f32_array(shape: &[u64], v: &[f32]) -> Array {
    Array { dtype: Dtype::F32, shape: shape.to_vec(), data: v.iter().flat_map(|x| x.to_le_bytes()).collect() }
}

fn f32_values(a: &Array) -> Vec<f64> {
    a.data.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")) as f64).collect()
}

fn arrays(list: Vec<(&str, Array)>) -> BTreeMap<String, (Array, PathBuf)> {
    list.into_iter().map(|(n, a)| (n.to_string(), (a, PathBuf::from(format!("{n}.npy"))))).collect()
}

/// y = W x for the f32 matvec kernels (4 rows per 128-thread CTA).
fn matvec(name: &'static str, file: &'static str, source: &'static str, n: usize, k: usize, seed: u64) -> Case {
    let mut rng = Rng(seed | 1);
    let w: Vec<f32> = (0..n * k).map(|_| rng.f32()).collect();
    let x: Vec<f32> = (0..k).map(|_| rng.f32()).collect();
    let reference: Vec<f64> = (0..n).map(|r| (0..k).map(|j| w[r * k + j] as f64 * x[j] as f64).sum()).collect();
    let tolerance = reference.iter().map(|_| 2e-6 * k as f64).collect();
    Case {
        name,
        file,
        source,
        kernel: None,
        grid: [n.div_ceil(4) as u32, 1, 1],
        arrays: arrays(vec![
            ("W", f32_array(&[n as u64, k as u64], &w)),
            ("x", f32_array(&[1, k as u64], &x)),
            ("y", f32_array(&[1, n as u64], &vec![f32::NAN; n])),
        ]),
        output: "y",
        reference,
        tolerance,
        bytes: (n * k + k + n) * 4,
        flops: 2 * n * k,
    }
}

/// C = A Wᵀ in int8 with f32 output (8 rows per 256-thread CTA); exact.
fn i8_matvec(n: usize, k: usize, seed: u64) -> Case {
    let mut rng = Rng(seed | 1);
    let a: Vec<i8> = (0..k).map(|_| rng.i8()).collect();
    let w: Vec<i8> = (0..n * k).map(|_| rng.i8()).collect();
    let reference: Vec<f64> = (0..n).map(|r| (0..k).map(|j| a[j] as i64 * w[r * k + j] as i64).sum::<i64>() as f64).collect();
    let i8_array = |shape: &[u64], v: &[i8]| Array { dtype: Dtype::I8, shape: shape.to_vec(), data: v.iter().map(|b| *b as u8).collect() };
    Case {
        name: "i8_matvec",
        file: "i8_matvec.phobos",
        source: include_str!("../../examples/i8_matvec.phobos"),
        kernel: None,
        grid: [n.div_ceil(8) as u32, 1, 1],
        arrays: arrays(vec![
            ("A", i8_array(&[1, k as u64], &a)),
            ("W", i8_array(&[n as u64, k as u64], &w)),
            ("C", f32_array(&[1, n as u64], &vec![f32::NAN; n])),
        ]),
        output: "C",
        reference,
        tolerance: vec![0.0; n],
        bytes: n * k + k + n * 4,
        flops: 2 * n * k,
    }
}

fn lanes_matvec(n: usize, k: usize) -> Case {
    matvec("lanes_matvec", "lanes_matvec.phobos", include_str!("../../examples/lanes_matvec.phobos"), n, k, 11)
}

fn staged_matvec(n: usize) -> Case {
    matvec("staged_matvec", "staged_matvec.phobos", include_str!("../../examples/staged_matvec.phobos"), n, 256, 12)
}

/// The cases the self-test runs (sizes the simulator finishes in well under a second each).
fn small_cases() -> Vec<Case> {
    let mut rng = Rng(13);
    let a: Vec<f32> = (0..128).map(|_| rng.f32()).collect();
    let max32 = a[..32].iter().fold(f32::NEG_INFINITY, |m, v| m.max(*v)) as f64;
    let t = 1024;
    let xs: Vec<f32> = (0..t).map(|_| rng.f32()).collect();
    let sums: Vec<f64> = (0..t).map(|i| xs[i / 32 * 32..i / 32 * 32 + 32].iter().map(|v| *v as f64).sum()).collect();
    vec![
        lanes_matvec(1000, 512),
        lanes_matvec(7, 128),
        staged_matvec(1000),
        i8_matvec(500, 1024, 14),
        Case {
            name: "lane_max",
            file: "lane_max.phobos",
            source: include_str!("../../examples/lane_max.phobos"),
            kernel: None,
            grid: [1, 1, 1],
            arrays: arrays(vec![("A", f32_array(&[1, 128], &a)), ("O", f32_array(&[1, 1], &[f32::NAN]))]),
            output: "O",
            reference: vec![max32],
            tolerance: vec![0.0],
            bytes: 129 * 4,
            flops: 0,
        },
        Case {
            name: "butterfly",
            file: "butterfly.phobos",
            source: include_str!("../../examples/butterfly.phobos"),
            kernel: None,
            grid: [(t / 128) as u32, 1, 1],
            arrays: arrays(vec![("X", f32_array(&[t as u64], &xs)), ("S", f32_array(&[t as u64], &vec![f32::NAN; t]))]),
            output: "S",
            tolerance: vec![1e-5; t],
            reference: sums,
            bytes: 2 * t * 4,
            flops: 0,
        },
        tutorials::vector_add(5000),
        tutorials::softmax(37, 1000),
        tutorials::layer_norm(9, 1025),
        tutorials::gelu(5000),
        tutorials::matmul(97, 131, 67),
    ]
}

/// The largest |got - want| - tolerance, or the first element outside its tolerance.
fn compare(got: &[f64], want: &[f64], tol: &[f64]) -> Result<f64, String> {
    if got.len() != want.len() {
        return Err(format!("{} values, expected {}", got.len(), want.len()));
    }
    let mut worst = 0.0f64;
    for (i, ((g, w), t)) in got.iter().zip(want).zip(tol).enumerate() {
        let d = (g - w).abs();
        // NaN (an output never written) fails too.
        if d.is_nan() || d > *t {
            return Err(format!("element {i} is {g}, expected {w} (tolerance {t})"));
        }
        worst = worst.max(d);
    }
    Ok(worst)
}

fn output(outs: &[(String, Array)], name: &str) -> Vec<f64> {
    outs.iter().find(|(n, _)| n == name).map(|(_, a)| f32_values(a)).unwrap_or_default()
}

fn describe(e: RunError) -> String {
    match e {
        RunError::Usage(m) | RunError::Located(m) | RunError::Fault(m) => m,
        RunError::Compile { diagnostics, failure } => {
            format!("the kernel did not compile: {}{}", diagnostics.trim_end(), failure.map(|f| format!(" ({f})")).unwrap_or_default())
        }
    }
}

/// Compiles a case's kernel to the SIMT level.
fn load<'s>(
    session: &'s Session,
    c: &Case,
    chip: &str,
) -> Result<(phobos_compiler::session::OwnedModule<'s>, phobos_runtime::bind::Signature), String> {
    front_door::load_text(session, c.file, c.source, c.kernel, chip, &Default::default()).map(|l| (l.module, l.sig)).map_err(describe)
}

/// Runs a case on `device` (timing `reps` launches after `warmup` on a GPU with
/// `timing = (warmup, reps)`); the tensors after the run, and the kernel times (or the launch's).
fn run(
    session: &Session,
    (module, sig): (&phobos_compiler::session::OwnedModule, &phobos_runtime::bind::Signature),
    c: &Case,
    device: &Device,
    chip: &str,
    timing: Option<(usize, usize)>,
) -> Result<(Vec<(String, Array)>, Vec<f32>), String> {
    let opts = LaunchOptions { timing, ..Default::default() };
    let r = front_door::execute(session, module, sig, &c.arrays, &BTreeMap::new(), c.grid, device, chip, &opts).map_err(describe)?;
    let times = if timing.is_some() { r.report.kernel_ms } else { vec![r.report.ms as f32] };
    Ok((r.outputs, times))
}

/// Runs the self-test; writes the summary to stdout and `summary`. Exit code 0 when all pass.
pub fn selftest(gpu: bool, summary: Option<&std::path::Path>) -> i32 {
    let gpu = if gpu {
        match Gpu::open() {
            Ok(g) => Some(g),
            Err(e) => {
                eprintln!("phobos: error: selftest --gpu: {e}");
                return 1;
            }
        }
    } else {
        None
    };
    let chip = gpu.as_ref().map(|g| g.chip.clone()).unwrap_or_else(|| "sm_90".into());
    let mut lines = vec![format!(
        "phobos selftest ({}) on {}",
        crate::cache::BUILD_ID,
        gpu.as_ref().map(|g| format!("{} ({})", g.name, g.chip)).unwrap_or_else(|| "the simulator".into())
    )];
    println!("{}", lines[0]);
    let (mut passed, mut failed) = (0, 0);
    let mut record = |ok: Result<String, String>, what: String, lines: &mut Vec<String>| {
        match ok {
            Ok(detail) => {
                passed += 1;
                lines.push(format!("PASS {what}: {detail}"));
            }
            Err(detail) => {
                failed += 1;
                lines.push(format!("FAIL {what}: {detail}"));
            }
        }
        println!("{}", lines.last().expect("just pushed"));
    };
    let session = match Session::new(true) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("phobos: error: {e}");
            return 1;
        }
    };
    for c in small_cases() {
        let (module, sig) = match load(&session, &c, &chip) {
            Ok(m) => m,
            Err(e) => {
                record(Err(e), format!("{} compile", c.name), &mut lines);
                continue;
            }
        };
        let size = c.arrays.values().map(|(a, _)| format!("{:?}", a.shape)).collect::<Vec<_>>().join(" ");
        let t0 = std::time::Instant::now();
        let sim = run(&session, (&module, &sig), &c, &Device::Simulator, &chip, None).map(|(o, _)| o);
        let sim_ms = t0.elapsed().as_secs_f64() * 1e3;
        let sim_out = sim.as_ref().map(|o| output(o, c.output)).unwrap_or_default();
        record(
            sim.clone().and_then(|_| compare(&sim_out, &c.reference, &c.tolerance)).map(|d| format!("max error {d:.2e}, {sim_ms:.1} ms")),
            format!("{} {size} simulator vs reference", c.name),
            &mut lines,
        );
        if let Some(g) = &gpu {
            let got = run(&session, (&module, &sig), &c, &Device::Cuda(g.clone()), &chip, None);
            let gpu_out = got.as_ref().map(|(o, _)| output(o, c.output)).unwrap_or_default();
            record(
                got.clone().and_then(|_| compare(&gpu_out, &c.reference, &c.tolerance)).map(|d| format!("max error {d:.2e}")),
                format!("{} {size} gpu vs reference", c.name),
                &mut lines,
            );
            let tol: Vec<f64> = c.tolerance.iter().map(|t| t * 2.0).collect();
            record(
                got.and_then(|_| compare(&gpu_out, &sim_out, &tol)).map(|d| format!("max difference {d:.2e}")),
                format!("{} {size} gpu vs simulator", c.name),
                &mut lines,
            );
        }
    }
    lines.push(format!("passed: {passed} failed: {failed}"));
    println!("{}", lines.last().expect("just pushed"));
    if let Some(p) = summary {
        if let Err(e) = std::fs::write(p, lines.join("\n") + "\n") {
            eprintln!("phobos: error: {}: {e}", p.display());
            return 1;
        }
    }
    if failed == 0 {
        0
    } else {
        1
    }
}

/// `phobos bench`: each seed kernel at a size that fills the GPU, timed by CUDA events (median of
/// `reps` after `warmup`), checked against the reference, and compared with a device-to-device
/// copy of the same bytes in the same run.
pub fn bench(reps: usize, summary: Option<&std::path::Path>) -> i32 {
    let gpu = match Gpu::open() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("phobos: error: phobos bench needs a GPU: {e}");
            return 1;
        }
    };
    let session = match Session::new(true) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("phobos: error: {e}");
            return 1;
        }
    };
    let mut lines = vec![
        format!("phobos bench on {} ({}); median of {reps} after 5 warm-up launches", gpu.name, gpu.chip),
        "| kernel | size | median ms | GB/s | copy GB/s | fraction of copy | check |".into(),
        "|---|---|---|---|---|---|---|".into(),
    ];
    for l in &lines {
        println!("{l}");
    }
    let mut code = 0;
    let cases = [
        lanes_matvec(16384, 8192),
        staged_matvec(1 << 20),
        i8_matvec(16384, 16384, 14),
        tutorials::vector_add(1 << 26),
        tutorials::softmax(8192, 4096),
        tutorials::layer_norm(8192, 4096),
        tutorials::gelu(1 << 26),
        tutorials::matmul(2048, 2048, 2048),
    ];
    for c in cases {
        let row = (|| -> Result<String, String> {
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
        let line = row.unwrap_or_else(|e| {
            code = 1;
            format!("| {} | | | | | | FAILED: {e} |", c.name)
        });
        println!("{line}");
        lines.push(line);
    }
    // Issue 15: the in-place rotate against a device-to-device copy of the same bytes, 1 MiB to
    // 4 GiB, small distances (seed 003's single pass, 2 bytes of traffic per byte) and large
    // (reversals, 4).
    let header = [
        "",
        "| rotate | bytes | distance | kernels | median ms | GB/s rotated | copy ms | fraction of copy | check |",
        "|---|---|---|---|---|---|---|---|---|",
    ];
    for l in header {
        println!("{l}");
        lines.push(l.into());
    }
    for mib in [1usize, 64, 1024, 4096] {
        let n = mib << 20;
        // From 2 GiB the byte indices pass i32: the passes move 8-byte items, so the
        // distances are multiples of 8 there (4096 + 8: still not a multiple of a tile).
        let (small, large) = if n >= 2 << 30 { (4104u64, n as u64 / 2 + 8) } else { (4099, n as u64 / 2 + 1) };
        for by in [small, large] {
            let line = rotate_row(&gpu, n, by, reps).unwrap_or_else(|e| {
                // A GPU too small for a size skips it; any other failure fails the bench.
                if e.contains("out of GPU memory") {
                    format!("| rotate | {n} | {by} | | | | | | skipped: {e} |")
                } else {
                    code = 1;
                    format!("| rotate | {n} | {by} | | | | | | FAILED: {e} |")
                }
            });
            println!("{line}");
            lines.push(line);
        }
    }
    if let Some(bw) = gpu.peak_bandwidth() {
        lines.push(format!("data-sheet peak bandwidth: {:.0} GB/s", bw / 1e9));
        println!("{}", lines.last().expect("just pushed"));
    }
    if let Some(p) = summary {
        let mut text = std::fs::read_to_string(p).unwrap_or_default();
        text.push_str(&(lines.join("\n") + "\n"));
        if let Err(e) = std::fs::write(p, text) {
            eprintln!("phobos: error: {}: {e}", p.display());
            return 1;
        }
    }
    code
}

/// One row of the rotate table: `n` random bytes rotated left by `by` on the GPU, `reps` timed
/// rotations after 2 untimed ones, checked against the host's rotation by the total distance.
fn rotate_row(gpu: &Gpu, n: usize, by: u64, reps: usize) -> Result<String, String> {
    let device = crate::api::Device::cuda().map_err(|e| e.to_string())?;
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
