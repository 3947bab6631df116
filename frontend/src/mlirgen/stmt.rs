//! Statements and scopes: lets, assignments, `if` and `for` with the variables they carry as
//! `scf` results and iteration arguments.

use super::*;

impl<'a> Gen<'a> {
    // ---------------------------------------------------------------------------------------
    // Statements

    pub(super) fn block(&mut self, b: &Block) -> Result<()> {
        self.stmts(&b.stmts, b.span)
    }

    /// Statements in order; after one that may `break` the innermost `while`, the rest run
    /// only when it did not.
    fn stmts(&mut self, ss: &[Stmt], span: Span) -> Result<()> {
        for (k, s) in ss.iter().enumerate() {
            self.stmt(s)?;
            let Some(&id) = self.whiles.last() else { continue };
            if k + 1 < ss.len() && breaks(s, id) {
                let rest = Block { stmts: ss[k + 1..].to_vec(), span };
                let not_broken = Expr { kind: ExprKind::Unary(UnOp::Not, Box::new(break_flag(id, span))), span };
                return self.if_stmt(&not_broken, &rest, None, span);
            }
        }
        Ok(())
    }

    pub(super) fn stmt(&mut self, s: &Stmt) -> Result<()> {
        match s {
            Stmt::Let { mutable, name, ty, init, span } => self.let_stmt(*mutable, name, ty.as_ref(), init, *span),
            Stmt::Assign { target, op, value, span } => self.assign(target, *op, value, *span),
            Stmt::Buffer { name, elem, shared, dims, layout, span } => self.buffer_stmt(name, elem, *shared, dims, layout.as_ref(), *span),
            Stmt::Fragment { name, elem, dims, layout, span } => self.fragment_stmt(name, elem, dims, layout.as_ref(), *span),
            Stmt::If { cond, then, els, span } => self.if_stmt(cond, then, els.as_ref(), *span),
            Stmt::For { var, start, stop, step, body, pipeline, span } => {
                self.for_stmt(var, (start, stop, step.as_ref()), body, pipeline.as_deref(), *span)
            }
            Stmt::While { cond, body, id, span } => self.while_stmt(cond, body, *id, *span),
            Stmt::Break { id, span } => {
                let t = self.const_bool(true, *span);
                self.rebind(&break_name(*id), t);
                Ok(())
            }
            Stmt::Expr(e) => {
                if let ExprKind::Call(f, args) = &e.kind {
                    if f.name == "store" || f.name == "store_word" {
                        return self.store_builtin(&f.name, args, e.span);
                    }
                    // An atomic's old value may be dropped; fence and store_release have none.
                    if atomics::MEMORY_BUILTINS.contains(&f.name.as_str()) && !f.name.starts_with("funnel") && f.name != "load_acquire" {
                        return self.memory_builtin(&f.name, args, e.span).map(|_| ());
                    }
                }
                Err(Diag::error(e.span, "this expression does nothing; assign it (let x = ...) or store it (t[i] = ...)"))
            }
        }
    }

    pub(super) fn check_shadow(&self, name: &Ident) -> Result<()> {
        if let Some(Bind::Tensor(_) | Bind::Dim(_) | Bind::Tile(_)) = self.lookup(&name.name) {
            return Err(Diag::error(name.span, format!("'{}' is already a tensor, tile or dimension name", name.name)));
        }
        if self.fns.contains_key(&name.name) {
            return Err(Diag::error(name.span, format!("'{}' is already a function name", name.name)));
        }
        Ok(())
    }

    pub(super) fn let_stmt(&mut self, mutable: bool, name: &Ident, ty: Option<&TypeName>, init: &Expr, span: Span) -> Result<()> {
        self.check_shadow(name)?;
        // A subscript with a run or ':' as a variable's initializer is a tile copy.
        // `var xs = x[a :+ m, :]`, and with a fill value for the elements outside: `... else v`.
        let (read, fill) = match &init.kind {
            ExprKind::Masked { read, fill } => (&**read, Some(&**fill)),
            _ => (init, None),
        };
        if let ExprKind::Subscript(t, idx) = &read.kind {
            if idx.iter().any(|i| !matches!(i, Index::Point(_))) {
                if ty.is_some() {
                    return Err(Diag::error(span, "a tile copy takes no type annotation"));
                }
                let tile = self.tile_copy(t, idx, init.span, &name.name, fill)?;
                self.bind(&name.name, Bind::Tile(tile));
                return Ok(());
            }
        }
        let val = self.expr(init)?;
        let want = ty.map(|t| Scalar::parse(&t.name).expect("parser checked"));
        if let Value::Array(v) = val {
            if let Some(t) = ty {
                return Err(Diag::error(t.span, "a register array takes no type annotation here; its type is the exchange's"));
            }
            self.bind(&name.name, Bind::Val { v, mutable, decl: name.span });
            return Ok(());
        }
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
        self.name_value(&v.s, &name.name);
        self.bind(&name.name, Bind::Val { v, mutable, decl: name.span });
        Ok(())
    }

