"""The autotuner's search: ``@autotune`` meta-parameters (names that are no dimension) make one
entry per combination; a launch runs each candidate on copies of the arrays, picks one by the
simulator's cost model (warp instructions issued; deterministic), caches it per dimensions,
and says which in ``kernel.best_config``."""

import numpy as np
import phobos
import pytest

SRC = """
@autotune(BLOCK in [32, 64, 128], VEC in [1, 4])
@launch(BLOCK)
kernel scale(X: tensor<f32>[N], Y: tensor<f32>[N]) {
  let base = (ctx.block.x * BLOCK + ctx.thread) * VEC
  for k in range(0, VEC) {
    let i = base + k
    if i < N { Y[i] = X[i] * 3.0 }
  }
}
"""


def grid(meta):
    per_cta = meta["BLOCK"] * meta["VEC"]
    return (meta["N"] + per_cta - 1) // per_cta


def test_every_candidate_is_an_entry_with_its_meta_parameters():
    mod = phobos.compile(SRC)
    entries = {e["name"]: e for e in mod.manifest["entries"]}
    assert sorted(entries) == sorted(f"scale__BLOCK{b}_VEC{v}" for b in (32, 64, 128) for v in (1, 4))
    assert entries["scale__BLOCK64_VEC4"]["meta"] == {"BLOCK": 64, "VEC": 4}
    assert entries["scale__BLOCK64_VEC4"]["block"] == [64, 1, 1]
    # Meta-parameters are no parameters of the entry.
    assert all(p["kind"] != "dim" or p["name"] == "N" for p in entries["scale__BLOCK64_VEC4"]["params"])


def test_the_search_is_right_deterministic_and_shown():
    mod = phobos.compile(SRC)
    assert mod.scale.best_config is None
    x = np.arange(1000, dtype=np.float32)
    y = np.zeros_like(x)
    seen = []
    ran = mod.scale(x, y, grid=lambda m: seen.append(dict(m)) or grid(m))
    np.testing.assert_array_equal(y, x * 3)
    # The grid function saw every candidate's values and the dimension.
    assert sorted((m["BLOCK"], m["VEC"]) for m in seen) == sorted((b, v) for b in (32, 64, 128) for v in (1, 4))
    assert all(m["N"] == 1000 for m in seen)
    best = mod.scale.best_config
    assert ran.entry == f"scale__BLOCK{best['BLOCK']}_VEC{best['VEC']}"
    # The same choice in another module (the cost model is deterministic), and again from the
    # cache of choices for these dimensions.
    other = phobos.compile(SRC)
    y2 = np.zeros_like(x)
    assert other.scale(x, y2, grid=grid).entry == ran.entry
    np.testing.assert_array_equal(y2, y)
    assert other.scale.best_config == best


def test_every_candidate_computes_the_same_result():
    # -D fixes a meta-parameter: one candidate, whatever the search would pick.
    x = np.random.default_rng(0).standard_normal(777).astype(np.float32)
    for b in (32, 64, 128):
        for v in (1, 4):
            mod = phobos.compile(SRC, defines={"BLOCK": b, "VEC": v})
            y = np.zeros_like(x)
            ran = mod.scale(x, y, grid=grid)
            assert ran.entry == f"scale__BLOCK{b}_VEC{v}"
            assert mod.scale.best_config == {"BLOCK": b, "VEC": v}
            np.testing.assert_array_equal(y, x * 3)


def test_meta_parameters_size_runs_and_tiles():
    src = """
@autotune(R in [2, 4])
@launch(32)
kernel rowsum(X: tensor<f32>[M, 8], Y: tensor<f32>[M]) {
  let r = ctx.block.x * 32 + ctx.thread
  if r < M {
    var s: f32 = 0.0
    for j in range(0, 8, R) { s += sum(X[r, j :+ R]) }
    Y[r] = s
  }
}
"""
    mod = phobos.compile(src)
    x = np.random.default_rng(1).standard_normal((70, 8)).astype(np.float32)
    y = np.zeros(70, np.float32)
    mod.rowsum(x, y, grid=lambda m: (m["M"] + 31) // 32)
    np.testing.assert_allclose(y, x.sum(axis=1), rtol=1e-5, atol=1e-5)
    assert mod.rowsum.best_config["R"] in (2, 4)


def test_a_fixed_grid_serves_every_candidate():
    mod = phobos.compile(SRC)
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    mod.scale(x, y, grid=2)
    np.testing.assert_array_equal(y, x * 3)


def test_a_kernel_without_meta_parameters_shows_an_empty_choice(examples):
    mod = phobos.compile(examples / "tutorials" / "vector_add.phobos")
    x = np.ones(256, np.float32)
    mod.vector_add(x, x, np.zeros_like(x), grid=1)
    assert mod.vector_add.best_config == {}


def test_a_meta_parameter_used_nowhere_is_an_error():
    with pytest.raises(phobos.CompileError, match="neither a dimension of this kernel nor used in it"):
        phobos.compile("@autotune(Q in [1])\n@launch(32)\nkernel k(X: tensor<f32>[N]) {\n  X[0] = 1.0\n}\n")
