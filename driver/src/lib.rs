//! The Phobos driver: `phobos-opt`, the `phobos` CLI, and the library API behind both.

pub mod api;
pub mod cache;
pub mod cli;
pub mod compile;
pub mod crash;
pub mod cuda;
pub mod env;
pub mod explain;
pub mod launch;
pub mod layout_cmd;
pub mod libdevice;
pub mod npy;
pub mod npy_header;
pub mod opt;
pub mod pass_manager;
pub mod ptx;
pub mod rotate;
pub mod selftest;
pub mod session;
pub mod split;
pub mod staged;
pub mod stats;
pub mod verify_diagnostics;

/// Errors of the driver that are not diagnostics about the input.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A bug in Phobos (e.g. its own IRDL failed to load).
    #[error("internal error: {0}")]
    Internal(String),
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
}

/// Reads an input file: a regular file only, since a device or a pipe (`/dev/zero`, a fifo)
/// would be read forever. Errors read `PATH: why`.
pub fn read_file(path: &std::path::Path) -> Result<Vec<u8>, String> {
    let p = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("{p}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{p}: not a regular file"));
    }
    std::fs::read(path).map_err(|e| format!("{p}: {e}"))
}

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

/// Sets up `tracing` from `PHOBOS_LOG` (or `RUST_LOG`), to stderr.
pub fn init_logging() {
    let filter = env::get("PHOBOS_LOG").ok_or(()).or_else(|_| std::env::var("RUST_LOG")).unwrap_or_else(|_| "warn".into());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
        .with_writer(std::io::stderr)
        .without_time()
        .try_init();
}
