"""Errors are exceptions with their locations: compile errors, faults, launch errors."""

import pathlib

import numpy as np
import pytest

import phobos

OOB = """@launch(64)
kernel oob(X: tensor<f32>[N], Y: tensor<f32>[N]) {
  let i = ctx.block.x * ctx.threads + ctx.thread
  Y[i] = X[i] + 1.0
}
"""


def test_compile_error_is_located(tmp_path):
    src = tmp_path / "bad.phobos"
    src.write_text("@launch(32)\nkernel k(X: tensor<f32>[N]) {\n  X[0] = exp(1.0) + nope\n}\n")
    with pytest.raises(phobos.CompileError) as info:
        phobos.compile(src)
    e = info.value
    assert isinstance(e, Exception) and isinstance(e, phobos.PhobosError)
    assert e.file == str(src) and e.line == 3 and e.column is not None
    assert "nope" in e.message
    # str() is the CLI's located text, with the source line under it.
    assert str(e).startswith(f"{src}:3:")
    assert "X[0] = exp(1.0) + nope" in str(e)


def test_compile_error_from_text_names_the_source():
    with pytest.raises(phobos.CompileError) as info:
        phobos.compile("@launch(32)\nkernel k(X: tensor<f32>[N]) {\n  let a = X[0] +\n}\n")
    assert info.value.file == "<source>.phobos" and info.value.line is not None


def test_divergence_error_has_notes_or_names():
    src = """@launch(64)
kernel k(X: tensor<f32>[N]) {
  if ctx.lane < 3 {
    let s = sum<over ctx.lane>(X[ctx.lane])
    X[0] = s
  }
}
"""
    with pytest.raises(phobos.CompileError) as info:
        phobos.compile(src)
    e = info.value
    assert e.line is not None
    for n in e.notes:
        assert isinstance(n, phobos.Note) and n.message


def test_fault_is_located():
    mod = phobos.compile(OOB)
    x = np.arange(100, dtype=np.float32)
    y = np.zeros_like(x)
    with pytest.raises(phobos.Fault) as info:
        mod.oob(x, y, grid=2)  # 128 threads over 100 elements: 28 read past the end
    f = info.value
    assert f.kind == "out-of-bounds access"
    assert f.kernel == "oob" and f.cta == (1, 0, 0) and f.thread is not None
    assert f.file == __file__ and f.line == _line_of("  Y[i] = X[i] + 1.0")
    assert "out-of-bounds" in str(f) and "CTA (1, 0, 0)" in str(f)
    # A faulting launch writes nothing back.
    assert not y.any()


def test_fault_reported_is_the_first_cta_whatever_the_threads():
    mod = phobos.compile(OOB)
    seen = set()
    for threads in (1, 2, 4):
        x = np.arange(100, dtype=np.float32)
        with pytest.raises(phobos.Fault) as info:
            mod.oob(x, np.zeros_like(x), grid=4, sim_threads=threads)
        seen.add((info.value.cta, info.value.thread))
    assert len(seen) == 1


@pytest.mark.parametrize(
    "args,match",
    [
        ((np.zeros(8, np.float64), np.zeros(8, np.float32)), "float64"),
        ((np.zeros(8, np.float32), np.zeros(9, np.float32)), "8.*9|9.*8"),
        ((np.zeros((2, 4), np.float32), np.zeros(8, np.float32)), "dimension"),
        ((np.lib.stride_tricks.as_strided(np.zeros(64, np.float32), (8,), (6,)), np.zeros(8, np.float32)), "byte stride 6 is not a multiple"),
        ((np.zeros(8, ">f4"), np.zeros(8, np.float32)), "big-endian"),
        ((np.zeros(8, np.complex64), np.zeros(8, np.float32)), "dtype"),
        (([1.0] * 8, np.zeros(8, np.float32)), "list, not an array"),
        (("x", np.zeros(8, np.float32)), "not an array"),
    ],
)
def test_launch_errors(args, match):
    mod = phobos.compile(OOB)
    with pytest.raises(phobos.LaunchError, match=match):
        mod.oob(*args, grid=1)


def test_argument_errors():
    mod = phobos.compile(OOB)
    x = np.zeros(64, np.float32)
    with pytest.raises(phobos.LaunchError, match="no parameter 'Z'"):
        mod.oob(x, Z=x, grid=1)
    with pytest.raises(phobos.LaunchError, match="given twice"):
        mod.oob(x, x, X=x, grid=1)
    with pytest.raises(phobos.LaunchError, match="grid"):
        mod.oob(x, x.copy(), grid=(1, 2, 3, 4))
    with pytest.raises(phobos.LaunchError, match="grid"):
        mod.oob(x, x.copy(), grid=-1)
    with pytest.raises(phobos.LaunchError, match="Y"):
        mod.oob(x, grid=1)
    with pytest.raises(phobos.LaunchError, match="N=32 conflicts with N = 64"):
        mod.oob(x, x.copy(), N=32, grid=1)
    with pytest.raises(AttributeError, match="no kernel named 'nope'"):
        mod.nope
    with pytest.raises(phobos.LaunchError, match="sim_sms"):
        mod.oob(x, x.copy(), grid=1, sim_sms=0)


