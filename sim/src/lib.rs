//! A CPU SIMT simulator of the SIMT level: the IR right before MLIR's own conversion to NVVM,
//! which is what Phobos's passes produce. It runs the lowered program, not the source, so it
//! tests the passes themselves, on any machine.
//!
//! [`translate`] turns a `gpu.func` into a compact instruction list once; [`run`] executes it
//! over a grid of CTAs with sanitizer checks ([`Fault`]).

pub mod exec;
pub mod mma;
pub mod program;
pub mod translate;

pub use exec::{
    atomic_bytes, check_grid, ctas_per_sm, run, run_traced, trace, ArgValue, Fault, FaultKind, Launch, Options, Stats, DEFAULT_MAX_THREADS,
    DEFAULT_SMS, MAX_GRID,
};
pub use program::{tensor_map_target, ArgKind, Extent, Kernel, Prim};
pub use translate::{signature, translate, Signature, Unsupported};

/// The name a strided twin's stride parameter binds by (`phobos.stride = "X"`,
/// `phobos.stride_dim = 1`: `X.stride1`), among the dimensions' values: no dimension name has a
/// dot.
pub fn stride_key(tensor: &str, dim: i64) -> String {
    format!("{tensor}.stride{dim}")
}
