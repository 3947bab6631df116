//! `phobos explain`'s command line: its flags (pinned: outside tests rely on them; extend, never rename) and
//! what it writes.

use std::path::PathBuf;

/// `phobos explain FILE.phobos --grid X[,Y,Z] ...` (docs/explain.md).
#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// A `.phobos` source.
    file: PathBuf,
    /// The kernel to explain (may be left out when the file has one).
    #[arg(long)]
    kernel: Option<String>,
    /// The grid: X[,Y[,Z]] CTAs.
    #[arg(long, value_name = "X[,Y[,Z]]")]
    grid: String,
    /// A tensor argument: NAME=PATH.npy (repeatable); tensors without one are generated.
    #[arg(long = "arg", value_name = "NAME=PATH.npy")]
    args: Vec<String>,
    /// Bind a dimension (or pick an @autotune value): -D N=1024 (repeatable).
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    defines: Vec<String>,
    /// The CTA to follow.
    #[arg(long, value_name = "X[,Y[,Z]]", default_value = "0")]
    cta: String,
    /// The target chip.
    #[arg(long, default_value = "sm_90")]
    chip: String,
    /// The simulator's bounds and size, as for `phobos run` (explain traces one CTA: it runs the
    /// grid in order on one thread whatever `--sim-threads` is).
    #[command(flatten)]
    sim: crate::run_cmd::SimArgs,
    /// Where the page (or text) goes; `-` is stdout. Without it, the text goes to stdout.
    #[arg(short = 'o', value_name = "page.html")]
    output: Option<PathBuf>,
    /// html or text (default: html with -o, text without).
    #[arg(long, value_enum)]
    format: Option<Format>,
}

/// Runs `phobos explain`; the exit code (0, 1 bad input, 2 a fault on the simulator).
pub fn explain_cmd(a: &ExplainArgs) -> i32 {
    let parsed = (|| -> Result<phobos_explain::Request, String> {
        Ok(phobos_explain::Request {
            file: a.file.clone(),
            kernel: a.kernel.clone(),
            grid: phobos_runtime::bind::parse_grid(&a.grid)?,
            source: None,
            arrays: Vec::new(),
            args: a.args.iter().map(|s| phobos_runtime::bind::parse_arg(s)).collect::<Result<_, _>>()?,
            defines: crate::cli::parse_defines(&a.defines)?,
            cta: parse_cta(&a.cta)?,
            chip: a.chip.clone(),
            sim: a.sim.bounds(),
        })
    })();
    let req = match parsed {
        Ok(r) => r,
        Err(e) => return crate::cli::fail(e),
    };
    if let Err(e) = phobos_passes::target::chip(&req.chip) {
        return crate::cli::fail(e);
    }
    if let Some(o) = a.output.as_deref().filter(|p| *p != std::path::Path::new("-")) {
        let inputs: Vec<PathBuf> = std::iter::once(req.file.clone()).chain(req.args.iter().map(|(_, p)| p.clone())).collect();
        if let Err(e) = crate::staged::refuse_overwrite(o, &inputs) {
            return crate::cli::fail(e);
        }
    }
    let e = match phobos_explain::explain(&req) {
        Ok(e) => e,
        Err(e) => return crate::run_cmd::report(&e),
    };
    err!("{}", e.warnings);
    let to_stdout = a.output.as_deref().is_none_or(|p| p == std::path::Path::new("-"));
    let format = a.format.unwrap_or(if a.output.is_some() { Format::Html } else { Format::Text });
    let out = match format {
        Format::Html => phobos_explain::render_html(&e),
        Format::Text => phobos_explain::render_text(&e),
    };
    crate::cli::write_out(&if to_stdout { None } else { a.output.clone() }, &out)
}

/// Parses `--cta X[,Y[,Z]]`: a CTA's coordinates, each from 0.
fn parse_cta(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.len() > 3 {
        return Err(format!("--cta {s}: expected X[,Y[,Z]]"));
    }
    let mut c = [0u32; 3];
    for (i, p) in parts.iter().enumerate() {
        c[i] = p.parse().map_err(|_| format!("--cta {s}: '{p}' is not a CTA coordinate (0 or more)"))?;
    }
    Ok(c)
}

/// What the page or the text is written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Html,
    Text,
}
