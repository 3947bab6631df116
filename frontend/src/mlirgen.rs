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

use crate::{
    ast::*,
    span::{Diag, Result, Source, Span},
    types::{Scalar, Ty},
};
use std::collections::{BTreeMap, HashMap, HashSet};

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
}

/// One parameter of an entry's ABI.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AbiParam {
    /// A 64-bit pointer to a row-major, contiguous, 16-byte-aligned tensor.
    Tensor { name: String, elem: String, dims: Vec<String> },
    /// A 64-bit integer: the value of a dimension bound at launch.
    Dim { name: String },
}

/// One PTX entry: a kernel, or one specialization of an autotuned kernel.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
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
    // -D names a dimension of a kernel being compiled, with a value a launch could give it.
    for (name, v) in &opts.defines {
        let has = |k: &&Kernel| k.params.iter().any(|p| p.dims.iter().any(|d| matches!(d, DimSpec::Name(i) if &i.name == name)));
        if !kernels.is_empty() && !kernels.iter().any(has) {
            let which =
                if kernels.len() == 1 { format!("kernel '{}' has", kernels[0].name.name) } else { "no kernel of the file has".into() };
            errors.push(Diag::error(Span::default(), format!("-D {name}={v}: {which} no dimension {name}")));
        } else if !(0..=i32::MAX as i64).contains(v) {
            errors.push(Diag::error(Span::default(), format!("-D {name}={v}: a dimension is from 0 to 2^31-1")));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut body = String::new();
    let mut entries = Vec::new();
    for k in kernels {
        match kernel(k, &fns, src, opts) {
            Ok(parts) => {
                for (text, entry) in parts {
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

/// Attribute values of one kernel.
struct KernelAttrs {
    launch: i64,
    aligned: BTreeMap<String, i64>,
    autotune: Vec<(String, Vec<i64>, Span)>,
}

fn const_of(e: &Expr, what: &str) -> Result<i64> {
    fn go(e: &Expr) -> Option<i64> {
        match &e.kind {
            ExprKind::Int(v) => Some(*v),
            ExprKind::Unary(UnOp::Neg, x) => go(x).map(|v| -v),
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (go(a)?, go(b)?);
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
    go(e).ok_or_else(|| Diag::error(e.span, format!("{what} must be an integer constant")))
}

fn kernel_attrs(k: &Kernel) -> Result<KernelAttrs> {
    let mut launch = None;
    let mut aligned = BTreeMap::new();
    let mut autotune = Vec::new();
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
                let t = const_of(threads, "the @launch thread count")?;
                if !(32..=1024).contains(&t) || t % 32 != 0 {
                    return Err(Diag::error(
                        threads.span,
                        format!("@launch needs a whole number of warps: a multiple of 32 from 32 to 1024, got {t}"),
                    ));
                }
                launch = Some(t);
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
                    if !dims.contains(&d.name) {
                        return Err(Diag::error(d.span, format!("@autotune names '{}', which is not a dimension of this kernel", d.name)));
                    }
                    let mut vs = Vec::new();
                    for e in vals {
                        let v = const_of(e, "an @autotune value")?;
                        if v <= 0 || v > i32::MAX as i64 {
                            return Err(Diag::error(e.span, format!("an @autotune value must be from 1 to 2^31-1, got {v}")));
                        }
                        vs.push(v);
                    }
                    autotune.push((d.name.clone(), vs, d.span));
                }
            }
        }
    }
    let launch = launch.ok_or_else(|| Diag::error(k.name.span, format!("kernel '{}' needs @launch(threads)", k.name.name)))?;
    Ok(KernelAttrs { launch, aligned, autotune })
}

/// Generates every specialization of one kernel.
fn kernel(k: &Kernel, fns: &HashMap<String, &FnDef>, src: &Source, opts: &Options) -> Result<Vec<(String, Entry)>> {
    let attrs = kernel_attrs(k)?;
    // Step 1. The specializations: the product of the @autotune lists, narrowed by -D.
    let mut specs: Vec<BTreeMap<String, i64>> = vec![BTreeMap::new()];
    for (name, vals, span) in &attrs.autotune {
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
    let autotuned: BTreeMap<String, Vec<i64>> = attrs.autotune.iter().map(|(n, v, _)| (n.clone(), v.clone())).collect();
    let mut out = Vec::new();
    for spec in specs {
        let entry_name = if spec.is_empty() {
            k.name.name.clone()
        } else {
            let suffix: Vec<String> = spec.iter().map(|(n, v)| format!("{n}{v}")).collect();
            format!("{}__{}", k.name.name, suffix.join("_"))
        };
        let mut fixed = spec.clone();
        for p in &k.params {
            for d in &p.dims {
                if let DimSpec::Name(d) = d {
                    if let Some(v) = opts.defines.get(&d.name) {
                        fixed.insert(d.name.clone(), *v);
                    }
                }
            }
        }
        let mut g = Gen::new(src, fns, attrs.launch);
        g.fma = !opts.no_fma;
        let (text, params) = g.kernel_fn(k, &entry_name, &fixed, &attrs.aligned)?;
        out.push((
            text,
            Entry {
                name: entry_name,
                kernel: k.name.name.clone(),
                params,
                block: [attrs.launch as u32, 1, 1],
                fixed,
                aligned: attrs.aligned.clone(),
                autotune: autotuned.clone(),
                dynamic_shared_bytes: 0,
            },
        ));
    }
    Ok(out)
}

/// A value of the kernel in SSA form.
#[derive(Clone, Debug)]
struct V {
    s: String,
    ty: Ty,
}

/// A run read by one thread: vector chunks of at most 16 bytes each.
#[derive(Clone, Debug)]
struct Run {
    chunks: Vec<V>,
    len: u32,
}

/// The result of an expression: an SSA value, an untyped literal, or a run.
#[derive(Clone, Debug)]
enum Value {
    V(V),
    Int(i64),
    Float(f64),
    Run(Run),
}

/// Where a tensor lives and how to index it.
#[derive(Clone, Debug)]
struct TensorB {
    mem: String,
    mty: String,
    elem: Scalar,
    /// Each dimension's size as an index value (SSA name or constant).
    dims: Vec<Dim>,
    names: Vec<String>,
}

/// A shared tile made by a tile copy.
#[derive(Clone, Debug)]
struct TileB {
    mem: String,
    mty: String,
    elem: Scalar,
    shape: Vec<i64>,
}

#[derive(Clone, Debug)]
enum Dim {
    Const(i64),
    /// (the i32 value, the index value)
    Arg(String, String),
}

#[derive(Clone, Debug)]
enum Bind {
    Val { v: V, mutable: bool, decl: Span },
    Lit(Value),
    Tensor(TensorB),
    Tile(TileB),
    Dim(Dim),
}

struct Gen<'a> {
    src: &'a Source,
    fns: &'a HashMap<String, &'a FnDef>,
    bufs: Vec<Vec<String>>,
    indent: usize,
    next: usize,
    scopes: Vec<HashMap<String, Bind>>,
    launch: i64,
    /// The `fn`s being inlined, outermost first (for recursion and depth errors).
    inline_chain: Vec<String>,
    /// Expression nodes inlined from `fn` bodies so far in this kernel: bounded, so that calls
    /// that fan out (`h(a) = g(a) + g(a)`, nested) cannot grow the kernel exponentially.
    inlined_nodes: usize,
    /// Expressions being generated, nested (through `fn` bodies too): bounded, so that the
    /// recursion of the generator cannot overflow the stack.
    expr_depth: u32,
    /// Contract float sums of products into fused multiply-adds.
    fma: bool,
}

/// `fn` calls nest at most this deep.
const MAX_INLINE_DEPTH: usize = 64;
/// A kernel inlines at most this many expression nodes from `fn` bodies.
const MAX_INLINED_NODES: usize = 50_000;
/// Expressions, counting through inlined `fn` bodies, nest at most this deep.
const MAX_EXPR_DEPTH: u32 = 1_000;

/// The number of nodes of an expression.
fn expr_nodes(e: &Expr) -> usize {
    1 + match &e.kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) | ExprKind::Name(_) | ExprKind::Ctx(_) => 0,
        ExprKind::Unary(_, x) => expr_nodes(x),
        ExprKind::Binary(_, a, b) => expr_nodes(a) + expr_nodes(b),
        ExprKind::Call(_, args) => args.iter().map(expr_nodes).sum(),
        ExprKind::Collective { config, args, .. } => {
            config.iter().map(|c| expr_nodes(&c.value)).sum::<usize>() + args.iter().map(expr_nodes).sum::<usize>()
        }
        ExprKind::Subscript(_, idx) => idx
            .iter()
            .map(|i| match i {
                Index::Full(_) => 0,
                Index::Point(p) => expr_nodes(p),
                Index::Run { start, len } => expr_nodes(start) + expr_nodes(len),
            })
            .sum(),
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A float literal MLIR's lexer accepts.
fn float_text(v: f64, ty: Scalar) -> String {
    if v.is_finite() {
        let mut s = format!("{v:e}");
        if !s.contains('.') {
            let e = s.find('e').unwrap_or(s.len());
            s.insert_str(e, ".0");
        }
        s
    } else {
        match ty {
            Scalar::F16 => format!(
                "0x{:04X}",
                if v.is_nan() {
                    0x7E00u16
                } else if v > 0.0 {
                    0x7C00
                } else {
                    0xFC00
                }
            ),
            Scalar::F64 => format!("0x{:016X}", v.to_bits()),
            _ => format!("0x{:08X}", (v as f32).to_bits()),
        }
    }
}

impl<'a> Gen<'a> {
    fn new(src: &'a Source, fns: &'a HashMap<String, &'a FnDef>, launch: i64) -> Self {
        Gen {
            src,
            fns,
            bufs: vec![Vec::new()],
            indent: 6,
            next: 0,
            scopes: vec![HashMap::new()],
            launch,
            inline_chain: Vec::new(),
            inlined_nodes: 0,
            expr_depth: 0,
            fma: true,
        }
    }

    // ---------------------------------------------------------------------------------------
    // Emission

    fn loc(&self, span: Span) -> String {
        let (l, c) = self.src.line_col(span.start);
        format!("loc(\"{}\":{l}:{c})", escape(&self.src.name))
    }
    fn line(&mut self, text: String) {
        let pad = " ".repeat(self.indent);
        self.bufs.last_mut().expect("a buffer").push(format!("{pad}{text}"));
    }
    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }
    fn emit(&mut self, rhs: String, ty: Ty, span: Span) -> V {
        let s = self.fresh();
        let loc = self.loc(span);
        self.line(format!("{s} = {rhs} {loc}"));
        V { s, ty }
    }
    fn emit_void(&mut self, text: String, span: Span) {
        let loc = self.loc(span);
        self.line(format!("{text} {loc}"));
    }
    /// Generates into a fresh buffer, one level deeper; returns its lines.
    fn region<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<(Vec<String>, T)> {
        self.bufs.push(Vec::new());
        self.indent += 2;
        self.scopes.push(HashMap::new());
        let r = f(self);
        self.scopes.pop();
        self.indent -= 2;
        let lines = self.bufs.pop().expect("pushed");
        r.map(|t| (lines, t))
    }
    fn push_lines(&mut self, lines: Vec<String>) {
        self.bufs.last_mut().expect("a buffer").extend(lines);
    }

    fn const_int(&mut self, v: i64, ty: Ty, span: Span) -> V {
        match ty.lanes {
            None => self.emit(format!("arith.constant {v} : {}", ty.mlir()), ty, span),
            Some(_) => self.emit(format!("arith.constant dense<{v}> : {}", ty.mlir()), ty, span),
        }
    }
    fn const_float(&mut self, v: f64, ty: Ty, span: Span) -> V {
        let t = float_text(v, ty.elem);
        match ty.lanes {
            None => self.emit(format!("arith.constant {t} : {}", ty.mlir()), ty, span),
            Some(_) => self.emit(format!("arith.constant dense<{t}> : {}", ty.mlir()), ty, span),
        }
    }
    fn const_bool(&mut self, b: bool, span: Span) -> V {
        self.emit(format!("arith.constant {b}"), Ty::scalar(Scalar::Bool), span)
    }
    fn index_const(&mut self, v: i64, span: Span) -> String {
        self.emit(format!("arith.constant {v} : index"), Ty::scalar(Scalar::I64), span).s
    }
    fn index_of(&mut self, v: &V, span: Span) -> String {
        self.emit(format!("arith.index_cast {} : {} to index", v.s, v.ty.mlir()), Ty::scalar(Scalar::I64), span).s
    }

    // ---------------------------------------------------------------------------------------
    // Names

    fn lookup(&self, name: &str) -> Option<&Bind> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }
    fn bind(&mut self, name: &str, b: Bind) {
        self.scopes.last_mut().expect("a scope").insert(name.to_string(), b);
    }
    /// Rebinds an existing mutable variable in the scope that declared it.
    fn rebind(&mut self, name: &str, v: V) {
        for s in self.scopes.iter_mut().rev() {
            if let Some(Bind::Val { v: old, .. }) = s.get_mut(name) {
                *old = v;
                return;
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // The kernel function

    fn kernel_fn(
        &mut self,
        k: &Kernel,
        entry: &str,
        fixed: &BTreeMap<String, i64>,
        aligned: &BTreeMap<String, i64>,
    ) -> Result<(String, Vec<AbiParam>)> {
        // Step 1. The signature: tensors, then the dimensions bound at launch.
        let mut args = Vec::new();
        let mut params = Vec::new();
        for p in &k.params {
            let elem = Scalar::parse(&p.elem.name).expect("parser checked the type");
            let mty = format!("memref<{TENSOR_EXTENT}x{}>", elem.mem());
            let dims: Vec<String> = p.dims.iter().map(|d| format!("\"{}\"", d.name())).collect();
            args.push(format!(
                "%arg_{}: {mty} {{llvm.noalias, llvm.align = 16 : i64, phobos.tensor = \"{}\", phobos.dims = [{}]}}",
                p.name.name,
                p.name.name,
                dims.join(", ")
            ));
            params.push(AbiParam::Tensor {
                name: p.name.name.clone(),
                elem: p.elem.name.clone(),
                dims: p.dims.iter().map(|d| d.name()).collect(),
            });
        }
        let mut dim_order: Vec<&Ident> = Vec::new();
        for p in &k.params {
            for d in &p.dims {
                if let DimSpec::Name(d) = d {
                    if !dim_order.iter().any(|x| x.name == d.name) {
                        dim_order.push(d);
                    }
                }
            }
        }
        for d in &dim_order {
            if fixed.contains_key(&d.name) {
                continue;
            }
            let div = aligned.get(&d.name).map(|a| format!(", phobos.divisibility = {a} : i64")).unwrap_or_default();
            args.push(format!("%dim_{}: i64 {{phobos.dim = \"{}\"{div}}}", d.name, d.name));
            params.push(AbiParam::Dim { name: d.name.clone() });
        }
        // Step 2. Bind the dimensions (i32 values and index values) and the tensors.
        for d in &dim_order {
            let b = match fixed.get(&d.name) {
                Some(v) => Dim::Const(*v),
                None => {
                    let i32v = self.emit(format!("arith.trunci %dim_{} : i64 to i32", d.name), Ty::scalar(Scalar::I32), d.span);
                    let idx = self.emit(format!("arith.index_cast %dim_{} : i64 to index", d.name), Ty::scalar(Scalar::I64), d.span);
                    Dim::Arg(i32v.s, idx.s)
                }
            };
            self.bind(&d.name, Bind::Dim(b));
        }
        for p in &k.params {
            if let Some(Bind::Tensor(_)) = self.lookup(&p.name.name) {
                return Err(Diag::error(p.name.span, format!("parameter '{}' is declared twice", p.name.name)));
            }
            let elem = Scalar::parse(&p.elem.name).expect("parser checked the type");
            let dims = p
                .dims
                .iter()
                .map(|d| match d {
                    DimSpec::Const(v, _) => Dim::Const(*v),
                    DimSpec::Name(n) => match self.lookup(&n.name) {
                        Some(Bind::Dim(x)) => x.clone(),
                        _ => unreachable!("dims bound above"),
                    },
                })
                .collect();
            self.bind(
                &p.name.name,
                Bind::Tensor(TensorB {
                    mem: format!("%arg_{}", p.name.name),
                    mty: format!("memref<{TENSOR_EXTENT}x{}>", elem.mem()),
                    elem,
                    dims,
                    names: p.dims.iter().map(|d| d.name()).collect(),
                }),
            );
        }
        // Step 3. The body.
        self.scopes.push(HashMap::new());
        self.block(&k.body)?;
        self.emit_void("gpu.return".into(), k.body.span);
        let lines = self.bufs.pop().expect("the body buffer");
        let header = format!(
            "    gpu.func @{entry}({}) kernel attributes {{known_block_size = array<i32: {}, 1, 1>}} {{\n",
            args.join(", "),
            self.launch
        );
        let mut text = header;
        for l in lines {
            text.push_str(&l);
            text.push('\n');
        }
        text.push_str(&format!("    }} {}\n", self.loc(k.name.span)));
        Ok((text, params))
    }

    // ---------------------------------------------------------------------------------------
    // Statements

    fn block(&mut self, b: &Block) -> Result<()> {
        for s in &b.stmts {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt) -> Result<()> {
        match s {
            Stmt::Let { mutable, name, ty, init, span } => self.let_stmt(*mutable, name, ty.as_ref(), init, *span),
            Stmt::Assign { target, op, value, span } => self.assign(target, *op, value, *span),
            Stmt::If { cond, then, els, span } => self.if_stmt(cond, then, els.as_ref(), *span),
            Stmt::For { var, start, stop, step, body, span } => self.for_stmt(var, start, stop, step.as_ref(), body, *span),
            Stmt::Expr(e) => {
                if let ExprKind::Call(f, args) = &e.kind {
                    if f.name == "store" {
                        return self.store_builtin(args, e.span);
                    }
                }
                Err(Diag::error(e.span, "this expression does nothing; assign it (let x = ...) or store it (t[i] = ...)"))
            }
        }
    }

    fn check_shadow(&self, name: &Ident) -> Result<()> {
        if let Some(Bind::Tensor(_) | Bind::Dim(_) | Bind::Tile(_)) = self.lookup(&name.name) {
            return Err(Diag::error(name.span, format!("'{}' is already a tensor, tile or dimension name", name.name)));
        }
        if self.fns.contains_key(&name.name) {
            return Err(Diag::error(name.span, format!("'{}' is already a function name", name.name)));
        }
        Ok(())
    }

    fn let_stmt(&mut self, mutable: bool, name: &Ident, ty: Option<&TypeName>, init: &Expr, span: Span) -> Result<()> {
        self.check_shadow(name)?;
        // A subscript with a run or ':' as a variable's initializer is a tile copy.
        if let ExprKind::Subscript(t, idx) = &init.kind {
            if idx.iter().any(|i| !matches!(i, Index::Point(_))) {
                if ty.is_some() {
                    return Err(Diag::error(span, "a tile copy takes no type annotation"));
                }
                let tile = self.tile_copy(t, idx, init.span, &name.name)?;
                self.bind(&name.name, Bind::Tile(tile));
                return Ok(());
            }
        }
        let val = self.expr(init)?;
        let want = ty.map(|t| Scalar::parse(&t.name).expect("parser checked"));
        if let Value::Run(_) = val {
            return Err(Diag::error(
                init.span,
                "a run cannot be stored in a variable; read it inside sum(...) or element by element with elem(...)",
            ));
        }
        // An untyped `let` of a literal stays a compile-time constant.
        if !mutable && want.is_none() {
            if let Value::Int(_) | Value::Float(_) = val {
                self.bind(&name.name, Bind::Lit(val));
                return Ok(());
            }
        }
        let v = self.scalar(val, want, init.span)?;
        self.bind(&name.name, Bind::Val { v, mutable, decl: name.span });
        Ok(())
    }

    fn assign(&mut self, target: &Expr, op: Option<BinOp>, value: &Expr, span: Span) -> Result<()> {
        match &target.kind {
            ExprKind::Name(n) => {
                let (cur, decl) = match self.lookup(n) {
                    Some(Bind::Val { v, mutable: true, decl }) => (v.clone(), *decl),
                    Some(Bind::Val { decl, .. }) => {
                        return Err(Diag::error(target.span, format!("'{n}' is a let; declare it with var to assign it"))
                            .note(*decl, "declared here"))
                    }
                    Some(Bind::Lit(_)) => {
                        return Err(Diag::error(target.span, format!("'{n}' is a let; declare it with var to assign it")))
                    }
                    Some(_) => return Err(Diag::error(target.span, format!("'{n}' cannot be assigned"))),
                    None => return Err(Diag::error(target.span, format!("unknown variable '{n}'"))),
                };
                let rhs = self.expr(value)?;
                let new = match op {
                    None => rhs,
                    Some(op) => self.binary_values(op, Value::V(cur.clone()), rhs, span)?,
                };
                let v = self.scalar(new, Some(cur.ty.elem), value.span).map_err(|e| {
                    if e.message.starts_with("expected ") {
                        Diag::error(value.span, format!("'{n}' is {}; {}", cur.ty.elem.name(), e.message)).note(decl, "declared here")
                    } else {
                        e
                    }
                })?;
                self.rebind(n, v);
                Ok(())
            }
            ExprKind::Subscript(t, idx) => {
                let (mem, mty, elem, indices) = self.point_address(t, idx, target.span)?;
                let rhs = self.expr(value)?;
                let new = match op {
                    None => rhs,
                    Some(op) => {
                        let old = self.load_point(&mem, &mty, elem, &indices, target.span);
                        self.binary_values(op, Value::V(old), rhs, span)?
                    }
                };
                let v = self.scalar(new, Some(elem), value.span)?;
                self.store_point(&mem, &mty, elem, &indices, v, span);
                Ok(())
            }
            _ => Err(Diag::error(target.span, "only a variable or a tensor element can be assigned")),
        }
    }

    /// Names of variables declared outside `b` that `b` assigns, in order.
    fn assigned_outside(b: &Block) -> Vec<String> {
        fn walk(b: &Block, declared: &mut Vec<HashSet<String>>, out: &mut Vec<String>) {
            declared.push(HashSet::new());
            for s in &b.stmts {
                match s {
                    Stmt::Let { name, .. } => {
                        declared.last_mut().expect("pushed").insert(name.name.clone());
                    }
                    Stmt::Assign { target: Expr { kind: ExprKind::Name(n), .. }, .. }
                        if !declared.iter().any(|d| d.contains(n)) && !out.contains(n) =>
                    {
                        out.push(n.clone());
                    }
                    Stmt::If { then, els, .. } => {
                        walk(then, declared, out);
                        if let Some(e) = els {
                            walk(e, declared, out);
                        }
                    }
                    Stmt::For { var, body, .. } => {
                        let mut d = HashSet::new();
                        d.insert(var.name.clone());
                        declared.push(d);
                        walk(body, declared, out);
                        declared.pop();
                    }
                    _ => {}
                }
            }
            declared.pop();
        }
        let mut out = Vec::new();
        walk(b, &mut Vec::new(), &mut out);
        out
    }

    /// The current values of the mutable variables among `names` (others are left out: an
    /// assignment to them reports its own error).
    fn carried(&self, names: &[String]) -> Vec<(String, V)> {
        names
            .iter()
            .filter_map(|n| match self.lookup(n) {
                Some(Bind::Val { v, mutable: true, .. }) => Some((n.clone(), v.clone())),
                _ => None,
            })
            .collect()
    }

    fn results(name: &str, n: usize) -> Vec<String> {
        if n == 1 {
            vec![name.to_string()]
        } else {
            (0..n).map(|i| format!("{name}#{i}")).collect()
        }
    }

    fn if_stmt(&mut self, cond: &Expr, then: &Block, els: Option<&Block>, span: Span) -> Result<()> {
        let c = self.expr(cond)?;
        let c = self
            .scalar(c, Some(Scalar::Bool), cond.span)
            .map_err(|_| Diag::error(cond.span, "an if condition must be a bool (a comparison such as x < n)".to_string()))?;
        let mut names = Self::assigned_outside(then);
        if let Some(e) = els {
            for n in Self::assigned_outside(e) {
                if !names.contains(&n) {
                    names.push(n);
                }
            }
        }
        let vars = self.carried(&names);
        let types: Vec<String> = vars.iter().map(|(_, v)| v.ty.mlir()).collect();
        // Step 1. The then branch; then reset the variables for the else branch.
        let (then_lines, then_vals) = self.region(|g| {
            g.block(then)?;
            Ok(g.carried(&names))
        })?;
        for (n, v) in &vars {
            self.rebind(n, v.clone());
        }
        let (else_lines, else_vals) = match els {
            Some(e) => {
                let (l, v) = self.region(|g| {
                    g.block(e)?;
                    Ok(g.carried(&names))
                })?;
                for (n, v) in &vars {
                    self.rebind(n, v.clone());
                }
                (Some(l), v)
            }
            None => (None, vars.clone()),
        };
        // Step 2. The scf.if, yielding the carried variables.
        let pad = " ".repeat(self.indent + 2);
        let yield_line = |vals: &[(String, V)]| -> String {
            if vals.is_empty() {
                format!("{pad}scf.yield")
            } else {
                let names: Vec<&str> = vals.iter().map(|(_, v)| v.s.as_str()).collect();
                format!("{pad}scf.yield {} : {}", names.join(", "), types.join(", "))
            }
        };
        let loc = self.loc(span);
        if vars.is_empty() {
            self.line(format!("scf.if {} {{", c.s));
            self.push_lines(then_lines);
            if let Some(el) = else_lines {
                self.line("} else {".into());
                self.push_lines(el);
            }
            self.line(format!("}} {loc}"));
            return Ok(());
        }
        let r = self.fresh();
        let header = if vars.len() == 1 { r.clone() } else { format!("{r}:{}", vars.len()) };
        self.line(format!("{header} = scf.if {} -> ({}) {{", c.s, types.join(", ")));
        self.push_lines(then_lines);
        self.bufs.last_mut().expect("buf").push(yield_line(&then_vals));
        self.line("} else {".into());
        if let Some(el) = else_lines {
            self.push_lines(el);
        }
        self.bufs.last_mut().expect("buf").push(yield_line(&else_vals));
        self.line(format!("}} {loc}"));
        for ((n, v), s) in vars.iter().zip(Self::results(&r, vars.len())) {
            self.rebind(n, V { s, ty: v.ty });
        }
        Ok(())
    }

    fn for_stmt(&mut self, var: &Ident, start: &Expr, stop: &Expr, step: Option<&Expr>, body: &Block, span: Span) -> Result<()> {
        self.check_shadow(var)?;
        let i32t = Some(Scalar::I32);
        let a = self.expr(start)?;
        let a = self.scalar(a, i32t, start.span).map_err(|e| Diag::error(start.span, format!("range bounds are i32: {}", e.message)))?;
        let b = self.expr(stop)?;
        let b = self.scalar(b, i32t, stop.span).map_err(|e| Diag::error(stop.span, format!("range bounds are i32: {}", e.message)))?;
        let st = match step {
            Some(s) => {
                let v = self.expr(s)?;
                if let Value::Int(c) = v {
                    if c <= 0 {
                        return Err(Diag::error(s.span, format!("a range's step must be positive, got {c}")));
                    }
                }
                self.scalar(v, i32t, s.span).map_err(|e| Diag::error(s.span, format!("a range's step is i32: {}", e.message)))?
            }
            None => self.const_int(1, Ty::scalar(Scalar::I32), span),
        };
        let names = Self::assigned_outside(body);
        let vars = self.carried(&names);
        let types: Vec<String> = vars.iter().map(|(_, v)| v.ty.mlir()).collect();
        let iv = self.fresh();
        let iter_names: Vec<String> = vars.iter().map(|_| self.fresh()).collect();
        let (lines, vals) = self.region(|g| {
            g.bind(&var.name, Bind::Val { v: V { s: iv.clone(), ty: Ty::scalar(Scalar::I32) }, mutable: false, decl: var.span });
            for ((n, v), s) in vars.iter().zip(&iter_names) {
                g.rebind(n, V { s: s.clone(), ty: v.ty });
            }
            g.block(body)?;
            Ok(g.carried(&names))
        })?;
        let loc = self.loc(span);
        let pad = " ".repeat(self.indent + 2);
        if vars.is_empty() {
            self.line(format!("scf.for {iv} = {} to {} step {} : i32 {{", a.s, b.s, st.s));
            self.push_lines(lines);
            self.line(format!("}} {loc}"));
            return Ok(());
        }
        let r = self.fresh();
        let header = if vars.len() == 1 { r.clone() } else { format!("{r}:{}", vars.len()) };
        let inits: Vec<String> = vars.iter().zip(&iter_names).map(|((_, v), s)| format!("{s} = {}", v.s)).collect();
        self.line(format!(
            "{header} = scf.for {iv} = {} to {} step {} iter_args({}) -> ({}) : i32 {{",
            a.s,
            b.s,
            st.s,
            inits.join(", "),
            types.join(", ")
        ));
        self.push_lines(lines);
        let yielded: Vec<&str> = vals.iter().map(|(_, v)| v.s.as_str()).collect();
        self.bufs.last_mut().expect("buf").push(format!("{pad}scf.yield {} : {}", yielded.join(", "), types.join(", ")));
        self.line(format!("}} {loc}"));
        for ((n, v), s) in vars.iter().zip(Self::results(&r, vars.len())) {
            self.rebind(n, V { s, ty: v.ty });
        }
        Ok(())
    }

    // ---------------------------------------------------------------------------------------
    // Values and types

    /// Makes a scalar SSA value of `val`, of type `want` when given (literals take it; typed
    /// values must have it).
    fn scalar(&mut self, val: Value, want: Option<Scalar>, span: Span) -> Result<V> {
        match val {
            Value::V(v) => {
                if v.ty.lanes.is_some() {
                    return Err(Diag::error(span, "expected a scalar, found a run"));
                }
                if let Some(w) = want {
                    if v.ty.elem != w {
                        return Err(Diag::error(
                            span,
                            format!("expected {}, found {}; convert with {}(...)", w.name(), v.ty.elem.name(), w.name()),
                        ));
                    }
                }
                Ok(v)
            }
            Value::Int(i) => {
                let t = want.unwrap_or(Scalar::I32);
                self.literal_int(i, Ty::scalar(t), span)
            }
            Value::Float(f) => {
                let t = want.unwrap_or(Scalar::F32);
                if !t.is_float() {
                    return Err(Diag::error(span, format!("expected {}, found a float literal", t.name())));
                }
                Ok(self.const_float(f, Ty::scalar(t), span))
            }
            Value::Run(_) => Err(Diag::error(span, "expected a scalar, found a run; sum(...) it or read it with elem(...)")),
        }
    }

    fn literal_int(&mut self, i: i64, ty: Ty, span: Span) -> Result<V> {
        match ty.elem {
            Scalar::Bool => Err(Diag::error(span, "expected bool, found an integer literal; compare it (x != 0)")),
            s if s.is_float() => Ok(self.const_float(i as f64, ty, span)),
            s => {
                let (lo, hi) = s.int_range();
                if i < lo || i > hi {
                    return Err(Diag::error(span, format!("literal {i} does not fit in {}", s.name())));
                }
                Ok(self.const_int(i, ty, span))
            }
        }
    }

    /// A literal or scalar as a value of type `ty` (scalar or vector: scalars are broadcast).
    fn as_ty(&mut self, val: Value, ty: Ty, span: Span) -> Result<V> {
        match val {
            Value::Int(i) => self.literal_int(i, ty, span),
            Value::Float(f) => {
                if !ty.elem.is_float() {
                    return Err(Diag::error(span, format!("expected {}, found a float literal", ty.elem.name())));
                }
                Ok(self.const_float(f, ty, span))
            }
            Value::V(v) => {
                if v.ty.elem != ty.elem {
                    return Err(Diag::error(
                        span,
                        format!("expected {}, found {}; convert with {}(...)", ty.elem.name(), v.ty.elem.name(), ty.elem.name()),
                    ));
                }
                if v.ty == ty {
                    return Ok(v);
                }
                Ok(self.emit(format!("vector.broadcast {} : {} to {}", v.s, v.ty.mlir(), ty.mlir()), ty, span))
            }
            Value::Run(_) => unreachable!("runs are split into chunks before"),
        }
    }

    fn type_of(val: &Value) -> Option<Scalar> {
        match val {
            Value::V(v) => Some(v.ty.elem),
            Value::Run(r) => r.chunks.first().map(|c| c.ty.elem),
            _ => None,
        }
    }

    // ---------------------------------------------------------------------------------------
    // Expressions

    fn expr(&mut self, e: &Expr) -> Result<Value> {
        if self.expr_depth >= MAX_EXPR_DEPTH {
            let chain = if self.inline_chain.is_empty() { String::new() } else { format!(" (inside {})", self.inline_chain.join(" -> ")) };
            return Err(Diag::error(
                e.span,
                format!("expressions nest deeper than {MAX_EXPR_DEPTH} levels, counting through fn bodies{chain}"),
            ));
        }
        self.expr_depth += 1;
        let r = self.expr_node(e);
        self.expr_depth -= 1;
        r
    }

    fn expr_node(&mut self, e: &Expr) -> Result<Value> {
        match &e.kind {
            ExprKind::Int(v) => Ok(Value::Int(*v)),
            ExprKind::Float(v) => Ok(Value::Float(*v)),
            ExprKind::Bool(b) => Ok(Value::V(self.const_bool(*b, e.span))),
            ExprKind::Name(n) => match self.lookup(n) {
                Some(Bind::Val { v, .. }) => Ok(Value::V(v.clone())),
                Some(Bind::Lit(l)) => Ok(l.clone()),
                Some(Bind::Dim(Dim::Const(c))) => Ok(Value::Int(*c)),
                Some(Bind::Dim(Dim::Arg(s, _))) => Ok(Value::V(V { s: s.clone(), ty: Ty::scalar(Scalar::I32) })),
                Some(Bind::Tensor(_)) => Err(Diag::error(e.span, format!("'{n}' is a tensor; index it: {n}[i, j]"))),
                Some(Bind::Tile(_)) => Err(Diag::error(e.span, format!("'{n}' is a shared tile; index it: {n}[i, j]"))),
                None if self.fns.contains_key(n) => {
                    Err(Diag::error(e.span, format!("'{n}' is a function; call it ({n}(...)) or pass it to reduce")))
                }
                None => Err(Diag::error(e.span, format!("unknown name '{n}'"))),
            },
            ExprKind::Ctx(path) => self.ctx(path, e.span),
            ExprKind::Unary(op, x) => {
                let v = self.expr(x)?;
                self.unary(*op, v, e.span)
            }
            ExprKind::Binary(BinOp::And | BinOp::Or, ..) => self.logical(e),
            ExprKind::Binary(op, a, b) => {
                let va = self.expr(a)?;
                let vb = self.expr(b)?;
                self.binary_values(*op, va, vb, e.span)
            }
            ExprKind::Call(f, args) => self.call(f, args, e.span),
            ExprKind::Collective { op, config, args } => self.collective(op, config, args, e.span),
            ExprKind::Subscript(t, idx) => self.subscript(t, idx, e.span),
        }
    }

    fn ctx(&mut self, path: &str, span: Span) -> Result<Value> {
        let i32t = Ty::scalar(Scalar::I32);
        let from_index = |g: &mut Self, op: String| -> Value {
            let i = g.emit(op, Ty::scalar(Scalar::I64), span);
            Value::V(g.emit(format!("arith.index_cast {} : index to i32", i.s), i32t, span))
        };
        Ok(match path {
            "thread" => from_index(self, "gpu.thread_id x".into()),
            "lane" => from_index(self, "gpu.lane_id".into()),
            "warp" => from_index(self, "gpu.subgroup_id : index".into()),
            "lanes" => Value::Int(32),
            "warps" => Value::Int(self.launch / 32),
            "threads" => Value::Int(self.launch),
            "block.x" | "block.y" | "block.z" => from_index(self, format!("gpu.block_id {}", &path[6..])),
            "blocks.x" | "blocks.y" | "blocks.z" => from_index(self, format!("gpu.grid_dim {}", &path[7..])),
            _ => {
                return Err(Diag::error(
                    span,
                    format!(
                        "unknown ctx field 'ctx.{path}' (ctx.thread, ctx.threads, ctx.lane, ctx.lanes, ctx.warp, ctx.warps, \
                         ctx.block.x/y/z, ctx.blocks.x/y/z)"
                    ),
                ))
            }
        })
    }

    fn unary(&mut self, op: UnOp, v: Value, span: Span) -> Result<Value> {
        match (op, v) {
            (UnOp::Neg, Value::Int(i)) => i.checked_neg().map(Value::Int).ok_or_else(|| Diag::error(span, "integer literal overflows")),
            (UnOp::Neg, Value::Float(f)) => Ok(Value::Float(-f)),
            (UnOp::BitNot, Value::Int(i)) => Ok(Value::Int(!i)),
            (op, Value::Run(r)) => {
                let mut chunks = Vec::new();
                for c in r.chunks {
                    match self.unary(op, Value::V(c), span)? {
                        Value::V(v) => chunks.push(v),
                        _ => unreachable!(),
                    }
                }
                Ok(Value::Run(Run { chunks, len: r.len }))
            }
            (op, val) => {
                let v = self.scalar(val, None, span)?;
                let t = v.ty;
                let out = match op {
                    UnOp::Neg if t.elem.is_float() => self.emit(format!("arith.negf {} : {}", v.s, t.mlir()), t, span),
                    UnOp::Neg if t.elem.is_int() => {
                        let z = self.const_int(0, t, span);
                        self.emit(format!("arith.subi {}, {} : {}", z.s, v.s, t.mlir()), t, span)
                    }
                    UnOp::Not if t.elem == Scalar::Bool => {
                        let one = self.const_int(1, t, span);
                        self.emit(format!("arith.xori {}, {} : {}", v.s, one.s, t.mlir()), t, span)
                    }
                    UnOp::BitNot if t.elem.is_int() => {
                        let m = self.const_int(-1, t, span);
                        self.emit(format!("arith.xori {}, {} : {}", v.s, m.s, t.mlir()), t, span)
                    }
                    _ => {
                        let sym = match op {
                            UnOp::Neg => "-",
                            UnOp::Not => "!",
                            UnOp::BitNot => "~",
                        };
                        return Err(Diag::error(span, format!("'{sym}' does not apply to {}", t.elem.name())));
                    }
                };
                Ok(Value::V(out))
            }
        }
    }

    /// Does evaluating `e` read memory or divide (things a short-circuit must guard)?
    fn may_fault(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Subscript(..) | ExprKind::Collective { .. } => true,
            ExprKind::Binary(BinOp::Div | BinOp::Rem, ..) => true,
            ExprKind::Binary(_, a, b) => Self::may_fault(a) || Self::may_fault(b),
            ExprKind::Unary(_, a) => Self::may_fault(a),
            ExprKind::Call(f, args) => {
                let pure_builtin = Scalar::parse(&f.name).is_some() || matches!(f.name.as_str(), "max" | "min" | "popcount");
                !pure_builtin || args.iter().any(Self::may_fault)
            }
            _ => false,
        }
    }

    /// `a && b`, `a || b`: the right side runs only when needed if it could fault or it is a
    /// collective; otherwise both sides are evaluated and combined.
    fn logical(&mut self, e: &Expr) -> Result<Value> {
        let ExprKind::Binary(op, a, b) = &e.kind else { unreachable!() };
        let bool_t = Some(Scalar::Bool);
        let va = self.expr(a)?;
        let va = self.scalar(va, bool_t, a.span).map_err(|_| Diag::error(a.span, format!("'{}' needs bool operands", op.text())))?;
        if !Self::may_fault(b) {
            let vb = self.expr(b)?;
            let vb = self.scalar(vb, bool_t, b.span).map_err(|_| Diag::error(b.span, format!("'{}' needs bool operands", op.text())))?;
            let name = if *op == BinOp::And { "arith.andi" } else { "arith.ori" };
            return Ok(Value::V(self.emit(format!("{name} {}, {} : i1", va.s, vb.s), Ty::scalar(Scalar::Bool), e.span)));
        }
        let (lines, vb) = self.region(|g| {
            let vb = g.expr(b)?;
            g.scalar(vb, bool_t, b.span).map_err(|_| Diag::error(b.span, format!("'{}' needs bool operands", op.text())))
        })?;
        let (short_lines, short) = self.region(|g| Ok(g.const_bool(*op == BinOp::Or, e.span)))?;
        let r = self.fresh();
        let pad = " ".repeat(self.indent + 2);
        let loc = self.loc(e.span);
        self.line(format!("{r} = scf.if {} -> (i1) {{", va.s));
        let (first, second) = if *op == BinOp::And { ((lines, vb), (short_lines, short)) } else { ((short_lines, short), (lines, vb)) };
        self.push_lines(first.0);
        self.bufs.last_mut().expect("buf").push(format!("{pad}scf.yield {} : i1", first.1.s));
        self.line("} else {".into());
        self.push_lines(second.0);
        self.bufs.last_mut().expect("buf").push(format!("{pad}scf.yield {} : i1", second.1.s));
        self.line(format!("}} {loc}"));
        Ok(Value::V(V { s: r, ty: Ty::scalar(Scalar::Bool) }))
    }

    fn fold(op: BinOp, a: &Value, b: &Value) -> Option<Value> {
        match (a, b) {
            (Value::Int(x), Value::Int(y)) => {
                let (x, y) = (*x, *y);
                Some(Value::Int(match op {
                    BinOp::Add => x.checked_add(y)?,
                    BinOp::Sub => x.checked_sub(y)?,
                    BinOp::Mul => x.checked_mul(y)?,
                    BinOp::Div if y != 0 => x.checked_div(y)?,
                    BinOp::Rem if y != 0 => x.checked_rem(y)?,
                    BinOp::BitAnd => x & y,
                    BinOp::BitOr => x | y,
                    BinOp::BitXor => x ^ y,
                    BinOp::Shl if (0..63).contains(&y) => x.checked_shl(y as u32)?,
                    BinOp::Shr if (0..63).contains(&y) => x >> y,
                    _ => return None,
                }))
            }
            (Value::Float(_) | Value::Int(_), Value::Float(_) | Value::Int(_)) => {
                let f = |v: &Value| match v {
                    Value::Int(i) => *i as f64,
                    Value::Float(f) => *f,
                    _ => unreachable!(),
                };
                let (x, y) = (f(a), f(b));
                Some(Value::Float(match op {
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    BinOp::Div => x / y,
                    _ => return None,
                }))
            }
            _ => None,
        }
    }

    fn binary_values(&mut self, op: BinOp, a: Value, b: Value, span: Span) -> Result<Value> {
        if let Some(v) = Self::fold(op, &a, &b) {
            return Ok(v);
        }
        // Runs: the operation applies chunk by chunk; scalars are broadcast.
        if let (Value::Run(_), _) | (_, Value::Run(_)) = (&a, &b) {
            return self.binary_runs(op, a, b, span);
        }
        // Literals take the other side's type.
        let ty = match (Self::type_of(&a), Self::type_of(&b)) {
            (Some(x), Some(y)) if x != y => {
                return Err(Diag::error(
                    span,
                    format!(
                        "'{}' needs operands of one type, found {} and {}; convert one with {}(...)",
                        op.text(),
                        x.name(),
                        y.name(),
                        x.name()
                    ),
                ))
            }
            (Some(x), _) | (_, Some(x)) => x,
            (None, None) => {
                // Both literals, not foldable (e.g. 1 < 2, or a float %): give them default types.
                if matches!(a, Value::Float(_)) || matches!(b, Value::Float(_)) {
                    Scalar::F32
                } else {
                    Scalar::I32
                }
            }
        };
        let va = self.as_ty(a, Ty::scalar(ty), span)?;
        let vb = self.as_ty(b, Ty::scalar(ty), span)?;
        Ok(Value::V(self.arith(op, &va, &vb, span)?))
    }

    fn binary_runs(&mut self, op: BinOp, a: Value, b: Value, span: Span) -> Result<Value> {
        let (ra, rb) =
            (if let Value::Run(r) = &a { Some(r.clone()) } else { None }, if let Value::Run(r) = &b { Some(r.clone()) } else { None });
        let shape = ra.as_ref().or(rb.as_ref()).expect("one is a run").clone();
        if let (Some(x), Some(y)) = (&ra, &rb) {
            if x.len != y.len {
                return Err(Diag::error(span, format!("'{}' combines runs of different lengths: {} and {}", op.text(), x.len, y.len)));
            }
            if x.chunks.len() != y.chunks.len() {
                return Err(Diag::error(span, format!("'{}' combines runs of different element sizes", op.text())));
            }
        }
        let elem = match (Self::type_of(&a), Self::type_of(&b)) {
            (Some(x), Some(y)) if x != y => {
                return Err(Diag::error(
                    span,
                    format!(
                        "'{}' needs operands of one type, found {} and {}; convert one with {}(...)",
                        op.text(),
                        x.name(),
                        y.name(),
                        x.name()
                    ),
                ))
            }
            (Some(x), _) | (_, Some(x)) => x,
            _ => unreachable!("a run has a type"),
        };
        let mut chunks = Vec::new();
        for (i, c) in shape.chunks.iter().enumerate() {
            let cty = Ty { elem, lanes: c.ty.lanes };
            let x = match &ra {
                Some(r) => r.chunks[i].clone(),
                None => self.as_ty(a.clone(), cty, span)?,
            };
            let y = match &rb {
                Some(r) => r.chunks[i].clone(),
                None => self.as_ty(b.clone(), cty, span)?,
            };
            chunks.push(self.arith(op, &x, &y, span)?);
        }
        Ok(Value::Run(Run { chunks, len: shape.len }))
    }

    /// One arith op on two values of the same type.
    fn arith(&mut self, op: BinOp, a: &V, b: &V, span: Span) -> Result<V> {
        let t = a.ty;
        let e = t.elem;
        let bool_t = t.with_elem(Scalar::Bool);
        let (name, rty) = match op {
            BinOp::Add if e.is_float() => ("arith.addf", t),
            BinOp::Add if e.is_int() => ("arith.addi", t),
            BinOp::Sub if e.is_float() => ("arith.subf", t),
            BinOp::Sub if e.is_int() => ("arith.subi", t),
            BinOp::Mul if e.is_float() => ("arith.mulf", t),
            BinOp::Mul if e.is_int() => ("arith.muli", t),
            BinOp::Div if e.is_float() => ("arith.divf", t),
            BinOp::Div if e.is_int() => ("arith.divsi", t),
            BinOp::Rem if e.is_int() => ("arith.remsi", t),
            BinOp::BitAnd if !e.is_float() => ("arith.andi", t),
            BinOp::BitOr if !e.is_float() => ("arith.ori", t),
            BinOp::BitXor if !e.is_float() => ("arith.xori", t),
            BinOp::Shl if e.is_int() => ("arith.shli", t),
            BinOp::Shr if e.is_int() => ("arith.shrsi", t),
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let (cmp, pred) = if e.is_float() {
                    (
                        "arith.cmpf",
                        match op {
                            BinOp::Eq => "oeq",
                            BinOp::Ne => "une",
                            BinOp::Lt => "olt",
                            BinOp::Le => "ole",
                            BinOp::Gt => "ogt",
                            _ => "oge",
                        },
                    )
                } else {
                    if e == Scalar::Bool && !matches!(op, BinOp::Eq | BinOp::Ne) {
                        return Err(Diag::error(span, format!("'{}' does not order bools", op.text())));
                    }
                    (
                        "arith.cmpi",
                        match op {
                            BinOp::Eq => "eq",
                            BinOp::Ne => "ne",
                            BinOp::Lt => "slt",
                            BinOp::Le => "sle",
                            BinOp::Gt => "sgt",
                            _ => "sge",
                        },
                    )
                };
                return Ok(self.emit(format!("{cmp} {pred}, {}, {} : {}", a.s, b.s, t.mlir()), bool_t, span));
            }
            BinOp::Rem => return Err(Diag::error(span, format!("'%' needs integers, found {}", e.name()))),
            _ => return Err(Diag::error(span, format!("'{}' does not apply to {}", op.text(), e.name()))),
        };
        Ok(self.emit(format!("{name} {}, {} : {}", a.s, b.s, t.mlir()), rty, span))
    }

    // ---------------------------------------------------------------------------------------
    // Calls

    fn call(&mut self, f: &Ident, args: &[Expr], span: Span) -> Result<Value> {
        let n = f.name.as_str();
        let arity = |k: usize| -> Result<()> {
            if args.len() != k {
                return Err(Diag::error(span, format!("{n} takes {k} argument{}, got {}", if k == 1 { "" } else { "s" }, args.len())));
            }
            Ok(())
        };
        if let Some(to) = Scalar::parse(n) {
            arity(1)?;
            let v = self.expr(&args[0])?;
            return self.cast(v, to, span);
        }
        match n {
            "max" | "min" => {
                arity(2)?;
                let a = self.expr(&args[0])?;
                let b = self.expr(&args[1])?;
                if let (Value::Int(x), Value::Int(y)) = (&a, &b) {
                    return Ok(Value::Int(if n == "max" { *x.max(y) } else { *x.min(y) }));
                }
                let ty = Self::type_of(&a)
                    .or(Self::type_of(&b))
                    .unwrap_or(if matches!(a, Value::Float(_)) || matches!(b, Value::Float(_)) { Scalar::F32 } else { Scalar::I32 });
                if let (Value::Run(_), _) | (_, Value::Run(_)) = (&a, &b) {
                    return Err(Diag::error(span, format!("scalar {n}(a, b) does not take runs; use sum(...) or elem(...)")));
                }
                let va = self.as_ty(a, Ty::scalar(ty), args[0].span)?;
                let vb = self.as_ty(b, Ty::scalar(ty), args[1].span)?;
                let op = match (n, ty.is_float(), ty) {
                    (_, _, Scalar::Bool) => return Err(Diag::error(span, format!("{n} does not apply to bool"))),
                    ("max", true, _) => "arith.maximumf",
                    ("min", true, _) => "arith.minimumf",
                    ("max", false, _) => "arith.maxsi",
                    _ => "arith.minsi",
                };
                Ok(Value::V(self.emit(format!("{op} {}, {} : {}", va.s, vb.s, va.ty.mlir()), va.ty, span)))
            }
            "sum" => {
                arity(1)?;
                self.thread_sum(&args[0], span)
            }
            "popcount" => {
                arity(1)?;
                let v = self.expr(&args[0])?;
                let v = self.scalar(v, None, args[0].span)?;
                if !v.ty.elem.is_int() {
                    return Err(Diag::error(args[0].span, format!("popcount needs an integer, found {}", v.ty.elem.name())));
                }
                Ok(Value::V(self.emit(format!("llvm.intr.ctpop({}) : ({}) -> {}", v.s, v.ty.mlir(), v.ty.mlir()), v.ty, span)))
            }
            "dp4a" => {
                arity(3)?;
                let mut vs = Vec::new();
                for a in args {
                    let v = self.expr(a)?;
                    vs.push(
                        self.scalar(v, Some(Scalar::I32), a.span)
                            .map_err(|e| Diag::error(a.span, format!("dp4a takes i32 words: {}", e.message)))?,
                    );
                }
                let v8 = Ty::vector(Scalar::I8, 4);
                let a8 = self.emit(format!("llvm.bitcast {} : i32 to vector<4xi8>", vs[0].s), v8, span);
                let b8 = self.emit(format!("llvm.bitcast {} : i32 to vector<4xi8>", vs[1].s), v8, span);
                Ok(Value::V(self.emit(
                    format!("nvvm.dot.accumulate.4way {} <signed>, {} <signed>, {} : vector<4xi8>, vector<4xi8>", a8.s, b8.s, vs[2].s),
                    Ty::scalar(Scalar::I32),
                    span,
                )))
            }
            "byteperm" => {
                arity(3)?;
                let mut vs = Vec::new();
                for a in args {
                    let v = self.expr(a)?;
                    vs.push(
                        self.scalar(v, Some(Scalar::I32), a.span)
                            .map_err(|e| Diag::error(a.span, format!("byteperm takes i32 words: {}", e.message)))?,
                    );
                }
                Ok(Value::V(self.emit(
                    // Generic form: the operands are (low word, high word, selector).
                    format!(
                        "\"nvvm.prmt\"({}, {}, {}) <{{mode = #nvvm.permute_mode<default>}}> : (i32, i32, i32) -> i32",
                        vs[0].s, vs[1].s, vs[2].s
                    ),
                    Ty::scalar(Scalar::I32),
                    span,
                )))
            }
            "elem" | "word" => {
                arity(2)?;
                self.run_element(n, &args[0], &args[1], span)
            }
            "store" => Err(Diag::error(span, "store(run, i, value) is a statement; it has no value")),
            "range" => Err(Diag::error(span, "range(...) only appears in a for loop: for i in range(a, b)")),
            _ => {
                if let Some(fd) = self.fns.get(n).copied() {
                    return self.inline(fd, args, span);
                }
                if crate::parser::COLLECTIVES.contains(&n) {
                    return Err(Diag::error(
                        span,
                        format!("{n}(...) needs its group: {n}<over ctx.lane>(...) or {n}<over ctx.thread>(...)"),
                    ));
                }
                Err(Diag::error(f.span, format!("unknown function '{n}'")))
            }
        }
    }

    fn cast(&mut self, v: Value, to: Scalar, span: Span) -> Result<Value> {
        match v {
            Value::Int(i) if to.is_int() => {
                let (lo, hi) = to.int_range();
                if i < lo || i > hi {
                    return Err(Diag::error(span, format!("{i} does not fit in {}", to.name())));
                }
                Ok(Value::V(self.const_int(i, Ty::scalar(to), span)))
            }
            Value::Int(i) if to.is_float() => Ok(Value::V(self.const_float(i as f64, Ty::scalar(to), span))),
            Value::Float(f) if to.is_float() => Ok(Value::V(self.const_float(f, Ty::scalar(to), span))),
            Value::Int(i) => Ok(Value::V(self.const_bool(i != 0, span))),
            Value::Float(f) => {
                let v = self.const_float(f, Ty::scalar(Scalar::F32), span);
                self.cast(Value::V(v), to, span)
            }
            Value::Run(r) => {
                let mut chunks = Vec::new();
                for c in r.chunks {
                    match self.cast(Value::V(c), to, span)? {
                        Value::V(v) => chunks.push(v),
                        _ => unreachable!(),
                    }
                }
                Ok(Value::Run(Run { chunks, len: r.len }))
            }
            Value::V(v) => {
                let from = v.ty.elem;
                let rt = v.ty.with_elem(to);
                let (fm, tm) = (v.ty.mlir(), rt.mlir());
                let op = if from == to {
                    return Ok(Value::V(v));
                } else if to == Scalar::Bool {
                    let z = if from.is_float() { self.const_float(0.0, v.ty, span) } else { self.const_int(0, v.ty, span) };
                    let (c, p) = if from.is_float() { ("arith.cmpf", "une") } else { ("arith.cmpi", "ne") };
                    return Ok(Value::V(self.emit(format!("{c} {p}, {}, {} : {fm}", v.s, z.s), rt, span)));
                } else if from == Scalar::Bool {
                    if to.is_float() {
                        "arith.uitofp"
                    } else {
                        "arith.extui"
                    }
                } else if from.is_int() && to.is_int() {
                    if to.bits() > from.bits() {
                        "arith.extsi"
                    } else {
                        "arith.trunci"
                    }
                } else if from.is_int() {
                    "arith.sitofp"
                } else if to.is_int() {
                    "arith.fptosi"
                } else if to.bits() > from.bits() {
                    "arith.extf"
                } else {
                    "arith.truncf"
                };
                Ok(Value::V(self.emit(format!("{op} {} : {fm} to {tm}", v.s), rt, span)))
            }
        }
    }

    /// Inlines `fn f(a, b) = body` with the arguments bound; the body sees only its parameters.
    fn inline(&mut self, fd: &FnDef, args: &[Expr], span: Span) -> Result<Value> {
        if args.len() != fd.params.len() {
            return Err(Diag::error(
                span,
                format!(
                    "{} takes {} argument{}, got {}",
                    fd.name.name,
                    fd.params.len(),
                    if fd.params.len() == 1 { "" } else { "s" },
                    args.len()
                ),
            )
            .note(fd.name.span, "defined here"));
        }
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.expr(a)?);
        }
        self.inline_values(fd, vals, span)
    }

    fn inline_values(&mut self, fd: &FnDef, vals: Vec<Value>, span: Span) -> Result<Value> {
        let name = &fd.name.name;
        let chain = |g: &Self| g.inline_chain.iter().map(String::as_str).chain([name.as_str()]).collect::<Vec<_>>().join(" -> ");
        if self.inline_chain.contains(name) {
            let cycle = if self.inline_chain.last() == Some(name) { String::new() } else { format!(" ({})", chain(self)) };
            return Err(Diag::error(span, format!("'{name}' calls itself{cycle}; functions cannot recurse")));
        }
        if self.inline_chain.len() >= MAX_INLINE_DEPTH {
            return Err(Diag::error(span, format!("fn calls nest deeper than {MAX_INLINE_DEPTH} levels: {}", chain(self))));
        }
        self.inlined_nodes += expr_nodes(&fd.body);
        if self.inlined_nodes > MAX_INLINED_NODES {
            return Err(Diag::error(
                span,
                format!("inlining fn calls grows this kernel past {MAX_INLINED_NODES} expression nodes (at {}); call fewer functions or reuse a value with let", chain(self)),
            ));
        }
        let mut scope = HashMap::new();
        for (p, v) in fd.params.iter().zip(vals) {
            let b = match v {
                Value::V(v) => Bind::Val { v, mutable: false, decl: p.span },
                other => Bind::Lit(other),
            };
            scope.insert(p.name.clone(), b);
        }
        let saved = std::mem::replace(&mut self.scopes, vec![scope]);
        self.inline_chain.push(name.clone());
        let r = self.expr(&fd.body);
        self.inline_chain.pop();
        self.scopes = saved;
        r
    }

    // ---------------------------------------------------------------------------------------
    // Tensors, runs and tiles

    /// (memref, memref type, element type, indices) of a point subscript.
    fn point_address(&mut self, t: &Ident, idx: &[Index], span: Span) -> Result<(String, String, Scalar, Vec<String>)> {
        if let Some(i) = idx.iter().find(|i| !matches!(i, Index::Point(_))) {
            let s = match i {
                Index::Run { start, .. } => start.span,
                Index::Full(s) => *s,
                _ => unreachable!(),
            };
            return Err(Diag::error(s, "a store or a point read takes single indices here, not a run or ':'"));
        }
        let points: Vec<&Expr> = idx.iter().map(|i| if let Index::Point(e) = i { e } else { unreachable!() }).collect();
        match self.lookup(&t.name).cloned() {
            Some(Bind::Tensor(tb)) => {
                let lin = self.linear(&t.name, &tb, &points, None, span)?;
                Ok((tb.mem.clone(), tb.mty.clone(), tb.elem, vec![lin]))
            }
            Some(Bind::Tile(tile)) => {
                let idxs = self.tile_indices(&tile, &points, t)?;
                Ok((tile.mem.clone(), tile.mty.clone(), tile.elem, idxs))
            }
            _ => Err(Diag::error(t.span, format!("'{}' is not a tensor or a tile", t.name))),
        }
    }

    fn tile_indices(&mut self, tile: &TileB, points: &[&Expr], t: &Ident) -> Result<Vec<String>> {
        if points.len() != tile.shape.len() {
            return Err(Diag::error(
                t.span,
                format!("tile '{}' has {} dimensions, indexed with {}", t.name, tile.shape.len(), points.len()),
            ));
        }
        let mut out = Vec::new();
        for p in points {
            let v = self.expr(p)?;
            let v =
                self.scalar(v, Some(Scalar::I32), p.span).map_err(|e| Diag::error(p.span, format!("indices are i32: {}", e.message)))?;
            out.push(self.index_of(&v, p.span));
        }
        Ok(out)
    }

    /// The row-major linear index (index type) of `name[points]`; `run` is the dimension of a
    /// run and its length, its point the run's start. Each subscript is checked against its
    /// dimension by a `cf.assert` marked `phobos.bounds`: the simulator runs it (a fault naming
    /// the subscript), `strip-bounds-checks` removes it before LLVM, so the PTX pays nothing.
    fn linear(&mut self, name: &str, t: &TensorB, points: &[&Expr], run: Option<(usize, u32)>, span: Span) -> Result<String> {
        if points.len() != t.dims.len() {
            return Err(Diag::error(
                span,
                format!("tensor has {} dimensions ({}), indexed with {}", t.dims.len(), t.names.join(", "), points.len()),
            ));
        }
        let mut acc: Option<String> = None;
        for (d, p) in points.iter().enumerate() {
            let v = self.expr(p)?;
            let v =
                self.scalar(v, Some(Scalar::I32), p.span).map_err(|e| Diag::error(p.span, format!("indices are i32: {}", e.message)))?;
            let i = self.index_of(&v, p.span);
            self.bounds_check(name, t, d, &i, p.span, run.filter(|(rd, _)| *rd == d).map(|(_, n)| n), span);
            let stride = self.stride(t, d, span);
            let term = match stride {
                None => i,
                Some(s) => self.emit(format!("arith.muli {i}, {s} : index"), Ty::scalar(Scalar::I64), span).s,
            };
            acc = Some(match acc {
                None => term,
                Some(a) => self.emit(format!("arith.addi {a}, {term} : index"), Ty::scalar(Scalar::I64), span).s,
            });
        }
        Ok(acc.expect("at least one dimension"))
    }

    /// Asserts `0 <= i < dim d` (for a run of `n`: `i + n <= dim d` too).
    fn bounds_check(&mut self, name: &str, t: &TensorB, d: usize, i: &str, at: Span, run: Option<u32>, span: Span) {
        let dim = match &t.dims[d] {
            Dim::Const(c) => self.index_const(*c, span),
            Dim::Arg(_, idx) => idx.clone(),
        };
        let text: String =
            self.src.text.get(at.start as usize..at.end as usize).unwrap_or("?").split_whitespace().collect::<Vec<_>>().join(" ");
        let what = format!("{name}: subscript {d} ({text}) is outside [0, {})", t.names[d]);
        let ok = self.emit(format!("arith.cmpi ult, {i}, {dim} : index"), Ty::scalar(Scalar::Bool), at);
        self.emit_void(format!("cf.assert {}, \"{}\" {{phobos.bounds}}", ok.s, escape(&what)), at);
        if let Some(n) = run {
            let len = self.index_const(n as i64, span);
            let end = self.emit(format!("arith.addi {i}, {len} : index"), Ty::scalar(Scalar::I64), at);
            let ok = self.emit(format!("arith.cmpi ule, {}, {dim} : index", end.s), Ty::scalar(Scalar::Bool), at);
            let what = format!("{name}: the run {text} :+ {n} leaves [0, {}) in dimension {d}", t.names[d]);
            self.emit_void(format!("cf.assert {}, \"{}\" {{phobos.bounds}}", ok.s, escape(&what)), at);
        }
    }

    /// The stride of dimension `d` (index SSA), None when it is 1.
    fn stride(&mut self, t: &TensorB, d: usize, span: Span) -> Option<String> {
        if d + 1 == t.dims.len() {
            return None;
        }
        let mut konst: i64 = 1;
        let mut parts: Vec<String> = Vec::new();
        for dim in &t.dims[d + 1..] {
            match dim {
                Dim::Const(c) => konst *= c,
                Dim::Arg(_, idx) => parts.push(idx.clone()),
            }
        }
        let mut acc = if konst != 1 || parts.is_empty() { Some(self.index_const(konst, span)) } else { None };
        for p in parts {
            acc = Some(match acc {
                None => p,
                Some(a) => self.emit(format!("arith.muli {a}, {p} : index"), Ty::scalar(Scalar::I64), span).s,
            });
        }
        acc
    }

    fn load_point(&mut self, mem: &str, mty: &str, elem: Scalar, idx: &[String], span: Span) -> V {
        let raw = self.emit(
            format!("memref.load {mem}[{}] : {mty}", idx.join(", ")),
            Ty::scalar(if elem == Scalar::Bool { Scalar::I8 } else { elem }),
            span,
        );
        if elem == Scalar::Bool {
            let z = self.const_int(0, Ty::scalar(Scalar::I8), span);
            return self.emit(format!("arith.cmpi ne, {}, {} : i8", raw.s, z.s), Ty::scalar(Scalar::Bool), span);
        }
        raw
    }

    fn store_point(&mut self, mem: &str, mty: &str, elem: Scalar, idx: &[String], v: V, span: Span) {
        let v = if elem == Scalar::Bool { self.emit(format!("arith.extui {} : i1 to i8", v.s), Ty::scalar(Scalar::I8), span) } else { v };
        self.emit_void(format!("memref.store {}, {mem}[{}] : {mty}", v.s, idx.join(", ")), span);
    }

    fn subscript(&mut self, t: &Ident, idx: &[Index], span: Span) -> Result<Value> {
        let runs: Vec<usize> = idx.iter().enumerate().filter(|(_, i)| !matches!(i, Index::Point(_))).map(|(k, _)| k).collect();
        if runs.is_empty() {
            let (mem, mty, elem, indices) = self.point_address(t, idx, span)?;
            return Ok(Value::V(self.load_point(&mem, &mty, elem, &indices, span)));
        }
        if let Some(k) = runs.iter().find(|k| matches!(idx[**k], Index::Full(_))) {
            let Index::Full(s) = &idx[*k] else { unreachable!() };
            return Err(Diag::error(
                *s,
                "':' (a whole dimension) makes a tile copy, which only initializes a variable: var t = x[0 :+ 1, :]",
            ));
        }
        if runs.len() > 1 {
            return Err(Diag::error(span, "a thread's run spans one dimension (one ':+'); a tile copy spans several"));
        }
        let d = runs[0];
        let Index::Run { len, .. } = &idx[d] else { unreachable!() };
        let n = match self.expr(len)? {
            Value::Int(n) if n > 0 && n <= 1024 => n as u32,
            Value::Int(n) => return Err(Diag::error(len.span, format!("a run's length must be from 1 to 1024, got {n}"))),
            _ => return Err(Diag::error(len.span, "a run's length must be a compile-time constant")),
        };
        let points: Vec<&Expr> = idx
            .iter()
            .map(|i| match i {
                Index::Point(e) => e,
                Index::Run { start, .. } => start,
                Index::Full(_) => unreachable!(),
            })
            .collect();
        match self.lookup(&t.name).cloned() {
            Some(Bind::Tensor(tb)) => {
                let lin = self.linear(&t.name, &tb, &points, Some((d, n)), span)?;
                let stride = if d + 1 == tb.dims.len() { None } else { self.stride(&tb, d, span) };
                self.read_run(&tb.mem, &tb.mty, tb.elem, vec![lin], 0, stride, n, span)
            }
            Some(Bind::Tile(tile)) => {
                let idxs = self.tile_indices(&tile, &points, t)?;
                if d + 1 != tile.shape.len() {
                    // Along a non-last dimension of a tile: element by element.
                    return self.read_run(&tile.mem, &tile.mty, tile.elem, idxs, d, Some(String::new()), n, span);
                }
                self.read_run(&tile.mem, &tile.mty, tile.elem, idxs, d, None, n, span)
            }
            _ => Err(Diag::error(t.span, format!("'{}' is not a tensor or a tile", t.name))),
        }
    }

    /// Reads a run of `n` elements starting at `idx` (the index along `dim` advances).
    /// Contiguous runs (stride None) are vector loads of at most 16 bytes each; others are
    /// element loads gathered into vectors.
    #[allow(clippy::too_many_arguments)]
    fn read_run(
        &mut self,
        mem: &str,
        mty: &str,
        elem: Scalar,
        idx: Vec<String>,
        dim: usize,
        stride: Option<String>,
        n: u32,
        span: Span,
    ) -> Result<Value> {
        let mem_elem = if elem == Scalar::Bool { Scalar::I8 } else { elem };
        let per_chunk = (16 / mem_elem.bytes()).max(1);
        let mut chunks = Vec::new();
        let mut off = 0;
        while off < n {
            let c = per_chunk.min(n - off);
            let vty = Ty::vector(mem_elem, c);
            let at = |g: &mut Self, k: u32| -> Vec<String> {
                let mut v = idx.clone();
                if k > 0 {
                    let step = match &stride {
                        Some(s) if !s.is_empty() => {
                            let kc = g.index_const(k as i64, span);
                            g.emit(format!("arith.muli {kc}, {s} : index"), Ty::scalar(Scalar::I64), span).s
                        }
                        _ => g.index_const(k as i64, span),
                    };
                    v[dim] = g.emit(format!("arith.addi {}, {step} : index", v[dim]), Ty::scalar(Scalar::I64), span).s;
                }
                v
            };
            let chunk = if stride.is_none() {
                let i = at(self, off);
                self.emit(format!("vector.load {mem}[{}] : {mty}, {}", i.join(", "), vty.mlir()), vty, span)
            } else {
                let mut elems = Vec::new();
                for k in 0..c {
                    let i = at(self, off + k);
                    elems.push(self.emit(format!("memref.load {mem}[{}] : {mty}", i.join(", ")), Ty::scalar(mem_elem), span).s);
                }
                self.emit(format!("vector.from_elements {} : {}", elems.join(", "), vty.mlir()), vty, span)
            };
            let chunk = if elem == Scalar::Bool {
                let z = self.const_int(0, vty, span);
                self.emit(format!("arith.cmpi ne, {}, {} : {}", chunk.s, z.s, vty.mlir()), Ty::vector(Scalar::Bool, c), span)
            } else {
                chunk
            };
            chunks.push(chunk);
            off += c;
        }
        Ok(Value::Run(Run { chunks, len: n }))
    }

    /// `sum(e)` within one thread: e is elementwise over runs; the chunks reduce and add up.
    fn thread_sum(&mut self, e: &Expr, span: Span) -> Result<Value> {
        // A float sum of a product of runs: one multiply, then a chain of fused multiply-adds
        // (math.fma, one rounding each), as CUDA contracts `a*b + c` by default.
        if let ExprKind::Binary(BinOp::Mul, x, y) = &e.kind {
            let (vx, vy) = (self.expr(x)?, self.expr(y)?);
            if let (Value::Run(a), Value::Run(b)) = (&vx, &vy) {
                let elem = a.chunks[0].ty.elem;
                if elem.is_float() && b.chunks[0].ty.elem == elem && a.len == b.len {
                    return self.dot(a, b, span).map(Value::V);
                }
            }
            let product = self.binary_values(BinOp::Mul, vx, vy, e.span)?;
            return self.sum_run(product, e, span);
        }
        let v = self.expr(e)?;
        self.sum_run(v, e, span)
    }

    /// Element `i` of a run.
    fn run_item(&mut self, r: &Run, i: u32, span: Span) -> V {
        let per = r.chunks[0].ty.lanes.unwrap_or(1);
        let c = &r.chunks[(i / per) as usize];
        if c.ty.lanes.is_none() {
            return c.clone();
        }
        self.emit(format!("vector.extract {}[{}] : {} from {}", c.s, i % per, c.ty.elem.mlir(), c.ty.mlir()), Ty::scalar(c.ty.elem), span)
    }

    /// `a[0]*b[0] + a[1]*b[1] + ...` in order, each step a fused multiply-add (or, with
    /// `--no-fma`, a multiply and an add).
    fn dot(&mut self, a: &Run, b: &Run, span: Span) -> Result<V> {
        let st = Ty::scalar(a.chunks[0].ty.elem);
        let mut acc: Option<V> = None;
        for i in 0..a.len {
            let (x, y) = (self.run_item(a, i, span), self.run_item(b, i, span));
            acc = Some(match acc {
                None => self.arith(BinOp::Mul, &x, &y, span)?,
                Some(t) if self.fma => self.emit(format!("math.fma {}, {}, {} : {}", x.s, y.s, t.s, st.mlir()), st, span),
                Some(t) => {
                    let p = self.arith(BinOp::Mul, &x, &y, span)?;
                    self.arith(BinOp::Add, &t, &p, span)?
                }
            });
        }
        Ok(acc.expect("a run has an element"))
    }

    /// The sum of a run's elements: in order from the first for floats (no add of 0.0), a
    /// vector reduction per chunk for integers (which `vector-fuse-dp4a` reads).
    fn sum_run(&mut self, v: Value, e: &Expr, span: Span) -> Result<Value> {
        let Value::Run(r) = v else {
            return Err(Diag::error(
                e.span,
                "sum(e) adds up the elements of runs (x[i, k :+ n]) within a thread; for a sum across lanes write sum<over ctx.lane>(...)",
            ));
        };
        let elem = r.chunks[0].ty.elem;
        if elem == Scalar::Bool {
            return Err(Diag::error(e.span, "sum(...) of conditions: convert them first, e.g. sum(i32(c))"));
        }
        let st = Ty::scalar(elem);
        let mut total: Option<V> = None;
        if elem.is_float() {
            for i in 0..r.len {
                let x = self.run_item(&r, i, span);
                total = Some(match total {
                    None => x,
                    Some(t) => self.arith(BinOp::Add, &t, &x, span)?,
                });
            }
            return Ok(Value::V(total.expect("a run has an element")));
        }
        for c in &r.chunks {
            let part = self.emit(format!("vector.reduction <add>, {} : {} into {}", c.s, c.ty.mlir(), st.mlir()), st, span);
            total = Some(match total {
                None => part,
                Some(t) => self.arith(BinOp::Add, &t, &part, span)?,
            });
        }
        Ok(Value::V(total.expect("a run has a chunk")))
    }

    /// `elem(run, i)`: element i of a run; `word(run, i)`: bytes 4i..4i+3 of an i8 run as an i32.
    fn run_element(&mut self, which: &str, run: &Expr, i: &Expr, span: Span) -> Result<Value> {
        let k = match self.expr(i)? {
            Value::Int(k) if k >= 0 => k as u32,
            _ => return Err(Diag::error(i.span, format!("{which}'s index must be a non-negative constant"))),
        };
        let Value::Run(r) = self.expr(run)? else {
            return Err(Diag::error(run.span, format!("{which} takes a run (x[i, k :+ n])")));
        };
        let (first, width) = if which == "word" {
            if r.chunks[0].ty.elem != Scalar::I8 {
                return Err(Diag::error(run.span, "word reads i8 runs"));
            }
            (k * 4, 4)
        } else {
            (k, 1)
        };
        if first + width > r.len {
            return Err(Diag::error(i.span, format!("{which} {k} is past the end of a run of {}", r.len)));
        }
        // Find the chunk holding the element(s).
        let mut base = 0;
        for c in &r.chunks {
            let n = c.ty.lanes.unwrap_or(1);
            if first < base + n {
                let at = first - base;
                if which == "elem" {
                    return Ok(Value::V(self.emit(
                        format!("vector.extract {}[{at}] : {} from {}", c.s, c.ty.elem.mlir(), c.ty.mlir()),
                        Ty::scalar(c.ty.elem),
                        span,
                    )));
                }
                if at + 4 > n || n % 4 != 0 {
                    return Err(Diag::error(i.span, "word reads whole 4-byte words of a run whose length is a multiple of 4"));
                }
                // The chunk as packed words, then one word.
                let wty = Ty::vector(Scalar::I32, n / 4);
                let words = self.emit(format!("vector.bitcast {} : {} to {}", c.s, c.ty.mlir(), wty.mlir()), wty, span);
                return Ok(Value::V(self.emit(
                    format!("vector.extract {}[{}] : i32 from {}", words.s, at / 4, wty.mlir()),
                    Ty::scalar(Scalar::I32),
                    span,
                )));
            }
            base += n;
        }
        unreachable!("checked against the run's length")
    }

    /// `store(t[i, k :+ n], j, v)`: writes element j of a run.
    fn store_builtin(&mut self, args: &[Expr], span: Span) -> Result<()> {
        if args.len() != 3 {
            return Err(Diag::error(span, format!("store takes 3 arguments (run, index, value), got {}", args.len())));
        }
        let ExprKind::Subscript(t, idx) = &args[0].kind else {
            return Err(Diag::error(args[0].span, "store's first argument is a run: t[i, k :+ n]"));
        };
        let k = match self.expr(&args[1])? {
            Value::Int(k) if k >= 0 => k,
            _ => return Err(Diag::error(args[1].span, "store's index must be a non-negative constant")),
        };
        let mut points = idx.to_vec();
        let Some(d) = points.iter().position(|i| matches!(i, Index::Run { .. })) else {
            return Err(Diag::error(args[0].span, "store's first argument is a run: t[i, k :+ n]"));
        };
        let Index::Run { start, len } = &points[d] else { unreachable!() };
        if let Value::Int(n) = self.expr(len)? {
            if k >= n {
                return Err(Diag::error(args[1].span, format!("store {k} is past the end of a run of {n}")));
            }
        }
        let shifted = Expr {
            kind: ExprKind::Binary(BinOp::Add, Box::new(start.clone()), Box::new(Expr { kind: ExprKind::Int(k), span: args[1].span })),
            span: start.span,
        };
        points[d] = Index::Point(shifted);
        let (mem, mty, elem, indices) = self.point_address(t, &points, span)?;
        let v = self.expr(&args[2])?;
        let v = self.scalar(v, Some(elem), args[2].span)?;
        self.store_point(&mem, &mty, elem, &indices, v, span);
        Ok(())
    }

    /// `var xs = x[0 :+ 1, :]`: a CTA-cooperative copy into shared memory (`tile.copy`).
    fn tile_copy(&mut self, t: &Ident, idx: &[Index], span: Span, var: &str) -> Result<TileB> {
        let Some(Bind::Tensor(tb)) = self.lookup(&t.name).cloned() else {
            return Err(Diag::error(t.span, format!("'{}' is not a tensor; a tile copies from a tensor", t.name)));
        };
        if idx.len() != tb.dims.len() {
            return Err(Diag::error(
                span,
                format!("tensor has {} dimensions ({}), indexed with {}", tb.dims.len(), tb.names.join(", "), idx.len()),
            ));
        }
        let mut starts = Vec::new();
        let mut shape = Vec::new();
        for (d, i) in idx.iter().enumerate() {
            let (start, extent) = match i {
                Index::Point(e) => (Some(e), Ok(1)),
                Index::Run { start, len } => (
                    Some(start),
                    match self.expr(len)? {
                        Value::Int(n) => Ok(n),
                        _ => Err(len.span),
                    },
                ),
                Index::Full(s) => (
                    None,
                    match &tb.dims[d] {
                        Dim::Const(c) => Ok(*c),
                        Dim::Arg(..) => Err(*s),
                    },
                ),
            };
            let extent = extent.map_err(|s| {
                Diag::error(
                    s,
                    format!(
                        "a tile's extents must be compile-time constants; {} is bound at launch (fix it with @autotune or -D)",
                        tb.names[d]
                    ),
                )
            })?;
            if extent <= 0 {
                return Err(Diag::error(span, format!("a tile's extents must be positive, got {extent}")));
            }
            shape.push(extent);
            starts.push(match start {
                Some(e) => {
                    let v = self.expr(e)?;
                    let v = self.scalar(v, Some(Scalar::I32), e.span)?;
                    self.index_of(&v, e.span)
                }
                None => self.index_const(0, span),
            });
        }
        let dims: Vec<String> = tb
            .dims
            .iter()
            .map(|d| match d {
                Dim::Const(c) => self.index_const(*c, span),
                Dim::Arg(_, idx) => idx.clone(),
            })
            .collect();
        let elem = tb.elem;
        let shape_txt: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
        let mty = format!("memref<{}x{}, #gpu.address_space<workgroup>>", shape_txt.join("x"), elem.mem());
        let operands: Vec<String> = std::iter::once(tb.mem.clone()).chain(starts).chain(dims).collect();
        let types: Vec<String> = std::iter::once(tb.mty.clone()).chain((0..2 * shape.len()).map(|_| "index".to_string())).collect();
        let v = self.emit(
            format!(
                "\"tile.copy\"({}) {{name = \"{var}\", shape = array<i64: {}>}} : ({}) -> {mty}",
                operands.join(", "),
                shape_txt.join(", "),
                types.join(", ")
            ),
            Ty::scalar(elem),
            span,
        );
        Ok(TileB { mem: v.s, mty, elem, shape })
    }

    // ---------------------------------------------------------------------------------------
    // Collectives

    fn collective(&mut self, op: &Ident, config: &[Config], args: &[Expr], span: Span) -> Result<Value> {
        let name = op.name.as_str();
        let mut over: Option<&Config> = None;
        let mut width: Option<&Config> = None;
        let mut modes: Vec<&Config> = Vec::new();
        for c in config {
            match c.key.name.as_str() {
                "over" => over = Some(c),
                "width" => width = Some(c),
                _ => modes.push(c),
            }
        }
        let width_val = match width {
            Some(w) => match self.expr(&w.value)? {
                Value::Int(v) => Some(v),
                _ => {
                    return Err(Diag::error(w.value.span, "width must fold to a compile-time constant (a power of two dividing ctx.lanes)"))
                }
            },
            None => None,
        };
        let width_attr = width_val.map(|w| format!(", width = {w} : i32")).unwrap_or_default();
        if name == "shfl" {
            if let Some(o) = over {
                return Err(Diag::error(o.key.span, "a shuffle takes no over: it always moves values among the lanes of a warp"));
            }
            if modes.len() != 1 {
                let at = modes.get(1).map(|m| m.key.span).unwrap_or(op.span);
                return Err(Diag::error(at, "a shuffle takes exactly one of from, xor, down and up"));
            }
            if args.len() != 1 {
                return Err(Diag::error(span, format!("shfl takes one value, got {}", args.len())));
            }
            let m = modes[0];
            let v = self.expr(&args[0])?;
            let v = self.scalar(v, None, args[0].span)?;
            let o = self.expr(&m.value)?;
            let o = self
                .scalar(o, Some(Scalar::I32), m.value.span)
                .map_err(|e| Diag::error(m.value.span, format!("a shuffle's {} is an i32: {}", m.key.name, e.message)))?;
            let attrs = format!("{{mode = \"{}\"{width_attr}}}", m.key.name);
            return Ok(Value::V(self.emit(
                format!("\"lane.shuffle\"({}, {}) {attrs} : ({}, i32) -> {}", v.s, o.s, v.ty.mlir(), v.ty.mlir()),
                v.ty,
                span,
            )));
        }
        if let Some(m) = modes.first() {
            return Err(Diag::error(m.key.span, format!("'{}' configures shuffles; {name} takes over and width", m.key.name)));
        }
        let Some(over) = over else {
            return Err(Diag::error(op.span, "a collective needs over ctx.lane or over ctx.thread"));
        };
        let dialect = match &over.value.kind {
            ExprKind::Ctx(p) if p == "lane" => "lane",
            ExprKind::Ctx(p) if p == "thread" => "cta",
            _ => return Err(Diag::error(over.value.span, "over takes ctx.lane or ctx.thread")),
        };
        let want_args = if name == "reduce" { 2 } else { 1 };
        if args.len() != want_args {
            return Err(Diag::error(
                span,
                format!("{name}<...> takes {want_args} argument{}, got {}", if want_args == 1 { "" } else { "s" }, args.len()),
            ));
        }
        let v = self.expr(&args[0])?;
        if let Value::Run(_) = v {
            return Err(Diag::error(
                args[0].span,
                format!("{name}<over ...> folds one value per thread; sum a run within the thread first with sum(...)"),
            ));
        }
        let v = self.scalar(v, None, args[0].span)?;
        let t = v.ty.mlir();
        let out = match name {
            "sum" | "max" | "min" | "any" | "all" => {
                self.emit(format!("\"{dialect}.reduce\"({}) {{kind = \"{name}\"{width_attr}}} : ({t}) -> {t}", v.s), v.ty, span)
            }
            "argmax" => {
                let attrs = if width_attr.is_empty() { String::new() } else { format!(" {{{}}}", &width_attr[2..]) };
                self.emit(format!("\"{dialect}.argmax\"({}){attrs} : ({t}) -> i32", v.s), Ty::scalar(Scalar::I32), span)
            }
            "reduce" => {
                let f = match &args[1].kind {
                    ExprKind::Name(n) => self
                        .fns
                        .get(n)
                        .copied()
                        .ok_or_else(|| Diag::error(args[1].span, format!("'{n}' is not a function (fn {n}(a, b) = ...)")))?,
                    _ => return Err(Diag::error(args[1].span, "reduce's second argument names a function: fn f(a, b) = ...")),
                };
                if f.params.len() != 2 {
                    return Err(Diag::error(
                        args[1].span,
                        format!("reduce needs a function of two values; '{}' takes {}", f.name.name, f.params.len()),
                    )
                    .note(f.name.span, "defined here"));
                }
                let (a, b) = (self.fresh(), self.fresh());
                let ty = v.ty;
                let (lines, res) = self.region(|g| {
                    let r = g.inline_values(f, vec![Value::V(V { s: a.clone(), ty }), Value::V(V { s: b.clone(), ty })], f.body.span)?;
                    g.scalar(r, Some(ty.elem), f.body.span)
                })?;
                let r = self.fresh();
                let loc = self.loc(span);
                let pad = " ".repeat(self.indent + 2);
                self.line(format!("{r} = \"{dialect}.reduce_with\"({}) ({{", v.s));
                self.bufs.last_mut().expect("buf").push(format!("{}^bb0({a}: {t}, {b}: {t}):", " ".repeat(self.indent)));
                self.push_lines(lines);
                self.bufs.last_mut().expect("buf").push(format!("{pad}gpu.yield {} : {t}", res.s));
                let attrs = if width_attr.is_empty() { String::new() } else { format!(" {{{}}}", &width_attr[2..]) };
                self.line(format!("}}){attrs} : ({t}) -> {t} {loc}"));
                V { s: r, ty: v.ty }
            }
            _ => unreachable!("the parser only accepts collective names here"),
        };
        Ok(Value::V(out))
    }
}
