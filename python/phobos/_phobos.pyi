# Type stubs for the native module (python/src/lib.rs); the package wraps it.
from typing import Dict, List, Optional, Tuple

__version__: str

class NativeError(Exception): ...

HostArray = Tuple[str, str, List[int], bytes]
DeviceArray = Tuple[str, str, List[int], Optional[List[int]], int]

class Program:
    @property
    def chip(self) -> str: ...
    def kernels(self) -> List[str]: ...
    def params(self, kernel: str) -> List[Tuple[str, str, str, List[str]]]: ...
    def written(self, kernel: str) -> List[str]: ...
    def manifest(self) -> str: ...
    def ptx(self) -> List[Tuple[str, str]]: ...
    def stage(self, name: str) -> Optional[str]: ...
    def stages(self) -> List[str]: ...
    def passes(self) -> List[Tuple[str, str, str]]: ...
    def diagnostics(self) -> List[str]: ...
    def from_cache(self) -> bool: ...
    def run(
        self,
        kernel: str,
        arrays: List[HostArray],
        scalars: List[Tuple[str, str]],
        dims: Dict[str, int],
        grid: Tuple[int, int, int],
        device: str,
        sim: Dict[str, int],
        grids: List[Tuple[Dict[str, int], Tuple[int, int, int]]] = ...,
    ) -> Tuple[str, List[Tuple[str, bytes]], Dict[str, float], Dict[str, int]]: ...
    def meta(self, kernel: str) -> Dict[str, List[int]]: ...
    def run_cuda(
        self,
        kernel: str,
        arrays: List[DeviceArray],
        scalars: List[Tuple[str, str]],
        dims: Dict[str, int],
        grid: Tuple[int, int, int],
        stream: Optional[int],
    ) -> Tuple[str, Dict[str, float]]: ...

def compile(
    source: str, filename: str, chip: str, defines: Dict[str, int], fast_math: bool, no_fma: bool, exchange: str = ..., lineinfo: bool = ...
) -> Program: ...
def layout(
    expr: str,
    table: bool = False,
    coalesce: bool = False,
    into: Optional[str] = None,
    logical: Optional[List[int]] = None,
    draw: Optional[str] = None,
) -> str: ...
def explain(
    source: str,
    filename: str,
    kernel: Optional[str],
    arrays: List[HostArray],
    dims: Dict[str, int],
    grid: Tuple[int, int, int],
    cta: Tuple[int, int, int],
    chip: str,
    html: bool,
) -> str: ...
def gpu_chip() -> Optional[str]: ...
