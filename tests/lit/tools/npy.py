"""Inputs and NumPy references for the `phobos run` lit tests.

  npy.py rand OUT SHAPE DTYPE SEED [LO HI]   uniform values (integers for int dtypes)
  npy.py fill OUT SHAPE DTYPE VALUE          a constant array
  npy.py range OUT N DTYPE                   0, 1, ..., N-1
  npy.py matvec W x y [TOL]                  y == W @ x[0] within TOL * K
  npy.py lanemax A O                         O[0,0] == max(A[0, :32])
  npy.py equal A B                           A and B hold the same values
  npy.py values OUT DTYPE V0,V1,...          a 1-row array of exactly these values (floats.hex too)
  npy.py print A                             the values, repr'd exactly
  npy.py ranks OUT SHAPE KIND                int32 ranks, a permutation of [0, size): reversed;
                                             KIND repeat: flat[11] = flat[80]; outside: flat[14] = size
  npy.py roll IN OUT D                       OUT == np.roll(IN, -D), same dtype and shape
  npy.py typed OUT SHAPE DTYPE SEED          random bytes viewed as DTYPE (any dtype: uint, bool, ...)
  npy.py reversed X Y                         Y == X reversed along its last axis
  npy.py exchange X Y A B T N                Y == exchange<A, B> of X (item i of thread t at
                                             index t*N + i; A, B named layouts, e.g. blocked)
Exits 1 with a message on a mismatch.
"""
import sys

import numpy as np


def shape(s):
    return tuple(int(d) for d in s.split("x"))


