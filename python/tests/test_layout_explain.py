"""The layout object and explain's page."""

import numpy as np
import pytest

import phobos


def test_layout_object():
    l = phobos.layout("(4,8):(8,1)")
    assert str(l) == "(4,8):(8,1)"
    assert l.table() == [(i % 4) * 8 + i // 4 for i in range(32)]
    assert str(phobos.layout("(2,4):(1,2)").coalesce()) == "8:1"
    assert str(l.compose("(2,2):(1,4)")) == "(2,2):(8,1)"
    assert l.compose(phobos.layout("(2,2):(1,4)")) == phobos.layout("(2,2):(8,1)")
    svg = l.draw()
    assert svg.startswith("<svg") and svg == l._repr_svg_()
    assert "T0V0" in l.draw("text")
    assert repr(l) == "phobos.layout('(4,8):(8,1)')"


def test_layout_checks():
    assert phobos.layout("(4,8):(8,1)").check("logical")
    with pytest.raises(phobos.LaunchError, match="logical|bijection"):
        phobos.layout("(4,8):(1,1)").check("logical")
    with pytest.raises(phobos.LaunchError):
        phobos.layout("(4,8):(8,")
    with pytest.raises(phobos.LaunchError, match="domain|leaves"):
        phobos.layout("4:1").compose("8:1")


def test_named_layout_table():
    l = phobos.layout("S[(4,8):(8,1)]")
    rows = l.table()
    assert rows and all(isinstance(r, str) for r in rows)


def test_explain_page(examples):
    mod = phobos.compile(examples / "lanes_matvec.phobos")
    w = np.ones((8, 128), np.float32)
    x = np.ones((1, 128), np.float32)
    y = np.zeros((1, 8), np.float32)
    e = mod.explain(grid=2, W=w, x=x, y=y)
    assert e._repr_html_() == e.html
    assert e.html.lstrip().lower().startswith("<!doctype html")
    assert "lanes_matvec" in e.text and "grid 2x1x1" in e.text
    # The module-level form compiles the source itself; tensors not given are generated.
    e2 = phobos.explain(examples / "lanes_matvec.phobos", grid=2, N=8, K=128)
    assert "lanes_matvec" in e2.text


def test_explain_errors(examples):
    mod = phobos.compile(examples / "tutorials" / "matmul.phobos")
    with pytest.raises(phobos.LaunchError, match="several kernels"):
        mod.explain(grid=1)
    with pytest.raises(phobos.LaunchError, match="outside the grid"):
        mod.explain("matmul", grid=1, cta=3, M=16, N=16, K=16)


def test_ir_and_manifest(examples):
    mod = phobos.compile(examples / "tutorials" / "softmax.phobos", chip="sm_80")
    assert mod.chip == "sm_80" and ".target sm_80" in mod.ptx
    assert "lane." in mod.ir("l1") or "cta." in mod.ir("l1")
    assert "gpu.func @softmax" in mod.ir("simt")
    assert "llvm.func" in mod.ir("llvm")
    assert mod.ir("ptx") == mod.ptx
    passes = mod.passes()
    assert len(passes) > 10 and all(p.ir for p in passes)
    assert {p.stage for p in passes} >= {"simt", "llvm"}
    with pytest.raises(ValueError, match="l1, simt, llvm, ptx"):
        mod.ir("sass")
    (entry,) = mod.manifest["entries"]
    assert entry["name"] == "softmax" and entry["block"] == [256, 1, 1]
    assert "softmax" in dir(mod) and mod.kernels == ["softmax"]
    assert "X: f32[M, N]" in repr(mod.softmax)


def test_fast_math_and_no_fma(examples):
    path = examples / "tutorials" / "gelu.phobos"
    assert "tanh.approx.f32" in phobos.compile(path, fast_math=True).ptx
    # The source's a * b + c contracts by default; tanh's own fmas (libdevice) stay either way.
    fused = phobos.compile(path).ptx.count("fma.rn.f32")
    apart = phobos.compile(path, no_fma=True).ptx.count("fma.rn.f32")
    assert fused > apart
