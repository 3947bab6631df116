"""Arrays on a GPU, through __cuda_array_interface__, with no copy: a minimal device array of
our own over the CUDA driver (so no PyTorch is needed), and PyTorch/CuPy where installed.
Skipped, with the reason, where there is no GPU."""

import ctypes
import ctypes.util

import numpy as np
import pytest

import phobos


def _driver():
    name = ctypes.util.find_library("cuda") or "libcuda.so.1"
    try:
        cuda = ctypes.CDLL(name)
    except OSError as e:
        return None, f"no CUDA driver ({e})"
    if cuda.cuInit(0) != 0:
        return None, "cuInit failed"
    count = ctypes.c_int(0)
    if cuda.cuDeviceGetCount(ctypes.byref(count)) != 0 or count.value == 0:
        return None, "the CUDA driver reports no device"
    return cuda, ""


CUDA, WHY = _driver()
needs_gpu = pytest.mark.skipif(CUDA is None, reason=f"no GPU: {WHY}")


class DeviceArray:
    """Device memory in device 0's primary context, exposing __cuda_array_interface__ v3."""

    def __init__(self, host: np.ndarray, read_only: bool = False):
        self.shape, self.dtype, self.read_only = host.shape, host.dtype, read_only
        self.nbytes = host.nbytes
        dev, ctx = ctypes.c_int(), ctypes.c_void_p()
        assert CUDA.cuDeviceGet(ctypes.byref(dev), 0) == 0
        assert CUDA.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev) == 0
        assert CUDA.cuCtxSetCurrent(ctx) == 0
        self.ptr = ctypes.c_uint64()
        assert CUDA.cuMemAlloc_v2(ctypes.byref(self.ptr), ctypes.c_size_t(max(self.nbytes, 1))) == 0
        src = np.ascontiguousarray(host)
        assert CUDA.cuMemcpyHtoD_v2(self.ptr, src.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(self.nbytes)) == 0

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self.ptr.value, self.read_only), "version": 3, "strides": None, "stream": None}

    def get(self) -> np.ndarray:
        out = np.empty(self.shape, self.dtype)
        assert CUDA.cuCtxSynchronize() == 0
        assert CUDA.cuMemcpyDtoH_v2(out.ctypes.data_as(ctypes.c_void_p), self.ptr, ctypes.c_size_t(self.nbytes)) == 0
        return out

    def __del__(self):
        if CUDA is not None and getattr(self, "ptr", None) is not None:
            CUDA.cuMemFree_v2(self.ptr)


@needs_gpu
def test_softmax_on_device_arrays(examples):
    mod = phobos.compile(examples / "tutorials" / "softmax.phobos")
    x = np.random.default_rng(1).uniform(-8, 8, (6, 1000)).astype(np.float32)
    dx, dy = DeviceArray(x), DeviceArray(np.zeros_like(x))
    ran = mod.softmax(dx, dy, grid=6)
    assert ran.device == "cuda" and ran.entry == "softmax"
    e = np.exp(x.astype(np.float64) - x.max(1, keepdims=True))
    np.testing.assert_allclose(dy.get(), e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-8)


@needs_gpu
def test_device_array_checks(examples):
    mod = phobos.compile(examples / "tutorials" / "vector_add.phobos")
    a = DeviceArray(np.zeros(64, np.float32))
    with pytest.raises(phobos.LaunchError, match="float64"):
        mod.vector_add(a, a, DeviceArray(np.zeros(64, np.float64)), grid=1)
    with pytest.raises(phobos.LaunchError, match="one device"):
        mod.vector_add(a, np.zeros(64, np.float32), DeviceArray(np.zeros(64, np.float32)), grid=1)


@needs_gpu
def test_torch_and_cupy_where_installed(examples):
    mod = phobos.compile(examples / "tutorials" / "vector_add.phobos")
    ran_any = False
    try:
        import torch

        if torch.cuda.is_available():
            x = torch.rand(1000, device="cuda")
            y = torch.rand(1000, device="cuda")
            z = torch.empty_like(x)
            mod.vector_add(x, y, z, grid=4)
            torch.cuda.synchronize()
            assert torch.equal(z, x + y)
            ran_any = True
    except ImportError:
        pass
    try:
        import cupy

        x = cupy.random.rand(1000, dtype=cupy.float32)
        y = cupy.random.rand(1000, dtype=cupy.float32)
        z = cupy.empty_like(x)
        mod.vector_add(x, y, z, grid=4)
        cupy.cuda.Stream.null.synchronize()
        assert bool((z == x + y).all())
        ran_any = True
    except ImportError:
        pass
    if not ran_any:
        pytest.skip("neither PyTorch nor CuPy with CUDA is installed")


def test_no_gpu_reason_is_given():
    # Where there is no GPU, the GPU tests above skip and say why; the simulator needs none.
    assert CUDA is not None or WHY


class InterfaceOnly:
    """An ``__cuda_array_interface__`` whose memory nothing reads: what is checked before a GPU
    is needed (the launch itself fails where there is none)."""

    def __init__(self, n, read_only: bool = False, ptr: int = 0x7F0000000000, typestr: str = "<f4", strides=None):
        self.shape = (n,) if isinstance(n, int) else tuple(n)
        self.read_only, self.ptr, self.typestr, self.strides = read_only, ptr, typestr, strides

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.typestr, "data": (self.ptr, self.read_only), "version": 3, "strides": self.strides, "stream": None}


