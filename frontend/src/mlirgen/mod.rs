//! Type checking and generation of L1 MLIR text, in one walk over the syntax tree.
//!
//! The output is the L1 level: Phobos's `lane`, `cta` and `tile` ops over upstream `gpu`,
//! `arith`, `scf`, `memref` and `vector`, every op carrying `loc("file":line:col)` of the source
//! it came from, so every later diagnostic (verifier, uniformity check, simulator) points at the
//! `.phobos` file. Variables become SSA values: a `var` assigned inside an `if` or a `for` is
//! carried out of it as an `scf.if` result or an `scf.for` iteration argument.
//!
//! The kernel ABI (docs/abi.md): one pointer per tensor (a 1-D memref, 16-byte aligned, noalias)
//! in declaration order, then one i64 per distinct dimension name in order of first appearance,
//! except dimensions fixed at compile time (`@autotune`, `-D`), which become constants.
//!
//! Files, by concern: this one (entries, attributes, specializations), `gen` (the generator's
//! state, values and emission helpers), `abi` (the kernel function and its parameters), `stmt`
//! (statements and scopes), `typing` (how literals and scalars take types), `expr` (operators),
//! `call` (built-ins, casts, inlined `fn`s), `index` (subscripts, bounds checks, loads, runs),
//! `runs` (sums and elements of runs), `tile` (tile copies), `collective` (folds and shuffles),
//! `math` (math built-ins, `select`).

use crate::{
    ast::*,
    span::{Diag, Result, Source, Span},
    types::{Scalar, Ty},
};
use std::collections::{BTreeMap, HashMap, HashSet};

mod abi;
mod array;
mod atomics;
mod call;
mod collective;
mod dot;
mod exchange;
mod expr;
mod gen;
mod index;
mod masked;
mod math;
mod rows;
mod runs;
mod scan;
mod stmt;
mod tile;
mod typing;
mod whiles;
use gen::*;

/// Elements of the static 1-D memref that stands for a tensor (bare-pointer ABI needs a static
/// shape; it is never used as a bound).
pub const TENSOR_EXTENT: u64 = 1 << 40;

/// What to compile.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `-D NAME=VALUE`: dimensions fixed at compile time.
    pub defines: BTreeMap<String, i64>,
    /// Only this kernel (all when None).
    pub kernel: Option<String>,
    /// Keep a float multiply and the add after it apart (`--no-fma`). By default a sum of
    /// products is contracted into fused multiply-adds, as CUDA does.
    pub no_fma: bool,
    /// Approximate math functions in every kernel (`--fast-math`), as `@fast_math` does for one.
    pub fast_math: bool,
    /// Also make each entry's strided twin (`k__strided`, [`Entry::strided`]): tensors taken
    /// with element strides as launch arguments, for views that are not row-major and
    /// contiguous. A kernel that copies tiles or stores words has none.
    pub strided: bool,
}

/// One parameter of an entry's ABI.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AbiParam {
    /// A 64-bit pointer to a row-major, contiguous, 16-byte-aligned tensor.
    Tensor { name: String, elem: String, dims: Vec<String> },
    /// A 64-bit integer: the value of a dimension bound at launch.
    Dim { name: String },
    /// A scalar passed by value (`eps: f32`), of type `ty` (`bool` travels as one byte).
    Scalar {
        name: String,
        #[serde(rename = "type")]
        ty: String,
    },
    /// In a strided entry: a 64-bit signed integer, the element stride of dimension `dim` of
    /// tensor `tensor` (negative for a reversed view).
    Stride { tensor: String, dim: usize },
    /// On sm_90a, after every other parameter, per tile copy the Tensor Memory Accelerator
    /// makes: a 64-bit pointer to the `CUtensorMap` of tensor `tensor` (row-major, contiguous:
    /// its sizes, strides and address) with box `shape` (outermost first) and the swizzle span
    /// `swizzle` in bytes (0: none), 128 bytes in global memory, built by the launcher.
    TensorMap {
        tensor: String,
        #[serde(rename = "box")]
        shape: Vec<i64>,
        swizzle: i64,
    },
}

