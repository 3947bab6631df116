//! Register arrays and shared buffers: `var v: f32[4]`, `v[i]`, `var buf: shared<f32>[8, 64]`.
//!
//! A register array is one SSA `vector<n x T>` per thread, carried through `if` and `for` like
//! any variable; an item is read with `vector.extract` and written with `vector.insert`. Its
//! index is a constant once the enclosing `for`s with constant bounds are unrolled: a
//! constant, such a loop's variable, or integer arithmetic on those (`acc[i * 4 + j]`,
//! `v[(i + 1) % n]`), checked in bounds for every iteration at compile time, so that LLVM
//! keeps the items in registers once it unrolls the loops. A shared buffer is a `tile.alloc`, placed by the shared-memory planner like a tile.

use super::*;

/// Where an item of a register array is: a constant, or an index value in bounds.
pub(super) enum ItemPos {
    Static(i64),
    Dynamic(String),
}

impl ItemPos {
    /// The position as it is written between `[` and `]` in `vector.extract`/`vector.insert`.
    fn text(&self) -> String {
        match self {
            ItemPos::Static(i) => i.to_string(),
            ItemPos::Dynamic(s) => s.clone(),
        }
    }
}

/// An integer computed from constants and the variables of constant-bounds `for`s.
#[derive(Clone, Debug)]
pub(super) enum IdxExpr {
    Const(i64),
    /// A loop variable, by SSA name (its range is in `Gen::loop_ranges`).
    Iv(String),
    Bin(BinOp, Box<IdxExpr>, Box<IdxExpr>),
}

/// Iteration combinations checked one by one; past this, bounds come from intervals.
const MAX_CHECKED_ITERATIONS: usize = 1 << 16;

impl IdxExpr {
    fn ivs(&self, out: &mut Vec<String>) {
        match self {
            IdxExpr::Const(_) => {}
            IdxExpr::Iv(s) => {
                if !out.contains(s) {
                    out.push(s.clone())
                }
            }
            IdxExpr::Bin(_, a, b) => {
                a.ivs(out);
                b.ivs(out);
            }
        }
    }
    /// The value for the loop variables' values `env` (None on a division by zero or an
    /// overflow of i32, as the kernel computes it).
    fn eval(&self, env: &[(String, i64)]) -> Option<i64> {
        let v = match self {
            IdxExpr::Const(c) => *c,
            IdxExpr::Iv(s) => env.iter().find(|(n, _)| n == s)?.1,
            IdxExpr::Bin(op, a, b) => {
                let (x, y) = (a.eval(env)? as i32, b.eval(env)? as i32);
                (match op {
                    BinOp::Add => x.checked_add(y),
                    BinOp::Sub => x.checked_sub(y),
                    BinOp::Mul => x.checked_mul(y),
                    BinOp::Div => x.checked_div(y),
                    BinOp::Rem => x.checked_rem(y),
                    _ => None,
                })? as i64
            }
        };
        Some(v)
    }
    /// Bounds [lo, hi] from the loop variables' ranges (additions, subtractions,
    /// multiplications, and / or % by a positive constant, truncating as the kernel does; None
    /// for other operations).
    fn interval(&self, ranges: &HashMap<String, (i64, i64, i64)>) -> Option<(i64, i64)> {
        Some(match self {
            IdxExpr::Const(c) => (*c, *c),
            IdxExpr::Iv(s) => {
                let &(a, b, step) = ranges.get(s)?;
                (a, a + (b - 1 - a) / step * step)
            }
            IdxExpr::Bin(op, a, b) => {
                let ((a0, a1), (b0, b1)) = (a.interval(ranges)?, b.interval(ranges)?);
                match op {
                    BinOp::Add => (a0 + b0, a1 + b1),
                    BinOp::Sub => (a0 - b1, a1 - b0),
                    BinOp::Mul => {
                        let p = [a0 * b0, a0 * b1, a1 * b0, a1 * b1];
                        (*p.iter().min()?, *p.iter().max()?)
                    }
                    // Truncating division by c > 0 is monotone.
                    BinOp::Div if b0 == b1 && b0 > 0 => (a0 / b0, a1 / b0),
                    // x % c keeps x's sign and stays within c - 1 of 0.
                    BinOp::Rem if b0 == b1 && b0 > 0 => ((a0.max(-(b0 - 1))).min(0), a1.clamp(0, b0 - 1)),
                    _ => return None,
                }
            }
        })
    }
}

impl<'a> Gen<'a> {
    /// The index expression a value is, if it is built from constants and constant-bounds
    /// loop variables alone.
    pub(super) fn index_expr(&self, v: &Value) -> Option<IdxExpr> {
        match v {
            Value::Int(c) => Some(IdxExpr::Const(*c)),
            Value::V(v) if v.ty.lanes.is_none() => {
                if self.loop_ranges.contains_key(&v.s) {
                    Some(IdxExpr::Iv(v.s.clone()))
                } else {
                    self.index_exprs.get(&v.s).cloned()
                }
            }
            _ => None,
        }
    }

