"""Phobos from Python in a page: compile two kernels, run them on NumPy arrays on the CPU
simulator, check them against NumPy, and look at what the compiler made.

    pip install target/wheels/phobos_kernels-*.whl   # built by scripts/test-python.sh
    python examples/python/quickstart.py              # exit 1 on a mismatch
"""

import pathlib
import sys

import numpy as np

import phobos

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent
rng = np.random.default_rng(0)
failures = 0


def check(name: str, got: np.ndarray, want: np.ndarray, tol: float) -> None:
    global failures
    err = float(np.max(np.abs(got.astype(np.float64) - want)))
    ok = err <= tol
    failures += not ok
    print(f"{name}: max |error| {err:.2e} (tolerance {tol:.0e}) {'ok' if ok else 'MISMATCH'}")


# The lanes matvec (examples/lanes_matvec.phobos): one warp per row of W, a butterfly of shuffles per warp.
matvec = phobos.compile(EXAMPLES / "lanes_matvec.phobos")
N, K = 64, 512
W = rng.uniform(-1, 1, (N, K)).astype(np.float32)
x = rng.uniform(-1, 1, (1, K)).astype(np.float32)
y = np.zeros((1, N), np.float32)
ran = matvec.lanes_matvec(W, x, y, grid=N // 4)  # 4 warps per CTA: 4 rows per CTA
check("lanes_matvec", y, (W.astype(np.float64) @ x[0].astype(np.float64))[None, :], 1e-4)
print(f"  entry {ran.entry}, {ran.stats['thread_instructions']} thread instructions in {ran.ms:.1f} ms")

# Triton's fused softmax tutorial: one CTA per row.
softmax = phobos.compile(EXAMPLES / "tutorials" / "softmax.phobos")
X = rng.uniform(-8, 8, (8, 1000)).astype(np.float32)
Y = np.empty_like(X)
softmax.softmax(X, Y, grid=X.shape[0])
e = np.exp(X.astype(np.float64) - X.max(axis=1, keepdims=True))
check("softmax", Y, e / e.sum(axis=1, keepdims=True), 1e-6)

# What the compiler made: every stage's IR, every pass's, the PTX.
print(f"  {len(softmax.passes())} passes; the PTX starts: {softmax.ptx.splitlines()[5]!r}")
print("  layout (4,8):(8,1) coalesced:", phobos.layout("(4,8):(8,1)").coalesce())

sys.exit(1 if failures else 0)
