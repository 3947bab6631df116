//! End-to-end tests: Phobos kernels compiled to the SIMT level and run on the simulator,
//! checked against CPU references computed here (no Python needed).

use phobos_compiler::{
    compile::{self, CompileOptions, Stage},
    front_door::{signature, simulate, RunError},
    session::{OwnedModule, Session},
};
use phobos_passes::pipelines::{Exchange, Target};
use phobos_runtime::npy::{Array, Dtype};
use std::{collections::BTreeMap, path::PathBuf};

/// A deterministic generator (xorshift), so failures reproduce.
pub struct Rng(u64);
impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// An integer in [lo, hi].
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
    pub fn float(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

/// Element types the tests move through kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum T {
    I32,
    I64,
    F32,
    F64,
}

impl T {
    pub fn name(self) -> &'static str {
        match self {
            T::I32 => "i32",
            T::I64 => "i64",
            T::F32 => "f32",
            T::F64 => "f64",
        }
    }
    pub fn dtype(self) -> Dtype {
        match self {
            T::I32 => Dtype::I32,
            T::I64 => Dtype::I64,
            T::F32 => Dtype::F32,
            T::F64 => Dtype::F64,
        }
    }
}

/// An array of `t` from f64 values (exact for the small integers the tests use).
pub fn array(t: T, shape: &[u64], vals: &[f64]) -> Array {
    let data = match t {
        T::I32 => vals.iter().flat_map(|v| (*v as i32).to_le_bytes()).collect(),
        T::I64 => vals.iter().flat_map(|v| (*v as i64).to_le_bytes()).collect(),
        T::F32 => vals.iter().flat_map(|v| (*v as f32).to_le_bytes()).collect(),
        T::F64 => vals.iter().flat_map(|v| v.to_le_bytes()).collect(),
    };
    Array { dtype: t.dtype(), shape: shape.to_vec(), data }
}

/// The values of an array as f64.
pub fn values(a: &Array) -> Vec<f64> {
    match a.dtype {
        Dtype::I32 => a.data.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap()) as f64).collect(),
        Dtype::I64 => a.data.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().unwrap()) as f64).collect(),
        Dtype::F32 => a.data.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap()) as f64).collect(),
        Dtype::F64 => a.data.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect(),
        Dtype::I8 => a.data.iter().map(|b| *b as i8 as f64).collect(),
        Dtype::Bool => a.data.iter().map(|b| (*b != 0) as u8 as f64).collect(),
        other => panic!("values of {other:?}"),
    }
}

/// A compiled source: its SIMT-level module and frontend entries.
pub struct Compiled<'s> {
    pub module: OwnedModule<'s>,
    pub entries: Vec<phobos_frontend::Entry>,
}

/// Compiles a .phobos source to the SIMT level; panics with the diagnostics on failure.
pub fn compile<'s>(session: &'s Session, src: &str) -> Compiled<'s> {
    compile_with(session, src, Exchange::Auto)
}

/// As [`compile`], with exchanges within warps moved as `exchange` says.
pub fn compile_with<'s>(session: &'s Session, src: &str, exchange: Exchange) -> Compiled<'s> {
    let s = phobos_frontend::Source::new("test.phobos", src);
    let out = match phobos_frontend::compile(&s, &phobos_frontend::Options::default()) {
        Ok(o) => o,
        Err(ds) => panic!("{}", ds.iter().map(|d| d.render(&s)).collect::<String>()),
    };
    let module = session.parse(&out.mlir, "test.l1.mlir").unwrap_or_else(|| panic!("L1 does not parse: {:?}", session.diags.take()));
    let opts = CompileOptions { target: Target { exchange, ..Default::default() }, ..Default::default() };
    if let Err(e) = compile::lower(session, &module, Stage::Simt, &opts) {
        panic!("{e}: {:?}", session.diags.take());
    }
    Compiled { module, entries: out.entries }
}

/// Runs `kernel` with the named inputs; returns the tensors after the run.
pub fn run(c: &Compiled, kernel: &str, grid: [u32; 3], inputs: Vec<(&str, Array)>) -> Result<BTreeMap<String, Array>, RunError> {
    let sig = signature(&c.entries, kernel);
    let arrays = inputs.into_iter().map(|(n, a)| (n.to_string(), (a, PathBuf::from(format!("{n}.npy"))))).collect();
    Ok(simulate(&c.module, &sig, &arrays, &BTreeMap::new(), grid, &Default::default())?.outputs.into_iter().collect())
}

