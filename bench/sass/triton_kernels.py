"""Triton 3.9 versions of the kernels `bench/sass/table.py` sets next to Phobos's, compiled to
PTX for sm_90 with no GPU (as ../shared/anchors/triton_compile.py does).

  python triton_kernels.py OUT_DIR     writes OUT_DIR/<kernel>.ptx for each kernel below

Each is the natural Triton program for what the Phobos kernel computes (Triton's own tutorials'
shape): one program per block of 256 items (vector_add, gelu), per row (softmax, layer_norm),
per 4 rows (lanes_matvec, the anchor's kernel), per 64 x 64 tile with tl.dot (matmul).
"""
import os
import shutil
import sys
import tempfile

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton import knobs


@triton.jit
def vector_add(X, Y, Z, N, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < N
    tl.store(Z + i, tl.load(X + i, mask=m) + tl.load(Y + i, mask=m), mask=m)


@triton.jit
def gelu(X, Y, N, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < N
    x = tl.load(X + i, mask=m)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = 2.0 / (1.0 + tl.exp(-2.0 * u)) - 1.0  # tanh(u)
    tl.store(Y + i, 0.5 * x * (1.0 + t), mask=m)


@triton.jit
def softmax(X, Y, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(X + row * N + cols, mask=m, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(Y + row * N + cols, e / tl.sum(e, axis=0), mask=m)


@triton.jit
def layer_norm(X, W, B, Y, Mean, Rstd, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(X + row * N + cols, mask=cols < N, other=0.0)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        d = tl.where(cols < N, tl.load(X + row * N + cols, mask=cols < N, other=0.0) - mean, 0.0)
        acc += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / N + 1e-5)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        m = cols < N
        x = tl.load(X + row * N + cols, mask=m, other=0.0)
        y = (x - mean) * rstd * tl.load(W + cols, mask=m) + tl.load(B + cols, mask=m)
        tl.store(Y + row * N + cols, y, mask=m)


@triton.jit
def matmul(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(1) * BM + tl.arange(0, BM)
    rn = tl.program_id(0) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(B + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def lanes_matvec(W, x, y, N, K, ROWS: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_K)
    acc = tl.zeros((ROWS, BLOCK_K), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        w = tl.load(W + rows[:, None] * K + (k + cols)[None, :], mask=(rows < N)[:, None], other=0.0)
        acc += w * tl.load(x + k + cols)[None, :]
    tl.store(y + rows, tl.sum(acc, axis=1), mask=rows < N)


F = "*fp32"
KERNELS = {
    # name: (fn, signature, constexprs, num_warps)
    "vector_add": (vector_add, {"X": F, "Y": F, "Z": F, "N": "i32", "BLOCK": "constexpr"}, {"BLOCK": 256}, 8),
    "gelu": (gelu, {"X": F, "Y": F, "N": "i32", "BLOCK": "constexpr"}, {"BLOCK": 256}, 8),
    "softmax": (softmax, {"X": F, "Y": F, "N": "i32", "BLOCK": "constexpr"}, {"BLOCK": 1024}, 8),
    "layer_norm": (layer_norm, {"X": F, "W": F, "B": F, "Y": F, "Mean": F, "Rstd": F, "N": "i32", "BLOCK": "constexpr"}, {"BLOCK": 256}, 8),
    "matmul": (matmul, {"A": F, "B": F, "C": F, "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}, {"BM": 64, "BN": 64, "BK": 32}, 4),
    "lanes_matvec": (lanes_matvec, {"W": F, "x": F, "y": F, "N": "i32", "K": "i32", "ROWS": "constexpr", "BLOCK_K": "constexpr"}, {"ROWS": 4, "BLOCK_K": 128}, 4),
}


def main(out):
    os.makedirs(out, exist_ok=True)

    def stop_after_ptx(backend=None, stages=None, *_):
        if backend is None:
            return "ptx-only", "ptx-only"
        stages["cubin"] = lambda ptx, metadata: ptx.encode()

    knobs.runtime.add_stages_inspection_hook = stop_after_ptx
    for name, (fn, sig, consts, warps) in KERNELS.items():
        with tempfile.TemporaryDirectory(prefix="triton-sass-") as cache:
            os.environ["TRITON_CACHE_DIR"] = cache
            ptr_args = [i for i, (k, v) in enumerate(sig.items()) if v.startswith("*")]
            attrs = {(i,): [["tt.divisibility", 16]] for i in ptr_args}
            src = triton.compiler.ASTSource(fn, sig, consts, attrs)
            triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": warps})
            ptx = [os.path.join(d, f) for d, _, fs in os.walk(cache) for f in fs if f.endswith(".ptx")]
            shutil.copy(ptx[0], os.path.join(out, f"{name}.ptx"))


if __name__ == "__main__":
    main(sys.argv[1])
