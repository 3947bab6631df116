//! Fused softmax built through the embedding API alone (`api::build` and the dialects' typed
//! builders: no MLIR text, no op-name or type string), as a frontend lowering to Phobos would:
//! one CTA of 256 threads per row of any length; the CTA's maximum (`cta.reduce max`), the sum
//! of `exp(x - max)` (`cta.reduce sum`), then each `exp(x - max) / sum`. The row length is an
//! `index` converted to nothing; the mean-free form needs no conversion, but the count of
//! non-negative entries shows one (`build::convert`, index to f32). Checked against a CPU
//! reference on 7 rows of 1000 columns, one with -inf entries.
//!
//! Run: `cargo run --example softmax_api`; exits 1 on a wrong result or an error.

use phobos::build::{self, arith, compare, constant, convert, math, Arith, Cmp, Dim, Math, Scalar};
use phobos::dialects::{cta, lane};
use phobos::{Arg, Compiler, Device, Error, KernelBuilder, Options, ParamType};

/// Threads per CTA.
const THREADS: u32 = 256;

/// Builds and compiles the kernel: `softmax(x, y, counts, cols)`.
fn compile(compiler: &Compiler) -> Result<Vec<phobos::Kernel>, Error> {
    let params = [
        ("x", ParamType::Buffer("f32".into())),
        ("y", ParamType::Buffer("f32".into())),
        ("counts", ParamType::Buffer("f32".into())),
        ("cols", ParamType::Scalar("index".into())),
    ];
    let k = KernelBuilder::with_block(compiler, "softmax", [THREADS, 1, 1], &params)?;
    let [x, y, counts, cols] = k.args()[..] else { unreachable!("four parameters") };
    let b = k.builder_at(file!(), line!(), column!());
    let t = build::thread_id(b, Dim::X);
    let step = constant(b, Scalar::Index, THREADS as f64);
    let start = arith(b, Arith::Mul, build::block_id(b, Dim::X), cols)?;
    // Each thread's maximum over its strided part of the row, then the CTA's.
    let lowest = constant(b, Scalar::F32, f64::NEG_INFINITY);
    let m = build::for_loop(b, t, cols, step, &[lowest], |lb, j, acc| {
        let v = build::load(lb, x, &[arith(lb, Arith::Add, start, j)?])?;
        Ok(vec![arith(lb, Arith::Max, acc[0], v)?])
    })?;
    let row_max = cta::build::reduce(b, lane::Kind::Max, m[0]);
    // The sum of exp(x - max), and how many entries are not below 0.
    let zero = constant(b, Scalar::F32, 0.0);
    let sums = build::for_loop(b, t, cols, step, &[zero, zero], |lb, j, acc| {
        let v = build::load(lb, x, &[arith(lb, Arith::Add, start, j)?])?;
        let e = math(lb, Math::Exp, &[arith(lb, Arith::Sub, v, row_max)?])?;
        let one = convert(lb, compare(lb, Cmp::Ge, v, constant(lb, Scalar::F32, 0.0))?, Scalar::F32)?;
        Ok(vec![arith(lb, Arith::Add, acc[0], e)?, arith(lb, Arith::Add, acc[1], one)?])
    })?;
    let total = cta::build::reduce(b, lane::Kind::Sum, sums[0]);
    let count = cta::build::reduce(b, lane::Kind::Sum, sums[1]);
    build::for_loop(b, t, cols, step, &[], |lb, j, _| {
        let at = arith(lb, Arith::Add, start, j)?;
        let v = build::load(lb, x, &[at])?;
        let e = math(lb, Math::Exp, &[arith(lb, Arith::Sub, v, row_max)?])?;
        build::store(lb, arith(lb, Arith::Div, e, total)?, y, &[at])?;
        Ok(vec![])
    })?;
    // The count as a fraction of the row: cols converted from index to f32.
    let first = compare(b, Cmp::Eq, t, constant(b, Scalar::Index, 0.0))?;
    build::if_then(b, first, |ib| {
        let frac = arith(ib, Arith::Div, count, convert(ib, cols, Scalar::F32)?)?;
        build::store(ib, frac, counts, &[build::block_id(ib, Dim::X)])
    })?;
    let module = k.finish(compiler)?;
    compiler.compile_module(&module, &Options::default())
}

fn bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

fn floats(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))).collect()
}

/// The CPU reference: softmax of each row (in f64), and each row's fraction of entries >= 0.
fn reference(x: &[f32], cols: usize) -> (Vec<f64>, Vec<f64>) {
    let mut y = Vec::new();
    let mut frac = Vec::new();
    for r in x.chunks(cols) {
        let m = r.iter().fold(f64::NEG_INFINITY, |a, v| a.max(*v as f64));
        let s: f64 = r.iter().map(|v| (*v as f64 - m).exp()).sum();
        y.extend(r.iter().map(|v| (*v as f64 - m).exp() / s));
        frac.push(r.iter().filter(|v| **v >= 0.0).count() as f64 / cols as f64);
    }
    (y, frac)
}

/// Compiles and runs on `device`; returns the largest error against the reference.
pub fn run(device: &Device) -> Result<f64, Error> {
    let compiler = Compiler::new()?;
    let kernels = compile(&compiler)?;
    let kernel = &kernels[0];
    let (rows, cols) = (7usize, 1000usize);
    let mut x: Vec<f32> = (0..rows * cols).map(|i| ((i as u32).wrapping_mul(2654435761) % 2000) as f32 / 100.0 - 10.0).collect();
    for j in (0..cols).step_by(7) {
        x[2 * cols + j] = f32::NEG_INFINITY;
    }
    let mut xb = bytes(&x);
    let mut yb = vec![0u8; rows * cols * 4];
    let mut cb = vec![0u8; rows * 4];
    kernel.launch(
        device,
        [rows as u32, 1, 1],
        &mut [Arg::Buffer(&mut xb), Arg::Buffer(&mut yb), Arg::Buffer(&mut cb), Arg::I64(cols as i64)],
    )?;
    let (want, frac) = reference(&x, cols);
    let got = floats(&yb);
    let counts = floats(&cb);
    let err_y = got.iter().zip(&want).map(|(g, w)| (*g as f64 - w).abs()).fold(0.0, f64::max);
    let err_c = counts.iter().zip(&frac).map(|(g, w)| (*g as f64 - w).abs()).fold(0.0, f64::max);
    Ok(err_y.max(err_c))
}

#[allow(dead_code)] // the test suite calls `run`, not `main`
fn main() {
    match run(&Device::Simulator) {
        Ok(err) if err < 1e-6 => println!("softmax_api: max error {err:e} against the CPU reference"),
        Ok(err) => {
            eprintln!("softmax_api: max error {err:e} is too large");
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
