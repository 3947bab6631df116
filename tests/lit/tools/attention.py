"""FlashAttention forward reference (tests/lit/run/attention.test):

  attention.py gen DIR HEADS S [D [DTYPE]]            random Q, K, V of head dim D (64) in DTYPE (f16, or bf16
                                                      as uint16 bit patterns; heads stacked along the rows),
                                                      O and LSE zero
  attention.py check DIR HEADS S CAUSAL [D [DTYPE]]   compares DIR/o/O.npy and LSE.npy with softmax(Q Kᵀ / 8) V
                                                      in f64 on the inputs as stored
"""
import os
import sys

import numpy as np


def bf16_bits(x):
    """f32 array x rounded to nearest even bf16, as uint16 bit patterns."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def load(path, dtype):
    a = np.load(path)
    if dtype == "bf16":
        return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return a.astype(np.float64)


d = sys.argv[2]
dim = int(sys.argv[6 if sys.argv[1] == "check" else 5]) if len(sys.argv) > (6 if sys.argv[1] == "check" else 5) else 64
dtype = sys.argv[7 if sys.argv[1] == "check" else 6] if len(sys.argv) > (7 if sys.argv[1] == "check" else 6) else "f16"
if sys.argv[1] == "gen":
    heads, S = int(sys.argv[3]), int(sys.argv[4])
    r = np.random.default_rng(7)
    for n in "QKV":
        x = r.standard_normal((heads * S, dim))
        np.save(os.path.join(d, n + ".npy"), bf16_bits(x) if dtype == "bf16" else x.astype(np.float16))
    np.save(os.path.join(d, "O.npy"), np.zeros((heads * S, dim), np.uint16 if dtype == "bf16" else np.float16))
    np.save(os.path.join(d, "LSE.npy"), np.zeros(heads * S, np.float32))
else:
    heads, S, causal = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "true"
    scale = 0.125
    q, k, v = [load(os.path.join(d, n + ".npy"), dtype) for n in "QKV"]
    o = load(os.path.join(d, "o", "O.npy"), dtype)
    lse = np.load(os.path.join(d, "o", "LSE.npy")).astype(np.float64)
    worst, worst_lse = 0.0, 0.0
    for h in range(heads):
        rs = slice(h * S, h * S + S)
        s = scale * q[rs] @ k[rs].T
        if causal:
            s = np.where(np.tril(np.ones((S, S), bool)), s, -np.inf)
        mx = s.max(1, keepdims=True)
        e = np.exp(s - mx)
        want = (e / e.sum(1, keepdims=True)) @ v[rs]
        want_lse = mx[:, 0] + np.log(e.sum(1))
        worst = max(worst, np.abs(o[rs] - want).max())
        worst_lse = max(worst_lse, np.abs(lse[rs] - want_lse).max())
    # P is rounded to the input type before P V: bf16 keeps 8 bits, f16 11.
    ok = worst < (3e-2 if dtype == "bf16" else 2e-2) and worst_lse < 1e-3
    print("attention", "right" if ok else "wrong", f"(max error {worst:.1e}, lse {worst_lse:.1e})")
