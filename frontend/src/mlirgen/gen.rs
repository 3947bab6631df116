//! The generator's state and its values: SSA values, literals, runs, what names are bound to,
//! and the helpers that emit MLIR text.

use super::*;

/// A value of the kernel in SSA form.
#[derive(Clone, Debug)]
pub(super) struct V {
    pub(super) s: String,
    pub(super) ty: Ty,
}

/// A run read by one thread: vector chunks of at most 16 bytes each.
#[derive(Clone, Debug)]
pub(super) struct Run {
    pub(super) chunks: Vec<V>,
    pub(super) len: u32,
}

/// The result of an expression: an SSA value, an untyped literal, or a run.
#[derive(Clone, Debug)]
pub(super) enum Value {
    V(V),
    Int(i64),
    Float(f64),
    Run(Run),
    /// A register array: `vector<n x T>`, `n` items per thread.
    Array(V),
}

/// Where a tensor lives and how to index it.
#[derive(Clone, Debug)]
pub(super) struct TensorB {
    pub(super) mem: String,
    pub(super) mty: String,
    pub(super) elem: Scalar,
    /// Each dimension's size as an index value (SSA name or constant).
    pub(super) dims: Vec<Dim>,
    pub(super) names: Vec<String>,
    /// In a strided entry, each dimension's element stride (index SSA); None: row-major.
    pub(super) strides: Option<Vec<String>>,
}

/// A shared tile made by a tile copy.
#[derive(Clone, Debug)]
pub(super) struct TileB {
    pub(super) mem: String,
    pub(super) mty: String,
    pub(super) elem: Scalar,
    pub(super) shape: Vec<i64>,
}

#[derive(Clone, Debug)]
pub(super) enum Dim {
    Const(i64),
    /// (the i32 value, the index value)
    Arg(String, String),
}

#[derive(Clone, Debug)]
pub(super) enum Bind {
    Val { v: V, mutable: bool, decl: Span },
    Lit(Value),
    Tensor(TensorB),
    Tile(TileB),
    Dim(Dim),
}

pub(super) struct Gen<'a> {
    pub(super) src: &'a Source,
    pub(super) fns: &'a HashMap<String, &'a FnDef>,
    pub(super) bufs: Vec<Vec<String>>,
    pub(super) indent: usize,
    pub(super) next: usize,
    pub(super) scopes: Vec<HashMap<String, Bind>>,
    pub(super) launch: i64,
    /// The `fn`s being inlined, outermost first (for recursion and depth errors).
    pub(super) inline_chain: Vec<String>,
    /// The spans of the `fn` calls being inlined, outermost first (for call-site locations).
    pub(super) call_sites: Vec<Span>,
    /// Expression nodes inlined from `fn` bodies so far in this kernel: bounded, so that calls
    /// that fan out (`h(a) = g(a) + g(a)`, nested) cannot grow the kernel exponentially.
    pub(super) inlined_nodes: usize,
    /// `inlined_nodes`, each times the elements of the values its call passes.
    pub(super) inlined_elements: usize,
    /// Expressions being generated, nested (through `fn` bodies too): bounded, so that the
    /// recursion of the generator cannot overflow the stack.
    pub(super) expr_depth: u32,
    /// Contract float sums of products into fused multiply-adds.
    pub(super) fma: bool,
    /// `@fast_math` or `--fast-math`: f32 math functions carry `afn` (`lower-fast-math`
    /// makes them the hardware's approximations).
    pub(super) fast_math: bool,
    /// `@tf32`: `dot` of f32 tiles runs on tensor cores as tf32.
    pub(super) tf32: bool,
    /// `@pipeline(stages = S)`: S (1: no pipelining), marked on every loop (`phobos.pipeline`).
    pub(super) pipeline: i64,
    /// Generating a strided twin: tensors are indexed through stride parameters.
    pub(super) strided: bool,
    /// The constant (start, stop, step) of each `for` whose bounds are constants, by the SSA
    /// name of its variable: such a variable may index a register array.
    pub(super) loop_ranges: HashMap<String, (i64, i64, i64)>,
    /// Integer values computed from constants and such loop variables alone (`i * 4 + j`), by
    /// SSA name: such a value may index a register array too, checked for every iteration.
    pub(super) index_exprs: HashMap<String, super::array::IdxExpr>,
    /// The `while` loops around the statement being generated (their ids), innermost last.
    pub(super) whiles: Vec<u32>,
    /// The thread/value layout of register arrays known to hold their items in one: by SSA
    /// name, for the results of exchanges and scatters (and the item writes after them).
    pub(super) array_layouts: HashMap<String, super::exchange::ArrayLayout>,
    /// The layouts `var v: T[n] in L` declares, by the declaration's span.
    pub(super) declared_layouts: HashMap<Span, super::exchange::ArrayLayout>,
    /// The tensor-core tiling of each fragment (`var acc: fragment<f32>[M, N]`), by the
    /// declaration's span.
    pub(super) fragments: HashMap<Span, phobos_layout::mma::MmaTiling>,
    /// The rows and columns `for i, j in acc` binds, by SSA name: `acc[i, j]` is their item.
    pub(super) fragment_coords: HashMap<String, super::dot::FragmentCoord>,
}

