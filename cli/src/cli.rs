//! The `phobos` command line: `phobos compile`, `run`, `layout`, `selftest` and `bench`.

use crate::{
    compile::{self, CompileOptions, Stage},
    pass_manager::{IrPrinting, PrintFlags},
    session::Session,
};
use clap::{Parser, Subcommand};
use phobos_ir::diag::Diagnostic;
use phobos_passes::pipelines::Target;
use std::{collections::BTreeMap, path::PathBuf};

#[derive(Parser, Debug)]
#[command(name = "phobos", version, long_version = crate::version_line(), about = "The Phobos GPU kernel compiler")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Compile a kernel to a stage: ast (.phobos only), l1, simt, llvm or ptx.
    Compile(CompileArgs),
    /// Run a kernel on tensors from .npy files; write every tensor back to DIR/NAME.npy.
    Run(RunArgs),
    /// Evaluate and check a layout expression (CuTe notation): print it, its table, its axes.
    Layout(crate::layout_cmd::LayoutArgs),
    /// Run the example kernels on random data against CPU references: on the simulator, and with
    /// --gpu on the GPU too (also compared with the simulator).
    Selftest(crate::selftest::SelftestArgs),
    /// Step through a kernel as the compiler built it, statement by statement: the tensors'
    /// boxes, the shared-memory plan, barriers kept and elided, threads, lanes and shuffles of
    /// one CTA, from a simulator run of the whole grid (text, or a self-contained HTML page).
    Explain(crate::explain_cmd::ExplainArgs),
    /// Rotate an array in place on the device, as np.roll(a, -D) on its flattened items:
    /// read IN.npy (never modified), write OUT.npy with IN's dtype and shape.
    Rotate(RotateArgs),
    /// Time the example kernels on the GPU (CUDA events) against a device-to-device copy of the
    /// same bytes; needs a GPU.
    Bench(crate::bench_cmd::BenchArgs),
}

#[derive(clap::Args, Debug)]
struct RotateArgs {
    /// The array (.npy; any dtype of 1, 2, 4 or 8 bytes; any shape, rotated as its C-order
    /// sequence).
    input: PathBuf,
    /// The distance: a non-negative integer, taken modulo the item count.
    #[arg(long = "by", value_name = "D", allow_negative_numbers = true, value_parser = parse_distance)]
    by: u64,
    /// The rotated array (`-`: stdout).
    #[arg(short = 'o', value_name = "OUT.npy")]
    output: PathBuf,
    /// Where it runs.
    #[arg(long, value_enum, default_value = "auto")]
    backend: crate::run_cmd::Backend,
    /// Print the scheme, the launches and (on the simulator) the bytes read and written and the
    /// bank conflicts it counted, on stderr.
    #[arg(long)]
    stats: bool,
    /// The simulator's bounds and size, as for `phobos run` (`--sim-sms 132`: an H100's SMs,
    /// whose resident CTAs bound the distances the single pass takes).
    #[command(flatten)]
    sim: crate::run_cmd::SimArgs,
}