// --------------------------------------------------------------------------------------------
// The example kernels

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

fn matvec_check(file: &str, n: usize, k: usize, warps_per_cta: usize, seed: u64) {
    let session = Session::new(true).unwrap();
    let src = std::fs::read_to_string(examples().join(file)).unwrap();
    let c = compile(&session, &src);
    let mut rng = Rng::new(seed);
    let w: Vec<f64> = (0..n * k).map(|_| rng.float()).collect();
    let x: Vec<f64> = (0..k).map(|_| rng.float()).collect();
    let grid = n.div_ceil(warps_per_cta) as u32;
    let kernel = file.trim_end_matches(".phobos");
    let out = run(
        &c,
        kernel,
        [grid, 1, 1],
        vec![
            ("W", array(T::F32, &[n as u64, k as u64], &w)),
            ("x", array(T::F32, &[1, k as u64], &x)),
            ("y", array(T::F32, &[1, n as u64], &vec![f64::NAN; n])),
        ],
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let y = values(&out["y"]);
    for r in 0..n {
        // The reference rounds the inputs as the kernel sees them (f32).
        let want: f64 = (0..k).map(|j| (w[r * k + j] as f32 as f64) * (x[j] as f32 as f64)).sum();
        assert!((y[r] - want).abs() <= 1e-5 * k as f64, "{kernel} N={n} K={k}: y[{r}] = {} but the reference is {want}", y[r]);
    }
}

#[test]
fn lanes_matvec_matches_reference_for_several_shapes() {
    // N not a multiple of the 4 warps per CTA (ragged), and several K (multiples of 128).
    for (n, k) in [(1, 128), (7, 256), (33, 128), (64, 512), (13, 384)] {
        matvec_check("lanes_matvec.phobos", n, k, 4, n as u64 * 31 + k as u64);
    }
}

#[test]
fn lane_max_matches_reference() {
    let session = Session::new(true).unwrap();
    let c = compile(&session, &std::fs::read_to_string(examples().join("lane_max.phobos")).unwrap());
    for seed in 0..4 {
        let mut rng = Rng::new(seed);
        let a: Vec<f64> = (0..128).map(|_| rng.float()).collect();
        let out = run(&c, "lane_max", [1, 1, 1], vec![("A", array(T::F32, &[1, 128], &a)), ("O", array(T::F32, &[1, 1], &[0.0]))]).unwrap();
        let want = a[..32].iter().map(|v| *v as f32 as f64).fold(f64::MIN, f64::max);
        assert_eq!(values(&out["O"])[0], want);
    }
}

#[test]
fn butterfly_gives_each_warp_its_total() {
    let session = Session::new(true).unwrap();
    let c = compile(&session, &std::fs::read_to_string(examples().join("butterfly.phobos")).unwrap());
    let x: Vec<f64> = (0..256).map(|i| (i % 17) as f64 - 8.0).collect();
    let out =
        run(&c, "butterfly", [2, 1, 1], vec![("X", array(T::F32, &[256], &x)), ("S", array(T::F32, &[256], &vec![0.0; 256]))]).unwrap();
    let s = values(&out["S"]);
    for t in 0..256 {
        let w = t / 32;
        let want: f64 = x[w * 32..w * 32 + 32].iter().sum();
        assert_eq!(s[t], want, "thread {t}");
    }
}

// --------------------------------------------------------------------------------------------
// Every collective and shuffle form

/// The CPU reference of a lane fold over each `w`-lane piece.
fn fold_ref(op: &str, xs: &[f64]) -> f64 {
    match op {
        "sum" => xs.iter().sum(),
        "max" | "reduce" => xs.iter().copied().fold(f64::MIN, f64::max),
        "min" => xs.iter().copied().fold(f64::MAX, f64::min),
        "any" => xs.iter().any(|v| *v > 0.0) as i64 as f64,
        "all" => xs.iter().all(|v| *v > 0.0) as i64 as f64,
        "argmax" => {
            let m = xs.iter().copied().fold(f64::MIN, f64::max);
            xs.iter().position(|v| *v == m).unwrap() as f64
        }
        "argmin" => {
            let m = xs.iter().copied().fold(f64::MAX, f64::min);
            xs.iter().position(|v| *v == m).unwrap() as f64
        }
        _ => unreachable!(),
    }
}

/// The expression a kernel computes for a collective `op` over `group` with width `w`.
fn collective_expr(op: &str, group: &str, w: u32) -> String {
    let cfg = if w == 32 || group == "ctx.thread" { format!("over {group}") } else { format!("over {group}, width {w}") };
    match op {
        "any" | "all" => format!("i32({op}<{cfg}>(X[t] > 0))"),
        "reduce" => format!("reduce<{cfg}>(X[t], mx)"),
        _ => format!("{op}<{cfg}>(X[t])"),
    }
}

fn kernel_src(name: &str, t: T, out: &str, threads: u32, expr: &str) -> String {
    format!(
        "@launch({threads})\nkernel {name}(X: tensor<{ty}>[N], Y: tensor<{out}>[N]) {{\n  let t = ctx.block.x * ctx.threads + ctx.thread\n  Y[t] = {expr}\n}}\n",
        ty = t.name()
    )
}

fn out_type(op: &str, t: T) -> &'static str {
    match op {
        "any" | "all" | "argmax" | "argmin" => "i32",
        _ => t.name(),
    }
}