/// `fn` calls nest at most this deep.
pub(super) const MAX_INLINE_DEPTH: usize = 64;
/// A kernel inlines at most this many expression nodes from `fn` bodies.
pub(super) const MAX_INLINED_NODES: usize = 50_000;
/// The most element operations a kernel may inline from `fn` bodies: each node counted once
/// per element of the widest run (or register array) the call passes in. A run's ops are
/// emitted per element in the end, so 12 levels of doubling calls over `:+ 64` (25,000 nodes,
/// 1.6 million element operations) took 6 s and 450 MB to compile; this bound keeps any
/// kernel under 2 s here.
pub(super) const MAX_INLINED_ELEMENTS: usize = 500_000;
/// Expressions, counting through inlined `fn` bodies, nest at most this deep.
pub(super) const MAX_EXPR_DEPTH: u32 = 1_000;

/// The number of nodes of an expression.
pub(super) fn expr_nodes(e: &Expr) -> usize {
    1 + match &e.kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) | ExprKind::Name(_) | ExprKind::Ctx(_) => 0,
        ExprKind::Unary(_, x) => expr_nodes(x),
        ExprKind::Binary(_, a, b) => expr_nodes(a) + expr_nodes(b),
        ExprKind::Call(_, args) => args.iter().map(expr_nodes).sum(),
        ExprKind::Collective { config, args, .. } => {
            config.iter().map(|c| expr_nodes(&c.value)).sum::<usize>() + args.iter().map(expr_nodes).sum::<usize>()
        }
        ExprKind::Exchange { args, .. } => args.iter().map(expr_nodes).sum(),
        ExprKind::Masked { read, fill } => expr_nodes(read) + expr_nodes(fill),
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

pub(super) fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A float literal MLIR's lexer accepts.
pub(super) fn float_text(v: f64, ty: Scalar) -> String {
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
            Scalar::BF16 => format!("0x{:04X}", ((v as f32).to_bits() >> 16) as u16 | if v.is_nan() { 0x40 } else { 0 }),
            Scalar::F64 => format!("0x{:016X}", v.to_bits()),
            _ => format!("0x{:08X}", (v as f32).to_bits()),
        }
    }
}

impl<'a> Gen<'a> {
    pub(super) fn new(src: &'a Source, fns: &'a HashMap<String, &'a FnDef>, launch: i64) -> Self {
        Gen {
            src,
            fns,
            bufs: vec![Vec::new()],
            indent: 6,
            next: 0,
            scopes: vec![HashMap::new()],
            array_layouts: HashMap::new(),
            declared_layouts: HashMap::new(),
            fragments: HashMap::new(),
            fragment_coords: HashMap::new(),
            launch,
            inline_chain: Vec::new(),
            call_sites: Vec::new(),
            inlined_nodes: 0,
            inlined_elements: 0,
            expr_depth: 0,
            fma: true,
            fast_math: false,
            tf32: false,
            pipeline: 1,
            strided: false,
            loop_ranges: HashMap::new(),
            index_exprs: HashMap::new(),
            whiles: Vec::new(),
        }
    }

    // ---------------------------------------------------------------------------------------
    // Emission

