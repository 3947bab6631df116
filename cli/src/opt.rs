//! `phobos-opt`: mlir-opt's conventions over Phobos's dialects and passes, for lit tests.

use crate::{
    pass_manager::{run_pipeline, IrPrinting, PipelineRunError, PrintFlags},
    ptx,
    session::Session,
    split, verify_diagnostics,
};
use clap::{Arg, ArgAction, ArgMatches, Command};
use phobos_ir::diag::{Diagnostic, Severity};
use phobos_passes::{pipeline::BuildConfig, pipelines::PIPELINES, registry};
use std::io::Read;

fn command() -> Command {
    let mut cmd = Command::new("phobos-opt")
        .about("Phobos's MLIR optimizer driver: parses MLIR, runs a pass pipeline, prints the result")
        .version(env!("CARGO_PKG_VERSION"))
        .long_version(crate::version_line())
        .arg(Arg::new("input").default_value("-").help("input file, '-' for stdin"))
        .arg(Arg::new("output").short('o').default_value("-").help("output file, '-' for stdout"))
        .arg(
            Arg::new("pass-pipeline")
                .long("pass-pipeline")
                .value_name("PIPELINE")
                .help("a pass pipeline, e.g. 'builtin.module(gpu.module(convert-lane-to-gpu))'"),
        )
        .arg(
            Arg::new("split-input-file")
                .long("split-input-file")
                .value_name("MARKER")
                .num_args(0..=1)
                .require_equals(true)
                .default_missing_value(split::DEFAULT_MARKER)
                .help("split the input at MARKER ('// -----') and process each chunk on its own"),
        )
        .arg(
            Arg::new("output-split-marker")
                .long("output-split-marker")
                .value_name("MARKER")
                .default_value(split::DEFAULT_MARKER)
                .help("the line written between the chunks' outputs"),
        )
        .arg(
            Arg::new("verify-diagnostics")
                .long("verify-diagnostics")
                .value_name("LEVEL")
                .num_args(0..=1)
                .require_equals(true)
                .default_missing_value("all")
                .value_parser(["all", "", "only-expected"])
                .help("check diagnostics against expected-* comments in the input (=only-expected: unexpected ones pass)"),
        )
        .arg(flag("verify-roundtrip", "check that the parsed IR prints and parses back to itself, in generic and custom form"))
        .arg(flag("list-passes", "list the passes: the upstream ones registered (as mlir-opt prints them), then Phobos's passes and pipelines, with their options"))
        .arg(
            Arg::new("emit")
                .long("emit")
                .value_parser(["mlir", "ptx"])
                .default_value("mlir")
                .help("what to write: the IR, or the PTX of the gpu.binary ops"),
        )
        .arg(flag("mlir-print-ir-before-all", "print the IR before every pass"))
        .arg(flag("mlir-print-ir-after-all", "print the IR after every pass"))
        .arg(flag("mlir-timing", "print MLIR's report of the wall time of each pass on stderr"))
        .arg(flag("mlir-print-ir-after-change", "print the IR after every pass that changed it"))
        .arg(flag("mlir-print-ir-after-failure", "print the IR after a pass that failed"))
        .arg(flag("mlir-print-ir-module-scope", "print the whole module, not just the pass's op"))
        .arg(list("mlir-print-ir-before", "FLAG", "print the IR before these passes (comma-separated)"))
        .arg(list("mlir-print-ir-after", "FLAG", "print the IR after these passes (comma-separated)"))
        .arg(
            Arg::new("mlir-print-ir-tree-dir")
                .long("mlir-print-ir-tree-dir")
                .value_name("DIR")
                .help("write the printed IR into files under DIR instead of stderr"),
        )
        .arg(flag("mlir-print-op-generic", "print ops in generic form"))
        .arg(flag("mlir-print-debuginfo", "print locations"))
        .arg(flag("mlir-print-local-scope", "print with local scope (no aliases)"))
        .arg(flag("mlir-print-skip-regions", "print ops without their regions ('{...}')"))
        .arg(flag("mlir-print-assume-verified", "print without verifying first (generic form is not forced for invalid IR)"))
        .arg(flag("mlir-use-nameloc-as-prefix", "name SSA values after their NameLoc locations"))
        .arg(
            Arg::new("mlir-elide-elementsattrs-if-larger")
                .long("mlir-elide-elementsattrs-if-larger")
                .value_name("N")
                .value_parser(clap::value_parser!(usize))
                .help("elide element attributes with more than N elements"),
        )
        .arg(bool_flag("mlir-disable-threading", "run passes on one thread"))
        .arg(bool_flag(
            "mlir-print-op-on-diagnostic",
            "attach the op a diagnostic is about as a note ('see current operation', the default; =false drops it)",
        ))
        .arg(flag("emit-bytecode", "write MLIR bytecode instead of text"))
        .arg(Arg::new("irdl-file").long("irdl-file").value_name("FILE").help("load the dialects this IRDL file defines before the input"))
        .arg(flag("dump-pass-pipeline", "print the pass pipeline before it runs, on stderr"))
        .arg(flag(
            "no-implicit-module",
            "the input is one top-level op, printed as it is, and the passes run on it (no module made around it)",
        ))
        .arg(bool_flag("verify-each", "verify the IR after every pass (the default; =false verifies once, at the end)"))
        .arg(flag("allow-unregistered-dialect", "accept ops of dialects no registry knows (as mlir-opt does)"));
    for p in registry::passes() {
        cmd = cmd.arg(pass_flag(p.flag, p.summary));
    }
    for (name, summary) in PIPELINES {
        cmd = cmd.arg(pass_flag(name, summary));
    }
    cmd
}

