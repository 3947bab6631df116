//! A recursive-descent parser. Statements need no separator; an expression does not continue
//! past a newline with a binary operator, `(` or `[` on the next line.

use crate::{
    ast::*,
    lexer::{lex, Tok, Token},
    span::{Diag, Result, Span},
};

/// Names the language reserves: built-ins, casts and keywords.
pub const RESERVED: &[&str] = &[
    "sum",
    "max",
    "min",
    "any",
    "all",
    "argmax",
    "argmin",
    "reduce",
    "scan",
    "shfl",
    "range",
    "elem",
    "store",
    "store_word",
    "word",
    "dp4a",
    "byteperm",
    "popcount",
    "i8",
    "i16",
    "i32",
    "i64",
    "f16",
    "f32",
    "f64",
    "bool",
    "let",
    "var",
    "if",
    "else",
    "for",
    "in",
    "fn",
    "kernel",
    "tensor",
    "ctx",
    "true",
    "false",
    "exchange",
    "scatter",
    "gather",
    "while",
    "break",
];

/// Atomics, ordered accesses, fences and funnel shifts: reserved like the names above.
pub const MEMORY_BUILTINS: &[&str] = &[
    "atomic_add",
    "atomic_max",
    "atomic_min",
    "atomic_exch",
    "atomic_cas",
    "load_acquire",
    "store_release",
    "fence",
    "barrier",
    "funnel_shift_left",
    "funnel_shift_right",
];

/// Whether the language reserves `name`.
pub fn reserved(name: &str) -> bool {
    RESERVED.contains(&name) || MEMORY_BUILTINS.contains(&name)
}

/// Redistributions of register arrays, which take `<layout, ...>`.
pub const EXCHANGES: &[&str] = &["exchange", "scatter", "gather"];

/// The most items a register array holds per thread.
pub const MAX_ARRAY_ITEMS: i64 = 64;

/// Collective and shuffle names, which take `<...>`.
pub const COLLECTIVES: &[&str] = &["sum", "max", "min", "any", "all", "argmax", "argmin", "reduce", "scan", "shfl"];

/// Scalar type names.
pub const TYPES: &[&str] = &crate::types::Scalar::NAMES;

/// Parses a whole file.
pub fn parse(text: &str) -> Result<File> {
    let toks = lex(text)?;
    let mut p = Parser { toks, pos: 0, depth: 0, loops: Vec::new() };
    let mut items = Vec::new();
    while !p.at_eof() {
        items.push(p.item()?);
    }
    Ok(File { items })
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: u32,
    /// The loops around the statement being parsed, innermost last: a `while`'s id, or None
    /// for a `for` (which `break` does not end).
    loops: Vec<Option<u32>>,
}

/// Nesting beyond this is an error, not a stack overflow: blocks, parentheses, call and subscript
/// arguments, unary operators and chains of binary operators all count.
pub const MAX_DEPTH: u32 = 200;

