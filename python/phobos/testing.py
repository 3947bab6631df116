"""Benchmarking, as ``triton.testing`` does it: ``do_bench(fn)`` times a callable that launches
kernels and returns milliseconds.

On a GPU (PyTorch importable, CUDA available) each call is timed by CUDA events around it; on
the simulator by the wall clock. A call that returns a :class:`phobos.Launched` leaves it in
``last_launch``, so the simulator's instruction counts of the last run are at hand
(``phobos.testing.last_launch.stats``).
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any, Callable, List, Optional, Sequence, Union

#: What the last call of ``fn`` returned when it was a :class:`phobos.Launched`.
last_launch: Any = None

_MODES = ("min", "max", "mean", "median", "all")


def _gpu_timer():
    """CUDA events through PyTorch when it is loaded and has a GPU, else None."""
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available():
        return None

    def timed(fn: Callable[[], Any]) -> "tuple[float, Any]":
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        out = fn()
        end.record()
        torch.cuda.synchronize()
        return start.elapsed_time(end), out

    return timed


def _wall(fn: Callable[[], Any]) -> "tuple[float, Any]":
    t = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t) * 1e3, out


def do_bench(
    fn: Callable[[], Any],
    warmup: float = 25,
    rep: float = 100,
    grad_to_none: Any = None,
    quantiles: Optional[Sequence[float]] = None,
    return_mode: str = "mean",
) -> Union[float, List[float]]:
    """The time of ``fn()`` in milliseconds, as ``triton.testing.do_bench``: ``warmup`` and
    ``rep`` are time budgets in ms (the call count is estimated from five calls, at least one
    each); ``quantiles`` (e.g. ``[0.5, 0.2, 0.8]``) returns those quantiles of the times instead;
    otherwise ``return_mode`` ("mean", "min", "max", "median", or "all" for every time).
    ``grad_to_none`` is accepted for Triton's signature (Phobos keeps no gradients)."""
    global last_launch
    if return_mode not in _MODES:
        raise ValueError(f"return_mode={return_mode!r}: expected one of {', '.join(_MODES)}")
    if warmup < 0 or rep < 0:
        raise ValueError(f"warmup={warmup} and rep={rep} are milliseconds, at least 0")
    timer = _gpu_timer() or _wall
    from . import Launched

    def call() -> float:
        global last_launch
        ms, out = timer(fn)
        if isinstance(out, Launched):
            last_launch = out
        return ms

    estimate = statistics.mean(call() for _ in range(5))
    per_call = max(estimate, 1e-6)
    for _ in range(max(1, int(warmup / per_call))):
        call()
    times = [call() for _ in range(max(1, int(rep / per_call)))]
    if quantiles is not None:
        ordered = sorted(times)
        out = [_quantile(ordered, q) for q in quantiles]
        return out[0] if len(out) == 1 else out
    if return_mode == "all":
        return times
    return {"min": min, "max": max, "mean": statistics.mean, "median": statistics.median}[return_mode](times)


def _quantile(ordered: List[float], q: float) -> float:
    """The ``q`` quantile of sorted values, linear between neighbours (as ``torch.quantile``)."""
    if not 0 <= q <= 1:
        raise ValueError(f"quantile {q} is outside [0, 1]")
    at = q * (len(ordered) - 1)
    lo = int(at)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (at - lo)