fn flag(name: &'static str, help: &'static str) -> Arg {
    Arg::new(name).long(name).action(ArgAction::SetTrue).help(help)
}

/// An LLVM `cl::opt<bool>`: `--name`, `--name=true`, `--name=false` (or 1/0).
fn bool_flag(name: &'static str, help: &'static str) -> Arg {
    Arg::new(name)
        .long(name)
        .value_name("BOOL")
        .num_args(0..=1)
        .require_equals(true)
        .default_missing_value("true")
        .value_parser(clap::builder::BoolishValueParser::new())
        .help(help)
}

fn list(name: &'static str, value: &'static str, help: &'static str) -> Arg {
    Arg::new(name).long(name).value_name(value).action(ArgAction::Append).value_delimiter(',').help(help)
}

fn pass_flag(name: &'static str, summary: &'static str) -> Arg {
    Arg::new(name)
        .long(name)
        .value_name("OPTIONS")
        .num_args(0..=1)
        .require_equals(true)
        .default_missing_value("")
        .action(ArgAction::Append)
        .help(summary)
}

/// The pass flags of `args` (`-canonicalize`, `--lower-fma=contract=false`: Phobos's passes and
/// pipelines, and any pass or pipeline upstream MLIR registers, with one dash or two) taken out,
/// as pipeline elements in command-line order; the other arguments as they were. Each pass
/// nests under the op it runs on when the pipeline is built, as mlir-opt's implicit nesting does.
fn take_pass_flags(args: Vec<String>, cmd: &Command) -> Result<(Vec<String>, Vec<String>), String> {
    let longs: Vec<&str> = cmd.get_arguments().filter_map(|a| a.get_long()).collect();
    let phobos = |n: &str| registry::find(n).is_some() || PIPELINES.iter().any(|(p, _)| *p == n);
    let (mut rest, mut passes) = (Vec::with_capacity(args.len()), Vec::new());
    let mut options = true;
    for (i, a) in args.into_iter().enumerate() {
        if a == "--" {
            options = false;
        }
        let flag = a.strip_prefix("--").or_else(|| a.strip_prefix('-')).filter(|_| options && i > 0);
        let (name, value) = match flag.map(|f| f.split_once('=').unwrap_or((f, ""))) {
            Some((n, v)) if !n.is_empty() && !n.starts_with('-') => (n, v),
            _ => {
                rest.push(a);
                continue;
            }
        };
        let known = longs.contains(&name) || ["help", "version"].contains(&name);
        if phobos(name) || (!known && name.len() > 1 && phobos_dialects::upstream_pass_info(name).is_some()) {
            passes.push(if value.is_empty() { name.to_string() } else { format!("{name}{{{value}}}") });
        } else if !known && name.len() > 1 && !a.starts_with("--") && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            // mlir-opt's single-dash long option that names nothing (not a cluster of short ones).
            return Err(format!("unknown command line argument '{a}' (not an option, nor a pass: --list-passes lists them)"));
        } else {
            rest.push(a);
        }
    }
    Ok((rest, passes))
}