impl Parser {
    fn peek(&self) -> &Token {
        &self.toks[self.pos]
    }
    fn at_eof(&self) -> bool {
        matches!(self.peek().tok, Tok::Eof)
    }
    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }
    fn is_punct(&self, p: &str) -> bool {
        matches!(&self.peek().tok, Tok::Punct(q) if *q == p)
    }
    fn is_ident(&self, name: &str) -> bool {
        matches!(&self.peek().tok, Tok::Ident(n) if n == name)
    }
    fn describe(t: &Token) -> String {
        match &t.tok {
            Tok::Ident(n) => format!("'{n}'"),
            Tok::Int(i) => format!("'{i}'"),
            Tok::Float(f) => format!("'{f}'"),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Punct(p) => format!("'{p}'"),
            Tok::Eof => "the end of the file".into(),
        }
    }
    fn expected<T>(&self, what: &str) -> Result<T> {
        let t = self.peek();
        Err(Diag::error(t.span, format!("expected {what}, found {}", Self::describe(t))))
    }
    fn eat_punct(&mut self, p: &str) -> Result<Span> {
        if self.is_punct(p) {
            Ok(self.bump().span)
        } else {
            self.expected(&format!("'{p}'"))
        }
    }
    fn eat_keyword(&mut self, k: &str) -> Result<Span> {
        if self.is_ident(k) {
            Ok(self.bump().span)
        } else {
            self.expected(&format!("'{k}'"))
        }
    }
    fn ident(&mut self, what: &str) -> Result<Ident> {
        match &self.peek().tok {
            Tok::Ident(n) => {
                let name = n.clone();
                let span = self.bump().span;
                Ok(Ident { name, span })
            }
            _ => self.expected(what),
        }
    }
    /// A name the program binds: not a reserved word.
    fn binder(&mut self, what: &str) -> Result<Ident> {
        let id = self.ident(what)?;
        if reserved(&id.name) {
            return Err(Diag::error(id.span, format!("'{}' is reserved by the language; pick another name", id.name)));
        }
        Ok(id)
    }
    fn enter(&mut self, span: Span) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diag::error(span, format!("nesting deeper than {MAX_DEPTH} levels (blocks, parentheses, calls, subscripts, each operator of a chain and each else-if count); split it with let")));
        }
        Ok(())
    }

    fn item(&mut self) -> Result<Item> {
        let mut attrs = Vec::new();
        while self.is_punct("@") {
            attrs.push(self.attr()?);
        }
        if self.is_ident("fn") {
            if let Some(a) = attrs.first() {
                let span = attr_span(a);
                return Err(Diag::error(span, "attributes apply to kernels, not to fn"));
            }
            return self.fn_def().map(Item::Fn);
        }
        if self.is_ident("kernel") {
            return self.kernel(attrs).map(Item::Kernel);
        }
        self.expected("'kernel', 'fn' or an attribute such as @launch")
    }

    fn attr(&mut self) -> Result<Attr> {
        let at = self.eat_punct("@")?;
        let name = self.ident("an attribute name")?;
        if name.name == "fast_math" || name.name == "tf32" {
            // A flag: `@fast_math`, or `@fast_math()`.
            let mut span = at.to(name.span);
            if self.is_punct("(") {
                self.bump();
                if !self.is_punct(")") {
                    return Err(Diag::error(name.span, format!("@{} takes no arguments", name.name)));
                }
                span = at.to(self.eat_punct(")")?);
            }
            return Ok(if name.name == "tf32" { Attr::Tf32 { span } } else { Attr::FastMath { span } });
        }
        // `@pipeline` alone: the compiler chooses the stages, as `@pipeline(stages = auto)`.
        if name.name == "pipeline" && !self.is_punct("(") {
            let stages = Expr { kind: ExprKind::Name("auto".into()), span: name.span };
            return Ok(Attr::Pipeline { stages, span: at.to(name.span) });
        }
        self.eat_punct("(")?;
        let attr = match name.name.as_str() {
            "launch" => {
                let threads = self.expr()?;
                let end = self.eat_punct(")")?;
                Attr::Launch { threads, span: at.to(end) }
            }
            "aligned" => {
                let mut dims = Vec::new();
                loop {
                    let d = self.ident("a dimension name")?;
                    self.eat_punct("=")?;
                    dims.push((d, self.expr()?));
                    if !self.is_punct(",") {
                        break;
                    }
                    self.bump();
                }
                let end = self.eat_punct(")")?;
                Attr::Aligned { dims, span: at.to(end) }
            }
            "autotune" => {
                let mut dims = Vec::new();
                loop {
                    let d = self.ident("a dimension name")?;
                    self.eat_keyword("in")?;
                    self.eat_punct("[")?;
                    let mut vals = Vec::new();
                    while !self.is_punct("]") {
                        vals.push(self.expr()?);
                        if !self.is_punct(",") {
                            break;
                        }
                        self.bump();
                    }
                    let close = self.eat_punct("]")?;
                    if vals.is_empty() {
                        return Err(Diag::error(d.span.to(close), format!("@autotune lists no value for {}", d.name)));
                    }
                    dims.push((d, vals));
                    if !self.is_punct(",") {
                        break;
                    }
                    self.bump();
                }
                let end = self.eat_punct(")")?;
                Attr::Autotune { dims, span: at.to(end) }
            }
            "pipeline" => {
                let key = self.ident("'stages'")?;
                if key.name != "stages" {
                    return Err(Diag::error(key.span, format!("@pipeline takes 'stages = N', not '{}'", key.name)));
                }
                self.eat_punct("=")?;
                let stages = self.expr()?;
                let end = self.eat_punct(")")?;
                Attr::Pipeline { stages, span: at.to(end) }
            }
            other => {
                return Err(Diag::error(
                    name.span,
                    format!("unknown attribute '@{other}' (expected @launch, @aligned, @autotune, @pipeline, @fast_math or @tf32)"),
                ))
            }
        };
        Ok(attr)
    }

    fn fn_def(&mut self) -> Result<FnDef> {
        let start = self.eat_keyword("fn")?;
        let name = self.binder("a function name")?;
        self.eat_punct("(")?;
        let mut params = Vec::new();
        while !self.is_punct(")") {
            params.push(self.binder("a parameter name")?);
            if !self.is_punct(",") {
                break;
            }
            self.bump();
        }
        self.eat_punct(")")?;
        self.eat_punct("=")?;
        let body = self.expr()?;
        let span = start.to(body.span);
        Ok(FnDef { name, params, body, span })
    }

    fn kernel(&mut self, attrs: Vec<Attr>) -> Result<Kernel> {
        let start = self.eat_keyword("kernel")?;
        let name = self.binder("a kernel name")?;
        self.eat_punct("(")?;
        let mut params = Vec::new();
        while !self.is_punct(")") {
            params.push(self.param()?);
            if !self.is_punct(",") {
                break;
            }
            self.bump();
        }
        self.eat_punct(")")?;
        let body = self.block()?;
        let span = start.to(body.span);
        Ok(Kernel { name, attrs, params, body, span })
    }

    fn param(&mut self) -> Result<Param> {
        let name = self.binder("a parameter name")?;
        self.eat_punct(":")?;
        if !self.is_ident("tensor") {
            // A scalar parameter, passed by value: `eps: f32`.
            if !matches!(&self.peek().tok, Tok::Ident(n) if TYPES.contains(&n.as_str())) {
                return self.expected(&format!("'tensor<T>[dims]' or a scalar type ({})", TYPES.join(", ")));
            }
            let elem = self.type_name()?;
            return Ok(Param { span: name.span.to(elem.span), name, elem, dims: Vec::new(), scalar: true });
        }
        self.eat_keyword("tensor")?;
        self.eat_punct("<")?;
        let elem = self.type_name()?;
        self.eat_punct(">")?;
        self.eat_punct("[")?;
        let mut dims = Vec::new();
        while !self.is_punct("]") {
            if let Tok::Int(v) = self.peek().tok {
                let span = self.bump().span;
                if v <= 0 {
                    return Err(Diag::error(span, format!("a tensor dimension must be positive, got {v}")));
                }
                dims.push(DimSpec::Const(v, span));
            } else {
                dims.push(DimSpec::Name(self.binder("a dimension (a name or a positive integer)")?));
            }
            if !self.is_punct(",") {
                break;
            }
            self.bump();
        }
        let end = self.eat_punct("]")?;
        if dims.is_empty() {
            return Err(Diag::error(name.span.to(end), "a tensor needs at least one dimension"));
        }
        Ok(Param { span: name.span.to(end), name, elem, dims, scalar: false })
    }

    /// `var buf: shared<f32>[8, 64]` after the `:`.
    fn buffer(&mut self, start: Span, mutable: bool, name: Ident, shared: bool) -> Result<Stmt> {
        self.bump();
        self.eat_punct("<")?;
        let elem = self.type_name()?;
        self.eat_punct(">")?;
        if !self.is_punct("[") {
            return self.expected("'[' and the buffer's extents");
        }
        self.buffer_dims(start, mutable, name, elem, shared)
    }

    /// `for i, j in acc { ... }` after `for i`: the elements of the fragment `acc` this thread
    /// holds, `i` and `j` their row and column. Desugared to a loop over the thread's items
    /// (`#items(acc)` of them) whose body first binds `i = #row(acc, item)` and
    /// `j = #col(acc, item)`; `acc[i, j]` then names that item (names with `#` are no user's).
    fn fragment_loop(&mut self, start: Span, row: Ident) -> Result<Stmt> {
        self.bump();
        let col = self.binder("the column variable")?;
        if col.name == row.name {
            return Err(Diag::error(col.span, format!("the row and column variables are both '{}'", col.name)));
        }
        self.eat_keyword("in")?;
        let frag = self.ident("a fragment (var acc: fragment<f32>[M, N])")?;
        if let Some(v) = [&row, &col].into_iter().find(|v| v.name == frag.name) {
            return Err(Diag::error(v.span, format!("'{}' names the fragment the loop walks; pick another variable name", v.name)));
        }
        self.loops.push(None);
        let body = self.block();
        self.loops.pop();
        let body = body?;
        let span = start.to(body.span);
        let item = Ident { name: format!("#item{}", start.start), span: start };
        let call = |f: &str, args: Vec<Expr>, span: Span| Expr { kind: ExprKind::Call(Ident { name: f.into(), span }, args), span };
        let name = |id: &Ident| Expr { kind: ExprKind::Name(id.name.clone()), span: id.span };
        let bind = |id: &Ident, f: &str| Stmt::Let {
            mutable: false,
            name: id.clone(),
            ty: None,
            init: call(f, vec![name(&frag), name(&item)], id.span),
            span: id.span,
        };
        let mut stmts = vec![bind(&row, "#row"), bind(&col, "#col")];
        stmts.extend(body.stmts);
        Ok(Stmt::For {
            var: item,
            start: Expr { kind: ExprKind::Int(0), span: frag.span },
            stop: call("#items", vec![name(&frag)], frag.span),
            step: None,
            body: Block { stmts, span: body.span },
            pipeline: None,
            span,
        })
    }

    /// `var acc: fragment<f32>[M, N]` after the `:`: the extents are constant expressions.
    fn fragment(&mut self, start: Span, mutable: bool, name: Ident) -> Result<Stmt> {
        self.bump();
        self.eat_punct("<")?;
        let elem = self.type_name()?;
        self.eat_punct(">")?;
        self.eat_punct("[")?;
        let mut dims = vec![self.expr()?];
        while self.is_punct(",") {
            self.bump();
            dims.push(self.expr()?);
        }
        let end = self.eat_punct("]")?;
        let span = start.to(end);
        if !mutable {
            return Err(Diag::error(span, "a fragment is declared with var: dot accumulates into it"));
        }
        let layout = if self.is_ident("in") {
            self.bump();
            Some(self.layout_ref()?)
        } else {
            None
        };
        if self.is_punct("=") {
            return Err(Diag::error(self.peek().span, "a fragment takes no initializer: it starts at zero"));
        }
        Ok(Stmt::Fragment { name, elem, dims, layout, span })
    }

    /// The `[n, ...]` of a register array or shared buffer: positive integer literals.
    fn buffer_dims(&mut self, start: Span, mutable: bool, name: Ident, elem: TypeName, shared: bool) -> Result<Stmt> {
        let what = if shared { "a shared buffer" } else { "a register array" };
        self.eat_punct("[")?;
        let mut dims = Vec::new();
        loop {
            let Tok::Int(v) = self.peek().tok else {
                return self.expected(&format!("{what}'s extent (a positive integer)"));
            };
            let span = self.bump().span;
            if v <= 0 {
                return Err(Diag::error(span, format!("{what}'s extent must be positive, got {v}")));
            }
            dims.push((v, span));
            if !self.is_punct(",") {
                break;
            }
            self.bump();
        }
        let end = self.eat_punct("]")?;
        let span = start.to(end);
        if !mutable {
            return Err(Diag::error(span, format!("{what} is declared with var: its elements are assigned")));
        }
        if !shared {
            if dims.len() != 1 {
                return Err(Diag::error(span, format!("a register array has one extent (items per thread), got {}", dims.len())));
            }
            if dims[0].0 > MAX_ARRAY_ITEMS {
                return Err(Diag::error(
                    dims[0].1,
                    format!("a register array holds 1 to {MAX_ARRAY_ITEMS} items per thread, got {}", dims[0].0),
                ));
            }
        }
        // `in LAYOUT`: the thread/value layout a register array's items are in.
        let layout = if self.is_ident("in") {
            let at = self.bump().span;
            if shared {
                return Err(Diag::error(at, "a shared buffer has no thread/value layout; `in LAYOUT` declares a register array's"));
            }
            Some(self.layout_ref()?)
        } else {
            None
        };
        if self.is_punct("=") {
            return Err(Diag::error(self.peek().span, format!("{what} takes no initializer: it starts at zero; assign its elements")));
        }
        Ok(Stmt::Buffer { name, elem, shared, dims, layout, span })
    }

    fn type_name(&mut self) -> Result<TypeName> {
        // "i8, i16, ..., f64 or bool": every name of TYPES.
        let (last, rest) = TYPES.split_last().expect("types");
        let listed = format!("{} or {last}", rest.join(", "));
        let id = self.ident(&format!("a type ({listed})"))?;
        if !TYPES.contains(&id.name.as_str()) {
            return Err(Diag::error(id.span, format!("unknown type '{}' (expected {listed})", id.name)));
        }
        Ok(TypeName { name: id.name, span: id.span })
    }

    fn block(&mut self) -> Result<Block> {
        let open = self.eat_punct("{")?;
        self.enter(open)?;
        let mut stmts = Vec::new();
        while !self.is_punct("}") {
            if self.at_eof() {
                return Err(Diag::error(open, "this '{' is never closed"));
            }
            stmts.push(self.stmt()?);
        }
        let close = self.eat_punct("}")?;
        self.depth -= 1;
        Ok(Block { stmts, span: open.to(close) })
    }

    fn stmt(&mut self) -> Result<Stmt> {
        if self.is_ident("let") || self.is_ident("var") {
            let mutable = self.is_ident("var");
            let start = self.bump().span;
            let name = self.binder("a variable name")?;
            let ty = if self.is_punct(":") {
                self.bump();
                if self.is_ident("shared") {
                    return self.buffer(start, mutable, name, true);
                }
                if self.is_ident("fragment") {
                    return self.fragment(start, mutable, name);
                }
                let t = self.type_name()?;
                if self.is_punct("[") {
                    return self.buffer_dims(start, mutable, name, t, false);
                }
                Some(t)
            } else {
                None
            };
            self.eat_punct("=")?;
            let init = self.expr()?;
            let span = start.to(init.span);
            return Ok(Stmt::Let { mutable, name, ty, init, span });
        }
        if self.is_ident("if") {
            return self.if_stmt();
        }
        if self.is_ident("while") {
            let start = self.bump().span;
            let cond = self.expr()?;
            self.loops.push(Some(start.start));
            let body = self.block();
            self.loops.pop();
            let body = body?;
            let span = start.to(body.span);
            return Ok(Stmt::While { cond, body, id: start.start, span });
        }
        if self.is_ident("break") {
            let span = self.bump().span;
            return match self.loops.last() {
                Some(Some(id)) => Ok(Stmt::Break { id: *id, span }),
                Some(None) => Err(Diag::error(span, "break ends a while loop; a for loop runs all its iterations")),
                None => Err(Diag::error(span, "break outside a while loop")),
            };
        }
        if self.is_ident("for") {
            let start = self.bump().span;
            let var = self.binder("a loop variable")?;
            if self.is_punct(",") {
                return self.fragment_loop(start, var);
            }
            self.eat_keyword("in")?;
            self.eat_keyword("range")?;
            self.eat_punct("(")?;
            let a = self.expr()?;
            self.eat_punct(",")?;
            let b = self.expr()?;
            let step = if self.is_punct(",") {
                self.bump();
                Some(self.expr()?)
            } else {
                None
            };
            self.eat_punct(")")?;
            self.loops.push(None);
            let body = self.block();
            self.loops.pop();
            let body = body?;
            let span = start.to(body.span);
            return Ok(Stmt::For { var, start: a, stop: b, step, body, pipeline: None, span });
        }
        // `@pipeline(stages = S)` before a loop: that loop's pipeline depth.
        if self.is_punct("@") {
            let attr = self.attr()?;
            let Attr::Pipeline { stages, span } = attr else {
                return Err(Diag::error(attr_span(&attr), "only @pipeline(stages = N) goes before a statement (a for loop)"));
            };
            if !self.is_ident("for") {
                return Err(Diag::error(span, "@pipeline(stages = N) goes before a for loop"));
            }
            return match self.stmt()? {
                Stmt::For { var, start, stop, step, body, span: s, .. } if !var.name.starts_with("#item") => {
                    Ok(Stmt::For { var, start, stop, step, body, pipeline: Some(Box::new(stages)), span: s })
                }
                _ => Err(Diag::error(span, "@pipeline(stages = N) goes before a for loop over a range, not over a fragment's items")),
            };
        }
        let e = self.expr()?;
        let assign_ops: &[(&str, Option<BinOp>)] = &[
            ("=", None),
            ("+=", Some(BinOp::Add)),
            ("-=", Some(BinOp::Sub)),
            ("*=", Some(BinOp::Mul)),
            ("/=", Some(BinOp::Div)),
            ("%=", Some(BinOp::Rem)),
            ("&=", Some(BinOp::BitAnd)),
            ("|=", Some(BinOp::BitOr)),
            ("^=", Some(BinOp::BitXor)),
            ("<<=", Some(BinOp::Shl)),
            (">>=", Some(BinOp::Shr)),
        ];
        for (p, op) in assign_ops {
            if self.is_punct(p) {
                self.bump();
                if !matches!(e.kind, ExprKind::Name(_) | ExprKind::Subscript(..)) {
                    return Err(Diag::error(e.span, "only a variable or a tensor element can be assigned"));
                }
                let value = self.expr()?;
                let span = e.span.to(value.span);
                return Ok(Stmt::Assign { target: e, op: *op, value, span });
            }
        }
        Ok(Stmt::Expr(e))
    }

    fn if_stmt(&mut self) -> Result<Stmt> {
        let start = self.eat_keyword("if")?;
        let cond = self.expr()?;
        let then = self.block()?;
        let els = if self.is_ident("else") {
            self.bump();
            if self.is_ident("if") {
                // Each `else if` nests one level (an scf.if inside the else branch).
                let at = self.peek().span;
                self.enter(at)?;
                let nested = self.if_stmt();
                self.depth -= 1;
                let nested = nested?;
                let span = match &nested {
                    Stmt::If { span, .. } => *span,
                    _ => unreachable!(),
                };
                Some(Block { stmts: vec![nested], span })
            } else {
                Some(self.block()?)
            }
        } else {
            None
        };
        let end = els.as_ref().map(|b| b.span).unwrap_or(then.span);
        Ok(Stmt::If { cond, then, els, span: start.to(end) })
    }

    /// A full expression. Every nested expression (parentheses, arguments of calls and casts,
    /// subscripts, collective options) comes through here, so one depth bound covers them all.
    pub fn expr(&mut self) -> Result<Expr> {
        let at = self.peek().span;
        self.enter(at)?;
        let e = self.binary(0);
        self.depth -= 1;
        e
    }

    fn binop(&self, min_prec: u8) -> Option<(BinOp, u8)> {
        let t = self.peek();
        if t.newline_before {
            return None;
        }
        let Tok::Punct(p) = &t.tok else { return None };
        let (op, prec) = match *p {
            "||" => (BinOp::Or, 1),
            "&&" => (BinOp::And, 2),
            "==" => (BinOp::Eq, 3),
            "!=" => (BinOp::Ne, 3),
            "<" => (BinOp::Lt, 3),
            "<=" => (BinOp::Le, 3),
            ">" => (BinOp::Gt, 3),
            ">=" => (BinOp::Ge, 3),
            "|" => (BinOp::BitOr, 4),
            "^" => (BinOp::BitXor, 5),
            "&" => (BinOp::BitAnd, 6),
            "<<" => (BinOp::Shl, 7),
            ">>" => (BinOp::Shr, 7),
            "+" => (BinOp::Add, 8),
            "-" => (BinOp::Sub, 8),
            "*" => (BinOp::Mul, 9),
            "/" => (BinOp::Div, 9),
            "%" => (BinOp::Rem, 9),
            _ => return None,
        };
        (prec >= min_prec).then_some((op, prec))
    }

    fn binary(&mut self, min_prec: u8) -> Result<Expr> {
        let mut lhs = self.unary()?;
        // A chain `a + b + c ...` builds a left-deep tree: each operator adds a level, and the
        // levels stay counted until the chain ends, so the tree's height is what is bounded.
        let mut chained = 0;
        let result = loop {
            let Some((op, prec)) = self.binop(min_prec) else { break Ok(lhs) };
            let opspan = self.bump().span;
            if let Err(e) = self.enter(opspan) {
                break Err(e);
            }
            chained += 1;
            let rhs = match self.binary(prec + 1) {
                Ok(r) => r,
                Err(e) => break Err(e),
            };
            // Comparisons do not chain: `a < b < c` is an error, not (a < b) < c.
            if prec == 3 {
                if let Some((_, 3)) = self.binop(3) {
                    let t = self.peek().span;
                    break Err(Diag::error(t, "comparisons do not chain; combine them with && or ||"));
                }
            }
            let span = lhs.span.to(rhs.span);
            lhs = Expr { kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span };
        };
        self.depth -= chained;
        result
    }

    fn unary(&mut self) -> Result<Expr> {
        let op = match &self.peek().tok {
            Tok::Punct("-") => Some(UnOp::Neg),
            Tok::Punct("!") => Some(UnOp::Not),
            Tok::Punct("~") => Some(UnOp::BitNot),
            _ => None,
        };
        if let Some(op) = op {
            let start = self.bump().span;
            self.enter(start)?;
            let e = self.unary()?;
            self.depth -= 1;
            let span = start.to(e.span);
            return Ok(Expr { kind: ExprKind::Unary(op, Box::new(e)), span });
        }
        self.primary()
    }

    fn args(&mut self) -> Result<(Vec<Expr>, Span)> {
        self.eat_punct("(")?;
        let mut args = Vec::new();
        while !self.is_punct(")") {
            args.push(self.expr()?);
            if !self.is_punct(",") {
                break;
            }
            self.bump();
        }
        let end = self.eat_punct(")")?;
        Ok((args, end))
    }

    fn primary(&mut self) -> Result<Expr> {
        let t = self.peek().clone();
        match &t.tok {
            Tok::Int(v) => {
                self.bump();
                Ok(Expr { kind: ExprKind::Int(*v), span: t.span })
            }
            Tok::Float(v) => {
                self.bump();
                Ok(Expr { kind: ExprKind::Float(*v), span: t.span })
            }
            Tok::Punct("(") => {
                let open = self.bump().span;
                self.enter(open)?;
                let mut e = self.expr()?;
                self.depth -= 1;
                let close = self.eat_punct(")")?;
                e.span = open.to(close);
                Ok(e)
            }
            Tok::Ident(name) => {
                let name = name.clone();
                let id = Ident { name: name.clone(), span: self.bump().span };
                match name.as_str() {
                    "true" | "false" => return Ok(Expr { kind: ExprKind::Bool(name == "true"), span: id.span }),
                    "ctx" => {
                        let mut path = String::new();
                        let mut end = id.span;
                        while self.is_punct(".") && !self.peek().newline_before {
                            self.bump();
                            let f = self.ident("a ctx field")?;
                            if !path.is_empty() {
                                path.push('.');
                            }
                            path.push_str(&f.name);
                            end = f.span;
                        }
                        if path.is_empty() {
                            return Err(Diag::error(
                                id.span,
                                "ctx needs a field: ctx.thread, ctx.lane, ctx.lanes, ctx.warp, ctx.warps, ctx.block.x",
                            ));
                        }
                        return Ok(Expr { kind: ExprKind::Ctx(path), span: id.span.to(end) });
                    }
                    _ => {}
                }
                if COLLECTIVES.contains(&name.as_str()) && self.is_punct("<") && !self.peek().newline_before {
                    return self.collective(id);
                }
                if EXCHANGES.contains(&name.as_str()) && self.is_punct("<") && !self.peek().newline_before {
                    return self.exchange(id);
                }
                if self.is_punct("(") && !self.peek().newline_before {
                    let (args, end) = self.args()?;
                    let span = id.span.to(end);
                    return Ok(Expr { kind: ExprKind::Call(id, args), span });
                }
                if self.is_punct("[") && !self.peek().newline_before {
                    let read = self.subscript(id)?;
                    // `X[i] else v`: binds tighter than any binary operator; `v` is a unary
                    // expression on the subscript's line.
                    if self.is_ident("else") && !self.peek().newline_before {
                        let at = self.bump().span;
                        self.enter(at)?;
                        let fill = self.unary()?;
                        self.depth -= 1;
                        let span = read.span.to(fill.span);
                        return Ok(Expr { kind: ExprKind::Masked { read: Box::new(read), fill: Box::new(fill) }, span });
                    }
                    return Ok(read);
                }
                Ok(Expr { kind: ExprKind::Name(name), span: id.span })
            }
            _ => self.expected("an expression"),
        }
    }

    /// `<item, item, ...>`: `item` parses one entry, seeing those before it.
    fn angle_list<T>(&mut self, mut item: impl FnMut(&mut Self, &[T]) -> Result<T>) -> Result<Vec<T>> {
        self.eat_punct("<")?;
        let mut out = Vec::new();
        loop {
            let x = item(self, &out)?;
            out.push(x);
            if !self.is_punct(",") {
                break;
            }
            self.bump();
        }
        self.eat_punct(">")?;
        Ok(out)
    }

    fn collective(&mut self, op: Ident) -> Result<Expr> {
        let config = self.angle_list(|p, config: &[Config]| {
            let key = p.ident("a configuration (over, width, exclusive, from, xor, down or up)")?;
            if !["over", "width", "exclusive", "from", "xor", "down", "up"].contains(&key.name.as_str()) {
                return Err(Diag::error(
                    key.span,
                    format!("unknown configuration '{}' (expected over, width, exclusive, from, xor, down or up)", key.name),
                ));
            }
            if let Some(first) = config.iter().find(|c| c.key.name == key.name) {
                return Err(Diag::error(key.span, format!("'{}' is given twice", key.name)).note(first.key.span, "first given here"));
            }
            // Parsed above the comparisons, so that '>' closes the brackets.
            p.enter(key.span)?;
            let value = p.binary(4)?;
            p.depth -= 1;
            Ok(Config { key, value })
        })?;
        let (args, end) = self.args()?;
        let span = op.span.to(end);
        Ok(Expr { kind: ExprKind::Collective { op, config, args }, span })
    }

    /// A thread/value layout: a name (`blocked`) or a quoted layout (`"(128,4):(4,1)"`).
    fn layout_ref(&mut self) -> Result<LayoutRef> {
        let t = self.peek().clone();
        match t.tok {
            Tok::Str(s) => {
                self.bump();
                Ok(LayoutRef::Quoted(s, t.span))
            }
            Tok::Ident(_) => Ok(LayoutRef::Named(self.ident("a layout")?)),
            _ => self.expected("a layout (blocked, striped, warp_striped or a quoted layout such as \"(128,4):(4,1)\")"),
        }
    }

    /// `exchange<A, B>(v)`, `scatter<B>(v, ranks)`, `gather<A>(v, ranks)`.
    fn exchange(&mut self, op: Ident) -> Result<Expr> {
        let layouts = self.angle_list(|p, _: &[LayoutRef]| p.layout_ref())?;
        let (args, end) = self.args()?;
        let span = op.span.to(end);
        Ok(Expr { kind: ExprKind::Exchange { op, layouts, args }, span })
    }

    fn subscript(&mut self, name: Ident) -> Result<Expr> {
        self.eat_punct("[")?;
        let mut idx = Vec::new();
        loop {
            if self.is_punct(":") {
                idx.push(Index::Full(self.bump().span));
            } else {
                let start = self.expr()?;
                if self.is_punct(":+") {
                    self.bump();
                    let len = self.expr()?;
                    idx.push(Index::Run { start, len });
                } else {
                    idx.push(Index::Point(start));
                }
            }
            if !self.is_punct(",") {
                break;
            }
            self.bump();
        }
        let end = self.eat_punct("]")?;
        let span = name.span.to(end);
        Ok(Expr { kind: ExprKind::Subscript(name, idx), span })
    }
}

/// Where an attribute is written.
fn attr_span(a: &Attr) -> Span {
    match a {
        Attr::Launch { span, .. }
        | Attr::Aligned { span, .. }
        | Attr::Autotune { span, .. }
        | Attr::FastMath { span }
        | Attr::Tf32 { span }
        | Attr::Pipeline { span, .. } => *span,
    }
}