def test_read_only_output():
    mod = phobos.compile(OOB)
    x = np.zeros(64, np.float32)
    y = np.zeros(64, np.float32)
    y.flags.writeable = False
    with pytest.raises(phobos.LaunchError, match="read-only"):
        mod.oob(x, y, grid=1)


def test_strided_row_is_copied_in_place_when_contiguous():
    mod = phobos.compile(OOB)
    buf = np.zeros((3, 64), np.float32)
    mod.oob(buf[0], buf[1], grid=1)  # rows of a C-contiguous array are contiguous views
    assert (buf[1] == 1).all() and not buf[2].any()


TWO_OUTPUTS = """
@launch(32)
kernel two(X: tensor<f32>[N], A: tensor<f32>[N], B: tensor<f32>[N]) {
  let t = ctx.thread
  if t < N {
    A[t] = X[t] + 1.0
    B[t] = X[t] + 2.0
  }
}
"""


def test_a_refused_write_back_writes_no_array():
    mod = phobos.compile(TWO_OUTPUTS)
    x, a, b = np.ones(32, np.float32), np.zeros(32, np.float32), np.zeros(32, np.float32)
    b.flags.writeable = False
    with pytest.raises(phobos.LaunchError, match="read-only"):
        mod.two(x, a, b, grid=1)
    assert not a.any(), "the writable output was written though the launch was refused"


RACY = """
@launch(64)
kernel bump(X: tensor<f32>[N]) {
  if ctx.thread == 0 { X[0] = X[0] + 1.0 }
}
"""


def test_check_races_reports_a_plain_race_between_ctas():
    mod = phobos.compile(RACY)
    x = np.zeros(4, np.float32)
    mod.bump(x, grid=8)  # unchecked: runs, as on a GPU
    before = x.copy()
    with pytest.raises(phobos.Fault) as e:
        mod.bump(x, grid=8, check_races=True)
    assert "race" in e.value.kind and "CTA (0, 0, 0)" in str(e.value)
    np.testing.assert_array_equal(x, before)


def test_written_views_that_repeat_or_overlap_are_refused():
    mod = phobos.compile(OOB)
    x = np.zeros(64, np.float32)
    with pytest.raises(phobos.LaunchError, match="repeats elements"):
        mod.oob(x, np.broadcast_to(np.zeros(1, np.float32), (64,)), grid=1)
    buf = np.zeros(65, np.float32)
    with pytest.raises(phobos.LaunchError, match="overlap in memory, and the kernel writes 'Y'"):
        mod.oob(buf[:64], buf[1:], grid=1)
    assert not buf.any()


BROKEN = """@launch(32)
kernel broken(X: tensor<f32>[N]) {
  X[0] = nope + 1.0
}
"""

FAULTY = """@launch(32)
kernel faulty(X: tensor<f32>[N]) {
  X[ctx.thread + 100] = 1.0
}
"""


def _line_of(needle: str) -> int:
    text = pathlib.Path(__file__).read_text()
    return text[: text.index(needle)].count("\n") + 1


def test_errors_and_faults_of_a_kernel_in_a_py_string_name_the_py_file():
    with pytest.raises(phobos.CompileError) as e:
        phobos.compile(BROKEN)
    assert e.value.file == __file__ and (e.value.line, e.value.column) == (_line_of("  X[0] = nope"), 10), str(e.value)
    assert f"{__file__}:{e.value.line}:10: error: unknown name 'nope'" in str(e.value)
    with pytest.raises(phobos.Fault) as f:
        phobos.compile(FAULTY).faulty(np.zeros(8, np.float32), grid=1)
    assert f.value.file == __file__ and f.value.line == _line_of("  X[ctx.thread + 100]"), str(f.value)
    # Text from elsewhere: the position its caller gives.
    with pytest.raises(phobos.CompileError) as e:
        phobos.compile("@launch(32)\nkernel k(X: tensor<f32>[N]) {\n  X[0] = nope\n}\n", file="gen.py", line=40, column=5)
    assert (e.value.file, e.value.line, e.value.column) == ("gen.py", 42, 10)


SPIN = """@launch(32)
kernel spin(X: tensor<f32>[N]) {
  var i = 0
  while X[1] == 0.0 { i = i + 1 }
  X[0] = f32(i)
}
"""


def test_limits_are_named_by_their_keywords():
    mod = phobos.compile(SPIN)
    with pytest.raises(phobos.Fault) as e:
        mod.spin(np.zeros(4, np.float32), grid=1, max_warp_instructions=1000)
    assert "max_warp_instructions=N" in str(e.value) and "--max" not in str(e.value), str(e.value)


def test_ctrl_c_interrupts_a_simulator_launch():
    import _thread
    import threading
    import time

    mod = phobos.compile(SPIN)
    x = np.zeros(4, np.float32)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        mod.spin(x, grid=1, max_warp_instructions=10**12, max_launch_instructions=10**12)
    assert time.perf_counter() - t0 < 5
    assert not x.any()
