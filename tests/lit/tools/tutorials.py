"""Inputs and NumPy references for the tutorials (examples/tutorials/, tests/lit/run/tutorials.test).

  tutorials.py gen KERNEL DIR SHAPE SEED   writes the kernel's inputs (and zeroed outputs) to DIR
  tutorials.py check KERNEL DIR OUT        compares OUT's outputs with NumPy; exits 1 on a mismatch

SHAPE is N (vector_add, gelu), MxN (softmax, layer_norm) or MxNxK (matmul, matmul_f16, gemm_f16,
gemm_bf16, gemm_tf32, gemm_i8, gemm_bias_gelu). bf16 arrays travel as their bits (uint16), as `phobos run` reads them.
"""
import math
import os
import sys

import numpy as np


def save(d, **arrays):
    for k, v in arrays.items():
        np.save(os.path.join(d, k + ".npy"), v)


def load(d, name):
    return np.load(os.path.join(d, name + ".npy"))


def gen(kernel, d, shape, seed):
    rng = np.random.default_rng(seed)
    dims = [int(s) for s in shape.split("x")]
    f32 = np.float32
    if kernel in ("vector_add", "gelu"):
        (n,) = dims
        x = (rng.standard_normal(n) * 3).astype(f32)
        if kernel == "vector_add":
            save(d, X=x, Y=rng.standard_normal(n).astype(f32), Z=np.zeros(n, f32))
        else:
            save(d, X=x, Y=np.zeros(n, f32))
    elif kernel == "softmax":
        m, n = dims
        x = (rng.standard_normal((m, n)) * 4).astype(f32)
        # Rows with -inf entries and with large values (exp would overflow without the max).
        x[0, :: max(1, n // 3)] = -np.inf
        if m > 1:
            x[1] += 80.0
        if m > 2:
            x[2, 0] = 1.0e4
        save(d, X=x, Y=np.zeros((m, n), f32))
    elif kernel == "layer_norm":
        m, n = dims
        x = (rng.standard_normal((m, n)) * 2 + 1).astype(f32)
        save(d, X=x, W=rng.standard_normal(n).astype(f32), B=rng.standard_normal(n).astype(f32), Y=np.zeros((m, n), f32),
             Mean=np.zeros(m, f32), Rstd=np.zeros(m, f32))
    elif kernel in ("matmul", "matmul_f16"):
        m, n, k = dims
        t = np.float16 if kernel == "matmul_f16" else f32
        save(d, A=rng.standard_normal((m, k)).astype(t), B=rng.standard_normal((k, n)).astype(t), C=np.zeros((m, n), f32))
    elif kernel.startswith("gemm_"):
        m, n, k = dims
        a, b = rng.standard_normal((m, k)), rng.standard_normal((k, n))
        if kernel == "gemm_bf16":
            save(d, A=bf16_bits(a), B=bf16_bits(b), C=np.zeros((m, n), f32))
        elif kernel == "gemm_tf32":
            save(d, A=a.astype(f32), B=b.astype(f32), C=np.zeros((m, n), f32))
        elif kernel == "gemm_i8":
            ints = lambda shape: rng.integers(-128, 128, shape).astype(np.int8)
            save(d, A=ints((m, k)), B=ints((k, n)), C=np.zeros((m, n), np.int32))
        else:
            c = np.zeros((m, n), np.float16)
            save(d, A=a.astype(np.float16), B=b.astype(np.float16), C=c)
            if kernel == "gemm_bias_gelu":
                save(d, Bias=rng.standard_normal(n).astype(f32))
    else:
        sys.exit(f"no kernel {kernel}")


def bf16_bits(x):
    """x rounded to bf16 (to nearest, ties to even), as uint16 bits."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def tf32(x):
    """f32 rounded to tf32 as cvt.rna.tf32.f32 does: to nearest, ties away; low 13 bits zero."""
    u = x.astype(np.float32).view(np.uint32)
    special = (u & 0x7F800000) == 0x7F800000
    r = np.where(special, u, ((u.astype(np.uint64) + 0x1000) & 0xFFFFE000).astype(np.uint32))
    return r.astype(np.uint32).view(np.float32).astype(np.float64)


def from_bf16(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def close(name, got, want, rtol, atol):
    ok = np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    if not ok:
        err = np.nanmax(np.abs(got.astype(np.float64) - want))
        sys.exit(f"{name}: max abs error {err} (rtol {rtol}, atol {atol})")


def check(kernel, d, out):
    if kernel == "vector_add":
        close("Z", load(out, "Z"), load(d, "X") + load(d, "Y"), 0, 0)
    elif kernel == "gelu":
        x = load(d, "X").astype(np.float64)
        want = 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
        close("Y", load(out, "Y"), want, 1e-5, 1e-6)
    elif kernel == "softmax":
        x = load(d, "X").astype(np.float64)
        e = np.exp(x - x.max(axis=1, keepdims=True))
        close("Y", load(out, "Y"), e / e.sum(axis=1, keepdims=True), 1e-5, 1e-7)
    elif kernel == "layer_norm":
        x = load(d, "X").astype(np.float64)
        mean = x.mean(axis=1)
        var = ((x - mean[:, None]) ** 2).mean(axis=1)
        rstd = 1 / np.sqrt(var + 1e-5)
        want = (x - mean[:, None]) * rstd[:, None] * load(d, "W") + load(d, "B")
        close("Y", load(out, "Y"), want, 1e-4, 1e-5)
        close("Mean", load(out, "Mean"), mean, 1e-5, 1e-5)
        close("Rstd", load(out, "Rstd"), rstd, 1e-4, 1e-6)
    elif kernel in ("matmul", "matmul_f16"):
        a = load(d, "A").astype(np.float64)
        b = load(d, "B").astype(np.float64)
        close("C", load(out, "C"), a @ b, 1e-4, 1e-4 * a.shape[1])
    elif kernel.startswith("gemm_"):
        # Inputs exact in f64; the tensor cores accumulate in f32 in an order the ISA leaves open.
        if kernel == "gemm_i8":
            a, b = load(d, "A").astype(np.int64), load(d, "B").astype(np.int64)
            want = (a @ b).astype(np.int32)
            got = load(out, "C")
            if not np.array_equal(got, want):
                sys.exit(f"C: {np.count_nonzero(got != want)} of {want.size} elements differ")
            print(f"{kernel} ok")
            return
        conv = {"gemm_bf16": from_bf16, "gemm_tf32": tf32}.get(kernel, lambda x: x.astype(np.float64))
        a, b = conv(load(d, "A")), conv(load(d, "B"))
        want = a @ b
        k = a.shape[1]
        if kernel == "gemm_bias_gelu":
            x = want + load(d, "Bias").astype(np.float64)
            want = 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
        if kernel in ("gemm_bf16", "gemm_tf32"):
            close("C", load(out, "C"), want, 1e-5, 2e-6 * k)
        else:
            # f16 output: rounding to 11 bits dominates.
            close("C", load(out, "C").astype(np.float64), want, 1e-3, 1e-3 + 2e-6 * k)
    print(f"{kernel} ok")


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    else:
        check(sys.argv[2], sys.argv[3], sys.argv[4])