#[derive(clap::Args, Debug)]
struct RunArgs {
    /// A `.phobos` source, or an `.mlir` file at the L1 or SIMT level.
    file: PathBuf,
    /// The kernel to run (may be left out when the file has one).
    #[arg(long)]
    kernel: Option<String>,
    /// The grid: X[,Y[,Z]] CTAs.
    #[arg(long, value_name = "X[,Y[,Z]]")]
    grid: String,
    /// A tensor argument: NAME=PATH.npy (repeatable).
    #[arg(long = "arg", value_name = "NAME=PATH.npy")]
    args: Vec<String>,
    /// Where every tensor argument is written after the run.
    #[arg(long, default_value = "phobos-out")]
    out: PathBuf,
    /// Which machine runs the kernel.
    #[arg(long, value_enum, default_value = "auto")]
    backend: crate::run_cmd::Backend,
    /// Bind a dimension (or pick an @autotune value): -D N=1024 (repeatable).
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    defines: Vec<String>,
    /// The target chip (the simulator models its shared-memory limit). Default: the GPU's own
    /// on the CUDA backend, sm_90 on the simulator.
    #[arg(long)]
    chip: Option<String>,
    #[command(flatten)]
    sim: crate::run_cmd::SimArgs,
    /// Print the launch's time and instruction counts on stderr (`key: value` lines).
    #[arg(long)]
    stats: bool,
    /// Keep float multiplies and adds apart (no fused multiply-add contraction).
    #[arg(long)]
    no_fma: bool,
    /// Approximate f32 math functions (ex2.approx, lg2.approx, rsqrt.approx, sin/cos.approx,
    /// tanh.approx on sm_75+), as @fast_math does for one kernel.
    #[arg(long)]
    fast_math: bool,
}

/// What `--emit` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Emit {
    /// The syntax tree, as JSON (.phobos input only).
    Ast,
    L1,
    Simt,
    Llvm,
    Ptx,
}

#[derive(clap::Args, Debug)]
struct CompileArgs {
    /// The input: a `.phobos` kernel, or an `.mlir` file at the L1 level.
    file: PathBuf,
    /// Print the wall time of each phase on stderr: setup, frontend, context, parse, each stage
    /// (each Phobos pass under it), checks, output, and the total from `main`; then the
    /// process's CPU time before `main` (exec, loader, static constructors).
    #[arg(long)]
    time_passes: bool,
    /// The kernel to compile (may be left out when the file has one).
    #[arg(long)]
    kernel: Option<String>,
    /// What to write.
    #[arg(long, value_enum, default_value = "ptx")]
    emit: Emit,
    /// The target chip.
    #[arg(long, default_value = "sm_90")]
    chip: String,
    /// Fix a dimension at compile time: -D K=256 (repeatable).
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    defines: Vec<String>,
    /// Output file; stdout when absent or `-`.
    #[arg(short = 'o')]
    output: Option<PathBuf>,
    /// Write the IR after every pass into DIR, one numbered file per pass, named after the stage
    /// and the pass.
    #[arg(long, value_name = "DIR")]
    dump_ir_dir: Option<PathBuf>,
    /// Print remarks (e.g. which barriers were elided and why) with the diagnostics.
    #[arg(long)]
    remarks: bool,
    /// Always compile: neither read nor write the kernel cache (PHOBOS_CACHE_DIR).
    #[arg(long)]
    no_cache: bool,
    /// Print `key: value` statistics on stderr (shared bytes, shuffles, barriers; registers and
    /// spills when ptxas is found).
    #[arg(long)]
    stats: bool,
    /// Write the entries' ABI (parameters, block size, shared memory) as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    manifest: Option<PathBuf>,
    /// Keep float multiplies and adds apart: no fused multiply-add contraction of sums of
    /// products (which is on by default, as in CUDA).
    #[arg(long)]
    no_fma: bool,
    /// Approximate f32 math functions (ex2.approx, lg2.approx, rsqrt.approx, sin/cos.approx,
    /// tanh.approx on sm_75+), as @fast_math does for one kernel.
    #[arg(long)]
    fast_math: bool,
    /// Also write each entry's strided twin (KERNEL__strided: tensors as any strided view, the
    /// element strides after the dimensions; docs/abi.md), where the kernel has one.
    #[arg(long)]
    strided: bool,
    /// libdevice.10.bc, for math functions (default: $PHOBOS_LIBDEVICE).
    #[arg(long)]
    libdevice: Option<PathBuf>,
    /// How exchanges whose values stay in their warp move: auto (the cost model's choice, in
    /// --remarks), shuffle (wherever a shuffle schedule exists) or staging (shared memory).
    #[arg(long, value_name = "HOW", default_value = "auto", value_parser = ["auto", "shuffle", "staging"])]
    exchange: String,
    /// Source line information in the PTX (`.loc` lines, as nvcc -lineinfo), for profilers.
    #[arg(long)]
    lineinfo: bool,
    /// Compile N more times in this process through the library API and print the median time
    /// (`repeat_median_ms: X` on stderr): the warm compile latency.
    #[arg(long, value_name = "N", hide = true)]
    repeat: Option<usize>,
    /// Check diagnostics against `// expected-error {{...}}` comments in the source (lit tests).
    #[arg(long)]
    verify_diagnostics: bool,
    /// Split the source on `// -----` and compile each part on its own (lit tests).
    #[arg(long)]
    split_input_file: bool,
    #[arg(long)]
    mlir_print_ir_before_all: bool,
    #[arg(long)]
    mlir_print_ir_after_all: bool,
    #[arg(long)]
    mlir_print_ir_after_change: bool,
    #[arg(long)]
    mlir_print_ir_after_failure: bool,
    #[arg(long, value_delimiter = ',', value_name = "FLAG")]
    mlir_print_ir_before: Vec<String>,
    #[arg(long, value_delimiter = ',', value_name = "FLAG")]
    mlir_print_ir_after: Vec<String>,
    #[arg(long, value_name = "DIR")]
    mlir_print_ir_tree_dir: Option<PathBuf>,
    #[arg(long)]
    mlir_print_op_generic: bool,
}

