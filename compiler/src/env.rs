//! Every `PHOBOS_*` environment variable Phobos reads, in one table (docs/debugging.md lists
//! them). A `PHOBOS_*` variable that is not in the table is an error, so a typo never goes
//! unnoticed.

/// (name, what it does)
pub const VARS: &[(&str, &str)] = &[
    ("PHOBOS_LOG", "tracing filter for logs on stderr, e.g. `debug` or `phobos=trace` (else RUST_LOG)"),
    ("PHOBOS_LIBDEVICE", "path of libdevice.10.bc, linked when a kernel uses math functions"),
    ("PHOBOS_LIT", "the lit executable the test suite runs (default /usr/lib/llvm-22/bin/lit)"),
    ("PHOBOS_ANCHOR_VENV", "the Python environment the benchmarks run the peers (Triton) in (default ~/.cache/phobos-anchors/venv)"),
    ("PHOBOS_FUZZ_RUNS", "inputs per target of the fuzzing harness (cli/tests/suite/fuzz.rs; default: a bounded run)"),
    ("PHOBOS_MATH_SAMPLES", "inputs per function and type of the math accuracy test (cli/tests/suite/math_accuracy.rs; default 10000)"),
    ("PHOBOS_CHROMIUM", "the browser the test suite opens `phobos explain`'s pages in (default: chromium on PATH)"),
    ("PHOBOS_CACHE_DIR", "where compiled kernels are cached (default $XDG_CACHE_HOME/phobos or ~/.cache/phobos)"),
];

/// Checks the environment; returns the names of unknown `PHOBOS_*` variables.
pub fn unknown_vars() -> Vec<String> {
    std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .filter(|k| k.starts_with("PHOBOS_") && !VARS.iter().any(|(n, _)| n == k))
        .collect()
}

/// Reads a variable of the table.
pub fn get(name: &str) -> Option<String> {
    debug_assert!(VARS.iter().any(|(n, _)| *n == name), "{name} is not in env::VARS");
    std::env::var(name).ok()
}

/// The start-up check both binaries run: unknown `PHOBOS_*` names are an error.
pub fn check() -> Result<(), String> {
    let unknown = unknown_vars();
    if unknown.is_empty() {
        return Ok(());
    }
    let known: Vec<&str> = VARS.iter().map(|(n, _)| *n).collect();
    Err(format!("unknown environment variable {} (Phobos reads: {})", unknown.join(", "), known.join(", ")))
}
