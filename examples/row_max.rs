//! A frontend's whole path through the embedding API: the per-row maximum of a matrix, built
//! with typed builders only (no MLIR text, no op-name string), compiled with every stage's IR
//! returned in memory, launched twice on one device reusing its buffers, and checked against a
//! CPU reference.
//!
//! The kernel: a 16x8 block; each row of 16 threads (`thread_id.y`) takes one matrix row, each
//! thread a strided part of its columns, and a width-16 `lane.reduce max` folds the 16 partial
//! maxima. The matrix is 203 x 45: neither dimension is a multiple of 16, so the last block has
//! rows past the end and every row ends in a partial group of 16 columns.
//!
//! Run: `cargo run --example row_max [-- --gpu]`; exits 1 on a wrong result or an error.

use phobos::build::{self, arith, compare, constant, Arith, Cmp, Dim, Scalar};
use phobos::dialects::lane;
use phobos::{Arg, Compiler, Device, Error, KernelBuilder, Options, ParamType, Stage};

/// Rows of 16 threads per block.
const ROWS_PER_BLOCK: u32 = 8;

/// What a run produced: per launch, the kernel's output and the CPU reference, and the stages.
pub struct Report {
    /// `(got, want)` of each launch.
    pub launches: Vec<(Vec<f32>, Vec<f32>)>,
    /// Each stage's name and the size of its text in bytes.
    pub stages: Vec<(&'static str, usize)>,
    /// How many passes' IR came back.
    pub passes: usize,
    /// The PTX of the kernel's module.
    pub ptx: String,
}

/// Builds the kernel with the typed builders and compiles it, keeping every stage's IR.
fn compile(compiler: &Compiler) -> Result<phobos::Compiled, Error> {
    let params = [
        ("x", ParamType::Buffer("f32".into())),
        ("y", ParamType::Buffer("f32".into())),
        ("rows", ParamType::Scalar("index".into())),
        ("cols", ParamType::Scalar("index".into())),
    ];
    let k = KernelBuilder::with_block(compiler, "row_max", [16, ROWS_PER_BLOCK, 1], &params)?;
    let [x, y, rows, cols] = k.args()[..] else { unreachable!("four parameters") };
    // Ops are located at this line of this file: a fault or diagnostic points here.
    let b = k.builder_at(file!(), line!(), column!());
    let lane_id = build::thread_id(b, Dim::X);
    let first_row = arith(b, Arith::Mul, build::block_id(b, Dim::X), constant(b, Scalar::Index, ROWS_PER_BLOCK as f64))?;
    let row = arith(b, Arith::Add, first_row, build::thread_id(b, Dim::Y))?;
    let inside = compare(b, Cmp::Lt, row, rows)?;
    // A row past the end reads nothing (its loop runs 0 times) but still takes part in the fold.
    let ub = build::select(b, inside, cols, constant(b, Scalar::Index, 0.0))?;
    let lowest = constant(b, Scalar::F32, f64::NEG_INFINITY);
    let start = arith(b, Arith::Mul, row, cols)?;
    let partial = build::for_loop(b, lane_id, ub, constant(b, Scalar::Index, 16.0), &[lowest], |lb, j, acc| {
        let at = arith(lb, Arith::Add, start, j)?;
        let v = build::load(lb, x, &[at])?;
        Ok(vec![arith(lb, Arith::Max, acc[0], v)?])
    })?;
    let m = lane::build::reduce(b, lane::Kind::Max, partial[0], 16);
    let first = compare(b, Cmp::Eq, lane_id, constant(b, Scalar::Index, 0.0))?;
    let writes = arith(b, Arith::And, first, inside)?;
    build::if_then(b, writes, |ib| build::store(ib, m, y, &[row]))?;
    let module = k.finish(compiler)?;
    compiler.compile_staged(&module, &Options::default())
}

fn matrix(rows: usize, cols: usize, seed: u32) -> Vec<f32> {
    (0..rows * cols).map(|i| ((i as u32).wrapping_mul(2654435761).wrapping_add(seed) % 1000) as f32 / 7.0 - 70.0).collect()
}

fn bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

fn floats(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))).collect()
}

fn reference(x: &[f32], cols: usize) -> Vec<f32> {
    x.chunks(cols).map(|r| r.iter().copied().fold(f32::NEG_INFINITY, f32::max)).collect()
}

/// Compiles, then launches twice on `device` with device buffers that stay there: the second
/// launch gets new matrix contents written into the same buffer and runs on a stream.
pub fn run(device: &Device) -> Result<Report, Error> {
    let compiler = Compiler::new()?;
    let compiled = compile(&compiler)?;
    let kernel = &compiled.kernels[0];
    let (rows, cols) = (203usize, 45usize);
    let grid = [(rows as u32).div_ceil(ROWS_PER_BLOCK), 1, 1];
    let x = device.upload(&bytes(&matrix(rows, cols, 1)))?;
    let y = device.alloc(rows * 4)?;
    let mut launches = Vec::new();

    kernel.launch(device, grid, &mut [Arg::Device(&x), Arg::Device(&y), Arg::I64(rows as i64), Arg::I64(cols as i64)])?;
    launches.push((floats(&y.read()?), reference(&floats(&x.read()?), cols)));

    let second = matrix(rows, cols, 77);
    x.write(&bytes(&second))?;
    let stream = device.stream()?;
    kernel.launch_async(&stream, grid, &mut [Arg::Device(&x), Arg::Device(&y), Arg::I64(rows as i64), Arg::I64(cols as i64)])?;
    stream.record()?.synchronize()?;
    launches.push((floats(&y.read()?), reference(&second, cols)));

    let stages = compiled.ir.stages.iter().map(|(s, t)| (s.name(), t.len())).collect();
    let ptx = compiled.ir.text(Stage::Ptx).unwrap_or_default().to_string();
    Ok(Report { launches, stages, passes: compiled.ir.passes.len(), ptx })
}

#[allow(dead_code)] // the test suite calls `run`, not `main`
fn main() {
    let device = if std::env::args().any(|a| a == "--gpu") { Device::cuda() } else { Ok(Device::Simulator) };
    let report = match device.and_then(|d| {
        println!("device: {}", d.name());
        run(&d)
    }) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    for (stage, len) in &report.stages {
        println!("stage {stage}: {len} bytes of IR");
    }
    println!("{} passes' IR returned in memory; PTX: {} shuffles", report.passes, report.ptx.matches("shfl.sync").count());
    let mut wrong = 0;
    for (i, (got, want)) in report.launches.iter().enumerate() {
        let bad = got.iter().zip(want).filter(|(g, w)| g != w).count();
        println!("launch {}: {} of {} row maxima match the CPU reference", i + 1, got.len() - bad, got.len());
        wrong += bad;
    }
    std::process::exit(if wrong == 0 { 0 } else { 1 });
}