def test_a_read_only_output_is_refused_before_the_gpu(examples):
    mod = phobos.compile(examples / "tutorials" / "vector_add.phobos")
    x, y = InterfaceOnly(64, read_only=True), InterfaceOnly(64, read_only=True, ptr=0x7F0000001000)
    z = InterfaceOnly(64, read_only=True, ptr=0x7F0000002000)
    with pytest.raises(phobos.LaunchError, match=r"argument 2 \(Z\) of vector_add: the kernel writes it, but its array is read-only"):
        mod.vector_add(x, y, z, grid=1)


@pytest.mark.skipif(CUDA is not None, reason="a GPU is here: the launch runs")
def test_read_only_inputs_reach_the_launch_without_a_gpu(examples):
    # Read-only inputs and a writable output pass every check; the GPU is the one thing missing.
    mod = phobos.compile(examples / "tutorials" / "vector_add.phobos")
    x, y = InterfaceOnly(64, read_only=True), InterfaceOnly(64, read_only=True, ptr=0x7F0000001000)
    z = InterfaceOnly(64, ptr=0x7F0000002000)
    with pytest.raises(phobos.LaunchError, match="CUDA"):
        mod.vector_add(x, y, z, grid=1)


@needs_gpu
def test_a_read_only_device_array_is_refused(examples):
    mod = phobos.compile(examples / "tutorials" / "vector_add.phobos")
    a, b = DeviceArray(np.ones(64, np.float32), read_only=True), DeviceArray(np.ones(64, np.float32), read_only=True)
    out = DeviceArray(np.zeros(64, np.float32), read_only=True)
    with pytest.raises(phobos.LaunchError, match="read-only"):
        mod.vector_add(a, b, out, grid=1)
    np.testing.assert_array_equal(out.get(), np.zeros(64, np.float32))


@needs_gpu
def test_empty_device_arrays_launch_as_on_the_simulator(examples):
    mod = phobos.compile(examples / "tutorials" / "vector_add.phobos")
    host = [np.zeros(0, np.float32) for _ in range(3)]
    mod.vector_add(*host, grid=1)
    ran = mod.vector_add(*[DeviceArray(h) for h in host], grid=1)
    assert ran.device == "cuda"


@needs_gpu
def test_torch_stream_device_and_current_device(examples):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA")
    mod = phobos.compile(examples / "tutorials" / "vector_add.phobos")
    # The launch joins PyTorch's current stream: ordered after the work queued there before it.
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        x = torch.arange(1 << 20, device="cuda", dtype=torch.float32)
        y = x * 2
        z = torch.empty_like(x)
        mod.vector_add(x, y, z, grid=(1 << 20) // 256)
        w = z + 1
    s.synchronize()
    assert torch.equal(w, x * 3 + 1)
    # A tensor on the last GPU runs there, and PyTorch's current device is left as it was.
    last = torch.cuda.device_count() - 1
    torch.cuda.set_device(0)
    x = torch.ones(1000, device=f"cuda:{last}")
    z = torch.empty_like(x)
    mod.vector_add(x, x, z, grid=4)
    torch.cuda.synchronize(last)
    assert torch.equal(z, x * 2)
    assert torch.cuda.current_device() == 0
    # Zero-size tensors (address 0) launch as on the simulator.
    e = torch.empty(0, device="cuda")
    mod.vector_add(e, e.clone(), torch.empty(0, device="cuda"), grid=1)


TWICE = """@launch(32)
kernel twice(X: tensor<f32>[M, N], Y: tensor<f32>[M, N]) {
  Y[ctx.block.x, ctx.thread] = X[ctx.block.x, ctx.thread] * 2.0
}
"""


@pytest.mark.skipif(CUDA is not None, reason="a GPU is here: the launch runs")
def test_strided_cuda_views_reach_the_launch_without_a_gpu():
    # A transposed view (byte strides 4, 16) and a reversed one (a negative stride: the memory
    # starts below the data pointer) pass every check; the GPU is the one thing missing.
    mod = phobos.compile(TWICE)
    y = InterfaceOnly((4, 8), ptr=0x7F0000010000)
    for x in (InterfaceOnly((4, 8), strides=(4, 16)), InterfaceOnly((4, 8), ptr=0x7F0000000060, strides=(-32, 4))):
        with pytest.raises(phobos.LaunchError, match="CUDA"):
            mod.twice(x, y, grid=4)


def test_strided_cuda_views_are_checked_before_the_gpu():
    mod = phobos.compile(TWICE)
    x = InterfaceOnly((4, 8), strides=(4, 16))
    with pytest.raises(phobos.LaunchError, match="byte stride 6 is not a multiple of its 4-byte elements"):
        mod.twice(InterfaceOnly((4, 8), strides=(6, 16)), InterfaceOnly((4, 8), ptr=0x7F0000010000), grid=4)
    with pytest.raises(phobos.LaunchError, match="its view repeats elements"):
        mod.twice(x, InterfaceOnly((4, 8), ptr=0x7F0000010000, strides=(0, 4)), grid=4)
    with pytest.raises(phobos.LaunchError, match="its memory overlaps argument 'X'"):
        mod.twice(x, InterfaceOnly((4, 8), strides=(32, 4)), grid=4)


def test_a_kernel_that_copies_tiles_refuses_strided_cuda_views():
    src = """@launch(64)
kernel tcopy(X: tensor<f32>[M, 64], Y: tensor<f32>[M, 64]) {
  var xs = X[ctx.block.x :+ 1, :]
  Y[ctx.block.x, ctx.thread] = xs[0, ctx.thread]
}
"""
    mod = phobos.compile(src)
    x = InterfaceOnly((2, 64), strides=(4, 8))
    with pytest.raises(phobos.LaunchError, match="tcopy has no strided entry .a kernel that copies tiles"):
        mod.tcopy(x, InterfaceOnly((2, 64), ptr=0x7F0000010000), grid=2)