    pub(super) fn loc(&self, span: Span) -> String {
        format!("loc({})", self.loc_inner(span))
    }
    /// `"file":L:C`, or inside an inlined `fn` a call site: `callsite("file":L:C at CALLER)`,
    /// whose callee is where diagnostics point and whose outermost caller is the kernel's
    /// statement that runs the op (`phobos explain` attributes it there).
    fn loc_inner(&self, span: Span) -> String {
        let at = |s: Span| {
            let (l, c) = self.src.line_col(s.start);
            format!("\"{}\":{l}:{c}", escape(&self.src.name))
        };
        let mut calls = self.call_sites.iter();
        let Some(first) = calls.next() else { return at(span) };
        let caller = calls.fold(at(*first), |caller, c| format!("callsite({} at {caller})", at(*c)));
        format!("callsite({} at {caller})", at(span))
    }
    pub(super) fn line(&mut self, text: String) {
        let pad = " ".repeat(self.indent);
        self.bufs.last_mut().expect("a buffer").push(format!("{pad}{text}"));
    }
    /// Names the op that defined `value` in this block after the source variable `name`
    /// (`loc("row"(...))`, an MLIR name location), so that diagnostics about the value can say
    /// `row` rather than an SSA number. A value defined elsewhere is left as it is.
    pub(super) fn name_value(&mut self, value: &str, name: &str) {
        let pad = " ".repeat(self.indent);
        let def = format!("{pad}{value} = ");
        let Some(line) = self.bufs.last_mut().expect("a buffer").iter_mut().rev().find(|l| l.starts_with(&def)) else { return };
        if let Some(at) = line.rfind(" loc(") {
            let inner = line[at + 5..].strip_suffix(')').map(str::to_string);
            // A value bound twice (`let v = x`) keeps its first name.
            let named = |l: &str| l.strip_prefix('"').and_then(|r| r.find('"').map(|i| r[i + 1..].starts_with('('))).unwrap_or(false);
            if let Some(inner) = inner.filter(|i| !named(i)) {
                line.truncate(at);
                line.push_str(&format!(" loc(\"{}\"({inner}))", escape(name)));
            }
        }
    }
    /// Names the value of an expression that is not a variable after its source text, so that
    /// a diagnostic about it shows the expression (`'ctx.lane == 0' depends on the lane id`)
    /// rather than an SSA number.
    pub(super) fn name_expr(&mut self, value: &str, e: &crate::ast::Expr) {
        use crate::ast::ExprKind::*;
        if matches!(e.kind, Name(_) | Int(_) | Float(_) | Bool(_)) {
            return;
        }
        let text = self.src.text.get(e.span.start as usize..e.span.end as usize).unwrap_or("");
        let mut text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.chars().count() > 40 {
            text = text.chars().take(39).collect::<String>() + "…";
        }
        if !text.is_empty() {
            self.name_value(value, &text);
        }
    }
    pub(super) fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }
    pub(super) fn emit(&mut self, rhs: String, ty: Ty, span: Span) -> V {
        let s = self.fresh();
        let loc = self.loc(span);
        self.line(format!("{s} = {rhs} {loc}"));
        V { s, ty }
    }
    pub(super) fn emit_void(&mut self, text: String, span: Span) {
        let loc = self.loc(span);
        self.line(format!("{text} {loc}"));
    }
    /// Generates into a fresh buffer, one level deeper; returns its lines.
    pub(super) fn region<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<(Vec<String>, T)> {
        self.bufs.push(Vec::new());
        self.indent += 2;
        self.scopes.push(HashMap::new());
        let r = f(self);
        self.scopes.pop();
        self.indent -= 2;
        let lines = self.bufs.pop().expect("pushed");
        r.map(|t| (lines, t))
    }
    pub(super) fn push_lines(&mut self, lines: Vec<String>) {
        self.bufs.last_mut().expect("a buffer").extend(lines);
    }

    pub(super) fn const_int(&mut self, v: i64, ty: Ty, span: Span) -> V {
        match ty.lanes {
            None => self.emit(format!("arith.constant {v} : {}", ty.mlir()), ty, span),
            Some(_) => self.emit(format!("arith.constant dense<{v}> : {}", ty.mlir()), ty, span),
        }
    }
    pub(super) fn const_float(&mut self, v: f64, ty: Ty, span: Span) -> V {
        let t = float_text(v, ty.elem);
        match ty.lanes {
            None => self.emit(format!("arith.constant {t} : {}", ty.mlir()), ty, span),
            Some(_) => self.emit(format!("arith.constant dense<{t}> : {}", ty.mlir()), ty, span),
        }
    }
    pub(super) fn const_bool(&mut self, b: bool, span: Span) -> V {
        self.emit(format!("arith.constant {b}"), Ty::scalar(Scalar::Bool), span)
    }
    pub(super) fn index_const(&mut self, v: i64, span: Span) -> String {
        self.emit(format!("arith.constant {v} : index"), Ty::scalar(Scalar::I64), span).s
    }
    pub(super) fn index_of(&mut self, v: &V, span: Span) -> String {
        self.emit(format!("arith.index_cast {} : {} to index", v.s, v.ty.mlir()), Ty::scalar(Scalar::I64), span).s
    }

    // ---------------------------------------------------------------------------------------
    // Names

    pub(super) fn lookup(&self, name: &str) -> Option<&Bind> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }
    pub(super) fn bind(&mut self, name: &str, b: Bind) {
        self.scopes.last_mut().expect("a scope").insert(name.to_string(), b);
    }
    /// Rebinds an existing mutable variable in the scope that declared it.
    pub(super) fn rebind(&mut self, name: &str, v: V) {
        for s in self.scopes.iter_mut().rev() {
            if let Some(Bind::Val { v: old, .. }) = s.get_mut(name) {
                *old = v;
                return;
            }
        }
    }
}