def positions(layout, T, N):
    """pos[t, i]: the position item i of thread t holds under a named layout."""
    t, i = np.meshgrid(np.arange(T), np.arange(N), indexing="ij")
    if layout == "blocked":
        return t * N + i
    if layout == "striped":
        return i * T + t
    if layout == "warp_striped":
        return (t // 32) * 32 * N + i * 32 + t % 32
    sys.exit(f"unknown layout {layout}")


def main(argv):
    cmd = argv[0]
    if cmd == "rand":
        out, shp, dt, seed = argv[1], shape(argv[2]), np.dtype(argv[3]), int(argv[4])
        lo, hi = (float(argv[5]), float(argv[6])) if len(argv) > 6 else (-1.0, 1.0)
        rng = np.random.default_rng(seed)
        if np.issubdtype(dt, np.integer):
            a = rng.integers(int(lo), int(hi) + 1, size=shp).astype(dt)
        elif dt == np.bool_:
            a = rng.integers(0, 2, size=shp).astype(dt)
        else:
            a = rng.uniform(lo, hi, size=shp).astype(dt)
        np.save(out, a)
    elif cmd == "fill":
        np.save(argv[1], np.full(shape(argv[2]), float(argv[4]), dtype=np.dtype(argv[3])))
    elif cmd == "range":
        np.save(argv[1], np.arange(int(argv[2])).astype(np.dtype(argv[3])))
    elif cmd == "matvec":
        W, x, y = np.load(argv[1]), np.load(argv[2]), np.load(argv[3])
        tol = float(argv[4]) if len(argv) > 4 else 1e-6
        ref = W.astype(np.float64) @ x[0].astype(np.float64)
        err = float(np.max(np.abs(y[0].astype(np.float64) - ref)))
        if not err <= tol * W.shape[1]:
            sys.exit(f"matvec: max abs error {err} > {tol} * K")
        print(f"matvec ok: N={W.shape[0]} K={W.shape[1]} max abs error {err:.3g}")
    elif cmd == "lanemax":
        A, O = np.load(argv[1]), np.load(argv[2])
        if O[0, 0] != A[0, :32].max():
            sys.exit(f"lanemax: {O[0, 0]} != {A[0, :32].max()}")
        print("lanemax ok")
    elif cmd == "builtins":
        A, O = np.load(argv[1]).astype(np.int64), np.load(argv[2]).astype(np.int64)
        u = A & 0xFF
        w0 = (u[:, 0] | (u[:, 1] << 8) | (u[:, 2] << 16) | (u[:, 3] << 24)).astype(np.uint32).astype(np.int32).astype(np.int64)
        w1 = (u[:, 4] | (u[:, 5] << 8) | (u[:, 6] << 16) | (u[:, 7] << 24)).astype(np.uint32).astype(np.int32).astype(np.int64)
        want = np.zeros_like(O)
        want[:, 0] = 7 + (A[:, 0:4] * A[:, 4:8]).sum(axis=1)
        want[:, 1] = (u[:, 0] | (u[:, 4] << 8) | (u[:, 1] << 16) | (u[:, 5] << 24)).astype(np.uint32).astype(np.int32)
        want[:, 2] = [bin(int(x) & 0xFFFFFFFF).count("1") for x in w0]
        want[:, 3] = A[:, 5]
        want[:, 4] = w0 & 0x0F0F0F0F
        want[:, 5] = ((A & 15) * ((A >> 4) & 15)).sum(axis=1)
        want[:, 7] = w1 >> 4
        bad = np.argwhere(want != O)
        if len(bad):
            r, c = bad[0]
            sys.exit(f"builtins: O[{r}, {c}] = {O[r, c]}, want {want[r, c]}")
        print("builtins ok")
    elif cmd == "equal":
        A, B = np.load(argv[1]), np.load(argv[2])
        if A.shape != B.shape or not np.array_equal(A, B):
            sys.exit(f"equal: {argv[1]} and {argv[2]} differ")
        print("equal ok")
    elif cmd == "values":
        dt = np.dtype(argv[2])
        vals = [float.fromhex(v) if "0x" in v else float(v) for v in argv[3].split(",")]
        np.save(argv[1], np.array([vals], dtype=dt))
    elif cmd == "roll":
        A, B, d = np.load(argv[1]), np.load(argv[2]), int(argv[3])
        if A.dtype != B.dtype or A.shape != B.shape:
            sys.exit(f"roll: {B.dtype}{B.shape} is not {A.dtype}{A.shape}")
        if not np.array_equal(np.roll(A, -d).view(np.uint8), B.view(np.uint8)):
            sys.exit(f"roll: OUT is not np.roll(IN, -{d})")
        print(f"roll ok: {A.dtype} {A.shape} by {d}")
    elif cmd == "typed":
        shp, dt = shape(argv[2]), np.dtype(argv[3])
        raw = np.random.default_rng(int(argv[4])).integers(0, 256, size=int(np.prod(shp)) * dt.itemsize, dtype=np.uint8)
        a = raw.view(dt).reshape(shp)
        if dt == np.bool_:
            a = raw.astype(bool).reshape(shp)
        np.save(argv[1], a)
    elif cmd == "reversed":
        X, Y = np.load(argv[1]), np.load(argv[2])
        if not np.array_equal(X[..., ::-1], Y):
            sys.exit("reversed: Y is not X reversed")
        print("reversed ok")
    elif cmd == "ranks":
        shp = shape(argv[2])
        r = np.arange(int(np.prod(shp)), dtype=np.int32)[::-1].copy()
        if argv[3] == "repeat":
            r[11] = r[80]
        elif argv[3] == "outside":
            r[14] = r.size
        np.save(argv[1], r.reshape(shp))
    elif cmd == "exchange":
        X, Y = np.load(argv[1]).reshape(-1), np.load(argv[2]).reshape(-1)
        T, N = int(argv[5]), int(argv[6])
        pa, pb = positions(argv[3], T, N), positions(argv[4], T, N)
        # owner[p] = index t*N + i of the item holding position p under A.
        owner = np.empty(T * N, dtype=np.int64)
        owner[pa.reshape(-1)] = np.arange(T * N)
        want = X[owner[pb.reshape(-1)]]
        bad = np.flatnonzero(want != Y)
        if len(bad):
            k = bad[0]
            sys.exit(f"exchange: thread {k // N} item {k % N} is {Y[k]}, want {want[k]}")
        print(f"exchange<{argv[3]}, {argv[4]}> ok")
    elif cmd == "print":
        print(" ".join(repr(float(v)) for v in np.load(argv[1]).ravel()))
    else:
        sys.exit(f"npy.py: unknown command {cmd}")


if __name__ == "__main__":
    main(sys.argv[1:])
