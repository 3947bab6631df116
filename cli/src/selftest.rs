//! `phobos selftest [--gpu]` and `phobos bench`: the example kernels (compiled into the binary) on
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
use tutorials::Gemm;

/// One example kernel on one input.
pub(crate) struct Case {
    pub(crate) name: &'static str,
    pub(crate) file: &'static str,
    pub(crate) source: &'static str,
    /// The kernel, when the file has several.
    pub(crate) kernel: Option<&'static str>,
    pub(crate) grid: [u32; 3],
    pub(crate) arrays: BTreeMap<String, (Array, PathBuf)>,
    /// The output tensor and its reference values.
    pub(crate) output: &'static str,
    pub(crate) reference: Vec<f64>,
    /// Absolute tolerance per element.
    pub(crate) tolerance: Vec<f64>,
    /// Bytes the kernel must move (its inputs and outputs once).
    pub(crate) bytes: usize,
    /// Floating-point operations (a matmul's 2 M N K; 0 for a memory-bound kernel).
    pub(crate) flops: usize,
    /// Tensors passed as Fortran-order views, through the kernel's strided twin (as `phobos
    /// run` passes Fortran-order `.npy` files; on a GPU, strides as launch arguments).
    pub(crate) fortran: &'static [&'static str],
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

/// An output's values: f32, f16 or i32 (every case's output is one of them).
fn values(a: &Array) -> Vec<f64> {
    match a.dtype {
        Dtype::F16 => a.data.chunks_exact(2).map(|c| half::f16::from_le_bytes([c[0], c[1]]).to_f64()).collect(),
        Dtype::I32 => a.data.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")) as f64).collect(),
        _ => a.data.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")) as f64).collect(),
    }
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
        fortran: &[],
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
        fortran: &[],
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
            fortran: &[],
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
            fortran: &[],
        },
        tutorials::vector_add(5000),
        tutorials::softmax(37, 1000),
        Case { name: "softmax_strided", fortran: &["X", "Y"], ..tutorials::softmax(37, 1000) },
        tutorials::layer_norm(9, 1025),
        tutorials::gelu(5000),
        tutorials::matmul(97, 131, 67),
        tutorials::gemm(Gemm::F16, 257, 383, 129),
        tutorials::gemm(Gemm::Bf16, 130, 200, 96),
        tutorials::gemm(Gemm::Tf32, 100, 70, 40),
        tutorials::gemm(Gemm::I8, 65, 130, 200),
        tutorials::gemm(Gemm::F16Pipelined, 200, 300, 160),
        tutorials::gemm(Gemm::Linear, 100, 150, 96),
        tutorials::gemm(Gemm::F16Wgmma, 150, 130, 200),
        tutorials::gemm(Gemm::F16Tma, 150, 136, 200),
        tutorials::attention(2, 100, false, 64),
        tutorials::attention(1, 150, true, 64),
        tutorials::attention(1, 130, true, 128),
    ]
}

/// The benchmark's kernel cases (`phobos bench`), by name, built when their row runs: at sizes
/// that fill a GPU they hold gigabytes.
pub(crate) const BENCH: [(&str, fn() -> Case); 19] = [
    ("lanes_matvec", || lanes_matvec(16384, 8192)),
    ("staged_matvec", || staged_matvec(1 << 20)),
    ("i8_matvec", || i8_matvec(16384, 16384, 14)),
    ("vector_add", || tutorials::vector_add(1 << 26)),
    ("softmax", || tutorials::softmax(8192, 4096)),
    ("layer_norm", || tutorials::layer_norm(8192, 4096)),
    ("gelu", || tutorials::gelu(1 << 26)),
    ("matmul_4x4", || tutorials::matmul(2048, 2048, 2048)),
    ("gemm_f16", || tutorials::gemm(Gemm::F16, 4096, 4096, 4096)),
    ("gemm_bf16", || tutorials::gemm(Gemm::Bf16, 4096, 4096, 4096)),
    ("gemm_tf32", || tutorials::gemm(Gemm::Tf32, 4096, 4096, 4096)),
    ("gemm_i8", || tutorials::gemm(Gemm::I8, 4096, 4096, 4096)),
    ("gemm_f16_pipelined", || tutorials::gemm(Gemm::F16Pipelined, 4096, 4096, 4096)),
    ("linear_f16", || tutorials::gemm(Gemm::Linear, 4096, 4096, 4096)),
    ("gemm_f16_wgmma", || tutorials::gemm(Gemm::F16Wgmma, 4096, 4096, 4096)),
    ("gemm_f16_tma", || tutorials::gemm(Gemm::F16Tma, 4096, 4096, 4096)),
    ("attention", || tutorials::attention(16, 4096, false, 64)),
    ("attention_causal", || tutorials::attention(16, 4096, true, 64)),
    ("attention_d128", || tutorials::attention(16, 4096, false, 128)),
];

