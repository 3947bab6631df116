//! The `phobos` command line: `phobos compile` (and, as they land, `run`, `layout`, `bench`).

use crate::{
    compile::{self, CompileOptions, Stage},
    run::{IrPrinting, PrintFlags},
    session::Session,
};
use clap::{Parser, Subcommand};
use phobos_passes::pipelines::Target;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(name = "phobos", version, long_version = crate::version_line("phobos"), about = "The Phobos GPU kernel compiler")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Compile a kernel (L1 MLIR) to a stage: l1, simt, llvm or ptx.
    Compile(CompileArgs),
}

#[derive(clap::Args, Debug)]
struct CompileArgs {
    /// The input: an `.mlir` file at the L1 level.
    file: PathBuf,
    /// What to write.
    #[arg(long, value_enum, default_value = "ptx")]
    emit: Stage,
    /// The target chip.
    #[arg(long, default_value = "sm_90")]
    chip: String,
    /// Output file; stdout when absent.
    #[arg(short = 'o')]
    output: Option<PathBuf>,
    /// Write the IR after every pass into DIR, one numbered file per pass, named after the stage
    /// and the pass.
    #[arg(long, value_name = "DIR")]
    dump_ir_dir: Option<PathBuf>,
    /// libdevice.10.bc, for math functions (default: $PHOBOS_LIBDEVICE).
    #[arg(long)]
    libdevice: Option<PathBuf>,
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
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 1 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Command::Compile(a) => compile_cmd(a),
    }
}

fn fail(msg: impl std::fmt::Display) -> i32 {
    eprintln!("phobos: error: {msg}");
    1
}

fn compile_cmd(a: CompileArgs) -> i32 {
    let libdevice = a.libdevice.clone().or_else(|| crate::env::get("PHOBOS_LIBDEVICE").map(PathBuf::from));
    let mut opts_text = format!("chip={}", a.chip);
    if let Some(l) = &libdevice {
        opts_text.push_str(&format!(" libdevice={}", l.display()));
    }
    let target = match Target::parse(&opts_text) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let filename = a.file.display().to_string();
    let text = match std::fs::read(&a.file) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => return fail(format!("{filename}: {e}")),
    };
    if !filename.ends_with(".mlir") {
        return fail(format!("{filename}: expected an .mlir file (L1 IR)"));
    }
    let printing = IrPrinting {
        before_all: a.mlir_print_ir_before_all,
        after_all: a.mlir_print_ir_after_all,
        after_change: a.mlir_print_ir_after_change,
        after_failure: a.mlir_print_ir_after_failure,
        module_scope: a.dump_ir_dir.is_some(),
        tree_dir: a.mlir_print_ir_tree_dir.clone(),
        flags: PrintFlags { generic: a.mlir_print_op_generic, ..Default::default() },
    };
    let session = match Session::new(!printing.module_scope) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let opts = CompileOptions {
        target,
        dump_dir: a.dump_ir_dir.clone(),
        printing,
        print_before: a.mlir_print_ir_before.clone(),
        print_after: a.mlir_print_ir_after.clone(),
    };
    let source = |f: &str| (f == filename).then(|| text.clone());
    let module = session.parse(&text, &filename);
    let result = match &module {
        Some(m) => compile::lower(&session, m, a.emit, &opts).and_then(|()| compile::output_text(m, a.emit)),
        None => Err(compile::CompileError::Invalid),
    };
    eprint!("{}", compile::render(&session.diags.take(), &source));
    let out = match result {
        Ok(t) => t,
        Err(compile::CompileError::Invalid) => return 1,
        Err(e) => return fail(e),
    };
    match &a.output {
        Some(p) => {
            if let Err(e) = std::fs::write(p, out) {
                return fail(format!("{}: {e}", p.display()));
            }
        }
        None => print!("{out}"),
    }
    0
}