/// One PTX entry: a kernel, or one specialization of an autotuned kernel.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    /// The PTX entry name: the kernel's, or `kernel__K256` for a specialization.
    pub name: String,
    /// The kernel it comes from.
    pub kernel: String,
    pub params: Vec<AbiParam>,
    pub block: [u32; 3],
    /// Dimensions fixed at compile time for this entry (autotune, -D).
    pub fixed: BTreeMap<String, i64>,
    /// `@aligned` promises: each dimension is a multiple of its value (checked at launch).
    pub aligned: BTreeMap<String, i64>,
    /// `@autotune` lists, for the error a launch with another value gets.
    pub autotune: BTreeMap<String, Vec<i64>>,
    /// Dynamic shared memory in bytes (set by the shared-memory plan; 0 until then).
    pub dynamic_shared_bytes: u64,
    /// The strided twin of the entry named without `__strided`: its tensors may be any
    /// strided view (the stride parameters follow the dimensions), not aligned beyond their
    /// elements. A launch picks it only for views that are not row-major and contiguous.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub strided: bool,
    /// The values of the `@autotune` meta-parameters (names that are no dimension: constants of
    /// the kernel) this entry is compiled for. Entries differing only here are the candidates a
    /// launch searches.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub meta: BTreeMap<String, i64>,
}

/// The name of `entry`'s strided twin.
pub fn strided_name(entry: &str) -> String {
    format!("{entry}__strided")
}

/// The L1 module and the entries it defines.
#[derive(Clone, Debug)]
pub struct Output {
    pub mlir: String,
    pub entries: Vec<Entry>,
}

