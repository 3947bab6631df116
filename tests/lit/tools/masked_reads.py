"""NumPy's reference for masked-reads.phobos: each read outside X takes its fill."""
import sys

import numpy as np

d, o = sys.argv[1], sys.argv[2]
X, Bo = np.load(f"{d}/X.npy").astype(np.float64), np.load(f"{d}/Bo.npy")
M, N = X.shape


def at(a, r, j, fill):
    return a[r, j] if 0 <= r < M and 0 <= j < N else fill


want = {k: np.zeros((M, 64)) for k in "PRC"}
Q = np.zeros((M, 64), bool)
for r in range(M):
    for t in range(64):
        j = t * 2 - 8
        want["P"][r, t] = at(X, r - 1, j, -1.5) + 0.5
        want["R"][r, t] = sum(np.float32(at(X, r, j + k, np.float32(-2.5))) for k in range(4))
        want["C"][r, t] = at(X, r + t - 62, j, -np.inf) + sum(at(X, t - 1 + k, j, 1.0) for k in range(3))
        Q[r, t] = at(Bo, r, j, True)
for k, w in want.items():
    got = np.load(f"{o}/{k}.npy").astype(np.float64)
    if not np.allclose(got, w, rtol=1e-6, atol=1e-6):
        bad = np.argwhere(~np.isclose(got, w, rtol=1e-6, atol=1e-6))[0]
        sys.exit(f"{k}{tuple(bad)}: got {got[tuple(bad)]}, want {w[tuple(bad)]}")
if not (np.load(f"{o}/Q.npy") == Q).all():
    sys.exit("Q differs")
print("masked reads ok")
