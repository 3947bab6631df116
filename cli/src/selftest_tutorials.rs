//! The tutorials (`examples/tutorials/`) as self-test and benchmark cases, with CPU references:
//! vector add, fused softmax, layer norm (its `Y`), GELU, and the 4 x 4 SIMT matmul.

use super::{arrays, f32_array, Case, Rng};

fn random(rng: &mut Rng, n: usize, scale: f32) -> Vec<f32> {
    (0..n).map(|_| rng.f32() * scale).collect()
}

pub(super) fn vector_add(n: usize) -> Case {
    let mut rng = Rng(21);
    let (x, y) = (random(&mut rng, n, 4.0), random(&mut rng, n, 4.0));
    let reference = x.iter().zip(&y).map(|(a, b)| (a + b) as f64).collect();
    Case {
        name: "vector_add",
        file: "vector_add.phobos",
        source: include_str!("../../examples/tutorials/vector_add.phobos"),
        kernel: None,
        grid: [n.div_ceil(256) as u32, 1, 1],
        arrays: arrays(vec![
            ("X", f32_array(&[n as u64], &x)),
            ("Y", f32_array(&[n as u64], &y)),
            ("Z", f32_array(&[n as u64], &vec![f32::NAN; n])),
        ]),
        output: "Z",
        reference,
        tolerance: vec![0.0; n],
        bytes: 3 * n * 4,
        flops: 0,
        fortran: &[],
    }
}

pub(super) fn softmax(rows: usize, cols: usize) -> Case {
    let mut rng = Rng(22);
    let x = random(&mut rng, rows * cols, 8.0);
    let mut reference = Vec::with_capacity(rows * cols);
    for r in x.chunks(cols) {
        let m = r.iter().fold(f64::NEG_INFINITY, |a, v| a.max(*v as f64));
        let s: f64 = r.iter().map(|v| (*v as f64 - m).exp()).sum();
        reference.extend(r.iter().map(|v| (*v as f64 - m).exp() / s));
    }
    let tolerance = reference.iter().map(|v| 1e-5 * v + 1e-7).collect();
    Case {
        name: "softmax",
        file: "softmax.phobos",
        source: include_str!("../../examples/tutorials/softmax.phobos"),
        kernel: None,
        grid: [rows as u32, 1, 1],
        arrays: arrays(vec![
            ("X", f32_array(&[rows as u64, cols as u64], &x)),
            ("Y", f32_array(&[rows as u64, cols as u64], &vec![f32::NAN; rows * cols])),
        ]),
        output: "Y",
        reference,
        tolerance,
        bytes: 2 * rows * cols * 4,
        flops: 0,
        fortran: &[],
    }
}

pub(super) fn layer_norm(rows: usize, cols: usize) -> Case {
    let mut rng = Rng(23);
    let x = random(&mut rng, rows * cols, 3.0);
    let (w, b) = (random(&mut rng, cols, 1.0), random(&mut rng, cols, 1.0));
    let mut reference = Vec::with_capacity(rows * cols);
    for r in x.chunks(cols) {
        let mean = r.iter().map(|v| *v as f64).sum::<f64>() / cols as f64;
        let var = r.iter().map(|v| (*v as f64 - mean).powi(2)).sum::<f64>() / cols as f64;
        let rstd = 1.0 / (var + 1e-5).sqrt();
        reference.extend(r.iter().enumerate().map(|(j, v)| (*v as f64 - mean) * rstd * w[j] as f64 + b[j] as f64));
    }
    let tolerance = reference.iter().map(|v: &f64| 1e-4 * v.abs() + 1e-4).collect();
    let (m, n) = (rows as u64, cols as u64);
    Case {
        name: "layer_norm",
        file: "layer_norm.phobos",
        source: include_str!("../../examples/tutorials/layer_norm.phobos"),
        kernel: None,
        grid: [rows as u32, 1, 1],
        arrays: arrays(vec![
            ("X", f32_array(&[m, n], &x)),
            ("W", f32_array(&[n], &w)),
            ("B", f32_array(&[n], &b)),
            ("Y", f32_array(&[m, n], &vec![f32::NAN; rows * cols])),
            ("Mean", f32_array(&[m], &vec![0.0; rows])),
            ("Rstd", f32_array(&[m], &vec![0.0; rows])),
            ("eps", f32_array(&[], &[1e-5])),
        ]),
        output: "Y",
        reference,
        tolerance,
        bytes: (2 * rows * cols + 2 * cols + 2 * rows) * 4,
        flops: 0,
        fortran: &[],
    }
}

pub(super) fn gelu(n: usize) -> Case {
    let mut rng = Rng(24);
    let x = random(&mut rng, n, 6.0);
    let k = (2.0 / std::f64::consts::PI).sqrt();
    let reference: Vec<f64> =
        x.iter().map(|v| (*v as f64, 0.5)).map(|(v, h)| h * v * (1.0 + (k * (v + 0.044715 * v * v * v)).tanh())).collect();
    let tolerance = reference.iter().map(|v| 1e-5 * v.abs() + 1e-6).collect();
    Case {
        name: "gelu",
        file: "gelu.phobos",
        source: include_str!("../../examples/tutorials/gelu.phobos"),
        kernel: None,
        grid: [n.div_ceil(256) as u32, 1, 1],
        arrays: arrays(vec![("X", f32_array(&[n as u64], &x)), ("Y", f32_array(&[n as u64], &vec![f32::NAN; n]))]),
        output: "Y",
        reference,
        tolerance,
        bytes: 2 * n * 4,
        flops: 0,
        fortran: &[],
    }
}

/// C = A B with the 4 x 4 SIMT matmul (64 x 64 per CTA).
pub(super) fn matmul(m: usize, n: usize, k: usize) -> Case {
    let mut rng = Rng(25);
    let (a, b) = (random(&mut rng, m * k, 1.0), random(&mut rng, k * n, 1.0));
    let mut reference = vec![0.0f64; m * n];
    for i in 0..m {
        for p in 0..k {
            let av = a[i * k + p] as f64;
            for j in 0..n {
                reference[i * n + j] += av * b[p * n + j] as f64;
            }
        }
    }
    let (mu, nu, ku) = (m as u64, n as u64, k as u64);
    Case {
        name: "matmul_4x4",
        file: "matmul.phobos",
        source: include_str!("../../examples/tutorials/matmul.phobos"),
        kernel: Some("matmul_4x4"),
        grid: [n.div_ceil(64) as u32, m.div_ceil(64) as u32, 1],
        arrays: arrays(vec![
            ("A", f32_array(&[mu, ku], &a)),
            ("B", f32_array(&[ku, nu], &b)),
            ("C", f32_array(&[mu, nu], &vec![f32::NAN; m * n])),
        ]),
        output: "C",
        tolerance: vec![2e-6 * k as f64; m * n],
        reference,
        bytes: (m * k + k * n + m * n) * 4,
        flops: 2 * m * n * k,
        fortran: &[],
    }
}
