//! The tutorials (`examples/tutorials/`) as self-test and benchmark cases, with CPU references:
//! vector add, fused softmax, layer norm (its `Y`), GELU, the 4 x 4 SIMT matmul and the
//! tensor-core GEMMs.

use super::{arrays, f32_array, Case, Rng};
use crate::npy::{Array, Dtype};

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

/// A tensor-core GEMM of `gemm.phobos`: its input type, or the pipelined f16 one, or the
/// linear layer (f16, B given N x K).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Gemm {
    F16,
    Bf16,
    Tf32,
    I8,
    F16Pipelined,
    Linear,
    /// 128 x 64 blocks: wgmma on sm_90a (an H100 or H200), mma.sync elsewhere.
    F16Wgmma,
    /// F16Wgmma with its tiles copied by TMA on sm_90a (K and N multiples of 8).
    F16Tma,
}

/// C = A B with a tensor-core GEMM of `gemm.phobos` (128 x 128 blocks for f16 and bf16, 64 x 64
/// for tf32 and i8). Float inputs are multiples of 1/256 in [-1, 1): exact in f16, bf16 and tf32,
/// so the reference differs from the GPU only by f32 accumulation order (and f16's output
/// rounding); i8 sums are exact.
pub(super) fn gemm(kind: Gemm, m: usize, n: usize, k: usize) -> Case {
    let mut rng = Rng(26 + kind as u64);
    let mut draw = |len: usize| -> Vec<f64> {
        (0..len)
            .map(|_| match kind {
                Gemm::I8 => rng.below(256) as f64 - 128.0,
                _ => (rng.below(512) as f64 - 256.0) / 256.0,
            })
            .collect()
    };
    let (a, b) = (draw(m * k), draw(k * n));
    let reference = matmul_f64(&a, &b, m, n, k);
    let (name, block, input, output) = match kind {
        Gemm::F16 => ("gemm_f16", 128, Dtype::F16, Dtype::F16),
        Gemm::Bf16 => ("gemm_bf16", 128, Dtype::U16, Dtype::F32),
        Gemm::Tf32 => ("gemm_tf32", 64, Dtype::F32, Dtype::F32),
        Gemm::I8 => ("gemm_i8", 64, Dtype::I8, Dtype::I32),
        Gemm::F16Pipelined => ("gemm_f16_pipelined", 128, Dtype::F16, Dtype::F16),
        Gemm::Linear => ("linear_f16", 64, Dtype::F16, Dtype::F16),
        Gemm::F16Wgmma => ("gemm_f16_wgmma", 128, Dtype::F16, Dtype::F16),
        Gemm::F16Tma => ("gemm_f16_tma", 128, Dtype::F16, Dtype::F16),
    };
    let block_n = if matches!(kind, Gemm::F16Wgmma | Gemm::F16Tma) { 64 } else { block };
    // The linear layer takes X, W (N x K: B transposed) and Y.
    let linear = kind == Gemm::Linear;
    let b_given: Vec<f64> = if linear { (0..n * k).map(|i| b[(i % k) * n + i / k]).collect() } else { b };
    let (an, bn, cn) = if linear { ("X", "W", "Y") } else { ("A", "B", "C") };
    let b_shape = if linear { [n as u64, k as u64] } else { [k as u64, n as u64] };
    let tolerance = reference
        .iter()
        .map(|r| match kind {
            Gemm::I8 => 0.0,
            // f16 output: rounding to 11 bits dominates.
            Gemm::F16 | Gemm::F16Pipelined | Gemm::Linear | Gemm::F16Wgmma | Gemm::F16Tma => 1e-3 * r.abs() + 1e-3 + 2e-6 * k as f64,
            _ => 1e-5 * r.abs() + 2e-6 * k as f64,
        })
        .collect();
    let (mu, nu, ku) = (m as u64, n as u64, k as u64);
    Case {
        name,
        file: "gemm.phobos",
        source: include_str!("../../examples/tutorials/gemm.phobos"),
        kernel: Some(name),
        grid: [n.div_ceil(block_n) as u32, m.div_ceil(block) as u32, 1],
        arrays: arrays(vec![
            (an, typed_array(input, &[mu, ku], &a)),
            (bn, typed_array(input, &b_shape, &b_given)),
            (cn, typed_array(output, &[mu, nu], &vec![0.0; m * n])),
        ]),
        output: cn,
        reference,
        tolerance,
        bytes: (m * k + k * n) * input.bytes() + m * n * output.bytes(),
        flops: 2 * m * n * k,
        fortran: &[],
    }
}

