"""Phobos from Python: compile ``.phobos`` kernels and launch them on arrays.

>>> import numpy as np, phobos
>>> mod = phobos.compile("examples/tutorials/softmax.phobos")      # a path, or source text
>>> x = np.random.rand(4, 1000).astype(np.float32); y = np.empty_like(x)
>>> mod.softmax(x, y, grid=(4,))       # NumPy arrays run on the CPU simulator, written in place

NumPy arrays run on Phobos's SIMT simulator (with its sanitizer: an out-of-bounds access
raises :class:`Fault` naming the CTA, thread and source line). Arrays that expose
``__cuda_array_interface__`` (PyTorch and CuPy CUDA tensors) run on their GPU, on their stream,
without a copy. Dimensions bind from the arrays' shapes as ``phobos run`` binds them, and an
``@autotune`` kernel's specialization is picked by them.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import _phobos

__version__: str = _phobos.__version__

__all__ = [
    "compile",
    "layout",
    "explain",
    "Module",
    "Kernel",
    "Launched",
    "Layout",
    "Explanation",
    "PassIR",
    "Note",
    "PhobosError",
    "CompileError",
    "LaunchError",
    "MissingArgument",
    "Fault",
    "testing",
]


# --- errors ---------------------------------------------------------------------------------


class PhobosError(Exception):
    """Every error Phobos raises; ``str()`` is the text the ``phobos`` CLI prints."""

    def __init__(self, text: str, message: str) -> None:
        super().__init__(text)
        self.text = text
        self.message = message

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Note:
    """A note attached to a compile error: where, and what it adds."""

    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    message: str


class CompileError(PhobosError):
    """The source did not compile: the first error's location and message, its notes, and
    (``str()``) every diagnostic with the source lines, as ``phobos compile`` prints them."""

    def __init__(self, text: str, message: str, file: Optional[str], line: Optional[int], column: Optional[int], notes: List[Note]) -> None:
        super().__init__(text, message)
        self.file = file
        self.line = line
        self.column = column
        self.notes = notes


class LaunchError(PhobosError):
    """Arguments that do not fit the kernel (dtype, shape, contiguity, alignment, a dimension
    bound twice), or a launch the device refuses; nothing ran."""


class MissingArgument(LaunchError, TypeError):
    """A tensor or scalar parameter was given no argument (a ``TypeError`` too, as a Python
    call missing an argument is)."""


class Fault(PhobosError):
    """The kernel faulted: the sanitizer's report on the simulator (``kind``, ``cta``,
    ``thread``, the source ``file``/``line``/``column``), or the GPU's fault."""

    def __init__(self, text: str, message: str, details: Dict[str, Any]) -> None:
        super().__init__(text, message)
        self.kind: str = details.get("kind", "")
        self.kernel: Optional[str] = details.get("kernel")
        cta = details.get("cta")
        thread = details.get("thread")
        self.cta: Optional[Tuple[int, int, int]] = tuple(cta) if cta else None  # type: ignore[assignment]
        self.thread: Optional[Tuple[int, int, int]] = tuple(thread) if thread else None  # type: ignore[assignment]
        self.op: Optional[str] = details.get("op")
        self.file: Optional[str] = details.get("file")
        self.line: Optional[int] = details.get("line")
        self.column: Optional[int] = details.get("column")


# The CLI's flags in the native module's messages, as the keywords Python takes.
_KEYWORDS = (
    ("--max-launch-instructions", "max_launch_instructions=N"),
    ("--max-warp-instructions", "max_warp_instructions=N"),
    ("--max-sim-threads", "max_sim_threads=N"),
    ("--sim-threads", "sim_threads=N"),
    ("--sim-sms", "sim_sms=N"),
    ("--check-races", "check_races=True"),
)


def _pythonic(text: str) -> str:
    import re

    for flag, keyword in _KEYWORDS:
        text = text.replace(flag, keyword)
    # `--arg Y=FILE.npy`, `--arg eps=VALUE`: an argument of the call; `-D N=...`: a keyword.
    text = re.sub(r"missing --arg (\w+)=\S+", r"missing argument \1", text)
    text = re.sub(r"--arg (\w+)=", r"argument \1=", text)
    return re.sub(r"give -D (\w+)=VALUE", r"pass \1=VALUE", text)


