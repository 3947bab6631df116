//! The Phobos compiler library: a [`session::Session`] (an MLIR context with the Phobos dialects
//! and passes), the pass manager, staged lowering (L1 to SIMT, LLVM and PTX), the kernel cache,
//! the one front door from a `.phobos` source or `.mlir` text to a lowered module
//! ([`front_door`]), and the one diagnostic renderer ([`render`]). It prints nothing and exits
//! never: the CLI (`phobos-cli`) and the embedding API (`phobos`) decide what a user sees.

pub mod cache;
pub mod compile;
pub mod crash_stage;
pub mod env;
pub mod front_door;
pub mod libdevice;
pub mod pass_manager;
pub mod ptx;
pub mod render;
pub mod session;
pub mod split;
pub mod staged;
pub mod stats;
pub mod verify_diagnostics;

/// Errors of the compiler that are not diagnostics about the input.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A bug in Phobos (e.g. its own IRDL failed to load).
    #[error("internal error: {0}")]
    Internal(String),
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
}

pub use phobos_runtime::read_file;

/// [`read_file`] for a source: bytes that are not UTF-8 are replaced, so a parser reports them
/// at their place.
pub fn read_source(path: &std::path::Path) -> Result<String, String> {
    read_file(path).map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// The version both binaries print after their name (clap puts the name first), with the build
/// id that keys the kernel cache.
pub fn version_line() -> String {
    format!("{} (MLIR/LLVM 22, melior 0.27.8, build {})", env!("CARGO_PKG_VERSION"), cache::BUILD_ID)
}
