"""FlashAttention forward reference (tests/lit/run/attention.test):

  attention.py gen DIR HEADS S             random f16 Q, K, V (heads stacked along the rows), O and LSE zero
  attention.py check DIR HEADS S CAUSAL    compares DIR/o/O.npy and LSE.npy with softmax(Q Kᵀ / 8) V in f64
"""
import os
import sys

import numpy as np
d = sys.argv[2]
if sys.argv[1] == "gen":
    heads, S = int(sys.argv[3]), int(sys.argv[4])
    r = np.random.default_rng(7)
    for n in "QKV":
        np.save(os.path.join(d, n + ".npy"), r.standard_normal((heads * S, 64)).astype(np.float16))
    np.save(os.path.join(d, "O.npy"), np.zeros((heads * S, 64), np.float16))
    np.save(os.path.join(d, "LSE.npy"), np.zeros(heads * S, np.float32))
else:
    heads, S, causal = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "true"
    scale = 0.125
    q, k, v = [np.load(os.path.join(d, n + ".npy")).astype(np.float64) for n in "QKV"]
    o = np.load(os.path.join(d, "o", "O.npy")).astype(np.float64)
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
    ok = worst < 2e-2 and worst_lse < 1e-3
    print("attention", "right" if ok else "wrong", f"(max error {worst:.1e}, lse {worst_lse:.1e})" if not ok else "")
