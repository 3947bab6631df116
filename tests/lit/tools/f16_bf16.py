"""f16 <-> bf16 conversions for tests/lit/run/f16-bf16.phobos: each rounds once, to nearest
even, from the exact value (through f32, which holds both).

  f16_bf16.py gen DIR N SEED   H (f16, wide range, subnormals and halfway cases), B (bf16 bits),
                               D (f64 at and beside the halfway points of both formats)
  f16_bf16.py check DIR OUT    OUT/HB (bf16 bits) == bf16(H), OUT/BH (f16) == f16(B),
                               OUT/DH == f16(D), OUT/DB == bf16(D), each rounded once from the
                               exact value; exits 1 on a mismatch
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
    # f64 values at a halfway point of f16 or bf16, and a hair to either side of one (an f32
    # in between would round them to the tie: two roundings give the other neighbour).
    f = h.view(np.float16).astype(np.float64)
    ulp = np.abs(np.spacing(h.view(np.float16)).astype(np.float64))
    mid_h = f + np.sign(f + 0.5) * ulp / 2
    bb = np.array([value(v) for v in b])
    mid_b = bb + np.sign(bb + 0.5) * np.abs(bb) * 2.0 ** -8
    mids = np.concatenate([mid_h[: n // 2], mid_b[: n - n // 2]])
    hair = np.abs(mids) * 2.0 ** -40 * rng.choice([-1.0, 0.0, 1.0], n)
    np.save(os.path.join(d, "D.npy"), mids + hair)
    np.save(os.path.join(d, "DH.npy"), np.zeros(n, np.float16))
    np.save(os.path.join(d, "DB.npy"), np.zeros(n, np.uint16))
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
    # From f64: NumPy's float64 -> float16 rounds once; bf16 by exact rational rounding.
    dd = np.load(os.path.join(d, "D.npy"))
    dh, db = np.load(os.path.join(out, "DH.npy")), np.load(os.path.join(out, "DB.npy"))
    want_dh = dd.astype(np.float16)
    want_db = np.array([to_bits(float(v)) for v in dd], dtype=np.uint16)
    bad = [i for i in range(len(dd)) if dh.view(np.uint16)[i] != want_dh.view(np.uint16)[i] or db[i] != want_db[i]]
    if bad:
        i = bad[0]
        sys.exit(f"element {i}: f16({dd[i]!r}) = {dh[i]!r} (want {want_dh[i]!r}); bf16 = {db[i]:#06x} (want {want_db[i]:#06x})")
    print(f"f16 <-> bf16 ok: {len(h)} each way, {len(dd)} from f64")