def _convert(e: BaseException) -> BaseException:
    """The native module's ``NativeError(kind, json)`` as the exception it stands for, in
    Python's words (keywords, not the CLI's flags)."""
    if not isinstance(e, _phobos.NativeError) or len(e.args) != 2:
        return e
    kind, raw = e.args
    d = json.loads(raw)
    text, message = _pythonic(d.get("text", "")), _pythonic(d.get("message", ""))
    if kind == "compile":
        notes = [Note(n.get("file"), n.get("line"), n.get("column"), n.get("message", "")) for n in d.get("notes", [])]
        return CompileError(text, message, d.get("file"), d.get("line"), d.get("column"), notes)
    if kind == "fault":
        return Fault(text, message, d)
    if kind == "io":
        return OSError(message)
    return LaunchError(text, message)


def _native(f, *args, **kwargs):
    try:
        return f(*args, **kwargs)
    except _phobos.NativeError as e:
        raise _convert(e) from None


# --- compiling ------------------------------------------------------------------------------

_SOURCE_NAME = "<source>.phobos"


def _read_source(source: Union[str, "os.PathLike[str]"]) -> Tuple[str, str]:
    """(text, filename) of a path to a ``.phobos`` file, or of source text."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source and source.rstrip().endswith(".phobos")):
        path = os.fspath(source)
        with open(path, encoding="utf-8") as f:
            return f.read(), path
    if not isinstance(source, str):
        raise TypeError(f"phobos.compile takes a path or source text, not {type(source).__name__}")
    return source, _SOURCE_NAME


@functools.lru_cache(maxsize=None)
def _default_chip() -> str:
    """The GPU's chip when one is usable (so its kernels load), else sm_90; asked of the driver
    once per process."""
    return _phobos.gpu_chip() or "sm_90"


def _located_in_caller(text: str, file: Optional[str], line: Optional[int], column: Optional[int]) -> Tuple[str, Optional[str]]:
    """The source padded so that its first character sits at ``line``:``column`` of ``file``
    (so every diagnostic and fault names that file's lines), and that file; by default the
    calling ``.py`` file, when the text is a string literal in it. Unlocated otherwise."""
    if file is None:
        import inspect

        frame = inspect.currentframe()
        caller = frame.f_back.f_back if frame is not None and frame.f_back is not None else None
        path = caller.f_code.co_filename if caller is not None else None
        if not path or not path.endswith(".py") or not os.path.isfile(path):
            return text, None
        try:
            with open(path, encoding="utf-8") as f:
                whole = f.read()
        except OSError:
            return text, None
        at = whole.find(text)
        if at < 0 or not text.strip():
            return text, None
        file, line = path, whole.count("\n", 0, at) + 1
        column = at - (whole.rfind("\n", 0, at) + 1) + 1
    line, column = line or 1, column or 1
    if line < 1 or column < 1:
        raise ValueError(f"line={line}, column={column}: positions start at 1")
    return "\n" * (line - 1) + " " * (column - 1) + text, os.fspath(file)


def compile(
    source: Union[str, "os.PathLike[str]"],
    chip: Optional[str] = None,
    defines: Optional[Dict[str, int]] = None,
    fast_math: bool = False,
    no_fma: bool = False,
    exchange: str = "auto",
    lineinfo: bool = False,
    *,
    file: Optional[Union[str, "os.PathLike[str]"]] = None,
    line: Optional[int] = None,
    column: Optional[int] = None,
) -> "Module":
    """Compiles a ``.phobos`` source: a path (``str`` ending in ``.phobos``, or ``os.PathLike``)
    or the source text itself.

    ``chip`` (``"sm_90"``, ...) defaults to the GPU's when one is usable, else ``sm_90``;
    ``defines`` fix dimensions at compile time (``phobos compile -D N=1024``); ``fast_math``
    makes every f32 math function the hardware's approximation; ``no_fma`` keeps multiplies
    and adds apart; ``exchange`` (``"auto"``, ``"shuffle"`` or ``"staging"``) forces how
    exchanges within a warp move; ``lineinfo`` puts the source's line table in the PTX. Raises
    :class:`CompileError` with the first error's location, ``ValueError`` for an unknown
    ``exchange``.

    Source text that is a string literal of the calling ``.py`` file is located there: errors
    and faults name that file's line and column. ``file``, ``line``, ``column`` (1-based) give
    the position of the text's first character for text that comes from elsewhere.
    """
    text, filename = _read_source(source)
    if filename == _SOURCE_NAME:
        text, located = _located_in_caller(text, None if file is None else os.fspath(file), line, column)
        filename = located or filename
    chip = chip or _default_chip()
    defs = {str(k): int(v) for k, v in (defines or {}).items()}
    prog = _native(_phobos.compile, text, filename, chip, defs, bool(fast_math), bool(no_fma), str(exchange), bool(lineinfo))
    return Module(prog, text, filename, chip, defs)


@dataclass(frozen=True)
class PassIR:
    """The IR after one pass: its flag, the stage its output is in, and the module's text."""

    name: str
    stage: str
    ir: str


_STAGES = ("l1", "simt", "llvm", "ptx")


class Module:
    """A compiled ``.phobos`` source: its kernels (``module.softmax`` is the kernel
    ``softmax``), its PTX and the IR at every stage and after every pass."""

    def __init__(self, program: Any, source: str, filename: str, chip: str, defines: Dict[str, int]) -> None:
        self._program = program
        self.source = source
        self.filename = filename
        self.chip = chip
        self.defines = defines
        self.kernels: List[str] = program.kernels()
        self.manifest: Dict[str, Any] = json.loads(program.manifest())
        self.diagnostics: List[str] = program.diagnostics()
        # Served by the disk kernel cache (PHOBOS_CACHE_DIR): compiled by an earlier process.
        self.from_cache: bool = program.from_cache()
        # The autotuner's choice at each kernel's last launch (Kernel.best_config).
        self._best: Dict[str, Dict[str, int]] = {}

    @property
    def ptx(self) -> str:
        """The PTX (of every gpu.module, in order, when there are several)."""
        return "\n".join(text for _, text in self._program.ptx())

    def ir(self, stage: str) -> str:
        """The module's text at ``stage``: ``l1``, ``simt``, ``llvm`` or ``ptx``."""
        if stage == "ptx":
            return self.ptx
        text = self._program.stage(stage)
        if text is None:
            raise ValueError(f"no stage '{stage}': the stages are {', '.join(_STAGES)}")
        return text

    def passes(self) -> List[PassIR]:
        """The IR after every pass, in the order they ran."""
        return [PassIR(n, s, t) for n, s, t in self._program.passes()]

    def kernel(self, name: str) -> "Kernel":
        """The kernel ``name`` (also ``module.<name>``)."""
        if name not in self.kernels:
            raise AttributeError(f"no kernel named '{name}' (the module has: {', '.join(self.kernels)})")
        return Kernel(self, name)

    def __getattr__(self, name: str) -> "Kernel":
        if name.startswith("_") or "kernels" not in self.__dict__:
            raise AttributeError(name)
        return self.kernel(name)

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self.kernels))

    def __repr__(self) -> str:
        return f"<phobos.Module {self.filename} ({self.chip}): {', '.join(self.kernels)}>"

    def explain(
        self,
        kernel: Optional[str] = None,
        *,
        grid: Union[int, Sequence[int]],
        cta: Union[int, Sequence[int]] = 0,
        **arrays_and_dims: Any,
    ) -> "Explanation":
        """``phobos explain`` on a kernel of this module: one simulator run of ``grid``,
        following ``cta``; tensors not given are generated (seeded), dimensions bind from the
        arrays and keywords. Returns the page (``_repr_html_`` in Jupyter) and its text."""
        if kernel is None:
            if len(self.kernels) != 1:
                raise LaunchError(
                    f"the module has several kernels; pick one with kernel= ({', '.join(self.kernels)})",
                    "several kernels",
                )
            kernel = self.kernels[0]
        arrays, dims = [], dict(self.defines)
        for name, value in arrays_and_dims.items():
            if _is_int(value):
                dims[name] = int(value)
            else:
                arrays.append(_host_array(name, value)[0])
        return Explanation(self.source, self.filename, kernel, arrays, dims, _dims3(grid, "grid"), _dims3(cta, "cta", 0), self.chip)