fn list_passes() -> String {
    let mut s = String::from("Phobos passes:\n");
    for p in registry::passes() {
        s.push_str(&format!("  --{:<28} {} [on {}]\n", p.flag, p.summary, if p.anchor.is_empty() { "any op" } else { p.anchor }));
        for o in p.options {
            s.push_str(&format!("      {}={:<10} {}\n", o.name, o.default, o.help));
        }
    }
    s.push_str("Pipelines:\n");
    for (name, summary) in PIPELINES {
        s.push_str(&format!("  --{name:<28} {summary}\n"));
    }
    s
}

/// The printing flags both phobos-opt and MLIR's command-line parser read.
const SHARED_PRINTING_FLAGS: [&str; 7] = [
    "mlir-print-debuginfo",
    "mlir-print-op-generic",
    "mlir-print-local-scope",
    "mlir-elide-elementsattrs-if-larger",
    "mlir-print-skip-regions",
    "mlir-print-assume-verified",
    "mlir-use-nameloc-as-prefix",
];

/// MLIR's own printing options that phobos-opt does not spell itself (`--mlir-print-unique-ssa-ids`,
/// `--mlir-pretty-debuginfo`, `--mlir-print-value-users`, ...) taken out of `args`, for MLIR's
/// command-line parser; the other arguments as they were.
fn take_mlir_options(args: Vec<String>, cmd: &Command) -> (Vec<String>, Vec<String>) {
    let longs: Vec<&str> = cmd.get_arguments().filter_map(|a| a.get_long()).collect();
    let (mut rest, mut mlir) = (Vec::with_capacity(args.len()), Vec::new());
    let mut options = true;
    for (i, a) in args.into_iter().enumerate() {
        options &= a != "--";
        let name = a.strip_prefix("--").or_else(|| a.strip_prefix('-')).map(|n| n.split('=').next().unwrap_or(n));
        match name {
            Some(n) if options && i > 0 && n.starts_with("mlir-") && !longs.contains(&n) => mlir.push(a),
            // Printing flags phobos-opt reads itself, given to MLIR too: what upstream passes
            // and diagnostics print ("see current operation", `-snapshot-op-locations`) follows them.
            Some(n) if options && i > 0 && SHARED_PRINTING_FLAGS.contains(&n) => {
                mlir.push(a.clone());
                rest.push(a);
            }
            _ => rest.push(a),
        }
    }
    (rest, mlir)
}

/// Runs phobos-opt on `args`; returns the process exit code.
/// mlir-opt's spelling of long options with one dash (`-split-input-file`, `-o=x`): each
/// argument that names a long option of `cmd` after one dash gets its second dash; anything
/// else (a short option, a negative number, a file name) is left as it is.
fn long_options_with_one_dash(args: Vec<String>, cmd: &Command) -> Vec<String> {
    let longs: Vec<&str> = cmd.get_arguments().filter_map(|a| a.get_long()).chain(["help", "version"]).collect();
    let mut out = Vec::with_capacity(args.len());
    let mut options = true;
    for (i, a) in args.into_iter().enumerate() {
        if a == "--" {
            options = false;
        }
        let name = a.strip_prefix('-').filter(|r| !r.starts_with('-')).map(|r| r.split('=').next().unwrap_or(r));
        match name {
            Some(n) if options && i > 0 && n.len() > 1 && longs.contains(&n) => out.push(format!("-{a}")),
            _ => out.push(a),
        }
    }
    out
}

pub fn main(args: Vec<String>) -> i32 {
    crate::libdevice::install_default();
    let cmd = command();
    let (args, mlir_options) = take_mlir_options(args, &cmd);
    if !mlir_options.is_empty() {
        // LLVM writes some of its complaints to stderr itself.
        if let Err(msg) = phobos_dialects::parse_mlir_printing_options("phobos-opt", &mlir_options) {
            if !msg.is_empty() {
                errln!("{msg}");
            }
            return 1;
        }
    }
    let (args, passes) = match take_pass_flags(args, &cmd) {
        Ok(x) => x,
        Err(msg) => {
            errln!("phobos-opt: error: {msg}");
            return 1;
        }
    };
    let args = long_options_with_one_dash(args, &cmd);
    let m = match cmd.try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => return crate::cli::usage_error("phobos-opt", e),
    };
    if m.get_flag("list-passes") {
        // Upstream's registry as mlir-opt prints it, then Phobos's own passes.
        if let Err(e) = phobos_dialects::print_upstream_passes() {
            errln!("phobos-opt: error: {e}");
            return 1;
        }
        out!("{}", list_passes());
        return 0;
    }
    // `--mlir-print-debuginfo` sets the debug info's form too: it takes MLIR's pretty one when asked.
    let pretty = mlir_options.iter().any(|a| {
        let (n, v) = a.trim_start_matches('-').split_once('=').unwrap_or((a.trim_start_matches('-'), "true"));
        n == "mlir-pretty-debuginfo" && !["false", "0", "FALSE", "False"].contains(&v)
    });
    match run(&m, &passes, pretty) {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(msg) => {
            errln!("phobos-opt: error: {msg}");
            1
        }
    }
}