#[test]
fn every_lane_collective_matches_reference() {
    let ops = ["sum", "max", "min", "any", "all", "argmax", "argmin", "reduce"];
    for t in [T::F32, T::I32, T::F64, T::I64] {
        let widths: &[u32] = if t == T::F32 { &[1, 2, 4, 8, 16, 32] } else { &[8, 32] };
        let mut src = String::from("fn mx(a, b) = max(a, b)\n");
        let mut cases = Vec::new();
        for op in ops {
            for &w in widths {
                let name = format!("{op}_w{w}");
                src.push_str(&kernel_src(&name, t, out_type(op, t), 128, &collective_expr(op, "ctx.lane", w)));
                cases.push((op, w, name));
            }
        }
        let session = Session::new(true).unwrap();
        let c = compile(&session, &src);
        let n = 256usize;
        let mut rng = Rng::new(t as u64 + 1);
        let x: Vec<f64> = (0..n).map(|_| rng.int(-6, 6) as f64).collect();
        for (op, w, name) in cases {
            let out = run(
                &c,
                &name,
                [2, 1, 1],
                vec![
                    ("X", array(t, &[n as u64], &x)),
                    ("Y", array(if out_type(op, t) == "i32" { T::I32 } else { t }, &[n as u64], &vec![0.0; n])),
                ],
            )
            .unwrap_or_else(|e| panic!("{name} ({t:?}): {e:?}"));
            let y = values(&out["Y"]);
            for i in 0..n {
                let base = i / w as usize * w as usize;
                let mut want = fold_ref(op, &x[base..base + w as usize]);
                if op == "argmax" || op == "argmin" {
                    want += (base % 32) as f64; // the lane in the warp
                }
                assert_eq!(y[i], want, "{name} ({t:?}) thread {i}");
            }
        }
    }
}

#[test]
fn every_cta_collective_matches_reference_for_1_3_and_4_warps() {
    let ops = ["sum", "max", "min", "any", "all", "argmax", "reduce"];
    for warps in [1u32, 3, 4] {
        for t in [T::F32, T::I32, T::F64, T::I64] {
            let mut src = String::from("fn mx(a, b) = max(a, b)\n");
            for op in ops {
                src.push_str(&kernel_src(&format!("cta_{op}"), t, out_type(op, t), 32 * warps, &collective_expr(op, "ctx.thread", 32)));
            }
            let session = Session::new(true).unwrap();
            let c = compile(&session, &src);
            let threads = 32 * warps as usize;
            let ctas = 3usize;
            let n = threads * ctas;
            let mut rng = Rng::new(warps as u64 * 10 + t as u64);
            let x: Vec<f64> = (0..n).map(|_| rng.int(-9, 9) as f64).collect();
            for op in ops {
                let out = run(
                    &c,
                    &format!("cta_{op}"),
                    [ctas as u32, 1, 1],
                    vec![
                        ("X", array(t, &[n as u64], &x)),
                        ("Y", array(if out_type(op, t) == "i32" { T::I32 } else { t }, &[n as u64], &vec![0.0; n])),
                    ],
                )
                .unwrap_or_else(|e| panic!("cta {op} ({t:?}, {warps} warps): {e:?}"));
                let y = values(&out["Y"]);
                for cta in 0..ctas {
                    let want = fold_ref(op, &x[cta * threads..(cta + 1) * threads]);
                    for i in cta * threads..(cta + 1) * threads {
                        assert_eq!(y[i], want, "cta {op} ({t:?}, {warps} warps) thread {i}");
                    }
                }
            }
        }
    }
}