/// Runs the CLI; returns the exit code.
pub fn main(args: Vec<String>) -> i32 {
    crate::time_passes::started();
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => return usage_error("phobos", e),
    };
    // Commands that compile link the embedded libdevice (written to the cache once): not
    // `layout`, nor a usage error.
    if !matches!(cli.command, Command::Layout(_)) {
        crate::libdevice::install_default();
    }
    let name = match &cli.command {
        Command::Compile(_) => "compile",
        Command::Run(_) => "run",
        Command::Layout(_) => "layout",
        Command::Selftest(_) => "selftest",
        Command::Rotate(_) => "rotate",
        Command::Explain(_) => "explain",
        Command::Bench(_) => "bench",
    };
    phobos_compiler::crash_stage::stage(&format!("running `phobos {name}`"));
    match cli.command {
        Command::Compile(a) => compile_cmd(a),
        Command::Run(a) => run_cmd(a),
        Command::Layout(a) => crate::layout_cmd::layout_cmd(a),
        Command::Selftest(a) => crate::selftest::selftest(&a),
        Command::Rotate(a) => rotate_cmd(&a),
        Command::Explain(a) => crate::explain_cmd::explain_cmd(&a),
        Command::Bench(a) => crate::bench_cmd::bench(&a),
    }
}