fn run(m: &ArgMatches, passes: &[String], pretty_debuginfo: bool) -> Result<bool, String> {
    let input = m.get_one::<String>("input").expect("default");
    // The input is never overwritten (`phobos-opt a.mlir -o a.mlir`), as with the other tools.
    let dest = m.get_one::<String>("output").expect("default");
    if dest != "-" && input != "-" {
        crate::staged::refuse_overwrite(std::path::Path::new(dest), &[std::path::PathBuf::from(input)])?;
    }
    let (bytes, filename) = if input == "-" {
        let mut b = Vec::new();
        std::io::stdin().read_to_end(&mut b).map_err(|e| format!("reading stdin: {e}"))?;
        (b, "<stdin>".to_string())
    } else {
        (phobos_compiler::read_file(std::path::Path::new(input))?, input.clone())
    };
    // MLIR bytecode (`--emit-bytecode`'s output) is parsed as it is, in one piece.
    // Text's bytes that are not UTF-8 are replaced, so the parser reports them at their place.
    let (bytecode, text) = match bytes.starts_with(b"ML\xefR") {
        true => (Some(bytes), String::new()),
        false => (None, String::from_utf8_lossy(&bytes).into_owned()),
    };
    let no_implicit = m.get_flag("no-implicit-module");
    let from_flags = (!passes.is_empty()).then(|| passes.join(","));
    // The pipeline's text as given (flags: the passes, unanchored), and whether it came from flags.
    let pipeline = match (m.get_one::<String>("pass-pipeline"), from_flags) {
        (Some(_), Some(_)) => return Err("give either --pass-pipeline or pass flags, not both".into()),
        (Some(p), None) => Some((p.clone(), false)),
        (None, Some(p)) => Some((p, true)),
        // Nothing to run, but a pipeline to print: the empty one.
        (None, None) => m.get_flag("dump-pass-pipeline").then(|| (String::new(), true)),
    };
    let flags = PrintFlags {
        generic: m.get_flag("mlir-print-op-generic"),
        debuginfo: m.get_flag("mlir-print-debuginfo"),
        pretty_debuginfo,
        local_scope: m.get_flag("mlir-print-local-scope"),
        elide_elements_above: m.get_one::<usize>("mlir-elide-elementsattrs-if-larger").copied(),
        extras: phobos_ir::PrintExtras {
            skip_regions: m.get_flag("mlir-print-skip-regions"),
            assume_verified: m.get_flag("mlir-print-assume-verified"),
            name_loc_as_prefix: m.get_flag("mlir-use-nameloc-as-prefix"),
        },
    };
    let printing = IrPrinting {
        before_all: m.get_flag("mlir-print-ir-before-all"),
        after_all: m.get_flag("mlir-print-ir-after-all"),
        after_change: m.get_flag("mlir-print-ir-after-change"),
        after_failure: m.get_flag("mlir-print-ir-after-failure"),
        module_scope: m.get_flag("mlir-print-ir-module-scope"),
        tree_dir: m.get_one::<String>("mlir-print-ir-tree-dir").map(Into::into),
        flags: flags.clone(),
        timing: None,
        dump_pipeline: m.get_flag("dump-pass-pipeline"),
    };
    let strings = |id: &str| -> Vec<String> { m.get_many::<String>(id).map(|v| v.cloned().collect()).unwrap_or_default() };
    let verify = m.get_one::<String>("verify-diagnostics").is_some();
    let only_expected = m.get_one::<String>("verify-diagnostics").is_some_and(|l| l == "only-expected");
    let emit_ptx = m.get_one::<String>("emit").map(String::as_str) == Some("ptx");
    let threading = !(printing.module_scope || m.get_one::<bool>("mlir-disable-threading") == Some(&true));
    let session = Session::new(threading).map_err(|e| e.to_string())?;
    session.ctx.set_allow_unregistered_dialects(m.get_flag("allow-unregistered-dialect"));
    // Kept for the whole run: the dialects it defines refer to its ops.
    let _irdl = match m.get_one::<String>("irdl-file") {
        Some(path) => match load_irdl_file(&session, path)? {
            Some(module) => Some(module),
            None => return Ok(false),
        },
        None => None,
    };
    let cfg = BuildConfig {
        diags: session.diags.clone(),
        print_before: strings("mlir-print-ir-before"),
        print_after: strings("mlir-print-ir-after"),
        generic: flags.generic,
        ir_sink: crate::stderr_sink(),
        timings: None,
        implicit_nesting: pipeline.as_ref().is_some_and(|(_, f)| *f),
        print_module_scope: printing.module_scope,
        // mlir-opt's default: the IR is checked after every pass.
        verify_once: m.get_one::<bool>("verify-each") == Some(&false),
    };

    let source = |f: &str| (f == filename).then(|| text.clone());
    let chunks = match m.get_one::<String>("split-input-file").filter(|_| bytecode.is_none()) {
        Some(marker) => {
            split::check_marker(marker)?;
            let s = split::split(&text, marker);
            for (line, col) in s.near_misses {
                let at = phobos_ir::SrcLoc::new(filename.clone(), line as u32, col as u32);
                let d = Diagnostic::new(Severity::Warning, Some(at), "near miss with file split marker");
                err!("{}", d.render_with_source(&source));
            }
            s.chunks
        }
        None => vec![split::Chunk::whole(&text)],
    };
    let print_op_notes = m.get_one::<bool>("mlir-print-op-on-diagnostic") != Some(&false);
    if !verify {
        // Each diagnostic is printed as it comes, as mlir-opt's handler does: between the IR
        // dumps of the passes around it.
        let (file, text) = (filename.clone(), std::sync::Arc::new(text.clone()));
        let _ = session.diags.set_tee(Some(std::sync::Arc::new(move |d: &Diagnostic| {
            let mut d = d.clone();
            if !print_op_notes {
                drop_op_notes(&mut d);
            }
            err!("{}", d.render_with_source(&|f: &str| (f == file).then(|| text.to_string())));
        })));
    }
    let mut outputs = Vec::new();
    // Expectations no chunk met, reported after every chunk's unexpected diagnostics (mlir-opt).
    let mut missing = Vec::new();
    let mut all_ok = true;
    for chunk in &chunks {
        // mlir-opt's timing report, one per chunk: the parse, the passes, the output.
        let timing = m.get_flag("mlir-timing").then(|| std::rc::Rc::new(phobos_dialects::Timing::new()));
        let phase = |p| {
            if let Some(t) = &timing {
                t.phase(p)
            }
        };
        phase(Some(phobos_dialects::TimingPhase::Parser));
        // Step 1. Parse, then run the Rust verifiers (IRDL and upstream verifiers ran in the parser).
        let module = match &bytecode {
            Some(b) => session.parse_bytecode(b, &filename),
            None if no_implicit => session.parse_single(&chunk.text, &filename),
            None => session.parse(&chunk.text, &filename),
        };
        phase(None);
        // `--no-implicit-module` on an op other than a module: the op, which the module made
        // around it holds; the passes run on it and it prints alone.
        let lone = module
            .as_ref()
            .filter(|_| no_implicit && bytecode.is_none() && !starts_with_module(&chunk.text))
            .and_then(|md| md.op().region(0).first_block()?.first_op());
        let pipeline = pipeline.as_ref().map(|(p, flags)| {
            let text = match (lone, *flags) {
                (None, true) => format!("builtin.module({p})"),
                (None, false) => p.clone(),
                (Some(op), true) => format!("builtin.module({}({p}))", op.name()),
                (Some(_), false) => format!("builtin.module({p})"),
            };
            (text, *flags)
        });
        // A module the parser made around the ops is where its chunk starts, as mlir-opt's (what
        // `--mlir-print-debuginfo` prints): line 0, column 0 for the first.
        if let Some(m) = module.as_ref().filter(|_| !no_implicit && bytecode.is_none() && !starts_with_module(&chunk.text)) {
            let op = m.op();
            let (line, col) = if chunk.first_line == 1 && chunk.first_col == 1 { (0, 0) } else { (chunk.first_line, chunk.first_col) };
            op.set_loc(op.ctx().file_loc(&filename, line as u32, col as u32));
        }
        let mut ok = module.as_ref().is_some_and(|md| phobos_dialects::verify(md.op(), &session.diags));
        if let (true, true, Some(md)) = (ok, m.get_flag("verify-roundtrip"), module.as_ref()) {
            ok = roundtrips(&session, md, &filename);
        }
        // mlir-opt anchors its pass manager on the pipeline's op: on an input whose top-level op
        // is another, the chunk fails at that op.
        let top = lone.or(module.as_ref().map(|md| md.op()));
        let anchor = m.get_one::<String>("pass-pipeline").filter(|p| p.contains('(')).map(|p| p.split('(').next().unwrap_or("").trim());
        if let (Some(top), Some(anchor)) = (top.filter(|_| ok), anchor) {
            if top.name() != anchor {
                let message = format!("can't run '{anchor}' pass manager on '{}' op", top.name());
                session.diags.emit(Diagnostic::new(Severity::Error, top.loc().src(), message));
                ok = false;
            }
        }
        // Step 2. Run the pipeline.
        let mut failure = None;
        // Strings NVPTX trusts (it aborts on a bad one) are checked before a pipeline reaches it.
        let reaches_nvptx = pipeline.as_ref().is_some_and(|(p, _)| p.contains("gpu-module-to-binary") || p.contains("phobos-to-ptx"));
        if let (true, true, Some(md)) = (ok, reaches_nvptx, module.as_ref()) {
            ok = crate::compile::backend_strings_ok(&session, md);
        }
        if let (true, Some(md), Some((p, _))) = (ok, module.as_ref(), pipeline.as_ref()) {
            let printing = IrPrinting { timing: timing.clone(), ..printing.clone() };
            match run_pipeline(&session, md, p, &cfg, &printing) {
                // A PTX that calls a function nothing defines is never emitted.
                Ok(()) => {
                    ok = phobos_dialects::verify(md.op(), &session.diags) && (!emit_ptx || crate::compile::resolved(&session, md, &[]))
                }
                Err(PipelineRunError::Pipeline(e)) => {
                    // A wrong pipeline is the command's error, not the input's: stop here.
                    errln!("{e}");
                    return Ok(false);
                }
                Err(e) => {
                    ok = false;
                    failure = Some(e);
                }
            }
        }
        // Step 3. Report (or check) the diagnostics.
        let mut diags = session.diags.take();
        if !print_op_notes {
            for d in &mut diags {
                drop_op_notes(d);
            }
        }
        if verify {
            let expected =
                verify_diagnostics::parse_expectations(&chunk.text).map_err(|(l, c, msg)| format!("{filename}:{l}:{c}: {msg}"))?;
            let failures = verify_diagnostics::check(&filename, &chunk.text, &expected, &diags, only_expected);
            for f in &failures.unexpected {
                errln!("{f}");
            }
            all_ok &= failures.is_empty();
            missing.extend(failures.missing);
        } else {
            // (Printed as they came, by the tee.)
            // A failure the diagnostics already explain gets no line of its own (as mlir-opt);
            // one without an error is never silent.
            if let Some(f) = failure.as_ref().filter(|_| !diags.iter().any(|d| d.severity == Severity::Error)) {
                errln!("phobos-opt: error: {f}");
            }
            // As mlir-opt: the exit code is the parse's and the passes' success; an error a pass
            // reports while succeeding (some upstream conversions do) is printed, exit 0.
            all_ok &= ok;
        }
        phase(Some(phobos_dialects::TimingPhase::Output));
        // Step 4. Output. A chunk that prints nothing still takes its place between the split
        // markers, as with mlir-opt.
        outputs.push(Vec::new());
        if let (true, Some(md)) = (ok, module.as_ref()) {
            if emit_ptx {
                let ptx = ptx::extract(md.op());
                if ptx.is_empty() {
                    errln!(
                        "phobos-opt: error: no gpu.binary to emit PTX from; end the pipeline with \
                         gpu-module-to-binary{{format=isa}} (phobos-to-ptx does)"
                    );
                    all_ok = false;
                } else if ptx.len() > 1 {
                    // Two PTX modules concatenated are not one PTX file: ptxas rejects the second header.
                    let names: Vec<&str> = ptx.iter().map(|(n, _)| n.as_str()).collect();
                    errln!(
                        "phobos-opt: error: --emit=ptx needs one gpu.binary, the module has {} ({}): a PTX file \
                         holds one module",
                        ptx.len(),
                        names.join(", ")
                    );
                    all_ok = false;
                    continue;
                }
                *outputs.last_mut().expect("pushed") = ptx.into_iter().map(|(_, t)| t).collect::<Vec<_>>().join("\n").into_bytes();
            } else if m.get_flag("emit-bytecode") {
                *outputs.last_mut().expect("pushed") = match lone {
                    Some(op) => op.bytecode(),
                    None => md.bytecode(),
                };
            } else {
                let flags = flags.to_melior();
                // mlir-opt prints a newline after the op's own (a blank line ends each chunk).
                // A lone op prints as a top-level one (its location aliases after it): a copy.
                let text = match lone {
                    Some(op) => op.clone_op().op().print_with_flags(&flags),
                    None => md.op().print_with_flags(&flags),
                };
                *outputs.last_mut().expect("pushed") = (text + "\n").into_bytes();
            }
        }
    }
    for f in &missing {
        errln!("{f}");
    }
    let marker = format!("{}\n", m.get_one::<String>("output-split-marker").expect("default"));
    let mut out = outputs.join(marker.as_bytes());
    let dest = m.get_one::<String>("output").expect("default");
    if dest == "-" {
        if !m.get_flag("emit-bytecode") && !out.ends_with(b"\n") && !out.is_empty() {
            out.push(b'\n');
        }
        // A full or closed stdout is exit 1 with its reason (out::finish), not a lost output.
        crate::out::stdout_bytes(&out);
    } else if all_ok {
        // A file is written only when everything succeeded (docs/debugging.md); stdout gets the
        // parts that did, as mlir-opt prints them.
        let mut staged = crate::staged::Staged::new();
        staged.write(std::path::Path::new(dest), &out).and_then(|_| staged.commit())?;
    }
    Ok(all_ok)
}

