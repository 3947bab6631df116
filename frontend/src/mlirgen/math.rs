//! Math built-ins (docs/language.md, "Math"): `exp`, `log`, `sin`, ... as MLIR's `math` ops,
//! `abs` (floats and integers), `isnan`, `isinf`, `select`. They are not reserved: a `fn` of
//! the same name wins. `f16` and `bf16` arguments are computed in `f32` and rounded back; literal
//! arguments fold to a literal (computed in f64), which takes its type where it is used; a run
//! is taken element by element.

use super::*;

use phobos_math::MathFn;

/// Whether `name` is a math built-in: a function of the table (`phobos_math`), or `fma`, `abs`,
/// the predicates and `select`.
pub(super) fn is_math(name: &str) -> bool {
    MathFn::of_name(name).is_some() || matches!(name, "fma" | "abs" | "isnan" | "isinf" | "select")
}

/// `name` of literal arguments, in f64 (the simulator's values: the table's `apply`).
fn fold(name: &str, a: &[f64]) -> f64 {
    match name {
        "fma" => a[0].mul_add(a[1], a[2]),
        "abs" => a[0].abs(),
        _ => MathFn::of_name(name).expect("a math built-in").apply(a[0], a.get(1).copied().unwrap_or(0.0)),
    }
}

impl<'a> Gen<'a> {
    /// A call of the math built-in `n` (see [`is_math`]).
    pub(super) fn math_call(&mut self, n: &str, args: &[Expr], span: Span) -> Result<Value> {
        let want = match n {
            "fma" | "select" => 3,
            _ => MathFn::of_name(n).map_or(1, MathFn::arity),
        };
        if args.len() != want {
            return Err(Diag::error(span, format!("{n} takes {want} argument{}, got {}", if want == 1 { "" } else { "s" }, args.len())));
        }
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.expr(a)?);
        }
        if n == "select" {
            return self.select(vals, args, span);
        }
        // Literal arguments fold (an integer literal is a float here, except in abs).
        let lit = |v: &Value| match v {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        };
        if let Some(xs) = vals.iter().map(lit).collect::<Option<Vec<f64>>>() {
            return Ok(match (n, &vals[0]) {
                ("abs", Value::Int(i)) => Value::Int(i.checked_abs().ok_or_else(|| Diag::error(span, "integer literal overflows"))?),
                ("isnan", _) => Value::V(self.const_bool(xs[0].is_nan(), span)),
                ("isinf", _) => Value::V(self.const_bool(xs[0].is_infinite(), span)),
                _ => Value::Float(fold(n, &xs)),
            });
        }
        if let Some(Value::Run(r)) = vals.first() {
            if want != 1 {
                return Err(Diag::error(span, format!("{n} takes scalars; read run elements with elem(...)")));
            }
            let r = r.clone();
            let mut chunks = Vec::new();
            for c in r.chunks {
                chunks.push(self.elementwise(n, c, args[0].span, span)?);
            }
            return Ok(Value::Run(Run { chunks, len: r.len }));
        }
        // The arguments' type: the first typed one's; literals take it.
        let ty = vals.iter().find_map(Self::type_of).unwrap_or(Scalar::F32);
        let mut vs = Vec::new();
        for (v, a) in vals.into_iter().zip(args) {
            vs.push(self.scalar(v, Some(ty), a.span).map_err(|e| Diag::error(a.span, format!("{n}: {}", e.message)))?);
        }
        self.math_scalar(n, &vs, args[0].span, span).map(Value::V)
    }

    /// `n` of one scalar or vector value, element by element for a vector.
    fn elementwise(&mut self, n: &str, c: V, arg: Span, span: Span) -> Result<V> {
        let Some(k) = c.ty.lanes else { return self.math_scalar(n, &[c], arg, span) };
        let et = Ty::scalar(c.ty.elem);
        let mut parts = Vec::new();
        for i in 0..k {
            let e = self.emit(format!("vector.extract {}[{i}] : {} from {}", c.s, et.mlir(), c.ty.mlir()), et, span);
            parts.push(self.math_scalar(n, &[e], arg, span)?);
        }
        let rt = c.ty.with_elem(parts[0].ty.elem);
        let list = parts.iter().map(|p| p.s.as_str()).collect::<Vec<_>>().join(", ");
        Ok(self.emit(format!("vector.from_elements {list} : {}", rt.mlir()), rt, span))
    }

    /// `n` of scalars of one type.
    fn math_scalar(&mut self, n: &str, vs: &[V], arg: Span, span: Span) -> Result<V> {
        let t = vs[0].ty;
        let bool_t = Ty::scalar(Scalar::Bool);
        if n == "abs" && t.elem.is_int() {
            return Ok(self.emit(format!("math.absi {} : {}", vs[0].s, t.mlir()), t, span));
        }
        if !t.elem.is_float() {
            return Err(Diag::error(arg, format!("{n} takes a float, found {}; convert with f32(...) or f64(...)", t.elem.name())));
        }
        match n {
            "isnan" => return Ok(self.emit(format!("arith.cmpf uno, {}, {} : {}", vs[0].s, vs[0].s, t.mlir()), bool_t, span)),
            "isinf" => {
                let a = self.emit(format!("math.absf {} : {}", vs[0].s, t.mlir()), t, span);
                let inf = self.const_float(f64::INFINITY, t, span);
                return Ok(self.emit(format!("arith.cmpf oeq, {}, {} : {}", a.s, inf.s, t.mlir()), bool_t, span));
            }
            "abs" => return Ok(self.emit(format!("math.absf {} : {}", vs[0].s, t.mlir()), t, span)),
            _ => {}
        }
        let op = match n {
            "fma" => "math.fma",
            _ => MathFn::of_name(n).expect("a math built-in").op(),
        };
        // f16 is computed in f32 and rounded back, as CUDA's half functions do.
        let f32t = t.with_elem(Scalar::F32);
        let wide = matches!(t.elem, Scalar::F16 | Scalar::BF16);
        let args: Vec<String> =
            vs.iter()
                .map(|v| {
                    if wide {
                        self.emit(format!("arith.extf {} : {} to {}", v.s, t.mlir(), f32t.mlir()), f32t, span).s
                    } else {
                        v.s.clone()
                    }
                })
                .collect();
        let at = if wide { f32t } else { t };
        // Under fast math an f32 function may be the hardware's approximation.
        let afn = if self.fast_math && at.elem == Scalar::F32 && n != "fma" { " fastmath<afn>" } else { "" };
        let r = self.emit(format!("{op} {}{afn} : {}", args.join(", "), at.mlir()), at, span);
        Ok(if wide { self.emit(format!("arith.truncf {} : {} to {}", r.s, at.mlir(), t.mlir()), t, span) } else { r })
    }

    /// `select(c, a, b)`: `a` where `c` holds, else `b` (both computed).
    fn select(&mut self, vals: Vec<Value>, args: &[Expr], span: Span) -> Result<Value> {
        let mut vals = vals.into_iter();
        let (c, a, b) = (vals.next().expect("3"), vals.next().expect("3"), vals.next().expect("3"));
        let c = self
            .scalar(c, Some(Scalar::Bool), args[0].span)
            .map_err(|e| Diag::error(args[0].span, format!("select's condition: {}", e.message)))?;
        let ty = Self::type_of(&a).or(Self::type_of(&b)).unwrap_or(if matches!(a, Value::Float(_)) || matches!(b, Value::Float(_)) {
            Scalar::F32
        } else {
            Scalar::I32
        });
        let va = self.scalar(a, Some(ty), args[1].span).map_err(|e| Diag::error(args[1].span, format!("select: {}", e.message)))?;
        let vb = self.scalar(b, Some(ty), args[2].span).map_err(|e| Diag::error(args[2].span, format!("select: {}", e.message)))?;
        Ok(Value::V(self.emit(format!("arith.select {}, {}, {} : {}", c.s, va.s, vb.s, va.ty.mlir()), va.ty, span)))
    }
}