/// The largest |got - want| - tolerance, or the first element outside its tolerance.
pub(crate) fn compare(got: &[f64], want: &[f64], tol: &[f64]) -> Result<f64, String> {
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

pub(crate) fn output(outs: &[(String, Array)], name: &str) -> Vec<f64> {
    outs.iter().find(|(n, _)| n == name).map(|(_, a)| values(a)).unwrap_or_default()
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
pub(crate) fn load<'s>(
    session: &'s Session,
    c: &Case,
    chip: &str,
) -> Result<(phobos_compiler::session::OwnedModule<'s>, phobos_runtime::bind::Signature), String> {
    let opts = phobos_frontend::Options { strided: !c.fortran.is_empty(), ..Default::default() };
    front_door::load_text(session, c.file, c.source, c.kernel, chip, &opts).map(|l| (l.module, l.sig)).map_err(describe)
}

/// Runs a case on `device` (timing `reps` launches after `warmup` on a GPU with
/// `timing = (warmup, reps)`); the tensors after the run, and the kernel times (or the launch's).
pub(crate) fn run(
    session: &Session,
    (module, sig): (&phobos_compiler::session::OwnedModule, &phobos_runtime::bind::Signature),
    c: &Case,
    device: &Device,
    chip: &str,
    timing: Option<(usize, usize)>,
) -> Result<(Vec<(String, Array)>, Vec<f32>), String> {
    let opts = match timing {
        Some((warmup, reps)) => LaunchOptions::default().with_timing(warmup, reps),
        None => LaunchOptions::default(),
    };
    let fortran: Vec<String> = c.fortran.iter().map(|s| s.to_string()).collect();
    let r =
        front_door::execute(session, module, sig, &c.arrays, &BTreeMap::new(), c.grid, device, chip, &opts, &fortran).map_err(describe)?;
    let times = if timing.is_some() { r.report.kernel_ms } else { vec![r.report.ms as f32] };
    Ok((r.outputs, times))
}

/// `phobos selftest`'s flags.
#[derive(clap::Args, Debug)]
pub struct SelftestArgs {
    /// Also run every kernel on the GPU (exit 1 when there is none); each case then runs in a
    /// process of its own (as with --isolate).
    #[arg(long)]
    gpu: bool,
    /// Also write the summary to this file.
    #[arg(long, value_name = "FILE")]
    summary: Option<PathBuf>,
    /// Run each case in a process of its own, killed after --case-timeout: a fault or a hang
    /// in one case cannot take the cases after it down.
    #[arg(long)]
    isolate: bool,
    /// Seconds an isolated case may take before it is killed and fails.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = crate::isolate::parse_limit)]
    case_timeout: std::time::Duration,
    /// Run only case N (from 0, in the summary's order); what --isolate runs in each process.
    #[arg(long, value_name = "N")]
    case: Option<usize>,
}

/// Runs the self-test; writes the summary to stdout and `--summary`. Exit code 0 when all pass.
pub fn selftest(a: &SelftestArgs) -> i32 {
    let cases = small_cases();
    if let Some(n) = a.case.filter(|n| *n >= cases.len()) {
        errln!("phobos: error: --case {n}: the self-test has cases 0 to {}", cases.len() - 1);
        return 1;
    }
    let gpu = if a.gpu {
        match Gpu::open() {
            Ok(g) => Some(g),
            Err(e) => {
                errln!("phobos: error: selftest --gpu: {e}");
                return 1;
            }
        }
    } else {
        None
    };
    let chip = gpu.as_ref().map(|g| g.chip.clone()).unwrap_or_else(|| "sm_90".into());
    let isolate = (a.gpu || a.isolate) && a.case.is_none();
    let mut lines = Vec::new();
    // A case's own process prints its results only; the summary's first and last lines are
    // its parent's.
    if a.case.is_none() {
        let on = gpu.as_ref().map(|g| format!("{} ({})", g.name, g.chip)).unwrap_or_else(|| "the simulator".into());
        let how =
            if isolate { format!(", each case in its own process ({} s limit)", a.case_timeout.as_secs_f64()) } else { String::new() };
        lines.push(format!("phobos selftest ({}) on {on}{how}", crate::cache::BUILD_ID));
        outln!("{}", lines[0]);
    }
    if isolate {
        drop(gpu);
        for (i, c) in cases.iter().enumerate() {
            let mut args = vec!["selftest".to_string(), "--case".into(), i.to_string()];
            if a.gpu {
                args.push("--gpu".into());
            }
            let child = crate::isolate::run(&args, a.case_timeout);
            for l in child.lines.iter().filter(|l| l.starts_with("PASS ") || l.starts_with("FAIL ")) {
                outln!("{l}");
                lines.push(l.clone());
            }
            if let Some(why) = child.trouble {
                lines.push(format!("FAIL {} (case {i}): {why}", c.name));
                outln!("{}", lines.last().expect("just pushed"));
            }
        }
    } else {
        let session = match Session::new(true) {
            Ok(s) => s,
            Err(e) => {
                errln!("phobos: error: {e}");
                return 1;
            }
        };
        for (i, c) in cases.into_iter().enumerate() {
            if a.case.is_none_or(|n| n == i) {
                run_case(&session, &c, gpu.as_ref(), &chip, &mut lines);
            }
        }
    }
    let failed = lines.iter().filter(|l| l.starts_with("FAIL ")).count();
    if a.case.is_none() {
        let passed = lines.iter().filter(|l| l.starts_with("PASS ")).count();
        lines.push(format!("passed: {passed} failed: {failed}"));
        outln!("{}", lines.last().expect("just pushed"));
    }
    if let Some(p) = &a.summary {
        if let Err(e) = std::fs::write(p, lines.join("\n") + "\n") {
            errln!("phobos: error: {}: {e}", p.display());
            return 1;
        }
    }
    if failed == 0 {
        0
    } else {
        1
    }
}

/// One case on the simulator against its reference, and on `gpu` against both; a line per
/// check, printed as it is known.
fn run_case(session: &Session, c: &Case, gpu: Option<&Gpu>, chip: &str, lines: &mut Vec<String>) {
    let mut record = |ok: Result<String, String>, what: String| {
        lines.push(match ok {
            Ok(detail) => format!("PASS {what}: {detail}"),
            Err(detail) => format!("FAIL {what}: {detail}"),
        });
        outln!("{}", lines.last().expect("just pushed"));
    };
    let (module, sig) = match load(session, c, chip) {
        Ok(m) => m,
        Err(e) => return record(Err(e), format!("{} compile", c.name)),
    };
    let size = c.arrays.values().map(|(a, _)| format!("{:?}", a.shape)).collect::<Vec<_>>().join(" ");
    let t0 = std::time::Instant::now();
    let sim = run(session, (&module, &sig), c, &Device::Simulator, chip, None).map(|(o, _)| o);
    let sim_ms = t0.elapsed().as_secs_f64() * 1e3;
    let sim_out = sim.as_ref().map(|o| output(o, c.output)).unwrap_or_default();
    record(
        sim.clone().and_then(|_| compare(&sim_out, &c.reference, &c.tolerance)).map(|d| format!("max error {d:.2e}, {sim_ms:.1} ms")),
        format!("{} {size} simulator vs reference", c.name),
    );
    if let Some(g) = gpu {
        let got = run(session, (&module, &sig), c, &Device::Cuda(g.clone()), chip, None);
        let gpu_out = got.as_ref().map(|(o, _)| output(o, c.output)).unwrap_or_default();
        record(
            got.clone().and_then(|_| compare(&gpu_out, &c.reference, &c.tolerance)).map(|d| format!("max error {d:.2e}")),
            format!("{} {size} gpu vs reference", c.name),
        );
        let tol: Vec<f64> = c.tolerance.iter().map(|t| t * 2.0).collect();
        record(
            got.and_then(|_| compare(&gpu_out, &sim_out, &tol)).map(|d| format!("max difference {d:.2e}")),
            format!("{} {size} gpu vs simulator", c.name),
        );
    }
}
