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

    def __init__(self, host: np.ndarray):
        self.shape, self.dtype = host.shape, host.dtype
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
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self.ptr.value, False), "version": 3, "strides": None, "stream": None}

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
