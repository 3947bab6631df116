"""Every tutorial and example kernel on the simulator, from NumPy arrays, against NumPy."""

import numpy as np
import pytest

import phobos

rng = np.random.default_rng(7)


def uniform(shape, lo=-1.0, hi=1.0, dtype=np.float32):
    return rng.uniform(lo, hi, shape).astype(dtype)


def close(got, want, rtol, atol):
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=rtol, atol=atol)


def test_vector_add(examples):
    mod = phobos.compile(examples / "tutorials" / "vector_add.phobos")
    n = 1000  # not a multiple of the block: the tail is masked
    x, y, z = uniform(n), uniform(n), np.full(n, np.nan, np.float32)
    ran = mod.vector_add(x, y, z, grid=(n + 255) // 256)
    np.testing.assert_array_equal(z, x + y)
    assert ran.entry == "vector_add" and ran.device == "sim"
    assert ran.stats["ctas"] == 4


def test_softmax(examples):
    mod = phobos.compile(examples / "tutorials" / "softmax.phobos")
    x = uniform((5, 777), -8, 8)
    y = np.empty_like(x)
    mod.softmax(x, y, grid=5)
    e = np.exp(x.astype(np.float64) - x.max(1, keepdims=True))
    close(y, e / e.sum(1, keepdims=True), 1e-5, 1e-8)


def test_layer_norm(examples):
    mod = phobos.compile(examples / "tutorials" / "layer_norm.phobos")
    m, n = 3, 500
    x, w, b = uniform((m, n), -3, 3), uniform(n), uniform(n)
    y, mean, rstd = np.empty_like(x), np.zeros(m, np.float32), np.zeros(m, np.float32)
    mod.layer_norm(X=x, W=w, B=b, Y=y, Mean=mean, Rstd=rstd, eps=np.float32(1e-5), grid=m)
    x64 = x.astype(np.float64)
    mu = x64.mean(1)
    r = 1 / np.sqrt(x64.var(1) + 1e-5)
    close(mean, mu, 1e-5, 1e-5)
    close(rstd, r, 1e-4, 1e-5)
    close(y, (x64 - mu[:, None]) * r[:, None] * w + b, 1e-4, 1e-4)


def test_gelu(examples):
    mod = phobos.compile(examples / "tutorials" / "gelu.phobos")
    x = uniform(600, -6, 6)
    y = np.empty_like(x)
    mod.gelu(x, y, grid=3)
    v = x.astype(np.float64)
    close(y, 0.5 * v * (1 + np.tanh(np.sqrt(2 / np.pi) * (v + 0.044715 * v**3))), 1e-5, 1e-6)


@pytest.mark.parametrize("kernel,per_cta", [("matmul", 16), ("matmul_4x4", 64)])
def test_matmul(examples, kernel, per_cta):
    mod = phobos.compile(examples / "tutorials" / "matmul.phobos")
    m, n, k = 40, 72, 33
    a, b = uniform((m, k)), uniform((k, n))
    c = np.full((m, n), np.nan, np.float32)
    getattr(mod, kernel)(a, b, c, grid=(-(-n // per_cta), -(-m // per_cta)))
    close(c, a.astype(np.float64) @ b, 1e-5, 1e-5)


def test_matmul_f16(examples):
    mod = phobos.compile(examples / "tutorials" / "matmul.phobos")
    m, n, k = 16, 32, 24
    a, b = uniform((m, k), dtype=np.float16), uniform((k, n), dtype=np.float16)
    c = np.zeros((m, n), np.float32)
    mod.matmul_f16(a, b, c, grid=(2, 1))
    close(c, a.astype(np.float64) @ b.astype(np.float64), 1e-5, 1e-5)


@pytest.mark.parametrize("kernel, k", [("gemm_f16", 48), ("gemm_f16_pipelined", 128)])
def test_gemm_on_tensor_cores(examples, kernel, k):
    """The tensor-core GEMM tutorial (fragment, dot, for i, j in acc) from Python: f16 in, f32
    accumulation, f16 out, plain and software-pipelined (@pipeline(stages = 3): cp.async copies
    two k steps ahead, 4 steps here); shapes that are not multiples of the tile."""
    mod = phobos.compile(examples / "tutorials" / "gemm.phobos")
    m, n = 130, 70
    a, b = uniform((m, k), dtype=np.float16), uniform((k, n), dtype=np.float16)
    c = np.zeros((m, n), np.float16)
    ran = getattr(mod, kernel)(a, b, c, grid=(1, 2))
    close(c, a.astype(np.float64) @ b.astype(np.float64), 2e-3, 2e-3)
    assert ran.stats["bank_conflicts"] == 0


def test_tma_gemm_needs_no_tensor_map_argument(examples):
    """gemm_f16_tma compiled for sm_90a copies its tiles by TMA: the tensor maps are the
    launcher's, so the call is the plain GEMM's; K and N multiples of 8 (its @aligned), a ragged
    K step; every k step copies 16384 + 8192 bytes per CTA."""
    mod = phobos.compile(examples / "tutorials" / "gemm.phobos", chip="sm_90a")
    m, n, k = 130, 72, 136
    a, b = uniform((m, k), dtype=np.float16), uniform((k, n), dtype=np.float16)
    c = np.zeros((m, n), np.float16)
    ran = mod.gemm_f16_tma(a, b, c, grid=(2, 2))
    close(c, a.astype(np.float64) @ b.astype(np.float64), 2e-3, 2e-3)
    assert ran.stats["async_bytes"] == 4 * 3 * (16384 + 8192)


def test_i8_gemm_and_linear_layer(examples):
    """i8 in, exact i32 out; the linear layer Y = X Wᵀ (dot(Xs, trans(Ws), acc), W stored out x
    in as PyTorch's nn.Linear stores it); ragged shapes."""
    mod = phobos.compile(examples / "tutorials" / "gemm.phobos")
    m, n = 130, 70
    ai = rng.integers(-128, 128, (m, 96)).astype(np.int8)
    bi = rng.integers(-128, 128, (96, n)).astype(np.int8)
    ci = np.zeros((m, n), np.int32)
    mod.gemm_i8(ai, bi, ci, grid=(2, 3))
    np.testing.assert_array_equal(ci, ai.astype(np.int64) @ bi.astype(np.int64))
    x, w = uniform((m, 96), dtype=np.float16), uniform((n, 96), dtype=np.float16)
    y = np.zeros((m, n), np.float16)
    mod.linear_f16(x, w, y, grid=(2, 3))
    close(y, x.astype(np.float64) @ w.astype(np.float64).T, 2e-3, 2e-3)


@pytest.mark.parametrize("dim", [64, 128])
def test_flash_attention(examples, dim):
    """FlashAttention forward from Python: two heads of 100 rows stacked, causal, against
    softmax(Q Kᵀ / 8) V and its log-sum-exp; the entry of the arrays' head dimension runs."""
    mod = phobos.compile(examples / "tutorials" / "attention.phobos")
    heads, s = 2, 100
    q, k, v = (uniform((heads * s, dim), dtype=np.float16) for _ in range(3))
    o = np.zeros((heads * s, dim), np.float16)
    lse = np.zeros(heads * s, np.float32)
    mod.attention_f16(Q=q, K=k, V=v, O=o, LSE=lse, S=np.int32(s), scale=np.float32(0.125), causal=True, grid=(2, heads))
    for h in range(heads):
        rows = slice(h * s, h * s + s)
        sc = q[rows].astype(np.float64) @ k[rows].astype(np.float64).T / 8
        sc = np.where(np.tril(np.ones((s, s), bool)), sc, -np.inf)
        e = np.exp(sc - sc.max(1, keepdims=True))
        close(o[rows], (e / e.sum(1, keepdims=True)) @ v[rows].astype(np.float64), 1e-2, 2e-3)
        close(lse[rows], sc.max(1) + np.log(e.sum(1)), 1e-4, 1e-4)


def test_lanes_matvec(examples):
    mod = phobos.compile(examples / "lanes_matvec.phobos")
    n, k = 40, 256
    w, x = uniform((n, k)), uniform((1, k))
    y = np.zeros((1, n), np.float32)
    mod.lanes_matvec(w, x, y, grid=10)
    close(y[0], w.astype(np.float64) @ x[0], 1e-5, 1e-5)


def test_staged_matvec_autotune(examples):
    mod = phobos.compile(examples / "staged_matvec.phobos")
    n, k = 8, 256
    w, x = uniform((n, k)), uniform((1, k))
    y = np.zeros((1, n), np.float32)
    ran = mod.staged_matvec(w, x, y, grid=2)
    close(y[0], w.astype(np.float64) @ x[0], 1e-5, 1e-5)
    assert ran.entry == "staged_matvec__K256"  # the specialization K = 256 picked by shape
    with pytest.raises(phobos.LaunchError, match="@autotune"):
        mod.staged_matvec(uniform((n, 128)), uniform((1, 128)), y, grid=2)
    # The tuned dimension is a parameter like any other (the manifest lists every dimension).
    assert [p[1] for p in mod.staged_matvec.params] == ["W", "x", "y", "N", "K"]
    assert mod.staged_matvec(w, x, y, K=256, N=n, grid=2).entry == "staged_matvec__K256"


def test_i8_matvec(examples):
    mod = phobos.compile(examples / "i8_matvec.phobos")
    n, k = 16, 64
    a = rng.integers(-8, 8, (1, k), dtype=np.int8)
    w = rng.integers(-8, 8, (n, k), dtype=np.int8)
    c = np.zeros((1, n), np.float32)
    mod.i8_matvec(a, w, c, grid=2)
    np.testing.assert_array_equal(c[0], (w.astype(np.int64) @ a[0].astype(np.int64)).astype(np.float32))


def test_lane_max(examples):
    mod = phobos.compile(examples / "lane_max.phobos")
    a = uniform((1, 128))
    o = np.zeros((1, 1), np.float32)
    mod.lane_max(a, o, grid=1)
    assert o[0, 0] == a[0, :32].max()  # warp 0's maximum


def test_butterfly(examples):
    mod = phobos.compile(examples / "butterfly.phobos")
    x = uniform(256)
    s = np.zeros_like(x)
    mod.butterfly(x, s, grid=2)
    warp_sums = x.astype(np.float64).reshape(-1, 32).sum(1)
    close(s, np.repeat(warp_sums, 32), 1e-5, 1e-5)


def test_source_text_and_defines():
    src = """
@launch(32)
kernel scale(X: tensor<f32>[N], Y: tensor<f32>[N]) {
  let i = ctx.block.x * ctx.threads + ctx.thread
  if i < N {
    Y[i] = X[i] * 3.0
  }
}
"""
    mod = phobos.compile(src, defines={"N": 40})
    x = uniform(40)
    y = np.zeros_like(x)
    mod.scale(x, y, grid=2)
    np.testing.assert_array_equal(y, x * np.float32(3))
    assert mod.manifest["entries"][0]["fixed"] == {"N": 40}
    with pytest.raises(phobos.LaunchError, match="N"):
        mod.scale(uniform(41), np.zeros(41, np.float32), grid=2)


def test_sim_threads_and_bounds(examples):
    mod = phobos.compile(examples / "tutorials" / "vector_add.phobos")
    x, y = uniform(4096), uniform(4096)
    outs = []
    for threads in (1, 2):
        z = np.zeros_like(x)
        r = mod.vector_add(x, y, z, grid=16, sim_threads=threads)
        outs.append((z, r.stats))
    np.testing.assert_array_equal(outs[0][0], outs[1][0])
    assert outs[0][1] == outs[1][1]
    with pytest.raises(phobos.Fault, match="instructions"):
        mod.vector_add(x, y, np.zeros_like(x), grid=16, max_launch_instructions=10)


def test_gil_released_while_running(examples):
    import threading

    mod = phobos.compile(examples / "tutorials" / "matmul.phobos")
    m = n = k = 96
    a, b, c = uniform((m, k)), uniform((k, n)), np.zeros((m, n), np.float32)
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1

    t = threading.Thread(target=count)
    t.start()
    try:
        mod.matmul(a, b, c, grid=(6, 6), sim_threads=1)
    finally:
        done.set()
        t.join()
    # With the GIL held through the launch the counter would stand still while it ran.
    assert ticks > 1000


EXCHANGE = """
@launch(64)
kernel ex(X: tensor<f32>[64, 4], Y: tensor<f32>[64, 4]) {
  let t = ctx.thread
  var v: f32[4]
  for i in range(0, 4) {
    v[i] = X[t, i]
  }
  let s = exchange<blocked, warp_striped>(v)
  for i in range(0, 4) {
    Y[t, i] = s[i]
  }
}
"""


@pytest.mark.parametrize("how", ["auto", "shuffle", "staging"])
def test_exchange_mechanism(how):
    mod = phobos.compile(EXCHANGE, exchange=how)
    x = uniform(256).reshape(64, 4)
    y = np.zeros_like(x)
    mod.ex(x, y, grid=1)
    # warp_striped: lane l of warp w holds positions w*128 + i*32 + l.
    flat = x.reshape(-1)
    want = np.array([[flat[(t // 32) * 128 + i * 32 + t % 32] for i in range(4)] for t in range(64)], np.float32)
    np.testing.assert_array_equal(y, want)
    shuffles = mod.ptx.count("shfl.sync.idx")
    assert (shuffles == 0) == (how == "staging"), (how, shuffles)
    with pytest.raises(ValueError, match="exchange must be auto, shuffle or staging"):
        phobos.compile(EXCHANGE, exchange="lanes")


def test_lineinfo():
    src = "@launch(32)\nkernel k(X: tensor<f32>[32]) {\n  X[ctx.thread] = 1.0\n}\n"
    assert ".loc" in phobos.compile(src, lineinfo=True).ptx
    assert ".loc" not in phobos.compile(src).ptx


SCALARS = """
@launch(64)
kernel axpb(X: tensor<f32>[N], Y: tensor<f32>[N], alpha: f32, shift: i32, half: f16, on: bool) {
  let i = ctx.block.x * ctx.threads + ctx.thread
  if i < N {
    var y = alpha * X[i] + f32(shift) + f32(half)
    if !on { y = 0.0 }
    Y[i] = y
  }
}
"""


def test_scalar_parameters_positional_keyword_and_numpy():
    mod = phobos.compile(SCALARS)
    x = uniform(100)
    y = np.zeros_like(x)
    mod.axpb(x, y, 2.5, 3, 0.25, True, grid=2)
    np.testing.assert_allclose(y, np.float32(2.5) * x + np.float32(3.25), rtol=1e-6)
    y2 = np.zeros_like(x)
    mod.axpb(X=x, Y=y2, alpha=np.float32(2.5), shift=np.int64(3), half=np.float16(0.25), on=np.bool_(True), grid=2)
    np.testing.assert_array_equal(y2, y)
    mod.axpb(x, y2, alpha=1, shift=0, half=0, on=False, grid=2)
    assert not y2.any()
    assert "alpha: f32" in repr(mod.axpb)


def test_scalar_values_a_type_cannot_hold_are_launch_errors():
    mod = phobos.compile(SCALARS)
    x, y = uniform(64), np.zeros(64, np.float32)
    for kw, message in [
        (dict(shift=2**31), "does not fit i32"),
        (dict(shift=1.5), "has a fraction"),
        (dict(half=1e6), "round to infinity"),
        (dict(alpha="2"), "alpha is a scalar; got a str"),
        (dict(on=2), "is not a bool"),
    ]:
        args = dict(alpha=1.0, shift=0, half=0.0, on=True)
        args.update(kw)
        with pytest.raises(phobos.LaunchError, match=message):
            mod.axpb(x, y, grid=1, **args)
    assert not y.any()


MASKED_SCAN = """
@launch(64)
kernel masked_cumsum(X: tensor<f32>[N], Y: tensor<f32>[64], Z: tensor<i32>[64]) {
  let t = ctx.thread
  let v = X[t] else 0.0
  Y[t] = scan<over ctx.thread>(v)
  Z[t] = scan<over ctx.lane, width 8, exclusive 0>(i32(v > 0.0))
}
"""


def test_masked_reads_and_scans_match_numpy():
    mod = phobos.compile(MASKED_SCAN)
    x = uniform(50)
    y, z = np.zeros(64, np.float32), np.zeros(64, np.int32)
    mod.masked_cumsum(x, y, z, grid=1)
    padded = np.concatenate([x, np.zeros(14, np.float32)]).astype(np.float64)
    close(y, np.cumsum(padded), 1e-5, 1e-5)
    pos = (padded > 0).astype(np.int32).reshape(8, 8)
    np.testing.assert_array_equal(z.reshape(8, 8), np.cumsum(pos, axis=1) - pos)


ROWS = """
@launch(64)
kernel scale_rows(X: tensor<f32>[M, N], Y: tensor<f32>[M, N], s: f32) {
  let r = ctx.block.x
  for j in range(ctx.thread, N, 64) { Y[r, j] = X[r, j] * s }
}
"""


def test_strided_views_read_and_write_through():
    mod = phobos.compile(ROWS)
    base = uniform((6, 40))
    for view in (base.T, base[:, ::2], base[::-1, ::-3], np.asfortranarray(base)):
        out = np.zeros((view.shape[1], view.shape[0]), np.float32).T  # a transposed output view
        mod.scale_rows(view, out, 2.0, grid=view.shape[0])
        np.testing.assert_array_equal(out, view * np.float32(2.0))
    # Written through a view: the caller's array changes there only.
    big = np.zeros((6, 80), np.float32)
    mod.scale_rows(base, big[:, ::2], 1.0, grid=6)
    np.testing.assert_array_equal(big[:, ::2], base)
    assert not big[:, 1::2].any()


def test_grid_functions_zero_grids_missing_arguments_and_do_bench(examples):
    mod = phobos.compile(examples / "tutorials" / "vector_add.phobos")
    n = 1000
    x, y, z = uniform(n), uniform(n), np.zeros(n, np.float32)
    seen = {}

    def grid(meta):
        seen.update(meta)
        return ((meta["N"] + 255) // 256,)

    mod.vector_add(x, y, z, grid=grid)
    np.testing.assert_array_equal(z, x + y)
    assert seen["N"] == n
    # A zero grid launches nothing: the arrays stay as they were.
    z2 = np.full(n, 7.0, np.float32)
    mod.vector_add(x, y, z2, grid=0)
    assert (z2 == 7.0).all()
    mod.vector_add(x, y, z2, grid=lambda meta: (0, 1))
    assert (z2 == 7.0).all()
    with pytest.raises(TypeError, match="missing argument Z"):
        mod.vector_add(x, y, grid=4)
    with pytest.raises(phobos.LaunchError, match="missing argument Z"):
        mod.vector_add(X=x, Y=y, grid=4)
    ms = phobos.testing.do_bench(lambda: mod.vector_add(x, y, z, grid=4), warmup=1, rep=5)
    assert ms > 0 and phobos.testing.last_launch.stats["ctas"] == 4
    lo, mid = phobos.testing.do_bench(lambda: mod.vector_add(x, y, z, grid=4), warmup=0, rep=5, quantiles=[0.2, 0.5])
    assert 0 < lo <= mid


def test_an_autotuned_kernel_runs_an_unlisted_size_on_its_generic_entry():
    mod = phobos.compile("@launch(64)\n@autotune(N in [31, 1000])\nkernel twice(X: tensor<f32>[N], Y: tensor<f32>[N]) {\n  for i in range(ctx.thread, N, 64) { Y[i] = X[i] * 2.0 }\n}\n")
    x, y = uniform(77), np.zeros(77, np.float32)
    ran = mod.twice(x, y, grid=1)
    assert ran.entry == "twice"
    np.testing.assert_array_equal(y, x * 2)
    assert mod.twice(uniform(31), np.zeros(31, np.float32), grid=1).entry == "twice__N31"
