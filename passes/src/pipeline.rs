//! Pass pipelines written as text, with Phobos and upstream passes mixed.
//!
//! MLIR's C API cannot register a Rust pass by name, and `mlirParsePassPipeline` replaces what a
//! manager holds, so Phobos parses pipeline text itself: Phobos passes are created from the
//! registry and added with `add_pass`; upstream passes are handed one at a time to
//! `mlirOpPassManagerAddPipeline` (unanchored, so they land on the current nesting level); nested
//! `op(...)` lists become nested managers. Anchors are checked before anything reaches MLIR,
//! because adding a pass on a manager of the wrong op aborts the process inside LLVM.

use crate::{
    external::{make_pass, print_pass, IrSink, PassState, Timings},
    pipelines, registry,
};
use melior::pass::{OperationPassManager, PassManager};
use phobos_ir::{diag::Diagnostics, sref};
use std::ffi::c_void;

/// The upstream pass pipelines Phobos registers (`register_every_upstream_pass`), each built for
/// a `builtin.module`.
pub const UPSTREAM_MODULE_PIPELINES: &[&str] = &["gpu-lower-to-nvvm-pipeline"];

/// One element of a pipeline: a pass with options, or an op anchor with a nested list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Elem {
    pub name: String,
    /// The raw text between `{` and `}`.
    pub options: String,
    /// `Some` for `op(...)` anchors.
    pub nested: Option<Vec<Elem>>,
    /// 1-based column of the name in the pipeline text.
    pub col: usize,
}

/// A pipeline that cannot be built, with the column it points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineError {
    pub col: usize,
    pub message: String,
}

impl std::fmt::Display for PipelineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<pass-pipeline>:1:{}: error: {}", self.col, self.message)
    }
}

fn err<T>(col: usize, message: impl Into<String>) -> Result<T, PipelineError> {
    Err(PipelineError { col, message: message.into() })
}

/// Parses pipeline text: `a{x=1},gpu.module(b,c)`.
pub fn parse(text: &str) -> Result<Vec<Elem>, PipelineError> {
    let bytes = text.as_bytes();
    let mut pos = 0;
    let elems = parse_list(text, bytes, &mut pos)?;
    skip_ws(bytes, &mut pos);
    // MLIR's wording for each mistake.
    if pos < bytes.len() {
        return match bytes[pos] {
            b')' => err(pos + 1, "encountered extra closing ')' creating unbalanced parentheses while parsing pipeline"),
            _ => err(pos + 1, "expected ',' after parsing pipeline"),
        };
    }
    Ok(elems)
}

fn skip_ws(b: &[u8], pos: &mut usize) {
    while *pos < b.len() && b[*pos].is_ascii_whitespace() {
        *pos += 1;
    }
}

fn parse_list(text: &str, b: &[u8], pos: &mut usize) -> Result<Vec<Elem>, PipelineError> {
    let mut out = Vec::new();
    loop {
        skip_ws(b, pos);
        if *pos >= b.len() || b[*pos] == b')' {
            return Ok(out);
        }
        let start = *pos;
        while *pos < b.len() && (b[*pos].is_ascii_alphanumeric() || b"_.-".contains(&b[*pos])) {
            *pos += 1;
        }
        if *pos == start {
            return err(start + 1, format!("expected a pass or an op name, found '{}'", b[start] as char));
        }
        let name = text[start..*pos].to_string();
        skip_ws(b, pos);
        let mut options = String::new();
        if *pos < b.len() && b[*pos] == b'{' {
            let open = *pos;
            let mut depth = 0;
            while *pos < b.len() {
                match b[*pos] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                *pos += 1;
            }
            if *pos >= b.len() {
                return err(open + 1, "missing closing '}' while processing pass options");
            }
            options = text[open + 1..*pos].to_string();
            *pos += 1;
            skip_ws(b, pos);
        }
        let mut nested = None;
        if *pos < b.len() && b[*pos] == b'(' {
            let open = *pos;
            *pos += 1;
            let inner = parse_list(text, b, pos)?;
            if *pos >= b.len() || b[*pos] != b')' {
                return err(open + 1, "encountered unbalanced parentheses while parsing pipeline");
            }
            *pos += 1;
            nested = Some(inner);
        }
        out.push(Elem { name, options, nested, col: start + 1 });
        skip_ws(b, pos);
        if *pos < b.len() && b[*pos] == b',' {
            *pos += 1;
            continue;
        }
        if *pos < b.len() && b[*pos] != b')' {
            return err(*pos + 1, "expected ',' after parsing pipeline");
        }
        return Ok(out);
    }
}

