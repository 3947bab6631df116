"""Checks the math built-ins' outputs against NumPy (tests/lit/run/math.phobos).

  math_check.py f32 X.npy Y.npy     Y[:, j] = FUNCS[j](X) within 1 f32 ULP of the f64 value
  math_check.py f64 X.npy Y.npy     the same in f64, within 2 ULP (two libms)
  math_check.py f16 X.npy Y.npy     Y = exp(X) computed in f32, rounded to f16: within 1 f16 ULP
  math_check.py misc I.npy O.npy F.npy G.npy
Exits 1 with a message on a mismatch.
"""
import math
import sys

import numpy as np

erf = np.vectorize(math.erf)
erfc = np.vectorize(math.erfc)
# Column j of the kernels' outputs: (name, f(x) in f64 of x in the kernel's type). Inputs are
# in [-4, 4]; an argument the kernel computes (`abs(x) + 0.5`) is rounded to its type first.


def h(x):
    """abs(x) + 0.5 as the kernel computes it, in x's type, then as f64."""
    return (abs(x) + x.dtype.type(0.5)).astype(np.float64)


def d(x):
    return x.astype(np.float64)


FUNCS = [
    ("exp", lambda x: np.exp(d(x))), ("exp2", lambda x: np.exp2(d(x))), ("log", lambda x: np.log(h(x))),
    ("log2", lambda x: np.log2(h(x))), ("log10", lambda x: np.log10(h(x))), ("log1p", lambda x: np.log1p(abs(d(x)))),
    ("expm1", lambda x: np.expm1(d(x))), ("sqrt", lambda x: np.sqrt(abs(d(x)))), ("rsqrt", lambda x: 1 / np.sqrt(h(x))),
    ("cbrt", lambda x: np.cbrt(d(x))), ("sin", lambda x: np.sin(d(x))), ("cos", lambda x: np.cos(d(x))),
    ("tan", lambda x: np.tan(d(x) / 4)), ("tanh", lambda x: np.tanh(d(x))), ("sinh", lambda x: np.sinh(d(x))),
    ("cosh", lambda x: np.cosh(d(x))), ("asin", lambda x: np.arcsin(d(x) / 4)), ("acos", lambda x: np.arccos(d(x) / 4)),
    ("atan", lambda x: np.arctan(d(x))), ("erf", lambda x: erf(d(x))), ("erfc", lambda x: erfc(d(x))),
    ("floor", lambda x: np.floor(d(x))), ("ceil", lambda x: np.ceil(d(x))),
    ("round", lambda x: np.sign(d(x)) * np.floor(abs(d(x)) + 0.5)), ("trunc", lambda x: np.trunc(d(x))),
    ("atan2", lambda x: np.arctan2(d(x), 0.75)), ("pow", lambda x: np.power(abs(d(x)), 1.5)),
    ("copysign", lambda x: np.copysign(2.0, d(x))), ("fma", lambda x: d(x) * d(x) + 0.25), ("abs", lambda x: abs(d(x))),
]


def ulps(got, want, dtype):
    want = want.astype(dtype)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    gi = got.view(np.int32 if dtype == np.float32 else np.int64).astype(np.int64)
    wi = want.view(np.int32 if dtype == np.float32 else np.int64).astype(np.int64)
    return np.where(same, 0, abs(gi - wi))


def check_table(kind, x_path, y_path):
    dtype = np.float32 if kind == "f32" else np.float64
    bound = 1 if kind == "f32" else 2
    x = np.load(x_path)
    y = np.load(y_path)
    bad = []
    for j, (name, f) in enumerate(FUNCS):
        u = ulps(y[:, j], f(x), dtype)
        if u.max() > bound:
            i = int(u.argmax())
            bad.append(f"{name}: {u.max()} ULP at x = {x[i]!r} (got {y[i, j]!r}, want {f(x[i:i + 1])[0]!r})")
    if bad:
        sys.exit(f"{kind} math functions off:\n" + "\n".join(bad))
    print(f"{kind} math ok: {len(FUNCS)} functions x {len(x)} inputs within {bound} ULP")


def check_misc(i_path, o_path, f_path, g_path):
    i = np.load(i_path)
    o = np.load(o_path)
    assert (o[:, 0] == abs(i)).all(), "abs of i64"
    f = np.load(f_path)[0]
    g = np.load(g_path)
    want = np.where(np.isnan(f), -1.0, np.where(np.isinf(f), 2.0, f)).astype(np.float32)
    assert (g[:, 0] == want).all(), f"select/isnan/isinf: {g[:, 0]} != {want}"
    assert np.isinf(g[:, 1]).all() and (g[:, 1] < 0).all(), "-inf literal"
    assert np.isnan(g[:, 2]).all(), "nan literal"
    print("misc ok")


if __name__ == "__main__":
    kind = sys.argv[1]
    if kind in ("f32", "f64"):
        check_table(kind, sys.argv[2], sys.argv[3])
    elif kind == "f16":
        x = np.load(sys.argv[2])
        y = np.load(sys.argv[3])
        want = np.exp(x.astype(np.float64)).astype(np.float16)
        off = abs(y.view(np.int16).astype(np.int64) - want.view(np.int16).astype(np.int64))
        if off.max() > 1:
            sys.exit(f"f16 exp: {off.max()} f16 ULP off: {y} != {want}")
        print("f16 math ok")
    else:
        check_misc(*sys.argv[2:6])