/// The CPU reference of `shfl<mode o, width w>`: the lane's source, or itself when outside its
/// piece.
fn shfl_src(mode: &str, lane: i64, o: i64, w: i64) -> i64 {
    let base = lane & !(w - 1);
    let pos = lane & (w - 1);
    let inside = (0..w).contains(&o);
    match mode {
        "from" if inside => base + o,
        "xor" if inside => lane ^ o,
        "down" if inside && pos + o < w => lane + o,
        "up" if inside && pos >= o => lane - o,
        _ => lane,
    }
}

#[test]
fn every_shuffle_matches_reference_with_constant_and_varying_operands() {
    for t in [T::F32, T::I32, T::F64, T::I64] {
        let widths: &[u32] = if t == T::F32 { &[1, 2, 4, 8, 16, 32] } else { &[4, 32] };
        let mut src = String::new();
        let mut cases = Vec::new();
        for mode in ["from", "xor", "down", "up"] {
            for &w in widths {
                for (kind, operand) in [("const", "3".to_string()), ("varying", "(ctx.lane * 7 + 5) % 41 - 3".to_string())] {
                    let cfg = if w == 32 { format!("{mode} {operand}") } else { format!("{mode} {operand}, width {w}") };
                    // A constant xor mask must be below the width (the verifier says so).
                    if kind == "const" && mode == "xor" && w <= 3 {
                        continue;
                    }
                    let name = format!("{mode}_{kind}_w{w}");
                    src.push_str(&kernel_src(&name, t, t.name(), 64, &format!("shfl<{cfg}>(X[t])")));
                    cases.push((mode, kind, w, name));
                }
            }
        }
        let session = Session::new(true).unwrap();
        let c = compile(&session, &src);
        let n = 128usize;
        let x: Vec<f64> = (0..n).map(|i| i as f64 * 3.0 + 1.0).collect();
        for (mode, kind, w, name) in cases {
            let out = run(&c, &name, [2, 1, 1], vec![("X", array(t, &[n as u64], &x)), ("Y", array(t, &[n as u64], &vec![0.0; n]))])
                .unwrap_or_else(|e| panic!("{name} ({t:?}): {e:?}"));
            let y = values(&out["Y"]);
            for i in 0..n {
                let lane = (i % 32) as i64;
                let o = if kind == "const" { 3 } else { (lane * 7 + 5) % 41 - 3 };
                let src_lane = shfl_src(mode, lane, o, w as i64);
                let want = x[i - lane as usize + src_lane as usize];
                assert_eq!(y[i], want, "{name} ({t:?}) thread {i} (operand {o})");
            }
        }
    }
}

#[test]
fn staged_matvec_matches_reference_for_ragged_n() {
    // K is autotuned to 256; N = 1, 5 and 130 are not multiples of the 4 warps per CTA.
    for n in [1usize, 5, 130] {
        matvec_check("staged_matvec.phobos", n, 256, 4, 7 * n as u64);
    }
}

#[test]
fn i8_matvec_matches_reference_exactly() {
    let session = Session::new(true).unwrap();
    let c = compile(&session, &std::fs::read_to_string(examples().join("i8_matvec.phobos")).unwrap());
    for (n, k) in [(1usize, 32usize), (9, 64), (17, 512)] {
        let mut rng = Rng::new((n * k) as u64);
        let a: Vec<i8> = (0..k).map(|_| rng.int(-128, 127) as i8).collect();
        let w: Vec<i8> = (0..n * k).map(|_| rng.int(-128, 127) as i8).collect();
        let bytes = |v: &[i8], shape: &[u64]| Array { dtype: Dtype::I8, shape: shape.to_vec(), data: v.iter().map(|b| *b as u8).collect() };
        let out = run(
            &c,
            "i8_matvec",
            [n.div_ceil(8) as u32, 1, 1],
            vec![
                ("A", bytes(&a, &[1, k as u64])),
                ("W", bytes(&w, &[n as u64, k as u64])),
                ("C", array(T::F32, &[1, n as u64], &vec![f64::NAN; n])),
            ],
        )
        .unwrap();
        let got = values(&out["C"]);
        for col in 0..n {
            let want: i64 = (0..k).map(|j| a[j] as i64 * w[col * k + j] as i64).sum();
            assert_eq!(got[col], want as f64, "i8_matvec N={n} K={k} column {col}");
        }
    }
}
