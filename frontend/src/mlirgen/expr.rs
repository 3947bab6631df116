//! Expressions: names, `ctx`, unary and binary operators (constant folding, short-circuit
//! logic), arithmetic on scalars and runs.

use super::*;

impl<'a> Gen<'a> {
    // ---------------------------------------------------------------------------------------
    // Expressions

    pub(super) fn expr(&mut self, e: &Expr) -> Result<Value> {
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

    pub(super) fn expr_node(&mut self, e: &Expr) -> Result<Value> {
        match &e.kind {
            ExprKind::Int(v) => Ok(Value::Int(*v)),
            ExprKind::Float(v) => Ok(Value::Float(*v)),
            ExprKind::Bool(b) => Ok(Value::V(self.const_bool(*b, e.span))),
            ExprKind::Name(n) => match self.lookup(n) {
                Some(Bind::Val { v, .. }) if v.ty.lanes.is_some() => Ok(Value::Array(v.clone())),
                Some(Bind::Val { v, .. }) => Ok(Value::V(v.clone())),
                Some(Bind::Lit(l)) => Ok(l.clone()),
                Some(Bind::Dim(Dim::Const(c))) => Ok(Value::Int(*c)),
                Some(Bind::Dim(Dim::Arg(s, _))) => Ok(Value::V(V { s: s.clone(), ty: Ty::scalar(Scalar::I32) })),
                Some(Bind::Tensor(_)) => Err(Diag::error(e.span, format!("'{n}' is a tensor; index it: {n}[i, j]"))),
                Some(Bind::Tile(_)) => Err(Diag::error(e.span, format!("'{n}' is a shared tile; index it: {n}[i, j]"))),
                None if self.fns.contains_key(n) => {
                    Err(Diag::error(e.span, format!("'{n}' is a function; call it ({n}(...)) or pass it to reduce")))
                }
                // Not reserved: a name the program binds wins.
                None if n == "inf" => Ok(Value::Float(f64::INFINITY)),
                None if n == "nan" => Ok(Value::Float(f64::NAN)),
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
            ExprKind::Subscript(t, idx) => match self.lookup(&t.name) {
                Some(Bind::Val { v, .. }) if v.ty.lanes.is_some() => {
                    let v = v.clone();
                    self.array_read(&t.name, &v, idx, e.span)
                }
                _ => self.subscript(t, idx, e.span),
            },
            ExprKind::Exchange { op, layouts, args } => self.exchange_expr(op, layouts, args, e.span),
            ExprKind::Masked { read, fill } => {
                let ExprKind::Subscript(t, idx) = &read.kind else { unreachable!("the parser makes a subscript") };
                self.masked_read(t, idx, fill, e.span)
            }
        }
    }

    pub(super) fn ctx(&mut self, path: &str, span: Span) -> Result<Value> {
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

    pub(super) fn unary(&mut self, op: UnOp, v: Value, span: Span) -> Result<Value> {
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
    pub(super) fn may_fault(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Subscript(..) | ExprKind::Collective { .. } | ExprKind::Exchange { .. } => true,
            // The read itself cannot fault; its subscripts and fill may.
            ExprKind::Masked { read, fill } => {
                let ExprKind::Subscript(_, idx) = &read.kind else { return true };
                Self::may_fault(fill)
                    || idx.iter().any(|i| match i {
                        Index::Point(p) => Self::may_fault(p),
                        Index::Run { start, len } => Self::may_fault(start) || Self::may_fault(len),
                        Index::Full(_) => false,
                    })
            }
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
    pub(super) fn logical(&mut self, e: &Expr) -> Result<Value> {
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

    pub(super) fn fold(op: BinOp, a: &Value, b: &Value) -> Option<Value> {
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

    pub(super) fn binary_values(&mut self, op: BinOp, a: Value, b: Value, span: Span) -> Result<Value> {
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
        let known = (ty.is_int()).then(|| (self.index_expr(&a), self.index_expr(&b)));
        let va = self.as_ty(a, Ty::scalar(ty), span)?;
        let vb = self.as_ty(b, Ty::scalar(ty), span)?;
        let out = self.arith(op, &va, &vb, span)?;
        if let Some((Some(x), Some(y))) = known {
            if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem) {
                self.index_exprs.insert(out.s.clone(), array::IdxExpr::Bin(op, Box::new(x), Box::new(y)));
            }
        }
        Ok(Value::V(out))
    }

    pub(super) fn binary_runs(&mut self, op: BinOp, a: Value, b: Value, span: Span) -> Result<Value> {
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
    pub(super) fn arith(&mut self, op: BinOp, a: &V, b: &V, span: Span) -> Result<V> {
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
        // Float products and sums may contract into fused multiply-adds (`contract-fma`
        // decides), unless --no-fma.
        let flags = if self.fma && matches!(name, "arith.addf" | "arith.subf" | "arith.mulf") { " fastmath<contract>" } else { "" };
        Ok(self.emit(format!("{name} {}, {}{flags} : {}", a.s, b.s, t.mlir()), rty, span))
    }
}
