"""The disk kernel cache serves ``phobos.compile`` in a later process: no MLIR context, the IR
compiled again only when asked for."""

import os
import pathlib
import subprocess
import sys

import numpy as np
import phobos

SCRIPT = """
import sys, time
import phobos
t = time.perf_counter()
m = phobos.compile(sys.argv[1])
print(time.perf_counter() - t, m.from_cache)
"""


def test_a_second_process_compile_is_served_from_the_cache(tmp_path: pathlib.Path, examples: pathlib.Path) -> None:
    env = {**os.environ, "PHOBOS_CACHE_DIR": str(tmp_path)}
    src = str(examples / "tutorials" / "layer_norm.phobos")

    def compile_in_a_new_process():
        out = subprocess.run([sys.executable, "-c", SCRIPT, src], env=env, capture_output=True, text=True, check=True).stdout.split()
        return float(out[0]), out[1] == "True"

    (first, cached_first), (second, cached_second) = compile_in_a_new_process(), compile_in_a_new_process()
    assert not cached_first and cached_second
    assert second < first / 4, (first, second)


def test_a_cached_program_runs_and_compiles_its_ir_when_asked(tmp_path: pathlib.Path, monkeypatch) -> None:
    monkeypatch.setenv("PHOBOS_CACHE_DIR", str(tmp_path))
    src = "@launch(64)\nkernel scale(X: tensor<f32>[N], Y: tensor<f32>[N], a: f32) {\n  let i = ctx.block.x * 64 + ctx.thread\n  if i < N { Y[i] = X[i] * a }\n}\n"
    fresh = phobos.compile(src)
    cached = phobos.compile(src)
    assert not fresh.from_cache and cached.from_cache
    assert cached.ptx == fresh.ptx and cached.manifest == fresh.manifest and cached.kernels == fresh.kernels
    x = np.arange(100, dtype=np.float32)
    y = np.zeros_like(x)
    cached.scale(x, y, 2.5, grid=2)
    np.testing.assert_array_equal(y, x * np.float32(2.5))
    assert cached.ir("l1") == fresh.ir("l1")
    assert [p.name for p in cached.passes()] == [p.name for p in fresh.passes()]
    # Other options are another program.
    assert not phobos.compile(src, fast_math=True).from_cache
