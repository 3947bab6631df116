"""bf16 collectives and shuffles for tests/lit/run/bf16-collectives.phobos: small integers, so
every sum is exact in bf16 and the reference needs no rounding model.

  bf16_lanes.py gen DIR SEED   Y (64 bf16 bits of integers in [-2, 2]: every partial sum stays below 256, exact in bf16), O (zeros)
  bf16_lanes.py check DIR OUT  O[t] = warp sum + max over 8 lanes + Y[t ^ 1] + CTA sum + argmax lane
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from bf16 import to_bits, value  # noqa: E402

d = sys.argv[2]
if sys.argv[1] == "gen":
    y = np.random.default_rng(int(sys.argv[3])).integers(-2, 3, 64)
    np.save(os.path.join(d, "Y.npy"), np.array([to_bits(float(v)) for v in y], dtype=np.uint16))
    np.save(os.path.join(d, "O.npy"), np.zeros(64, np.uint16))
else:
    y = np.array([value(b) for b in np.load(os.path.join(d, "Y.npy"))])
    o = np.array([value(b) for b in np.load(os.path.join(sys.argv[3], "O.npy"))])
    want = []
    for t in range(64):
        w = y[t // 32 * 32 : t // 32 * 32 + 32]
        lane = t % 32
        piece = w[lane // 8 * 8 : lane // 8 * 8 + 8]
        want.append(w.sum() + piece.max() + y[t ^ 1] + y.sum() + int(np.argmax(w)))
    if not np.array_equal(o, np.array(want)):
        i = int(np.nonzero(o != np.array(want))[0][0])
        sys.exit(f"thread {i}: {o[i]}, want {want[i]}")
    print("bf16 lanes ok")