/// Type-checks `file` and generates L1 MLIR for its kernels.
pub fn generate(file: &File, src: &Source, opts: &Options) -> std::result::Result<Output, Vec<Diag>> {
    let mut fns: HashMap<String, &FnDef> = HashMap::new();
    let mut kernels: Vec<&Kernel> = Vec::new();
    let mut errors = Vec::new();
    let mut seen: HashMap<String, Span> = HashMap::new();
    for item in &file.items {
        let (name, span) = match item {
            Item::Fn(f) => (&f.name, f.name.span),
            Item::Kernel(k) => (&k.name, k.name.span),
        };
        if let Some(prev) = seen.get(&name.name) {
            errors.push(Diag::error(span, format!("'{}' is defined twice", name.name)).note(*prev, "first defined here"));
            continue;
        }
        seen.insert(name.name.clone(), span);
        match item {
            Item::Fn(f) => {
                fns.insert(f.name.name.clone(), f);
            }
            Item::Kernel(k) => kernels.push(k),
        }
    }
    if let Some(want) = &opts.kernel {
        kernels.retain(|k| &k.name.name == want);
        if kernels.is_empty() {
            let names: Vec<&str> =
                file.items.iter().filter_map(|i| if let Item::Kernel(k) = i { Some(k.name.name.as_str()) } else { None }).collect();
            errors.push(Diag::error(
                Span::default(),
                format!("no kernel named '{want}' (the file has: {})", if names.is_empty() { "none".into() } else { names.join(", ") }),
            ));
        }
    }
    if kernels.is_empty() && errors.is_empty() {
        let at = file.items.first().map(|i| match i {
            Item::Fn(f) => f.name.span,
            Item::Kernel(k) => k.name.span,
        });
        errors.push(Diag::error(at.unwrap_or_default(), "the file defines no kernel"));
    }
    // -D names a dimension (or an @autotune meta-parameter) of a kernel being compiled, with a
    // value a launch could give it.
    for (name, v) in &opts.defines {
        let autotuned =
            |k: &&Kernel| k.attrs.iter().any(|a| matches!(a, Attr::Autotune { dims, .. } if dims.iter().any(|(d, _)| &d.name == name)));
        let has =
            |k: &&Kernel| k.params.iter().any(|p| p.dims.iter().any(|d| matches!(d, DimSpec::Name(i) if &i.name == name))) || autotuned(k);
        if !kernels.is_empty() && !kernels.iter().any(has) {
            let which =
                if kernels.len() == 1 { format!("kernel '{}' has", kernels[0].name.name) } else { "no kernel of the file has".into() };
            errors.push(Diag::error(Span::default(), format!("-D {name}={v}: {which} no dimension {name}")));
        } else if !(0..=i32::MAX as i64).contains(v) {
            errors.push(Diag::error(Span::default(), format!("-D {name}={v}: a dimension is from 0 to 2^31-1")));
        }
    }
    for k in &kernels {
        if let Some(why) = unusable_entry_name(&k.name.name) {
            errors.push(Diag::error(k.name.span, format!("a kernel cannot be named '{}': {why}", k.name.name)));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut body = String::new();
    let mut entries: Vec<Entry> = Vec::new();
    let mut ops = 0usize;
    for k in kernels {
        match kernel(k, &fns, src, opts) {
            Ok(parts) => {
                // MLIR's passes (CSE most) take time that grows faster than a module's size:
                // past this bound a compile could take minutes.
                ops += parts.iter().map(|(text, _)| text.lines().map(op_weight).sum::<usize>()).sum::<usize>();
                if ops > MAX_L1_OPS {
                    errors.push(Diag::error(
                        k.name.span,
                        format!(
                            "this file's kernels are {ops} operations at the L1 level with kernel '{}' (a lane collective counts 16, a CTA one 64, a CTA argmax, argmin or fold by a fn 256), more than the {MAX_L1_OPS} Phobos compiles (10,000 unrolled statements are about 60,000): use loops, fewer statements or fewer @autotune values",
                            k.name.name
                        ),
                    ));
                    break;
                }
                for (text, entry) in parts {
                    // An entry's name is a symbol of the PTX: one per name in the file.
                    let clash =
                        entries.iter().any(|e| e.name == entry.name) || (entry.name != entry.kernel && seen.contains_key(&entry.name));
                    if clash {
                        let mut d = Diag::error(
                            k.name.span,
                            format!(
                                "kernel '{}' has an entry named '{}', which another entry or definition of this file is named too",
                                k.name.name, entry.name
                            ),
                        );
                        if let Some(at) = seen.get(&entry.name) {
                            d = d.note(*at, "defined here");
                        }
                        errors.push(d);
                        continue;
                    }
                    body.push_str(&text);
                    entries.push(entry);
                }
            }
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mlir = format!("module {{\n  gpu.module @phobos {{\n{body}  }}\n}}\n");
    Ok(Output { mlir, entries })
}

/// The most operations the kernels of one file may have at the L1 level (their specializations
/// together; collectives weighted by [`op_weight`]): 10,000 unrolled statements (about 60,000)
/// took 5 s to compile, 30,000 took 43 s.
pub const MAX_L1_OPS: usize = 40_000;

/// What one line of L1 text costs the passes after it, in plain operations: a collective
/// lowers to many (a CTA argmax to about 85 SIMT operations, with barriers that LLVM's code
/// generation handles in time growing faster than their number: 400 took 6 s and 480 MB, 800
/// took 34 s and 1.8 GB, 1,400 ran out of memory).
fn op_weight(line: &str) -> usize {
    if ["\"cta.argmax\"", "\"cta.argmin\"", "\"cta.reduce_with\""].iter().any(|o| line.contains(o)) {
        256
    } else if line.contains("\"cta.") {
        64
    } else if line.contains("\"lane.") {
        16
    } else {
        1
    }
}

/// The most specializations one kernel's `@autotune` lists may make (their product).
pub const MAX_SPECIALIZATIONS: usize = 1024;

/// Why `name` cannot name a PTX entry, if it cannot: PTX's identifiers after a leading `_`
/// need another character, `WARP_SZ` is a predefined PTX identifier, and names beginning with
/// `__phobos` or `__nv_` are the compiler's and libdevice's symbols.
fn unusable_entry_name(name: &str) -> Option<String> {
    if name == "_" {
        return Some("PTX names need a letter or digit after a leading underscore".into());
    }
    if name == "WARP_SZ" {
        return Some("WARP_SZ is a predefined identifier of PTX".into());
    }
    ["__phobos", "__nv_"].iter().find(|p| name.starts_with(*p)).map(|p| {
        format!("names beginning with '{p}' are reserved for the {} symbols", if *p == "__nv_" { "libdevice's" } else { "compiler's own" })
    })
}

/// Attribute values of one kernel.
struct KernelAttrs {
    /// The thread count, an expression of constants and meta-parameters (one value per entry).
    launch: Expr,
    fast_math: bool,
    /// `@tf32`: `dot` of f32 tiles allowed, as tf32.
    tf32: bool,
    aligned: BTreeMap<String, i64>,
    /// `@pipeline(stages = S)`: S, an expression of constants and meta-parameters.
    pipeline: Option<Expr>,
    /// Each list: its name, values, span, and whether it is a meta-parameter (a name that is no
    /// dimension: a constant of the kernel, searched at launch) rather than a dimension.
    autotune: Vec<(String, Vec<i64>, Span, bool)>,
}

fn const_of(e: &Expr, what: &str) -> Result<i64> {
    const_in(e, what, &BTreeMap::new())
}

/// [`const_of`], with the names in `env` (meta-parameters) as their values.
fn const_in(e: &Expr, what: &str, env: &BTreeMap<String, i64>) -> Result<i64> {
    const_go(e, env).ok_or_else(|| Diag::error(e.span, format!("{what} must be an integer constant")))
}

fn const_go(e: &Expr, env: &BTreeMap<String, i64>) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(v) => Some(*v),
        ExprKind::Name(n) => env.get(n).copied(),
        ExprKind::Unary(UnOp::Neg, x) => const_go(x, env).map(|v| -v),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (const_go(a, env)?, const_go(b, env)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::Div if b != 0 => Some(a / b),
                BinOp::Shl if (0..63).contains(&b) => Some(a << b),
                _ => None,
            }
        }
        _ => None,
    }
}

fn kernel_attrs(k: &Kernel) -> Result<KernelAttrs> {
    let mut launch = None;
    let mut fast_math = false;
    let mut tf32 = false;
    let mut pipeline = None;
    let mut aligned = BTreeMap::new();
    let mut autotune: Vec<(String, Vec<i64>, Span, bool)> = Vec::new();
    let dims: HashSet<String> = k
        .params
        .iter()
        .flat_map(|p| p.dims.iter().filter_map(|d| if let DimSpec::Name(i) = d { Some(i.name.clone()) } else { None }))
        .collect();
    for a in &k.attrs {
        match a {
            Attr::Launch { threads, span } => {
                if launch.is_some() {
                    return Err(Diag::error(*span, "@launch is given twice"));
                }
                // Checked per entry (it may name meta-parameters): `launch_threads`.
                launch = Some(threads.clone());
            }
            Attr::FastMath { span } => {
                if fast_math {
                    return Err(Diag::error(*span, "@fast_math is given twice"));
                }
                fast_math = true;
            }
            Attr::Tf32 { span } => {
                if tf32 {
                    return Err(Diag::error(*span, "@tf32 is given twice"));
                }
                tf32 = true;
            }
            Attr::Pipeline { stages, span } => {
                if pipeline.is_some() {
                    return Err(Diag::error(*span, "@pipeline is given twice"));
                }
                // Checked per entry (it may name meta-parameters): `pipeline_stages`.
                pipeline = Some(stages.clone());
            }
            Attr::Aligned { dims: list, .. } => {
                for (d, e) in list {
                    if !dims.contains(&d.name) {
                        return Err(Diag::error(d.span, format!("@aligned names '{}', which is not a dimension of this kernel", d.name)));
                    }
                    let v = const_of(e, "an @aligned value")?;
                    if v <= 0 {
                        return Err(Diag::error(e.span, format!("an @aligned value must be positive, got {v}")));
                    }
                    aligned.insert(d.name.clone(), v);
                }
            }
            Attr::Autotune { dims: list, .. } => {
                for (d, vals) in list {
                    // A name that is no dimension is a meta-parameter: a constant of the kernel.
                    let meta = !dims.contains(&d.name);
                    if let Some(p) = k.params.iter().find(|p| meta && p.name.name == d.name) {
                        let what = if p.scalar { "a scalar" } else { "a tensor" };
                        return Err(Diag::error(
                            d.span,
                            format!("@autotune names '{}', which is {what} parameter, not a dimension or a meta-parameter", d.name),
                        ));
                    }
                    if autotune.iter().any(|(n, ..)| *n == d.name) {
                        return Err(Diag::error(d.span, format!("@autotune lists '{}' twice", d.name)));
                    }
                    let mut vs = Vec::new();
                    for e in vals {
                        let v = const_of(e, "an @autotune value")?;
                        if v <= 0 || v > i32::MAX as i64 {
                            return Err(Diag::error(e.span, format!("an @autotune value must be from 1 to 2^31-1, got {v}")));
                        }
                        if vs.contains(&v) {
                            return Err(Diag::error(e.span, format!("@autotune lists {v} twice for {}", d.name)));
                        }
                        vs.push(v);
                    }
                    autotune.push((d.name.clone(), vs, d.span, meta));
                }
            }
        }
    }
    let launch = launch.ok_or_else(|| Diag::error(k.name.span, format!("kernel '{}' needs @launch(threads)", k.name.name)))?;
    Ok(KernelAttrs { launch, fast_math, tf32, pipeline, aligned, autotune })
}

/// The pipeline stages of the entry whose meta-parameters have the values in `meta`: 1 (no
/// pipelining) to 8.
fn pipeline_stages(e: &Expr, meta: &BTreeMap<String, i64>) -> Result<i64> {
    if is_auto(e) && !meta.contains_key("auto") {
        return Ok(AUTO_STAGES);
    }
    let s = const_in(e, PIPELINE_STAGES, meta)?;
    let of = if meta.is_empty() { String::new() } else { format!(" (with {})", spec_text(meta)) };
    stages_in_range(s, e.span, &of)
}

/// `@pipeline` without a count (`stages = auto`): `phobos.pipeline = 0`, the stages chosen by
/// `tile-plan-shared-memory` from the shared memory the chip has.
pub(super) const AUTO_STAGES: i64 = 0;

/// `auto`, a stage count the compiler chooses (unless a name `auto` is bound).
pub(super) fn is_auto(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Name(n) if n == "auto")
}