    /// The first name in `e` whose value varies at run time (not a constant and not a
    /// constant-bounds loop's variable, or computed from one): what makes an index dynamic.
    fn varying_name(&mut self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Name(n) => match self.lookup(n) {
                Some(Bind::Val { v, .. }) => {
                    let v = v.clone();
                    self.index_expr(&Value::V(v)).is_none().then(|| format!("'{n}'"))
                }
                _ => None,
            },
            ExprKind::Ctx(path) => (!matches!(path.as_str(), "lanes" | "warps" | "threads")).then(|| format!("ctx.{path}")),
            ExprKind::Unary(_, x) => self.varying_name(x),
            ExprKind::Binary(_, a, b) => self.varying_name(a).or_else(|| self.varying_name(b)),
            ExprKind::Subscript(t, _) => Some(format!("'{}[...]' (memory)", t.name)),
            ExprKind::Masked { read, .. } => self.varying_name(read),
            ExprKind::Call(f, args) => args.iter().find_map(|a| self.varying_name(a)).or_else(|| Some(format!("'{}(...)'", f.name))),
            _ => None,
        }
    }

    /// `var v: f32[4]` or `var buf: shared<f32>[8, 64]`.
    pub(super) fn buffer_stmt(
        &mut self,
        name: &Ident,
        elem: &TypeName,
        shared: bool,
        dims: &[(i64, Span)],
        layout: Option<&LayoutRef>,
        span: Span,
    ) -> Result<()> {
        self.check_shadow(name)?;
        let elem = Scalar::parse(&elem.name).expect("parser checked");
        if shared {
            let shape: Vec<i64> = dims.iter().map(|d| d.0).collect();
            let bytes = shape.iter().try_fold(elem.bytes() as i64, |a, d| a.checked_mul(*d));
            if bytes.is_none_or(|b| b > 1 << 30) {
                return Err(Diag::error(span, "a shared buffer this large cannot fit any chip's shared memory"));
            }
            let shape_txt: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
            let mty = format!("memref<{}x{}, #gpu.address_space<workgroup>>", shape_txt.join("x"), elem.mem());
            let v = self.emit(
                format!(
                    "\"tile.alloc\"() {{name = \"{}\", shape = array<i64: {}>}} : () -> {mty}",
                    escape(&name.name),
                    shape_txt.join(", ")
                ),
                Ty::scalar(elem),
                span,
            );
            self.bind(&name.name, Bind::Tile(TileB { mem: v.s, mty, elem, shape }));
            return Ok(());
        }
        let ty = Ty::vector(elem, dims[0].0 as u32);
        let zero = match elem {
            Scalar::Bool => self.emit(format!("arith.constant dense<false> : {}", ty.mlir()), ty, span),
            s if s.is_float() => self.const_float(0.0, ty, span),
            _ => self.const_int(0, ty, span),
        };
        if let Some(l) = layout {
            let known = self.array_layout(l, dims[0].0, l.span())?;
            self.array_layouts.insert(zero.s.clone(), known.clone());
            self.declared_layouts.insert(name.span, super::exchange::ArrayLayout { declared: true, ..known });
        }
        self.bind(&name.name, Bind::Val { v: zero, mutable: true, decl: name.span });
        Ok(())
    }

    /// The item `idx` of register array `name` (of `n` items) designates.
    pub(super) fn item_pos(&mut self, name: &str, n: u32, idx: &[Index], span: Span) -> Result<ItemPos> {
        if idx.len() != 1 {
            if let Some(item) = self.fragment_item(name, idx, span)? {
                return Ok(ItemPos::Dynamic(item));
            }
        }
        let [Index::Point(e)] = idx else {
            return Err(Diag::error(span, format!("register array '{name}' takes one index: {name}[i]")));
        };
        let bad = |why: String| {
            Diag::error(
                e.span,
                format!("{why}; a register array's index is a constant once the for loops with constant bounds around it are unrolled"),
            )
        };
        match self.expr(e)? {
            Value::Int(i) if (0..n as i64).contains(&i) => Ok(ItemPos::Static(i)),
            Value::Int(i) => Err(Diag::error(e.span, format!("index {i} is out of bounds for '{name}', which holds {n} items"))),
            Value::V(v) => {
                if let Some(&(a, b, step)) = self.loop_ranges.get(&v.s) {
                    if a < b {
                        let last = a + (b - 1 - a) / step * step;
                        if a < 0 || last >= n as i64 {
                            return Err(Diag::error(
                                e.span,
                                format!("the loop runs this index from {a} to {last}, out of bounds for '{name}', which holds {n} items"),
                            ));
                        }
                    }
                    return Ok(ItemPos::Dynamic(self.index_of(&v, e.span)));
                }
                let Some(expr) = self.index_exprs.get(&v.s).cloned() else {
                    let why = match self.varying_name(e) {
                        Some(var) => format!("this index is computed at run time: {var} varies"),
                        None => "this index is computed at run time".into(),
                    };
                    return Err(bad(why));
                };
                self.check_every_iteration(&expr, name, n, e.span)?;
                Ok(ItemPos::Dynamic(self.index_of(&v, e.span)))
            }
            _ => Err(bad("this index is not an integer".into())),
        }
    }

    /// Checks that `expr` is in [0, n) for every iteration of the loops whose variables it
    /// reads: one by one up to [`MAX_CHECKED_ITERATIONS`] combinations, else by intervals.
    fn check_every_iteration(&self, expr: &IdxExpr, name: &str, n: u32, span: Span) -> Result<()> {
        let mut ivs = Vec::new();
        expr.ivs(&mut ivs);
        let ranges: Vec<Vec<i64>> = ivs
            .iter()
            .map(|iv| {
                let &(a, b, step) = self.loop_ranges.get(iv).expect("a loop variable");
                (a..b).step_by(step.max(1) as usize).take(MAX_CHECKED_ITERATIONS + 1).collect()
            })
            .collect();
        let combos = ranges.iter().try_fold(1usize, |acc, r| acc.checked_mul(r.len())).filter(|c| *c <= MAX_CHECKED_ITERATIONS);
        let out_of_bounds =
            |v: i64| Diag::error(span, format!("this index reaches {v}, out of bounds for '{name}', which holds {n} items"));
        match combos {
            Some(0) => Ok(()),
            Some(count) => {
                for k in 0..count {
                    let mut rest = k;
                    let env: Vec<(String, i64)> = ivs
                        .iter()
                        .zip(&ranges)
                        .map(|(iv, r)| {
                            let v = r[rest % r.len()];
                            rest /= r.len();
                            (iv.clone(), v)
                        })
                        .collect();
                    match expr.eval(&env) {
                        Some(v) if (0..n as i64).contains(&v) => {}
                        Some(v) => return Err(out_of_bounds(v)),
                        None => {
                            return Err(Diag::error(span, "this index divides by zero or overflows i32 in some iteration of its loops"))
                        }
                    }
                }
                Ok(())
            }
            None => match expr.interval(&self.loop_ranges) {
                Some((lo, _)) if lo < 0 => Err(out_of_bounds(lo)),
                Some((_, hi)) if hi >= n as i64 => Err(out_of_bounds(hi)),
                Some(_) => Ok(()),
                None => Err(Diag::error(
                    span,
                    format!(
                        "this index's loops run more than {MAX_CHECKED_ITERATIONS} iterations together, too many to check one by one, and it divides by something other than a positive constant, so its bounds are not known"
                    ),
                )),
            },
        }
    }

    /// `v[i]` of a register array.
    pub(super) fn array_read(&mut self, name: &str, v: &V, idx: &[Index], span: Span) -> Result<Value> {
        let n = v.ty.lanes.expect("an array");
        let pos = self.item_pos(name, n, idx, span)?;
        let elem = Ty::scalar(v.ty.elem);
        Ok(Value::V(self.emit(format!("vector.extract {}[{}] : {} from {}", v.s, pos.text(), elem.mlir(), v.ty.mlir()), elem, span)))
    }

    /// `v[i] = e` or `v[i] op= e` of a register array.
    pub(super) fn array_assign(&mut self, name: &str, idx: &[Index], op: Option<BinOp>, value: &Expr, span: Span) -> Result<()> {
        let cur = match self.lookup(name) {
            Some(Bind::Val { v, .. }) => v.clone(),
            _ => unreachable!("checked by the caller"),
        };
        let n = cur.ty.lanes.expect("an array");
        let pos = self.item_pos(name, n, idx, span)?;
        let elem = Ty::scalar(cur.ty.elem);
        let rhs = self.expr(value)?;
        let new = match op {
            None => rhs,
            Some(op) => {
                let old =
                    self.emit(format!("vector.extract {}[{}] : {} from {}", cur.s, pos.text(), elem.mlir(), cur.ty.mlir()), elem, span);
                self.binary_values(op, Value::V(old), rhs, span)?
            }
        };
        let x = self.scalar(new, Some(cur.ty.elem), value.span)?;
        let out =
            self.emit(format!("vector.insert {}, {}[{}] : {} into {}", x.s, cur.s, pos.text(), elem.mlir(), cur.ty.mlir()), cur.ty, span);
        // Writing an item keeps the positions the items stand for.
        if let Some(l) = self.array_layouts.get(&cur.s).cloned() {
            self.array_layouts.insert(out.s.clone(), l);
        }
        self.rebind(name, out);
        Ok(())
    }
}
