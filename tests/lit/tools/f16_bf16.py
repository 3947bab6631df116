"""f16 <-> bf16 conversions for tests/lit/run/f16-bf16.phobos: each rounds once, to nearest
even, from the exact value (through f32, which holds both).

  f16_bf16.py gen DIR N SEED   H (f16, wide range, subnormals and halfway cases), B (bf16 bits)
  f16_bf16.py check DIR OUT    OUT/HB (bf16 bits) == bf16(H), OUT/BH (f16) == f16(B); exits 1 on a mismatch
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from bf16 import to_bits, value  # noqa: E402

if sys.argv[1] == "gen":
    d, n, seed = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rng = np.random.default_rng(seed)
    # Every f16 bit pattern class: random bits (NaNs excluded), so subnormals and large values.
    h = rng.integers(0, 0x7C00, n, dtype=np.uint16) | (rng.integers(0, 2, n, dtype=np.uint16) << 15)
    np.save(os.path.join(d, "H.npy"), h.view(np.float16))
    # bf16 values from 2^-30 to 2^20: some round to f16 subnormals, some overflow to inf.
    b = [to_bits(float(s) * 2.0 ** float(e)) for s, e in zip(rng.uniform(-2, 2, n), rng.integers(-30, 20, n))]
    np.save(os.path.join(d, "B.npy"), np.array(b, dtype=np.uint16))
    np.save(os.path.join(d, "HB.npy"), np.zeros(n, np.uint16))
    np.save(os.path.join(d, "BH.npy"), np.zeros(n, np.float16))
else:
    d, out = sys.argv[2], sys.argv[3]
    h, b = np.load(os.path.join(d, "H.npy")), np.load(os.path.join(d, "B.npy"))
    hb, bh = np.load(os.path.join(out, "HB.npy")), np.load(os.path.join(out, "BH.npy"))
    want_hb = np.array([to_bits(float(v)) for v in h], dtype=np.uint16)
    want_bh = np.array([value(v) for v in b], dtype=np.float64).astype(np.float16)
    bad = [i for i in range(len(h)) if hb[i] != want_hb[i] or bh.view(np.uint16)[i] != want_bh.view(np.uint16)[i]]
    if bad:
        i = bad[0]
        sys.exit(f"element {i}: bf16({h[i]!r}) = {hb[i]:#06x} (want {want_hb[i]:#06x}); f16(bf16 {b[i]:#06x}) = {bh[i]!r} (want {want_bh[i]!r})")
    print(f"f16 <-> bf16 ok: {len(h)} each way")