/// What a `@pipeline` stage count is, for its error.
pub(super) const PIPELINE_STAGES: &str = "the @pipeline stage count (of integers and @autotune meta-parameters)";

/// A `@pipeline` stage count, 1 to 8 (`of`: the meta-parameters it was computed with, said).
pub(super) fn stages_in_range(s: i64, span: Span, of: &str) -> Result<i64> {
    if !(1..=8).contains(&s) {
        return Err(Diag::error(span, format!("@pipeline needs 1 to 8 stages, got {s}{of}")));
    }
    Ok(s)
}

/// The thread count of the entry whose meta-parameters have the values in `meta`.
fn launch_threads(e: &Expr, meta: &BTreeMap<String, i64>) -> Result<i64> {
    let what =
        if meta.is_empty() { "the @launch thread count" } else { "the @launch thread count (of integers and @autotune meta-parameters)" };
    let t = const_in(e, what, meta)?;
    if !(32..=1024).contains(&t) || t % 32 != 0 {
        let of = if meta.is_empty() { String::new() } else { format!(" (with {})", spec_text(meta)) };
        return Err(Diag::error(e.span, format!("@launch needs a whole number of warps: a multiple of 32 from 32 to 1024, got {t}{of}")));
    }
    Ok(t)
}

/// Whether the constant expression `e` names `name`.
fn mentions(e: &Expr, name: &str) -> bool {
    match &e.kind {
        ExprKind::Name(n) => n == name,
        ExprKind::Unary(_, x) => mentions(x, name),
        ExprKind::Binary(_, a, b) => mentions(a, name) || mentions(b, name),
        _ => false,
    }
}