/// How to build: where Phobos passes report, and the IR printing wired around named passes.
#[derive(Clone, Debug, Default)]
pub struct BuildConfig {
    pub diags: Diagnostics,
    /// `--mlir-print-ir-before=FLAG,...`
    pub print_before: Vec<String>,
    /// `--mlir-print-ir-after=FLAG,...`
    pub print_after: Vec<String>,
    /// Print in generic form.
    pub generic: bool,
    /// Where those dumps go.
    pub ir_sink: IrSink,
    /// Those dumps show the whole top-level op, their banner naming the op the pass runs on
    /// (`--mlir-print-ir-module-scope`; the driver runs on one thread then).
    pub print_module_scope: bool,
    /// Where each Phobos pass's wall time goes (`--time-passes`), when asked.
    pub timings: Option<Timings>,
    /// Nest a Phobos pass under its anchor op when added at another level (per-pass flags of
    /// `phobos-opt`, like mlir-opt's implicit nesting); pipeline strings must nest explicitly.
    pub implicit_nesting: bool,
    /// Verify the IR once, after the pipeline, instead of after every pass (MLIR's default, and
    /// what `phobos-opt` and the API do). A release `phobos compile` verifies once per stage:
    /// about 40 verifications fewer, 1.5 ms of a 20 ms compile.
    pub verify_once: bool,
}

/// Builds `text` (anchored: `builtin.module(...)`) into `pm`, whose root is `builtin.module`.
pub fn build(pm: &PassManager, text: &str, cfg: &BuildConfig) -> Result<(), PipelineError> {
    let elems = parse(text)?;
    let top = pm.as_operation_pass_manager();
    for e in &elems {
        match (&e.nested, e.name.as_str()) {
            (Some(inner), "builtin.module") => build_level(top, "builtin.module", inner, cfg)?,
            (Some(_), other) => return err(e.col, format!("can't run a pass pipeline anchored on '{other}' on a 'builtin.module'")),
            (None, _) => {
                return err(e.col, "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'")
            }
        }
    }
    Ok(())
}

