"""scans.phobos's kernels and NumPy references: every scan width and type, over the lanes and
over the CTA.

  scans.py gen DIR       writes DIR/scans.phobos (one kernel per type) and DIR/X_<type>.npy
  scans.py check DIR OUT compares OUT/O_<type>.npy with cumsum / maximum.accumulate
Exits 1 with a message on a mismatch.
"""
import sys

import numpy as np

TYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "f16": np.float16, "f32": np.float32, "f64": np.float64}
WIDTHS = [1, 2, 4, 8, 16, 32]
T = 128  # threads: 4 warps
# Rows of O: (kind, width) for each width, sum then max; then the CTA's sum and max, then the
# exclusive sums seeded with 3 (width 32, then over the CTA).
ROWS = [(k, w) for k in ("sum", "max") for w in WIDTHS] + [("sum", "cta"), ("max", "cta"), ("ex", 32), ("ex", "cta")]


def gen(d):
    lines = []
    for name in TYPES:
        lines.append("@launch(128)")
        lines.append(f"kernel k_{name}(X: tensor<{name}>[{T}], O: tensor<{name}>[{len(ROWS)}, {T}]) {{")
        lines.append("  let t = ctx.thread")
        lines.append("  let x = X[t]")
        for r, (k, w) in enumerate(ROWS):
            over = "ctx.thread" if w == "cta" else f"ctx.lane, width {w}"
            if k == "ex":
                lines.append(f"  O[{r}, t] = scan<over {over}, exclusive 3>(x)")
            else:
                f = "" if k == "sum" else ", max"
                lines.append(f"  O[{r}, t] = scan<over {over}>(x{f})")
        lines.append("}")
    open(f"{d}/scans.phobos", "w").write("\n".join(lines) + "\n")
    rng = np.random.default_rng(11)
    for name, dt in TYPES.items():
        x = rng.integers(-100, 100, T) if np.issubdtype(dt, np.integer) else rng.standard_normal(T)
        np.save(f"{d}/X_{name}.npy", x.astype(dt))
        np.save(f"{d}/O_{name}.npy", np.zeros((len(ROWS), T), dt))


def check(d, out):
    for name, dt in TYPES.items():
        x = np.load(f"{d}/X_{name}.npy")
        got = np.load(f"{out}/O_{name}.npy")
        integer = np.issubdtype(dt, np.integer)
        for r, (k, w) in enumerate(ROWS):
            n = T if w == "cta" else w
            pieces = x.reshape(-1, n)
            if k == "max":
                want = np.maximum.accumulate(pieces, axis=1).ravel()
            elif integer:
                # Integers wrap, as NumPy's fixed-width cumsum does.
                want = np.cumsum(pieces, axis=1, dtype=dt)
                if k == "ex":
                    want = np.concatenate([np.zeros((len(pieces), 1), dt), want[:, :-1]], axis=1) + dt(3)
                want = want.ravel()
            else:
                want = np.cumsum(pieces.astype(np.float64), axis=1)
                if k == "ex":
                    want = np.concatenate([np.zeros((len(pieces), 1)), want[:, :-1]], axis=1) + 3
                want = want.ravel()
            if integer or k == "max":
                bad = np.flatnonzero(got[r] != want)
            else:
                # A log2-depth tree of roundings: a few ulps of the prefix of magnitudes each step.
                eps = np.finfo(dt).eps
                mag = np.cumsum(np.abs(pieces.astype(np.float64)), axis=1).ravel() + 3
                bad = np.flatnonzero(np.abs(got[r].astype(np.float64) - want) > 8 * eps * mag)
            if len(bad):
                i = bad[0]
                sys.exit(f"{name} {k} width {w}: element {i} is {got[r][i]}, want {want[i]}")
    print(f"scans ok: {len(TYPES)} types, {len(ROWS)} scans each")


if __name__ == "__main__":
    {"gen": lambda a: gen(a[0]), "check": lambda a: check(a[0], a[1])}[sys.argv[1]](sys.argv[2:])
