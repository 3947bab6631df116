# Type stubs for the phobos package (the public API of __init__.py).
import os
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import testing as testing

__version__: str

Extents = Union[int, Sequence[int]]
Source = Union[str, os.PathLike[str]]

class PhobosError(Exception):
    text: str
    message: str
    def __init__(self, text: str, message: str) -> None: ...

class Note:
    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    message: str
    def __init__(self, file: Optional[str], line: Optional[int], column: Optional[int], message: str) -> None: ...

class CompileError(PhobosError):
    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    notes: List[Note]
    def __init__(
        self, text: str, message: str, file: Optional[str], line: Optional[int], column: Optional[int], notes: List[Note]
    ) -> None: ...

class LaunchError(PhobosError): ...
class MissingArgument(LaunchError, TypeError): ...

class Fault(PhobosError):
    kind: str
    kernel: Optional[str]
    cta: Optional[Tuple[int, int, int]]
    thread: Optional[Tuple[int, int, int]]
    op: Optional[str]
    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    def __init__(self, text: str, message: str, details: Dict[str, Any]) -> None: ...

def compile(
    source: Source,
    chip: Optional[str] = None,
    defines: Optional[Dict[str, int]] = None,
    fast_math: bool = False,
    no_fma: bool = False,
    exchange: str = "auto",
    lineinfo: bool = False,
    *,
    file: Optional[Source] = None,
    line: Optional[int] = None,
    column: Optional[int] = None,
) -> Module: ...

class PassIR:
    name: str
    stage: str
    ir: str

class Module:
    source: str
    filename: str
    chip: str
    defines: Dict[str, int]
    kernels: List[str]
    manifest: Dict[str, Any]
    diagnostics: List[str]
    from_cache: bool
    @property
    def ptx(self) -> str: ...
    def ir(self, stage: str) -> str: ...
    def passes(self) -> List[PassIR]: ...
    def kernel(self, name: str) -> Kernel: ...
    def __getattr__(self, name: str) -> Kernel: ...
    def explain(self, kernel: Optional[str] = None, *, grid: Extents, cta: Extents = 0, **arrays_and_dims: Any) -> Explanation: ...

class Launched:
    entry: str
    device: str
    ms: float
    stats: Dict[str, int]

class Kernel:
    module: Module
    name: str
    params: List[Tuple[str, str, str, List[str]]]
    def __call__(
        self, *args: Any, grid: Union[Extents, Callable[[Dict[str, Any]], Extents]], device: Optional[str] = None, **kwargs: Any
    ) -> Launched: ...
    @property
    def best_config(self) -> Optional[Dict[str, int]]: ...

class Layout:
    expr: str
    def __init__(self, expr: str) -> None: ...
    def table(self) -> Union[List[int], List[str]]: ...
    def coalesce(self) -> Layout: ...
    def compose(self, other: Union[Layout, str]) -> Layout: ...
    def complement(self, cotarget: int) -> Layout: ...
    def right_inverse(self) -> Layout: ...
    def left_inverse(self) -> Layout: ...
    def logical_divide(self, tiler: Union[Layout, str]) -> Layout: ...
    def check(self, space: str) -> Layout: ...
    def draw(self, format: str = "svg", logical: Optional[Sequence[int]] = None) -> str: ...
    def _repr_svg_(self) -> str: ...

def layout(expr: str) -> Layout: ...

class Explanation:
    html: str
    @property
    def text(self) -> str: ...
    def _repr_html_(self) -> str: ...

def explain(
    source: Source,
    kernel: Optional[str] = None,
    *,
    grid: Extents,
    cta: Extents = 0,
    chip: Optional[str] = None,
    **arrays_and_dims: Any,
) -> Explanation: ...