fn run_cmd(a: RunArgs) -> i32 {
    let parsed = (|| -> Result<crate::run_cmd::RunRequest, String> {
        Ok(crate::run_cmd::RunRequest {
            file: a.file.clone(),
            kernel: a.kernel.clone(),
            grid: phobos_runtime::bind::parse_grid(&a.grid)?,
            args: a.args.iter().map(|s| phobos_runtime::bind::parse_arg(s)).collect::<Result<_, _>>()?,
            out: a.out.clone(),
            backend: a.backend,
            defines: parse_defines(&a.defines)?,
            chip: a.chip.clone().unwrap_or_else(|| "sm_90".into()),
            chip_given: a.chip.clone(),
            sim: a.sim.bounds(),
            stats: a.stats,
            no_fma: a.no_fma,
            fast_math: a.fast_math,
        })
    })();
    let req = match parsed {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    match crate::run_cmd::run(&req) {
        Ok(()) => 0,
        Err(e) => crate::run_cmd::report(&e),
    }
}

/// A command-line parse error as every other error reads: `TOOL: error: MESSAGE` on one line,
/// exit 1; clap's tip and usage follow as hints. `--help` and `--version` print as they are
/// (exit 0).
pub fn usage_error(tool: &str, e: clap::Error) -> i32 {
    if !e.use_stderr() {
        // --help and --version: to stdout, whose failure is the exit code's (out::finish).
        out!("{}", e.render());
        return 0;
    }
    let text = e.render().to_string();
    let (first, rest) = text.split_once("\n\n").unwrap_or((&text, ""));
    // The message may wrap onto indented lines (`... were not provided:\n  <FILE>`): one line.
    let message = first.trim().strip_prefix("error:").unwrap_or(first).split('\n').map(str::trim).collect::<Vec<_>>().join(" ");
    errln!("{tool}: error: {}", message.trim());
    if !rest.trim().is_empty() {
        errln!("{}", rest.trim_end());
    }
    1
}

pub(crate) fn fail(msg: impl std::fmt::Display) -> i32 {
    errln!("phobos: error: {msg}");
    1
}

/// `--by D`: a non-negative integer (a negative one reaches here as a value, not as a flag).
fn parse_distance(s: &str) -> Result<u64, String> {
    s.trim().parse::<u64>().map_err(|_| format!("the distance is a non-negative integer below 2^64 (np.roll(a, -D)); got '{s}'"))
}

/// Parses `-D NAME=VALUE` flags.
pub fn parse_defines(defs: &[String]) -> Result<BTreeMap<String, i64>, String> {
    let mut out = BTreeMap::new();
    for d in defs {
        let (k, v) = d.split_once('=').ok_or_else(|| format!("-D {d}: expected NAME=VALUE"))?;
        let v: i64 = v.trim().parse().map_err(|_| format!("-D {d}: the value must be an integer"))?;
        if k.is_empty() || !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!("-D {d}: '{k}' is not a dimension name"));
        }
        if out.insert(k.to_string(), v).is_some() {
            return Err(format!("-D {k} is given twice"));
        }
    }
    Ok(out)
}

fn compile_cmd(mut a: CompileArgs) -> i32 {
    // `-o -` is stdout, as for mlir-opt.
    if a.output.as_deref() == Some(std::path::Path::new("-")) {
        a.output = None;
    }
    // Inputs are never overwritten: the source and the libdevice it links.
    let inputs: Vec<PathBuf> = [Some(a.file.clone()), a.libdevice.clone()].into_iter().flatten().collect();
    for o in [&a.output, &a.manifest].into_iter().flatten() {
        if let Err(e) = crate::staged::refuse_overwrite(o, &inputs) {
            return fail(e);
        }
    }
    if a.verify_diagnostics || a.split_input_file {
        return verify_cmd(&a);
    }
    compile_one(&a)
}

