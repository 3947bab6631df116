//! Calls: built-ins, casts, and `fn`s inlined where called (bounded in depth and size).

use super::*;

impl<'a> Gen<'a> {
    // ---------------------------------------------------------------------------------------
    // Calls

    pub(super) fn call(&mut self, f: &Ident, args: &[Expr], span: Span) -> Result<Value> {
        let n = f.name.as_str();
        let arity = |k: usize| -> Result<()> {
            if args.len() != k {
                return Err(Diag::error(span, format!("{n} takes {k} argument{}, got {}", if k == 1 { "" } else { "s" }, args.len())));
            }
            Ok(())
        };
        // `dot` is not reserved either; `#items`, `#row`, `#col` come from `for i, j in acc`.
        if n == "dot" && !self.fns.contains_key(n) {
            return self.dot_call(args, span);
        }
        // `rowmax`, `rowmin`, `rowsum` of a fragment: not reserved either.
        if matches!(n, "rowmax" | "rowmin" | "rowsum") && !self.fns.contains_key(n) {
            return self.fragment_rows(n, args, span);
        }
        if n == "trans" && !self.fns.contains_key(n) {
            return Err(Diag::error(span, "trans(Bs) is dot's second argument only: dot(As, trans(Bs), acc) multiplies by Bs transposed"));
        }
        if n.starts_with('#') {
            return self.fragment_builtin(n, args, span);
        }
        // Math built-ins are not reserved: a fn of the same name wins.
        if math::is_math(n) && !self.fns.contains_key(n) {
            return self.math_call(n, args, span);
        }
        // `bf16` came after the reserved type names: a fn of that name wins.
        if let Some(to) = Scalar::parse(n).filter(|_| !(n == "bf16" && self.fns.contains_key(n))) {
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
                let vs = self.i32_args(args, "dp4a takes i32 words")?;
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
                let vs = self.i32_args(args, "byteperm takes i32 words")?;
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
            "store" | "store_word" => Err(Diag::error(span, format!("{n}(run, i, value) is a statement; it has no value"))),
            _ if atomics::MEMORY_BUILTINS.contains(&n) => match self.memory_builtin(n, args, span)? {
                Some(v) => Ok(v),
                None => Err(Diag::error(span, format!("{n}(...) is a statement; it has no value"))),
            },
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

    /// Every argument as an `i32` value; a mismatch is "`what`: expected i32, ...".
    pub(super) fn i32_args(&mut self, args: &[Expr], what: &str) -> Result<Vec<V>> {
        let mut vs = Vec::new();
        for a in args {
            let v = self.expr(a)?;
            vs.push(self.scalar(v, Some(Scalar::I32), a.span).map_err(|e| Diag::error(a.span, format!("{what}: {}", e.message)))?);
        }
        Ok(vs)
    }

    pub(super) fn cast(&mut self, v: Value, to: Scalar, span: Span) -> Result<Value> {
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
            Value::Array(_) => Err(Diag::error(span, "a cast converts a scalar; convert a register array's items one by one")),
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
                } else if to.bits() == from.bits() {
                    // f16 <-> bf16: through f32, which holds both exactly (one rounding).
                    let f32t = v.ty.with_elem(Scalar::F32);
                    let wide = self.emit(format!("arith.extf {} : {fm} to {}", v.s, f32t.mlir()), f32t, span);
                    return Ok(Value::V(self.emit(format!("arith.truncf {} : {} to {tm}", wide.s, f32t.mlir()), rt, span)));
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
    pub(super) fn inline(&mut self, fd: &FnDef, args: &[Expr], span: Span) -> Result<Value> {
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

    pub(super) fn inline_values(&mut self, fd: &FnDef, vals: Vec<Value>, span: Span) -> Result<Value> {
        let name = &fd.name.name;
        let chain = |g: &Self| g.inline_chain.iter().map(String::as_str).chain([name.as_str()]).collect::<Vec<_>>().join(" -> ");
        if self.inline_chain.contains(name) {
            let cycle = if self.inline_chain.last() == Some(name) { String::new() } else { format!(" ({})", chain(self)) };
            return Err(Diag::error(span, format!("'{name}' calls itself{cycle}; functions cannot recurse")));
        }
        if self.inline_chain.len() >= MAX_INLINE_DEPTH {
            return Err(Diag::error(span, format!("fn calls nest deeper than {MAX_INLINE_DEPTH} levels: {}", chain(self))));
        }
        let nodes = expr_nodes(&fd.body);
        self.inlined_nodes += nodes;
        if self.inlined_nodes > MAX_INLINED_NODES {
            return Err(Diag::error(
                span,
                format!("inlining fn calls grows this kernel past {MAX_INLINED_NODES} expression nodes (at {}); call fewer functions or reuse a value with let", chain(self)),
            ));
        }
        // A body over a run works on each of its elements.
        let width = vals
            .iter()
            .map(|v| match v {
                Value::Run(r) => r.len as usize,
                Value::V(v) | Value::Array(v) => v.ty.lanes.unwrap_or(1) as usize,
                Value::Int(_) | Value::Float(_) => 1,
            })
            .max()
            .unwrap_or(1);
        self.inlined_elements = self.inlined_elements.saturating_add(nodes.saturating_mul(width));
        if self.inlined_elements > MAX_INLINED_ELEMENTS {
            return Err(Diag::error(
                span,
                format!(
                    "inlining fn calls grows this kernel past {MAX_INLINED_ELEMENTS} element operations (expression nodes times the elements of the runs they work on; at {}); call fewer functions, reuse a value with let, or use shorter runs",
                    chain(self)
                ),
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
        self.call_sites.push(span);
        let r = self.expr(&fd.body);
        self.call_sites.pop();
        self.inline_chain.pop();
        self.scopes = saved;
        r
    }
}