/// mlir-opt's `--irdl-file`: the file's IRDL dialects loaded into the session. None after an
/// error (printed).
fn load_irdl_file<'s>(session: &'s Session, path: &str) -> Result<Option<phobos_ir::OwnedModule<'s>>, String> {
    let text = crate::read_source(std::path::Path::new(path))?;
    let module = session.parse(&text, path);
    if let Some(Err(d)) = module.as_ref().map(phobos_dialects::load_irdl) {
        session.diags.emit(d);
    }
    let diags = session.diags.take();
    print_diagnostics(&diags, &|f: &str| (f == path).then(|| text.clone()));
    Ok(module.filter(|_| !diags.iter().any(|d| d.severity == Severity::Error)))
}

/// mlir-opt's `--verify-roundtrip`: the parsed IR, printed in generic form and in custom form
/// (with locations), parses back to IR that prints the same. A difference is an error.
fn roundtrips(session: &Session, md: &phobos_ir::OwnedModule, filename: &str) -> bool {
    for generic in [true, false] {
        let flags = PrintFlags { generic, debuginfo: true, ..Default::default() }.to_melior();
        let printed = md.op().print_with_flags(&flags);
        let again = session.parse(&printed, filename).map(|m| m.op().print_with_flags(&flags));
        if again.as_deref() != Some(printed.as_str()) {
            let form = if generic { "generic" } else { "custom" };
            errln!("{filename}: error: the IR printed in {form} form does not parse back to itself (--verify-roundtrip)");
            return false;
        }
    }
    true
}

/// `--mlir-print-op-on-diagnostic=false`: the "see current operation" note MLIR attaches, dropped.
fn drop_op_notes(d: &mut Diagnostic) {
    d.notes.retain(|n| !n.message.starts_with("see current operation"));
}

/// Prints diagnostics to stderr with the source line and a caret, as mlir-opt does.
pub fn print_diagnostics(diags: &[Diagnostic], source: &dyn Fn(&str) -> Option<String>) {
    for d in diags {
        err!("{}", d.render_with_source(source));
    }
}

/// Whether MLIR text's first op is a `module` (not one the parser makes around several ops).
fn starts_with_module(text: &str) -> bool {
    let code = text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    let code = code.trim_start();
    code.strip_prefix("module").is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.'))
}
