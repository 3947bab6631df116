"""Time Triton's tutorial matmul (03) under Triton's CPU interpreter (TRITON_INTERPRET=1), checked
against NumPy: f16 A and B, f32 accumulation, f16 C, 128 x 128 x 32 tiles, as
examples/tutorials/gemm.phobos's gemm_f16 (the simulator bench runs both, pair by pair).

  python triton_matmul_interpret.py [--m 512] [--n 512] [--k 512] [--reps 3]

Runs in the venv of ../shared/anchors/setup.sh. One warm-up call (also checked), then REPS
timed calls; prints one JSON line. No torch: the interpreter reads the NumPy buffers in place
through raw pointers, as ../shared/anchors/triton_interpret.py does.
"""
import argparse
import json
import os
import statistics
import sys
import time

os.environ["TRITON_INTERPRET"] = "1"  # before triton is imported
sys.dont_write_bytecode = True
import numpy as np  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.runtime.interpreter import TensorHandle  # noqa: E402

BM, BN, BK = 128, 128, 32


@triton.jit
def matmul(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(1)
    pid_n = tl.program_id(0)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(B + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(C + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


def f16_ptr(a):
    assert a.dtype == np.float16 and a.flags.c_contiguous
    ty = tl.pointer_type(tl.float16)
    return tl.tensor(TensorHandle(np.array([a.ctypes.data], dtype=np.uint64), ty), ty)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--m", type=int, default=512)
    ap.add_argument("--n", type=int, default=512)
    ap.add_argument("--k", type=int, default=512)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    rng = np.random.default_rng(0)
    A = rng.standard_normal((a.m, a.k)).astype(np.float16)
    B = rng.standard_normal((a.k, a.n)).astype(np.float16)
    C = np.empty((a.m, a.n), dtype=np.float16)
    ref = A.astype(np.float64) @ B.astype(np.float64)
    grid = (triton.cdiv(a.n, BN), triton.cdiv(a.m, BM))

    def call():
        C.fill(np.nan)
        t0 = time.perf_counter()
        matmul[grid](f16_ptr(A), f16_ptr(B), f16_ptr(C), a.m, a.n, a.k, BM=BM, BN=BN, BK=BK, num_warps=8)
        dt = time.perf_counter() - t0
        err = float(np.max(np.abs(C.astype(np.float64) - ref) / (1 + np.abs(ref))))
        assert err <= 2e-3, f"max relative error {err} against NumPy"
        return dt, err

    call()
    runs = [call() for _ in range(a.reps)]
    ts = [t for t, _ in runs]
    print(json.dumps({"anchor": "triton_interpret", "kernel": "matmul", "triton": triton.__version__, "m": a.m, "n": a.n,
                      "k": a.k, "reps": a.reps, "max_rel_err": max(e for _, e in runs),
                      "call_s": {"min": round(min(ts), 3), "median": round(statistics.median(ts), 3), "max": round(max(ts), 3)}}))


if __name__ == "__main__":
    main()