/// `--split-input-file` / `--verify-diagnostics` for sources: each part is compiled to
/// `--emit`; its diagnostics (frontend's and MLIR's) are printed or checked against the part's
/// `expected-*` comments.
fn verify_cmd(a: &CompileArgs) -> i32 {
    let filename = a.file.display().to_string();
    let text = match crate::read_source(&a.file) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    if !filename.ends_with(".phobos") {
        return fail("phobos compile --verify-diagnostics/--split-input-file take a .phobos source (use phobos-opt for .mlir)");
    }
    let defines = match parse_defines(&a.defines) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    let target = match (Target { chip: a.chip.clone(), ..Target::default() }).checked() {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let stage = match a.emit {
        Emit::Ast | Emit::L1 => Stage::L1,
        Emit::Simt => Stage::Simt,
        Emit::Llvm => Stage::Llvm,
        Emit::Ptx => Stage::Ptx,
    };
    let chunks = match a.split_input_file {
        true => crate::split::split(&text, crate::split::DEFAULT_MARKER).chunks,
        false => vec![crate::split::Chunk::whole(&text)],
    };
    let session = match Session::new(true) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let source = |f: &str| (f == filename).then(|| text.clone());
    let mut ok = true;
    let mut outputs = Vec::new();
    for chunk in &chunks {
        let src = phobos_frontend::Source::new(filename.clone(), chunk.text.clone());
        let fopts = phobos_frontend::Options {
            defines: defines.clone(),
            kernel: a.kernel.clone(),
            no_fma: a.no_fma,
            fast_math: a.fast_math,
            strided: false,
        };
        let mut diags: Vec<Diagnostic> = Vec::new();
        match phobos_frontend::compile(&src, &fopts) {
            Err(ds) => diags.extend(ds.iter().map(|d| crate::render::frontend_diagnostic(d, &src))),
            Ok(out) => {
                let module = session.parse(&out.mlir, &format!("{filename}.l1.mlir"));
                if let Some(m) = &module {
                    let opts = CompileOptions { target: target.clone(), ..Default::default() };
                    if compile::lower(&session, m, stage, &opts).is_ok() {
                        if let Ok(t) = compile::output_text(m, stage) {
                            outputs.push(t);
                        }
                    }
                }
                diags.extend(session.diags.take());
            }
        }
        if a.verify_diagnostics {
            let expected = match crate::verify_diagnostics::parse_expectations(&chunk.text) {
                Ok(e) => e,
                Err((l, c, m)) => return fail(format!("{filename}:{l}:{c}: {m}")),
            };
            // Dialect errors read as the source author sees them (no op names).
            let shown: Vec<Diagnostic> = crate::render::render_map(&diags, true);
            let failures = crate::verify_diagnostics::check(&filename, &chunk.text, &expected, &shown, false);
            for f in failures.unexpected.into_iter().chain(failures.missing) {
                errln!("{f}");
                ok = false;
            }
        } else {
            err!("{}", crate::render::render_for(&diags, true, &source));
            ok &= !diags.iter().any(|d| d.severity == phobos_ir::diag::Severity::Error);
        }
    }
    // One part that failed writes nothing: the output is every part's, or none.
    if ok && (!a.verify_diagnostics || !outputs.is_empty()) {
        let code = write_out(&a.output, &outputs.join("// -----\n"));
        if code != 0 {
            return code;
        }
    }
    if ok {
        0
    } else {
        1
    }
}

fn compile_one(a: &CompileArgs) -> i32 {
    let mut clock = a.time_passes.then(crate::time_passes::Clock::start);
    let libdevice = a.libdevice.clone().or_else(|| crate::env::get("PHOBOS_LIBDEVICE").map(PathBuf::from));
    let exchange = match phobos_passes::pipelines::Exchange::parse(&a.exchange) {
        Ok(e) => e,
        Err(e) => return fail(e),
    };
    // Field by field: a value is never re-parsed from text (a libdevice path may hold spaces).
    let target = Target {
        chip: a.chip.clone(),
        fma: !a.no_fma,
        fast_math: a.fast_math,
        exchange,
        lineinfo: a.lineinfo,
        // Given (an empty value: none), else the one the driver carries.
        libdevice: match &libdevice {
            Some(l) => Some(l.display().to_string()).filter(|l| !l.is_empty()),
            None => Target::default().libdevice,
        },
        ..Target::default()
    };
    let target = match target.checked() {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let defines = match parse_defines(&a.defines) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    let filename = a.file.display().to_string();
    let text = match crate::read_source(&a.file) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let is_phobos = filename.ends_with(".phobos");
    if !is_phobos && !filename.ends_with(".mlir") {
        return fail(format!("{filename}: expected a .phobos source or an .mlir file (L1 IR)"));
    }
    if !is_phobos && (a.emit == Emit::Ast || a.kernel.is_some() || !defines.is_empty()) {
        return fail("--emit=ast, --kernel and -D apply to .phobos sources");
    }
    if a.emit == Emit::Ast && a.manifest.is_some() {
        return fail("--manifest lists the compiled entries; --emit ast stops before there are any (use --emit l1 or later)");
    }
    // Step 1. The front door: .phobos to L1 MLIR text.
    if is_phobos && a.emit == Emit::Ast {
        let src = phobos_frontend::Source::new(filename.clone(), text.clone());
        return match phobos_frontend::parse(&src) {
            Ok(ast) => write_out(&a.output, &(serde_json::to_string_pretty(&ast).expect("AST serializes") + "\n")),
            Err(d) => {
                err!("{}", d.render(&src));
                1
            }
        };
    }
    let fopts =
        phobos_frontend::Options { defines, kernel: a.kernel.clone(), no_fma: a.no_fma, fast_math: a.fast_math, strided: a.strided };
    let l1 = match phobos_compiler::front_door::l1_of(&filename, &text, &fopts) {
        Ok(l1) => l1,
        Err(e) => {
            err!("{}", e.rendered);
            return 1;
        }
    };
    let (l1_text, entries) = (l1.text, l1.entries.unwrap_or_default());
    crate::time_passes::mark(&mut clock, "frontend");
    // Step 2. MLIR: parse, verify, lower to the stage asked for.
    let stage = match a.emit {
        Emit::Ast => unreachable!("handled above"),
        Emit::L1 => Stage::L1,
        Emit::Simt => Stage::Simt,
        Emit::Llvm => Stage::Llvm,
        Emit::Ptx => Stage::Ptx,
    };
    let printing = IrPrinting {
        before_all: a.mlir_print_ir_before_all,
        after_all: a.mlir_print_ir_after_all,
        after_change: a.mlir_print_ir_after_change,
        after_failure: a.mlir_print_ir_after_failure,
        module_scope: a.dump_ir_dir.is_some(),
        tree_dir: a.mlir_print_ir_tree_dir.clone(),
        flags: PrintFlags { generic: a.mlir_print_op_generic, ..Default::default() },
        ..Default::default()
    };
    // The cache serves plain compiles: dumps, IR printing, remarks, --stats (which reads the
    // module) and --repeat always compile. A hit needs no MLIR context.
    let plain = a.dump_ir_dir.is_none()
        && !a.stats
        && a.mlir_print_ir_before.is_empty()
        && a.mlir_print_ir_after.is_empty()
        && !printing.before_all
        && !printing.after_all
        && printing.tree_dir.is_none()
        && !a.remarks
        && a.repeat.is_none();
    let cache = if plain && !a.no_cache && stage != Stage::L1 { crate::cache::Cache::open() } else { None };
    let key = crate::cache::key(&[stage.name(), &format!("{target:?}"), &l1_text]);
    if let Some(hit) = cache.as_ref().and_then(|c| c.get(&key)) {
        tracing::info!("kernel cache: hit {key}");
        return finish_cached(a, hit, entries);
    }
    if cache.is_some() {
        tracing::info!("kernel cache: miss {key}");
    }
    let session = match Session::new(!printing.module_scope) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    crate::time_passes::mark(&mut clock, "context");
    let opts = CompileOptions {
        target,
        dump_dir: a.dump_ir_dir.clone(),
        inputs: [Some(a.file.clone()), libdevice.clone()].into_iter().flatten().collect(),
        printing,
        print_before: a.mlir_print_ir_before.clone(),
        print_after: a.mlir_print_ir_after.clone(),
        ir_sink: crate::stderr_sink(),
        timings: clock.as_ref().map(|c| c.timings.clone()),
        ..Default::default()
    };
    let parse_name = l1.name;
    let module = session.parse(&l1_text, &parse_name);
    crate::time_passes::mark(&mut clock, "parse");
    let result = match &module {
        Some(m) if stage == Stage::Ptx && !compile::one_gpu_module(&session, m) => Err(compile::CompileError::Invalid),
        Some(m) => compile::lower(&session, m, stage, &opts).and_then(|info| compile::output_text(m, stage).map(|t| (t, info))),
        None => Err(compile::CompileError::Invalid),
    };
    let source = |f: &str| (f == filename).then(|| text.clone());
    let mut diags = session.diags.take();
    if !a.remarks {
        diags.retain(|d| d.severity != phobos_ir::diag::Severity::Remark);
    }
    err!("{}", crate::render::render_for(&diags, is_phobos, &source));
    crate::time_passes::mark(&mut clock, "checks");
    let (out, info) = match result {
        Ok(t) => t,
        Err(compile::CompileError::Invalid) => return 1,
        // After a located error, "pass 'X' failed" says nothing more.
        Err(compile::CompileError::Run(_)) if diags.iter().any(|d| d.severity == phobos_ir::diag::Severity::Error) => return 1,
        Err(e) => return fail(e),
    };
    if let Some(c) = &cache {
        if diags.is_empty() {
            c.put(
                &key,
                &crate::cache::Entry {
                    output: out.clone(),
                    dynamic_shared: info.dynamic_shared.clone(),
                    tensor_maps: info.tensor_maps.clone(),
                },
            );
        }
    }
    if let Some(n) = a.repeat {
        let mut times = Vec::new();
        for _ in 0..n {
            let t0 = std::time::Instant::now();
            let Ok(l1) = phobos_compiler::front_door::l1_of(&filename, &text, &fopts).map(|l| l.text) else {
                return fail("the source stopped compiling");
            };
            let Some(m) = session.parse(&l1, &parse_name) else { return fail("the L1 stopped parsing") };
            let quiet = CompileOptions { target: opts.target.clone(), ..Default::default() };
            if compile::lower(&session, &m, stage, &quiet).and_then(|_| compile::output_text(&m, stage)).is_err() {
                return fail("the repeated compile failed");
            }
            times.push(t0.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(|x, y| x.partial_cmp(y).expect("no NaN"));
        if let Some(med) = times.get(times.len() / 2) {
            errln!("repeat_median_ms: {med:.3}");
        }
    }
    if a.stats {
        if let Some(m) = &module {
            let dynamic: u64 = info.dynamic_shared.values().sum();
            for (k, v) in crate::stats::collect(m.op(), stage, &out, &a.chip, dynamic) {
                errln!("{k}: {v}");
            }
        }
    }
    let code = finish(a, entries, (&info.dynamic_shared, &info.tensor_maps), &out);
    if let Some(c) = clock.as_mut() {
        c.mark("output");
        err!("{}", c.report());
    }
    // The process ends here: tearing the module and the MLIR context down would only cost time.
    std::mem::forget(module);
    std::mem::forget(session);
    code
}

/// A compile the cache answered: the manifest and the output, as a fresh compile writes them.
fn finish_cached(a: &CompileArgs, hit: crate::cache::Entry, entries: Vec<phobos_frontend::Entry>) -> i32 {
    finish(a, entries, (&hit.dynamic_shared, &hit.tensor_maps), &hit.output)
}

/// Writes the manifest (`--manifest`, every entry with its dynamic shared memory) and the
/// output together: both files, or neither.
type Lowered<'a> = (&'a BTreeMap<String, u64>, &'a BTreeMap<String, Vec<phobos_frontend::AbiParam>>);

fn finish(a: &CompileArgs, mut entries: Vec<phobos_frontend::Entry>, (dynamic_shared, tensor_maps): Lowered, out: &str) -> i32 {
    let mut staged = crate::staged::Staged::new();
    let mut manifest_out = None;
    if let Some(m) = &a.manifest {
        for e in entries.iter_mut() {
            e.dynamic_shared_bytes = dynamic_shared.get(&e.name).copied().unwrap_or(0);
            e.params.extend(tensor_maps.get(&e.name).cloned().unwrap_or_default());
        }
        #[derive(serde::Serialize)]
        struct Manifest<'a> {
            entries: &'a [phobos_frontend::Entry],
        }
        let json = serde_json::to_string_pretty(&Manifest { entries: &entries }).unwrap_or_default() + "\n";
        if m == std::path::Path::new("-") {
            manifest_out = Some(json);
        } else if let Err(e) = staged.write(m, json.as_bytes()) {
            return fail(e);
        }
    }
    if let Some(p) = &a.output {
        if let Err(e) = staged.write(p, out.as_bytes()) {
            return fail(e);
        }
    }
    // Standard output last among the outputs, before the files are renamed into place: a full
    // disk or a closed stream there leaves no file half-replaced.
    let written = staged.commit_after(|| {
        if let Some(json) = manifest_out {
            out!("{json}");
        }
        if a.output.is_none() {
            out!("{out}");
        }
        crate::out::written()
    });
    match written {
        Ok(()) => 0,
        Err(e) => fail(e),
    }
}

/// `phobos rotate`: exit 0, 1 (bad input, no device), or 2 (a fault on the simulator).
fn rotate_cmd(a: &RotateArgs) -> i32 {
    use crate::{api::Device, run_cmd::Backend};
    let to_stdout = a.output == std::path::Path::new("-");
    if let Err(e) = crate::staged::refuse_overwrite(&a.output, std::slice::from_ref(&a.input)) {
        return fail(e);
    }
    let mut arr = match crate::npy::read(&a.input) {
        Ok(x) => x,
        Err(e) => return fail(e),
    };
    let item = arr.dtype.bytes();
    let device = match a.backend {
        Backend::Sim => Device::Simulator,
        Backend::Auto => Device::best(),
        Backend::Cuda => match Device::cuda() {
            Ok(d) => d,
            Err(e) => return fail(e.to_string()),
        },
    };
    errln!("backend: {}", device.name());
    let opts = match &device {
        Device::Simulator => match phobos_runtime::bind::sim_options("sm_90", &a.sim.bounds()) {
            Ok(o) => crate::api::LaunchOptions::default().with_sim(o),
            Err(e) => return fail(e),
        },
        _ => crate::api::LaunchOptions::default(),
    };
    let report = match crate::rotate::rotate_with_options(&device, &mut arr.data, item, a.by, &opts) {
        Ok(r) => r,
        Err(crate::api::Error::Fault(f)) => {
            errln!("{f}");
            return 2;
        }
        Err(e) => return fail(e.to_string()),
    };
    if a.stats {
        // Pinned lines (tests read them): the array's bytes, then the flags' on lines of their own.
        errln!("scheme: {}", report.scheme);
        errln!("launches: {}", report.launches);
        if let Some(c) = report.counted {
            errln!("global_bytes_read: {}", c.array_read);
            errln!("global_bytes_written: {}", c.array_written);
            errln!("flag_bytes_read: {}", c.flags_read);
            errln!("flag_bytes_written: {}", c.flags_written);
            errln!("bank_conflicts: {}", c.bank_conflicts);
        }
    }
    let bytes = match crate::npy::encode(&arr) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    if to_stdout {
        crate::out::stdout_bytes(&bytes);
        return crate::out::written().map_or_else(fail, |_| 0);
    }
    // The stats above were written first: if they failed, the output is not written.
    let mut staged = crate::staged::Staged::new();
    match staged.write(&a.output, &bytes).and_then(|_| staged.commit_after(crate::out::written)) {
        Ok(()) => 0,
        Err(e) => fail(e),
    }
}

/// Writes `out` to `dest`, or to stdout.
pub(crate) fn write_out(dest: &Option<PathBuf>, out: &str) -> i32 {
    match dest {
        Some(p) => {
            let mut staged = crate::staged::Staged::new();
            if let Err(e) = staged.write(p, out.as_bytes()).and_then(|_| staged.commit()) {
                return fail(e);
            }
        }
        None => out!("{out}"),
    }
    0
}