/// An array of `dtype` holding `values` (rounded to nearest; bf16 as its bits in a `U16` array).
fn typed_array(dtype: Dtype, shape: &[u64], values: &[f64]) -> Array {
    let data = values
        .iter()
        .flat_map(|&v| match dtype {
            Dtype::F16 => half::f16::from_f64(v).to_le_bytes().to_vec(),
            Dtype::U16 => half::bf16::from_f64(v).to_le_bytes().to_vec(),
            Dtype::F32 => (v as f32).to_le_bytes().to_vec(),
            Dtype::I8 => (v as i8).to_le_bytes().to_vec(),
            Dtype::I32 => (v as i32).to_le_bytes().to_vec(),
            _ => unreachable!("the GEMMs' tensors are f16, bf16, f32, i8 or i32"),
        })
        .collect();
    Array { dtype, shape: shape.to_vec(), data }
}

/// A B in f64, rows split over the machine's threads (a 2048^3 reference in seconds).
fn matmul_f64(a: &[f64], b: &[f64], m: usize, n: usize, k: usize) -> Vec<f64> {
    let mut c = vec![0.0f64; m * n];
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let rows = m.div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for (t, block) in c.chunks_mut(rows * n.max(1)).enumerate() {
            s.spawn(move || {
                for (r, out) in block.chunks_mut(n.max(1)).enumerate() {
                    let i = t * rows + r;
                    for p in 0..k {
                        let av = a[i * k + p];
                        for (o, bv) in out.iter_mut().zip(&b[p * n..(p + 1) * n]) {
                            *o += av * bv;
                        }
                    }
                }
            });
        }
    });
    c
}

/// FlashAttention forward (`attention.phobos`): `heads` heads of `s` rows stacked, head
/// dimension `dim` (64 or 128: the entry of that D runs), scale 1/8, against softmax(Q Kᵀ / 8)
/// V in f64 (rows split over threads).
pub(super) fn attention(heads: usize, s: usize, causal: bool, dim: usize) -> Case {
    let mut rng = Rng(31 + causal as u64 + dim as u64);
    let rows = heads * s;
    let mut draw = || -> Vec<f64> { (0..rows * dim).map(|_| (rng.below(512) as f64 - 256.0) / 256.0).collect() };
    let (q, k, v) = (draw(), draw(), draw());
    let mut reference = vec![0.0f64; rows * dim];
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let per = rows.div_ceil(threads).max(1);
    std::thread::scope(|sc| {
        for (t, out) in reference.chunks_mut(per * dim).enumerate() {
            let (q, k, v) = (&q, &k, &v);
            sc.spawn(move || {
                for (r, o) in out.chunks_mut(dim).enumerate() {
                    let row = t * per + r;
                    let (h, i) = (row / s, row % s);
                    let keys = if causal { i + 1 } else { s };
                    let scores: Vec<f64> =
                        (0..keys).map(|j| (0..dim).map(|d| q[row * dim + d] * k[(h * s + j) * dim + d]).sum::<f64>() / 8.0).collect();
                    let mx = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    let e: Vec<f64> = scores.iter().map(|x| (x - mx).exp()).collect();
                    let total: f64 = e.iter().sum();
                    for (j, w) in e.iter().enumerate() {
                        for (d, od) in o.iter_mut().enumerate() {
                            *od += w / total * v[(h * s + j) * dim + d];
                        }
                    }
                }
            });
        }
    });
    let shape = [rows as u64, dim as u64];
    let scalar = |dtype: Dtype, bytes: Vec<u8>| Array { dtype, shape: vec![], data: bytes };
    Case {
        name: match (causal, dim) {
            (false, 64) => "attention",
            (true, 64) => "attention_causal",
            (false, _) => "attention_d128",
            (true, _) => "attention_d128_causal",
        },
        file: "attention.phobos",
        source: include_str!("../../examples/tutorials/attention.phobos"),
        kernel: Some("attention_f16"),
        grid: [s.div_ceil(64) as u32, heads as u32, 1],
        arrays: arrays(vec![
            ("Q", typed_array(Dtype::F16, &shape, &q)),
            ("K", typed_array(Dtype::F16, &shape, &k)),
            ("V", typed_array(Dtype::F16, &shape, &v)),
            ("O", typed_array(Dtype::F16, &shape, &vec![0.0; rows * dim])),
            ("LSE", f32_array(&[rows as u64], &vec![0.0; rows])),
            ("S", scalar(Dtype::I32, (s as i32).to_le_bytes().to_vec())),
            ("scale", scalar(Dtype::F32, 0.125f32.to_le_bytes().to_vec())),
            ("causal", scalar(Dtype::Bool, vec![causal as u8])),
        ]),
        output: "O",
        // P rounded to f16 before P V, the output to f16.
        tolerance: reference.iter().map(|r| 2e-3 * r.abs() + 4e-3).collect(),
        reference,
        bytes: 4 * rows * dim * 2,
        // Q Kᵀ and P V: 4 s² D per head, half of it when causal.
        flops: heads * 4 * s * s * dim / if causal { 2 } else { 1 },
        fortran: &[],
    }
}
