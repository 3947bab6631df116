//! Sums and elements of runs within a thread: in-order float sums, fused multiply-add dot
//! products, `elem`, `word` and `store`.

use super::*;

impl<'a> Gen<'a> {
    /// `sum(e)` within one thread: e is elementwise over runs; the chunks reduce and add up.
    pub(super) fn thread_sum(&mut self, e: &Expr, span: Span) -> Result<Value> {
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
    pub(super) fn run_item(&mut self, r: &Run, i: u32, span: Span) -> V {
        let per = r.chunks[0].ty.lanes.unwrap_or(1);
        let c = &r.chunks[(i / per) as usize];
        if c.ty.lanes.is_none() {
            return c.clone();
        }
        self.emit(format!("vector.extract {}[{}] : {} from {}", c.s, i % per, c.ty.elem.mlir(), c.ty.mlir()), Ty::scalar(c.ty.elem), span)
    }

    /// `a[0]*b[0] + a[1]*b[1] + ...` in order, each step a fused multiply-add (or, with
    /// `--no-fma`, a multiply and an add).
    pub(super) fn dot(&mut self, a: &Run, b: &Run, span: Span) -> Result<V> {
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
    pub(super) fn sum_run(&mut self, v: Value, e: &Expr, span: Span) -> Result<Value> {
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
    pub(super) fn run_element(&mut self, which: &str, run: &Expr, i: &Expr, span: Span) -> Result<Value> {
        let k = match self.expr(i)? {
            Value::Int(k) if k >= 0 => k,
            _ => return Err(Diag::error(i.span, format!("{which}'s index must be a non-negative constant"))),
        };
        let Value::Run(r) = self.expr(run)? else {
            return Err(Diag::error(run.span, format!("{which} takes a run (x[i, k :+ n])")));
        };
        let (first, width) = if which == "word" {
            if r.chunks[0].ty.elem != Scalar::I8 {
                return Err(Diag::error(run.span, "word reads i8 runs"));
            }
            (k.saturating_mul(4), 4)
        } else {
            (k, 1)
        };
        if first.saturating_add(width) > r.len as i64 {
            return Err(Diag::error(i.span, format!("{which} {k} is past the end of a run of {}", r.len)));
        }
        // In range: a run is at most 1024 long.
        let first = first as u32;
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
    /// `store(run, k, v)`: writes element `k` of a run; `store_word(run, k, w)`: writes bytes
    /// `4k..4k+3` of an i8 run as the little-endian i32 `w` (one 4-byte vector store; the first
    /// and the last byte are bounds-checked).
    pub(super) fn store_builtin(&mut self, which: &str, args: &[Expr], span: Span) -> Result<()> {
        if args.len() != 3 {
            return Err(Diag::error(span, format!("{which} takes 3 arguments (run, index, value), got {}", args.len())));
        }
        let ExprKind::Subscript(t, idx) = &args[0].kind else {
            return Err(Diag::error(args[0].span, format!("{which}'s first argument is a run: t[i, k :+ n]")));
        };
        let k = match self.expr(&args[1])? {
            Value::Int(k) if k >= 0 => k,
            _ => return Err(Diag::error(args[1].span, format!("{which}'s index must be a non-negative constant"))),
        };
        let word = which == "store_word";
        let (first, width) = if word { (k.saturating_mul(4), 4) } else { (k, 1) };
        let Some(d) = idx.iter().position(|i| matches!(i, Index::Run { .. })) else {
            return Err(Diag::error(args[0].span, format!("{which}'s first argument is a run: t[i, k :+ n]")));
        };
        let Index::Run { start, len } = &idx[d] else { unreachable!() };
        if let Value::Int(n) = self.expr(len)? {
            if first.saturating_add(width) > n {
                return Err(Diag::error(args[1].span, format!("{which} {k} is past the end of a run of {n}")));
            }
        }
        // The element's subscripts: the run's start plus an offset along its dimension.
        let at = |g: &mut Self, off: i64| -> Result<(String, String, Scalar, Vec<String>)> {
            let mut points = idx.to_vec();
            let shifted = Expr {
                kind: ExprKind::Binary(
                    BinOp::Add,
                    Box::new(start.clone()),
                    Box::new(Expr { kind: ExprKind::Int(off), span: args[1].span }),
                ),
                span: start.span,
            };
            points[d] = Index::Point(shifted);
            g.point_address(t, &points, span)
        };
        let (mem, mty, elem, indices) = at(self, first)?;
        if !word {
            let v = self.expr(&args[2])?;
            let v = self.scalar(v, Some(elem), args[2].span)?;
            self.store_point(&mem, &mty, elem, &indices, v, span);
            return Ok(());
        }
        if elem != Scalar::I8 {
            return Err(Diag::error(args[0].span, "store_word writes i8 runs"));
        }
        if let Some(Bind::Tensor(TensorB { strides: Some(_), .. })) = self.lookup(&t.name) {
            // Four adjacent bytes: a strided twin has none to promise.
            return Err(Diag::error(args[0].span, "store_word writes four adjacent bytes; a strided view has none"));
        }
        at(self, first + 3)?; // the last byte's bounds check
        let v = self.expr(&args[2])?;
        let v = self
            .scalar(v, Some(Scalar::I32), args[2].span)
            .map_err(|e| Diag::error(args[2].span, format!("store_word writes an i32 word: {}", e.message)))?;
        let bytes = Ty::vector(Scalar::I8, 4);
        let one = self.word_vector(&v, span);
        let b = self.emit(format!("vector.bitcast {one} : vector<1xi32> to {}", bytes.mlir()), bytes, span);
        self.emit_void(format!("vector.store {}, {mem}[{}] : {mty}, {}", b.s, indices.join(", "), bytes.mlir()), span);
        Ok(())
    }

    /// An i32 as a one-element vector.
    fn word_vector(&mut self, v: &V, span: Span) -> String {
        self.emit(format!("vector.broadcast {} : i32 to vector<1xi32>", v.s), Ty::vector(Scalar::I32, 1), span).s
    }
}