/// Adds `elems` to `opm`, which runs on ops named `anchor` ("any" for any op).
pub fn build_level(opm: OperationPassManager, anchor: &str, elems: &[Elem], cfg: &BuildConfig) -> Result<(), PipelineError> {
    for e in elems {
        if let Some(inner) = &e.nested {
            if !e.options.is_empty() {
                return err(e.col, format!("an op anchor ('{}') takes no options", e.name));
            }
            build_level(opm.nested_under(&e.name), &e.name, inner, cfg)?;
            continue;
        }
        if let Some((index, info)) = registry::find(&e.name) {
            let options =
                registry::parse_options(info.flag, info.options, &e.options).map_err(|m| PipelineError { col: e.col, message: m })?;
            if !info.anchor.is_empty() && anchor != "any" && info.anchor != anchor {
                if cfg.implicit_nesting {
                    let nested = [Elem { nested: None, ..e.clone() }];
                    build_level(opm.nested_under(info.anchor), info.anchor, &nested, cfg)?;
                    continue;
                }
                return err(
                    e.col,
                    format!(
                        "pass '{}' runs on '{}' ops, not on '{anchor}'; nest it: {}({})",
                        info.flag, info.anchor, info.anchor, info.flag
                    ),
                );
            }
            print_around(opm, &e.name, info.name, &cfg.print_before, "Before", cfg);
            opm.add_pass(make_pass(index, info, PassState { diags: cfg.diags.clone(), options, timings: cfg.timings.clone() }));
            print_around(opm, &e.name, info.name, &cfg.print_after, "After", cfg);
            continue;
        }
        if let Some(expansion) = pipelines::expand(&e.name, &e.options) {
            let text = expansion.map_err(|m| PipelineError { col: e.col, message: m })?;
            if anchor != "builtin.module" {
                return err(e.col, format!("pipeline '{}' runs on 'builtin.module', not on '{anchor}'", e.name));
            }
            let inner = parse(&text)
                .map_err(|x| PipelineError { col: e.col, message: format!("in the expansion of '{}': {}", e.name, x.message) })?;
            build_level(opm, anchor, &inner, cfg)
                .map_err(|x| PipelineError { col: e.col, message: format!("in the expansion of '{}': {}", e.name, x.message) })?;
            continue;
        }
        // Upstream's pass pipelines add their passes for a `builtin.module` without checking
        // where they are: nested elsewhere, LLVM aborts ("did you intend to nest?").
        if UPSTREAM_MODULE_PIPELINES.contains(&e.name.as_str()) && anchor != "builtin.module" {
            return err(e.col, format!("pipeline '{}' runs on 'builtin.module', not on '{anchor}'", e.name));
        }
        // An upstream pass: MLIR parses and checks it (unknown names, options, anchors are clean
        // errors there). Given as a flag, it nests under the op it runs on, as in mlir-opt.
        let info = phobos_dialects::upstream_pass_info(&e.name);
        if let Some((op, _)) = info.as_ref().filter(|(op, _)| cfg.implicit_nesting && !op.is_empty() && anchor != "any" && op != anchor) {
            let nested = [Elem { nested: None, ..e.clone() }];
            build_level(opm.nested_under(op), op, &nested, cfg)?;
            continue;
        }
        let name = info.as_ref().map(|(_, n)| n.as_str()).unwrap_or(&e.name);
        print_around(opm, &e.name, name, &cfg.print_before, "Before", cfg);
        let text = if e.options.is_empty() { e.name.clone() } else { format!("{}{{{}}}", e.name, e.options) };
        add_upstream(opm, &text).map_err(|m| PipelineError { col: e.col, message: m })?;
        print_around(opm, &e.name, name, &cfg.print_after, "After", cfg);
    }
    Ok(())
}

/// An IR dump before or after the pass `flag` (named `name`) when `list` names it, under
/// mlir-opt's banner: `After Canonicalizer (canonicalize)`.
fn print_around(opm: OperationPassManager, flag: &str, name: &str, list: &[String], when: &str, cfg: &BuildConfig) {
    if list.iter().any(|f| f == flag) {
        opm.add_pass(print_pass(format!("{when} {name} ({flag})"), cfg.generic, cfg.print_module_scope, cfg.ir_sink.clone()));
    }
}

unsafe extern "C" fn collect(s: mlir_sys::MlirStringRef, data: *mut c_void) {
    // SAFETY: `data` is the `&mut message` String that `add_upstream` passes along with this callback,
    // and MLIR calls the callback only during mlirOpPassManagerAddPipeline, while that String is
    // alive and not otherwise borrowed.
    let out = unsafe { &mut *(data as *mut String) };
    // SAFETY: MLIR hands the callback a ref to bytes it holds for the call.
    out.push_str(&unsafe { phobos_ir::from_sref(s) });
}

/// Appends upstream pipeline elements (unanchored) to `opm`. A pass Phobos's pipelines do not
/// use is registered on first need (every upstream pass, once per process), then added.
pub fn add_upstream(opm: OperationPassManager, elements: &str) -> Result<(), String> {
    add_upstream_once(opm, elements).or_else(|_| {
        phobos_dialects::register_every_upstream_pass();
        add_upstream_once(opm, elements)
    })
}

fn add_upstream_once(opm: OperationPassManager, elements: &str) -> Result<(), String> {
    let mut message = String::new();
    // SAFETY: `opm` is a live pass manager, borrowed for the call; the string ref points into
    // `elements`, alive for the call; the callback only appends to `message`, which outlives it.
    let ok = unsafe {
        mlir_sys::mlirOpPassManagerAddPipeline(opm.to_raw(), sref(elements), Some(collect), &mut message as *mut String as *mut c_void)
    };
    if ok.value != 0 {
        Ok(())
    } else {
        // MLIR's message reads "MLIR Textual PassPipeline Parser:1:1: error: 'x' does not ...".
        let m = message.trim();
        let m = m.rsplit_once("error: ").map(|(_, r)| r).unwrap_or(m);
        Err(m.lines().next().unwrap_or("invalid pass").to_string())
    }
}