    pub(super) fn assign(&mut self, target: &Expr, op: Option<BinOp>, value: &Expr, span: Span) -> Result<()> {
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
                if let Some(n_items) = cur.ty.lanes {
                    // A register array is replaced whole by an array of its type (an exchange's
                    // result), or assigned item by item.
                    return match (op, rhs) {
                        (None, Value::Array(a)) if a.ty == cur.ty => {
                            // A var declared `in L` holds its items in L after every assignment.
                            if let Some(d) = self.declared_layouts.get(&decl).cloned() {
                                match self.array_layouts.get(&a.s) {
                                    Some(got) if got.values != d.values => {
                                        let mut e = Diag::error(
                                            value.span,
                                            format!("'{n}' is declared in layout {}; this array is in layout {}", d.shown, got.shown),
                                        );
                                        if got.origin != value.span {
                                            e = e.note(got.origin, format!("{} made here", got.shown));
                                        }
                                        return Err(e.note(decl, "declared here"));
                                    }
                                    _ => {
                                        self.array_layouts.insert(a.s.clone(), d);
                                    }
                                }
                            }
                            self.rebind(n, a);
                            Ok(())
                        }
                        (None, Value::Array(a)) => Err(Diag::error(
                            value.span,
                            format!(
                                "'{n}' is {}[{n_items}]; this is {}[{}]",
                                cur.ty.elem.name(),
                                a.ty.elem.name(),
                                a.ty.lanes.unwrap_or(1)
                            ),
                        )
                        .note(decl, "declared here")),
                        _ => Err(Diag::error(
                            target.span,
                            format!("'{n}' is a register array: assign its items (`{n}[i] = ...`) or a whole array of its type"),
                        )
                        .note(decl, "declared here")),
                    };
                }
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
            ExprKind::Subscript(t, idx) if matches!(self.lookup(&t.name), Some(Bind::Val { v, .. }) if v.ty.lanes.is_some()) => {
                match self.lookup(&t.name) {
                    Some(Bind::Val { mutable: false, decl, .. }) => {
                        let decl = *decl;
                        Err(Diag::error(t.span, format!("'{}' is a let; declare it with var to assign its items", t.name))
                            .note(decl, "declared here"))
                    }
                    _ => self.array_assign(&t.name, idx, op, value, span),
                }
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
    pub(super) fn assigned_outside(b: &Block) -> Vec<String> {
        fn walk(b: &Block, declared: &mut Vec<HashSet<String>>, out: &mut Vec<String>) {
            declared.push(HashSet::new());
            for s in &b.stmts {
                match s {
                    Stmt::Let { name, .. } | Stmt::Buffer { name, .. } | Stmt::Fragment { name, .. } => {
                        declared.last_mut().expect("pushed").insert(name.name.clone());
                    }
                    Stmt::Assign {
                        target: Expr { kind: ExprKind::Name(n) | ExprKind::Subscript(Ident { name: n, .. }, _), .. }, ..
                    } if !declared.iter().any(|d| d.contains(n)) && !out.contains(n) => {
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
                    Stmt::While { body, id, .. } => {
                        // A nested while's break flag is its own, declared by it.
                        let mut d = HashSet::new();
                        d.insert(break_name(*id));
                        declared.push(d);
                        walk(body, declared, out);
                        declared.pop();
                    }
                    Stmt::Break { id, .. } => {
                        let n = break_name(*id);
                        if !declared.iter().any(|d| d.contains(&n)) && !out.contains(&n) {
                            out.push(n);
                        }
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
    pub(super) fn carried(&self, names: &[String]) -> Vec<(String, V)> {
        names
            .iter()
            .filter_map(|n| match self.lookup(n) {
                Some(Bind::Val { v, mutable: true, .. }) => Some((n.clone(), v.clone())),
                _ => None,
            })
            .collect()
    }

    pub(super) fn results(name: &str, n: usize) -> Vec<String> {
        if n == 1 {
            vec![name.to_string()]
        } else {
            (0..n).map(|i| format!("{name}#{i}")).collect()
        }
    }

    pub(super) fn if_stmt(&mut self, cond: &Expr, then: &Block, els: Option<&Block>, span: Span) -> Result<()> {
        let c = self.expr(cond)?;
        let c = self
            .scalar(c, Some(Scalar::Bool), cond.span)
            .map_err(|_| Diag::error(cond.span, "an if condition must be a bool (a comparison such as x < n)".to_string()))?;
        self.name_expr(&c.s, cond);
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

    pub(super) fn for_stmt(
        &mut self,
        var: &Ident,
        (start, stop, step): (&Expr, &Expr, Option<&Expr>),
        body: &Block,
        pipeline: Option<&Expr>,
        span: Span,
    ) -> Result<()> {
        self.check_shadow(var)?;
        // `@pipeline(stages = S)` on the loop, else the kernel's.
        let stages = match pipeline {
            Some(e) if super::is_auto(e) && self.lookup("auto").is_none() => super::AUTO_STAGES,
            Some(e) => match self.expr(e)? {
                Value::Int(s) => super::stages_in_range(s, e.span, "")?,
                _ => return Err(Diag::error(e.span, format!("{} must be an integer constant", super::PIPELINE_STAGES))),
            },
            None => self.pipeline,
        };
        let i32t = Some(Scalar::I32);
        let a = self.expr(start)?;
        let const_a = if let Value::Int(c) = a { Some(c) } else { None };
        let a = self.scalar(a, i32t, start.span).map_err(|e| Diag::error(start.span, format!("range bounds are i32: {}", e.message)))?;
        self.name_expr(&a.s, start);
        let b = self.expr(stop)?;
        let const_b = if let Value::Int(c) = b { Some(c) } else { None };
        let b = self.scalar(b, i32t, stop.span).map_err(|e| Diag::error(stop.span, format!("range bounds are i32: {}", e.message)))?;
        self.name_expr(&b.s, stop);
        let mut const_step = Some(1);
        let st = match step {
            Some(s) => {
                let v = self.expr(s)?;
                const_step = if let Value::Int(c) = v { Some(c) } else { None };
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
        if let (Some(a), Some(b), Some(s)) = (const_a, const_b, const_step) {
            self.loop_ranges.insert(iv.clone(), (a, b, s));
        }
        let iter_names: Vec<String> = vars.iter().map(|_| self.fresh()).collect();
        let (lines, vals) = self.region(|g| {
            g.bind(&var.name, Bind::Val { v: V { s: iv.clone(), ty: Ty::scalar(Scalar::I32) }, mutable: false, decl: var.span });
            for ((n, v), s) in vars.iter().zip(&iter_names) {
                g.rebind(n, V { s: s.clone(), ty: v.ty });
            }
            g.block(body)?;
            Ok(g.carried(&names))
        })?;
        // A loop over a fragment's items (`for i, j in acc`) is unrolled whatever its size:
        // the accumulator must stay in registers.
        // `@pipeline(stages = S)`: `tile-pipeline` pipelines the loops that copy tiles.
        let loc = if var.name.starts_with("#item") {
            format!("{{phobos.unroll}} {}", self.loc(span))
        } else if stages > 1 || stages == super::AUTO_STAGES {
            format!("{{phobos.pipeline = {stages} : i64}} {}", self.loc(span))
        } else {
            self.loc(span)
        };
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
}

/// The hidden variable that says a `while` was broken out of.
pub(super) fn break_name(id: u32) -> String {
    format!("#break{id}")
}

pub(super) fn break_flag(id: u32, span: Span) -> Expr {
    Expr { kind: ExprKind::Name(break_name(id)), span }
}

/// Does `s` contain a `break` of the `while` `id`?
pub(super) fn breaks(s: &Stmt, id: u32) -> bool {
    let any = |b: &Block| b.stmts.iter().any(|s| breaks(s, id));
    match s {
        Stmt::Break { id: i, .. } => *i == id,
        Stmt::If { then, els, .. } => any(then) || els.as_ref().is_some_and(any),
        Stmt::For { body, .. } | Stmt::While { body, .. } => any(body),
        _ => false,
    }
}