/// `A=1, B=2`.
fn spec_text(spec: &BTreeMap<String, i64>) -> String {
    spec.iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join(", ")
}

/// Every combination of one value from each list.
fn product<'a>(lists: impl Iterator<Item = (&'a String, Vec<i64>)>) -> Vec<BTreeMap<String, i64>> {
    let mut specs: Vec<BTreeMap<String, i64>> = vec![BTreeMap::new()];
    for (name, vals) in lists {
        specs = specs
            .into_iter()
            .flat_map(|s| {
                vals.iter().map(move |v| {
                    let mut s = s.clone();
                    s.insert(name.clone(), *v);
                    s
                })
            })
            .collect();
    }
    specs
}

/// Generates every specialization of one kernel.
fn kernel(k: &Kernel, fns: &HashMap<String, &FnDef>, src: &Source, opts: &Options) -> Result<Vec<(String, Entry)>> {
    let attrs = kernel_attrs(k)?;
    // A meta-parameter is used (in the body, @launch or @pipeline): a name used nowhere is a typo of a
    // dimension's, more likely than a search over nothing.
    let body = src.text.get(k.body.span.start as usize..k.body.span.end as usize).unwrap_or("");
    let words: HashSet<String> = crate::lexer::lex(body)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|t| if let crate::lexer::Tok::Ident(n) = t.tok { Some(n) } else { None })
        .collect();
    for (name, _, span, meta) in &attrs.autotune {
        let in_pipeline = attrs.pipeline.as_ref().is_some_and(|e| mentions(e, name));
        if *meta && !words.contains(name) && !mentions(&attrs.launch, name) && !in_pipeline {
            return Err(Diag::error(
                *span,
                format!("@autotune names '{name}', which is neither a dimension of this kernel nor used in it"),
            ));
        }
    }
    // Step 1. The specializations: the product of the @autotune lists, narrowed by -D.
    let count = attrs
        .autotune
        .iter()
        .map(|(name, vals, ..)| if opts.defines.contains_key(name) { 1 } else { vals.len() })
        .fold(1usize, |a, n| a.saturating_mul(n));
    if count > MAX_SPECIALIZATIONS {
        let lists: Vec<String> = attrs.autotune.iter().map(|(n, v, ..)| format!("{n}: {}", v.len())).collect();
        return Err(Diag::error(
            attrs.autotune[0].2,
            format!(
                "@autotune makes {count} specializations ({}), more than the {MAX_SPECIALIZATIONS} a kernel may have: list fewer values, or fix some with -D",
                lists.join(" x ")
            ),
        ));
    }
    // Each list narrowed by -D.
    let mut lists = Vec::new();
    for (name, vals, span, meta) in &attrs.autotune {
        let vals: Vec<i64> = match opts.defines.get(name) {
            Some(v) if vals.contains(v) => vec![*v],
            Some(v) => {
                return Err(Diag::error(
                    *span,
                    format!(
                        "-D {name}={v} is not one of the values @autotune lists for {name}: {}",
                        vals.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
                    ),
                ))
            }
            None => vals.clone(),
        };
        lists.push((name, vals, *meta));
    }
    let specs = product(lists.iter().map(|(n, v, _)| (*n, v.clone())));
    for (name, a) in &attrs.aligned {
        if let Some(v) = opts.defines.get(name) {
            if v % a != 0 {
                return Err(Diag::error(
                    k.name.span,
                    format!("-D {name}={v}: @aligned({name} = {a}) promises {name} is a multiple of {a}"),
                ));
            }
        }
    }
    let autotuned: BTreeMap<String, Vec<i64>> = attrs.autotune.iter().map(|(n, v, ..)| (n.clone(), v.clone())).collect();
    let metas: HashSet<&String> = attrs.autotune.iter().filter(|a| a.3).map(|a| &a.0).collect();
    let mut out = Vec::new();
    // After the specializations, the generic entries (the bare kernel name, or one per value of
    // the meta-parameters) for sizes no list has, when the kernel compiles without fixing its
    // autotuned dimensions (a tile extent or a run's length needs one fixed: then there is
    // none, and such a size is a launch error).
    let generic = attrs.autotune.iter().any(|(n, _, _, meta)| !meta && !opts.defines.contains_key(n));
    let generics = if generic { product(lists.iter().filter(|l| l.2).map(|(n, v, _)| (*n, v.clone()))) } else { Vec::new() };
    let specs = specs.into_iter().map(|s| (s, false)).chain(generics.into_iter().map(|s| (s, true)));
    for (spec, is_generic) in specs {
        let entry_name = if spec.is_empty() {
            k.name.name.clone()
        } else {
            let suffix: Vec<String> = spec.iter().map(|(n, v)| format!("{n}{v}")).collect();
            format!("{}__{}", k.name.name, suffix.join("_"))
        };
        let (meta, mut fixed): (BTreeMap<String, i64>, BTreeMap<String, i64>) =
            spec.clone().into_iter().partition(|(n, _)| metas.contains(n));
        for p in &k.params {
            for d in &p.dims {
                if let DimSpec::Name(d) = d {
                    if let Some(v) = opts.defines.get(&d.name) {
                        fixed.insert(d.name.clone(), *v);
                    }
                }
            }
        }
        let threads = launch_threads(&attrs.launch, &meta)?;
        let stages = attrs.pipeline.as_ref().map(|e| pipeline_stages(e, &meta)).transpose()?.unwrap_or(1);
        let generate = |strided: bool, name: &str| {
            let mut g = Gen::new(src, fns, threads);
            g.fma = !opts.no_fma;
            g.fast_math = opts.fast_math || attrs.fast_math;
            g.tf32 = attrs.tf32;
            g.pipeline = stages;
            g.strided = strided;
            g.kernel_fn(k, name, &fixed, &meta, &attrs.aligned)
        };
        let (text, params) = match generate(false, &entry_name) {
            Ok(x) => x,
            Err(_) if is_generic => continue,
            Err(e) => return Err(e),
        };
        let entry = Entry {
            name: entry_name.clone(),
            kernel: k.name.name.clone(),
            params,
            block: [threads as u32, 1, 1],
            fixed: fixed.clone(),
            meta: meta.clone(),
            aligned: attrs.aligned.clone(),
            autotune: autotuned.clone(),
            dynamic_shared_bytes: 0,
            strided: false,
        };
        // The twin, where the kernel compiles with strides (no tile copy, no word store).
        let twin = opts.strided.then(|| generate(true, &strided_name(&entry_name)).ok()).flatten();
        out.push((text, entry.clone()));
        if let Some((text, params)) = twin {
            out.push((text, Entry { name: strided_name(&entry_name), params, strided: true, ..entry }));
        }
    }
    Ok(out)
}
