//! The `phobos` and `phobos-opt` commands: argument parsing, printing and exit codes over the
//! libraries that do the work (`phobos-compiler`, `phobos-runtime`, `phobos-explain`,
//! `phobos-rotate`, and the embedding API `phobos`). Only this package prints or exits.

// First: its macros (`out!`, `outln!`, `err!`, `errln!`) are used by every module after it.
#[macro_use]
pub mod out;
pub mod bench_cmd;
pub mod cli;
pub mod crash;
pub mod explain_cmd;
pub mod isolate;
pub mod layout_cmd;
pub mod opt;
pub mod run_cmd;
pub mod selftest;
pub mod time_passes;

// The libraries under the names the commands use.
pub(crate) use phobos as api;
pub(crate) use phobos_compiler::{
    cache, compile, env, libdevice, pass_manager, ptx, read_source, render, session, split, staged, stats, verify_diagnostics, version_line,
};
pub(crate) use phobos_rotate as rotate;
pub(crate) use phobos_runtime::npy;

/// Sets up `tracing` from `PHOBOS_LOG` (or `RUST_LOG`), to stderr.
pub fn init_logging() {
    let filter = env::get("PHOBOS_LOG").ok_or(()).or_else(|_| std::env::var("RUST_LOG")).unwrap_or_else(|_| "warn".into());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
        .with_writer(std::io::stderr)
        .without_time()
        .try_init();
}

/// `--mlir-print-ir-before/after` dumps go to stderr, as mlir-opt's do.
pub fn stderr_sink() -> phobos_passes::external::IrSink {
    phobos_passes::external::IrSink(std::sync::Arc::new(|s| {
        err!("{s}");
    }))
}