# --- launching ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Launched:
    """What a launch ran: the entry (an ``@autotune`` specialization's name), the device, its
    wall time in ms and the simulator's counts (``ctas``, ``warp_instructions``,
    ``thread_instructions``, ``bank_conflicts``, ``mma``, ``ldmatrix``, ``wgmma``, ``async_bytes``;
    empty on a GPU)."""

    entry: str
    device: str
    ms: float
    stats: Dict[str, int] = field(default_factory=dict)


_SIM_KEYWORDS = ("sim_sms", "sim_threads", "max_warp_instructions", "max_launch_instructions", "max_sim_threads", "check_races")


class Kernel:
    """A kernel of a :class:`Module`; call it with its tensors and dimensions."""

    def __init__(self, module: Module, name: str) -> None:
        self.module = module
        self.name = name
        # (kind, name, elem, dims) in launch order: tensors and scalars in source order, then
        # dimensions.
        self.params: List[Tuple[str, str, str, List[str]]] = [tuple(p) for p in module._program.params(name)]  # type: ignore[misc]

    def __repr__(self) -> str:
        sig = ", ".join(f"{n}: {e}[{', '.join(d)}]" if k == "tensor" else f"{n}: {e}" if k == "scalar" else f"{n}: dim" for k, n, e, d in self.params)
        return f"<phobos.Kernel {self.name}({sig})>"

    def __call__(
        self,
        *args: Any,
        grid: Union[int, Sequence[int], Callable[[Dict[str, Any]], Union[int, Sequence[int]]]],
        device: Optional[str] = None,
        **kwargs: Any,
    ) -> Launched:
        """Launches the kernel on a ``grid`` of CTAs (``int`` or up to 3 extents, or a function
        of a dict of every dimension, ``-D`` value and scalar argument by name that returns one,
        as Triton's ``grid = lambda meta: ...``). A zero extent launches nothing.

        Positional arguments fill the parameters in order (tensors and scalars as declared, then
        dimensions); keywords name a tensor, a scalar or a dimension, or set a simulator bound (``sim_sms``, ``sim_threads``,
        ``max_warp_instructions``, ``max_launch_instructions``, ``max_sim_threads``), or
        ``check_races=True`` (every plain global access checked for races: a :class:`Fault`).
        ``device``: ``"sim"``, ``"cuda"``, or (the default) the arrays' own: NumPy arrays run on
        the simulator and are written in place, ``__cuda_array_interface__`` arrays on their
        GPU and stream. Raises :class:`LaunchError` before anything runs when the arrays do
        not fit, :class:`Fault` when the kernel faults.
        """
        if len(args) > len(self.params):
            raise LaunchError(f"{self.name} takes {len(self.params)} arguments, {len(args)} given", "too many arguments")
        sim = {k: kwargs.pop(k) for k in _SIM_KEYWORDS if k in kwargs}
        if "check_races" in sim:
            # A bool: every plain global access checked for races (phobos run --check-races).
            sim["check_races"] = int(bool(sim["check_races"]))
        given: Dict[str, Any] = {}
        for (_, name, _, _), value in zip(self.params, args):
            given[name] = value
        names = [p[1] for p in self.params]
        for name, value in kwargs.items():
            if name not in names:
                raise LaunchError(f"{self.name} has no parameter '{name}' (it has {', '.join(names)})", "unknown parameter")
            if name in given:
                raise LaunchError(f"{self.name}: '{name}' is given twice", "given twice")
            given[name] = value
        kinds = {p[1]: p[0] for p in self.params}
        tensors, scalars, dims = {}, [], dict(self.module.defines)
        for name, value in given.items():
            if kinds[name] == "scalar":
                scalars.append((name, _scalar_text(name, value)))
            elif kinds[name] == "dim":
                if not _is_int(value):
                    raise LaunchError(f"dimension {name} takes an integer, not {type(value).__name__}", "not an integer")
                dims[name] = int(value)
            elif _is_int(value):
                raise LaunchError(f"{name} is a tensor; got the integer {value}", "not a tensor")
            else:
                tensors[name] = value
        missing = [n for k, n, _, _ in self.params if k != "dim" and n not in given]
        if missing:
            raise MissingArgument(f"{self.name}: missing argument {missing[0]}", "missing argument")
        grids: List[Tuple[Dict[str, int], Tuple[int, int, int]]] = []
        if callable(grid):
            base = self._meta(tensors, given, dims)
            # With @autotune meta-parameters, a grid for each combination: the autotuner's
            # candidates (those -D fixed excepted).
            metas = self.module._program.meta(self.name)
            for values in itertools.product(*metas.values()):
                combo = dict(zip(metas, values))
                if all(dims.get(k, v) == v for k, v in combo.items()):
                    grids.append((combo, _dims3(grid({**base, **combo}), "grid")))
            grid = grids[0][1] if grids else grid(base)
        g = _dims3(grid, "grid")
        cuda = [n for n, v in tensors.items() if _is_cuda(v)]
        if cuda and len(cuda) != len(tensors):
            host = [n for n in tensors if n not in cuda]
            raise LaunchError(
                f"{self.name}: {', '.join(cuda)} on a GPU but {', '.join(host)} on the host; pass all on one device",
                "mixed devices",
            )
        if cuda:
            if device not in (None, "cuda"):
                raise LaunchError(f"{self.name}: GPU arrays cannot run on device '{device}'", "device")
            return self._run_cuda(tensors, scalars, dims, g)
        return self._run_host(tensors, scalars, dims, g, device or "sim", sim, grids)

    @property
    def best_config(self) -> Optional[Dict[str, int]]:
        """The ``@autotune`` meta-parameter values the autotuner chose at the last launch (on
        the simulator by its cost model, the warp instructions issued; on a GPU by time); None
        before a launch, and ``{}`` for a kernel without meta-parameters."""
        return self.module._best.get(self.name)

    def _meta(self, tensors: Dict[str, Any], given: Dict[str, Any], dims: Dict[str, int]) -> Dict[str, Any]:
        """What a grid function gets: every dimension (from the arrays' shapes, keywords and
        ``-D``) and scalar argument, by name."""
        meta: Dict[str, Any] = {}
        for kind, name, _, names in self.params:
            if kind == "tensor" and name in tensors:
                shape = getattr(tensors[name], "shape", None)
                if shape is None and hasattr(tensors[name], "__cuda_array_interface__"):
                    shape = tensors[name].__cuda_array_interface__["shape"]
                for d, n in zip(names, shape or ()):
                    if not d.isdigit():
                        meta.setdefault(d, int(n))
            elif kind == "scalar":
                meta[name] = given[name]
        meta.update(dims)
        return meta

    def _run_host(
        self,
        tensors: Dict[str, Any],
        scalars: List[Tuple[str, str]],
        dims: Dict[str, int],
        grid: Tuple[int, int, int],
        device: str,
        sim: Dict[str, Any],
        grids: List[Tuple[Dict[str, int], Tuple[int, int, int]]],
    ) -> Launched:
        arrays, targets = [], {}
        for name, value in tensors.items():
            native, array = _host_array(name, value)
            arrays.append(native)
            targets[name] = (array, native[3])
        _check_views(self, {n: t[0] for n, t in targets.items()})
        entry, outputs, report, meta = _native(self.module._program.run, self.name, arrays, scalars, dims, grid, device, sim, grids)
        self.module._best[self.name] = dict(meta)
        _write_back(targets, outputs)
        stats = {k: int(v) for k, v in report.items() if k != "ms"}
        return Launched(entry, "sim" if stats else "cuda", report.get("ms", 0.0), stats)

    def _run_cuda(self, tensors: Dict[str, Any], scalars: List[Tuple[str, str]], dims: Dict[str, int], grid: Tuple[int, int, int]) -> Launched:
        arrays, streams = [], set()
        for name, value in tensors.items():
            cai = value.__cuda_array_interface__
            ptr, read_only = cai["data"]
            shape = [int(s) for s in cai["shape"]]
            strides = None if cai.get("strides") is None else [int(s) for s in cai["strides"]]
            stream = cai.get("stream")
            if stream is None:
                stream = _torch_stream(value)
            if stream is not None:
                streams.add(int(stream))
            arrays.append((name, cai["typestr"], shape, strides, int(ptr), bool(read_only)))
        if len(streams) > 1:
            raise LaunchError(f"{self.name}: the arrays are on different streams {sorted(streams)}", "streams")
        stream = streams.pop() if streams else None
        entry, report = _native(self.module._program.run_cuda, self.name, arrays, scalars, dims, grid, stream)
        return Launched(entry, "cuda", report.get("ms", 0.0), {})


