"""bf16 tensors for tests/lit/run/bf16.phobos: NumPy has no bfloat16, so a bf16 tensor is a
uint16 array of bit patterns (docs/language.md).

  bf16.py gen DIR N SEED     X (bf16 bits), Y (bf16 zeros), Z (f32 zeros), W (1 x N bf16 bits)
  bf16.py check DIR OUT      Y = x * x + 1.5 rounded once, Z = x + exp(x) in f32 (within 1 ULP), W[0, 0] = the
                             sum of W[0, :8] in bf16 from the first element; exits 1 on a mismatch
"""
import math
import os
import struct
import sys

import numpy as np


def to_bits(v):
    """v (a Python float) rounded to nearest even bf16, as bits."""
    if math.isnan(v):
        return 0x7FC0
    if math.isinf(v) or v == 0.0:
        return struct.unpack("<I", struct.pack("<f", v))[0] >> 16
    m, e = math.frexp(v)
    r = round(m * 256) * 2.0 ** (e - 8)  # round() on a float is half to even, exactly
    return struct.unpack("<I", struct.pack("<f", r))[0] >> 16


def value(bits):
    return struct.unpack("<f", struct.pack("<I", int(bits) << 16))[0]


if __name__ == "__main__":
    d = sys.argv[2]
    if sys.argv[1] == "gen":
        n, seed = int(sys.argv[3]), int(sys.argv[4])
        rng = np.random.default_rng(seed)
        x = np.array([to_bits(v) for v in rng.uniform(-4, 4, n)], dtype=np.uint16)
        w = np.array([to_bits(v) for v in rng.uniform(-100, 100, n)], dtype=np.uint16).reshape(1, n)
        np.save(os.path.join(d, "X.npy"), x)
        np.save(os.path.join(d, "Y.npy"), np.zeros(n, np.uint16))
        np.save(os.path.join(d, "Z.npy"), np.zeros(n, np.float32))
        np.save(os.path.join(d, "W.npy"), w)
    else:
        out = sys.argv[3]
        x = np.load(os.path.join(d, "X.npy"))
        y = np.load(os.path.join(out, "Y.npy"))
        z = np.load(os.path.join(out, "Z.npy"))
        w = np.load(os.path.join(d, "W.npy"))
        wo = np.load(os.path.join(out, "W.npy"))
        want_y = np.array([to_bits(value(b) * value(b) + 1.5) for b in x], dtype=np.uint16)
        if not (y == want_y).all():
            i = int(np.argmax(y != want_y))
            sys.exit(f"Y[{i}]: {y[i]:#06x}, want {want_y[i]:#06x} (x = {value(x[i])})")
        xs = np.array([value(b) for b in x], dtype=np.float64)
        # exp rounded to f32, then the f32 add (the kernel's two roundings).
        want_z = xs.astype(np.float32) + np.exp(xs).astype(np.float32)
        ulps = abs(z.view(np.int32).astype(np.int64) - want_z.view(np.int32).astype(np.int64))
        if ulps.max() > 1:
            sys.exit(f"Z: {ulps.max()} ULP off")
        acc = value(w[0, 0])
        for b in w[0, 1:8]:
            acc = value(to_bits(acc + value(b)))
        if wo[0, 0] != to_bits(acc):
            sys.exit(f"W[0, 0]: {wo[0, 0]:#06x}, want {to_bits(acc):#06x}")
        print("bf16 ok")