def _is_int(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return True
    try:
        import numpy as np

        return isinstance(v, np.integer)
    except ImportError:  # pragma: no cover - numpy is a dependency
        return False


def _scalar_text(name: str, value: Any) -> str:
    """A scalar argument as the native module parses it: Python's ``repr`` of an int or a float
    (exact for both), ``true``/``false``; NumPy scalars and 0-d arrays by their value. The
    parameter's type decides the rest (range, rounding) the same as ``phobos run --arg``."""
    if hasattr(value, "shape") and tuple(getattr(value, "shape")) == () and hasattr(value, "item"):
        value = value.item()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    raise LaunchError(f"{name} is a scalar; got a {type(value).__name__}", "not a scalar")


def _is_cuda(v: Any) -> bool:
    return hasattr(v, "__cuda_array_interface__")


def _torch_stream(v: Any) -> Optional[int]:
    """PyTorch's current stream on the tensor's device (its interface names none), so that a
    launch is ordered with the work queued inside ``with torch.cuda.stream(s)``, as Triton's
    are; ``None`` for anything else."""
    if not type(v).__module__.startswith("torch"):
        return None
    import sys

    torch = sys.modules.get("torch")
    if torch is None:
        return None
    return int(torch.cuda.current_stream(v.device).cuda_stream)


def _dims3(v: Union[int, Sequence[int]], what: str, fill: int = 1) -> Tuple[int, int, int]:
    """``int`` or up to three extents, padded with ``fill``."""
    t = [v] if _is_int(v) else list(v)  # type: ignore[arg-type]
    if not 1 <= len(t) <= 3 or not all(_is_int(x) and int(x) >= 0 for x in t):
        raise LaunchError(f"{what}={v!r}: expected an integer or up to three non-negative integers", what)
    t = [int(x) for x in t] + [fill] * (3 - len(t))
    return (t[0], t[1], t[2])


def _host_array(name: str, value: Any):
    """``(name, descr, shape, bytes)`` for the native module, and the NumPy array to write back
    into (a view of ``value`` when it shares memory)."""
    import numpy as np

    if isinstance(value, np.ndarray):
        array = value
    elif hasattr(value, "__dlpack__"):
        try:
            array = np.from_dlpack(value)
        except (BufferError, RuntimeError, TypeError) as e:
            raise LaunchError(f"argument '{name}': its DLPack tensor is not on the host and has no __cuda_array_interface__ ({e})", "dlpack") from None
    elif hasattr(value, "__array_interface__") or hasattr(value, "__array__"):
        array = np.asarray(value)
    else:
        raise LaunchError(f"argument '{name}' is a {type(value).__name__}, not an array", "not an array")
    view = array.view(np.uint16) if array.dtype.name == "bfloat16" else array
    bad = [s for s in view.strides if s % view.itemsize != 0]
    if bad:
        raise LaunchError(
            f"argument '{name}': byte stride {bad[0]} is not a multiple of its {view.itemsize}-byte elements", "stride"
        )
    # Any strided view (a slice with steps, a transpose, negative steps, Fortran order): the
    # kernel gets its elements in row-major order, and what it writes goes back through the view.
    return (name, view.dtype.str, [int(s) for s in view.shape], view.tobytes(order="C")), view


def _overlap(a: Any, b: Any) -> bool:
    """Whether two arrays share an element (when NumPy cannot tell cheaply: whether their
    memory ranges meet)."""
    import numpy as np

    if not np.may_share_memory(a, b):
        return False
    try:
        return bool(np.shares_memory(a, b, max_work=100_000))
    except getattr(np, "exceptions", np).TooHardError:
        return True


def _check_views(kernel: "Kernel", arrays: Dict[str, Any]) -> None:
    """Refuses, before anything runs, a written tensor whose view repeats elements (a zero
    stride) or overlaps another argument: which value would land is undefined."""
    import numpy as np

    written = set(kernel.module._program.written(kernel.name))
    for name in written & arrays.keys():
        a = arrays[name]
        if any(s == 0 and n > 1 for s, n in zip(a.strides, a.shape)):
            raise LaunchError(f"argument '{name}': the kernel writes it, but its view repeats elements (a zero stride)", "zero stride")
        for other, b in arrays.items():
            if other != name and _overlap(a, b):
                raise LaunchError(f"arguments '{name}' and '{other}' overlap in memory, and the kernel writes '{name}'", "overlap")


def _write_back(targets: Dict[str, Any], outputs: List[Tuple[str, bytes]]) -> None:
    """Copies each tensor the kernel changed into its array: all of them, or (when one cannot
    take it) none."""
    import numpy as np

    changed = [(name, data) for name, data in outputs if data != targets[name][1]]
    for name, _ in changed:
        if not targets[name][0].flags.writeable:
            raise LaunchError(f"the kernel wrote {name}, whose array is read-only", "read-only")
    for name, data in changed:
        array = targets[name][0]
        np.copyto(array, np.frombuffer(data, dtype=array.dtype).reshape(array.shape))


# --- layouts and explain --------------------------------------------------------------------


class Layout:
    """A layout expression evaluated as ``phobos layout`` evaluates it: ``str()`` is its CuTe
    form; ``table()``, ``coalesce()``, ``compose()``, ``draw()``; drawn as SVG in Jupyter."""

    def __init__(self, expr: str) -> None:
        self.expr = expr
        self._text = _native(_phobos.layout, expr).splitlines()[0]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"phobos.layout({self._text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and self._text == other._text

    def __hash__(self) -> int:
        return hash(self._text)

    def table(self) -> Union[List[int], List[str]]:
        """The values at 0..size-1 (an ``S[...]`` layout: its axes at each logical index)."""
        lines = _native(_phobos.layout, self.expr, table=True).splitlines()[1:]
        if len(lines) == 1 and all(p.lstrip("-").isdigit() for p in lines[0].split()):
            return [int(p) for p in lines[0].split()]
        return lines

    def coalesce(self) -> "Layout":
        """The coarsest form: the same map with the fewest modes."""
        return Layout(f"coalesce({self.expr})")

    def compose(self, other: Union["Layout", str]) -> "Layout":
        """``self ∘ other``: x ↦ self(other(x)) (an error when other leaves self's domain)."""
        return Layout(f"compose({self.expr}, {_expr(other)})")

    def complement(self, cotarget: int) -> "Layout":
        """The layout of the values ``self`` leaves out of ``[0, cotarget)``."""
        return Layout(f"complement({self.expr}, {int(cotarget)})")

    def right_inverse(self) -> "Layout":
        return Layout(f"right_inverse({self.expr})")

    def left_inverse(self) -> "Layout":
        return Layout(f"left_inverse({self.expr})")

    def logical_divide(self, tiler: Union["Layout", str]) -> "Layout":
        return Layout(f"logical_divide({self.expr}, {_expr(tiler)})")

    def check(self, space: str) -> "Layout":
        """Raises :class:`LaunchError` unless the layout may map into ``space`` (``logical``,
        ``thread-value`` or ``physical``, as docs/layouts.md defines them); returns ``self``."""
        _native(_phobos.layout, self.expr, into=space)
        return self

    def draw(self, format: str = "svg", logical: Optional[Sequence[int]] = None) -> str:
        """The thread/value grid as SVG or text; ``logical`` (R, C) gives the grid."""
        out = _native(_phobos.layout, self.expr, draw=format, logical=None if logical is None else [int(x) for x in logical])
        return out.split("\n", 1)[1] if "\n" in out else ""

    def _repr_svg_(self) -> str:
        return self.draw("svg")


def _expr(v: Union[Layout, str]) -> str:
    return v.expr if isinstance(v, Layout) else str(v)


def layout(expr: str) -> Layout:
    """Evaluates a layout expression: ``phobos.layout("(4,8):(8,1)")``,
    ``phobos.layout("compose((6,2):(8,2), (4,3):(3,1))")``."""
    return Layout(expr)


class Explanation:
    """``phobos explain``'s page for one run: ``html`` (a self-contained page, shown by
    Jupyter), ``text`` (as the CLI prints it without ``-o``)."""

    def __init__(self, source: str, filename: str, kernel: str, arrays: list, dims: Dict[str, int], grid, cta, chip: str) -> None:
        self._args = (source, filename, kernel, arrays, dims, grid, cta, chip)
        self.html: str = _native(_phobos.explain, *self._args, True)
        self._text: Optional[str] = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = _native(_phobos.explain, *self._args, False)
        return self._text

    def __str__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return self.html


def explain(
    source: Union[str, "os.PathLike[str]"],
    kernel: Optional[str] = None,
    *,
    grid: Union[int, Sequence[int]],
    cta: Union[int, Sequence[int]] = 0,
    chip: Optional[str] = None,
    **arrays_and_dims: Any,
) -> Explanation:
    """``phobos explain`` on a source (path or text): compiles it and explains ``kernel``."""
    return compile(source, chip=chip).explain(kernel, grid=grid, cta=cta, **arrays_and_dims)


from . import testing  # noqa: E402  (phobos.testing, imported with phobos)
