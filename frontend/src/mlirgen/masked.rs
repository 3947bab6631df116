//! Reads with a fill value: `X[r, j] else v`, `X[r, j :+ 4] else v`. Each element outside the
//! tensor (or tile) reads `v` instead, with no fault and no branch: a `vector.maskedload` whose
//! mask is the subscripts' range checks, `v` its pass-through. The simulator reads only the
//! elements inside; `lower-masked-loads` makes the PTX read clamped indices and select.

use super::*;

impl<'a> Gen<'a> {
    pub(super) fn masked_read(&mut self, t: &Ident, idx: &[Index], fill: &Expr, span: Span) -> Result<Value> {
        // The memory: a tensor (a 1-D memref indexed linearly) or a tile (indexed per dimension).
        let (mem, mty, elem, tensor, dims) = match self.lookup(&t.name).cloned() {
            Some(Bind::Tensor(tb)) => {
                let dims = tb.dims.iter().map(|d| self.dim_index(d, span)).collect::<Vec<_>>();
                (tb.mem.clone(), tb.mty.clone(), tb.elem, Some(tb), dims)
            }
            Some(Bind::Tile(tile)) => {
                let dims = tile.shape.iter().map(|d| self.index_const(*d, span)).collect::<Vec<_>>();
                (tile.mem.clone(), tile.mty.clone(), tile.elem, None, dims)
            }
            Some(Bind::Val { v, .. }) if v.ty.lanes.is_some() => {
                return Err(Diag::error(
                    span,
                    format!("'{}' is a register array: its items are always there, so 'else' has nothing to fill", t.name),
                ))
            }
            _ => return Err(Diag::error(t.span, format!("'{}' is not a tensor or a tile; 'else' fills a read of one", t.name))),
        };
        if idx.len() != dims.len() {
            return Err(Diag::error(span, format!("'{}' has {} dimensions, indexed with {}", t.name, dims.len(), idx.len())));
        }
        if let Some(Index::Full(s)) = idx.iter().find(|i| matches!(i, Index::Full(_))) {
            return Err(Diag::error(*s, "':' (a whole dimension) makes a tile copy; 'else' fills a point read or a run here"));
        }
        let runs: Vec<usize> = idx.iter().enumerate().filter(|(_, i)| matches!(i, Index::Run { .. })).map(|(k, _)| k).collect();
        if runs.len() > 1 {
            return Err(Diag::error(span, "a thread's run spans one dimension (one ':+'); a tile copy spans several"));
        }
        let (run_dim, n) = match runs.first() {
            Some(d) => {
                let Index::Run { len, .. } = &idx[*d] else { unreachable!("a run") };
                match self.expr(len)? {
                    Value::Int(n) if (1..=1024).contains(&n) => (*d, n as u32),
                    Value::Int(n) => return Err(Diag::error(len.span, format!("a run's length must be from 1 to 1024, got {n}"))),
                    _ => return Err(Diag::error(len.span, "a run's length must be a compile-time constant")),
                }
            }
            None => (idx.len() - 1, 1),
        };
        // The subscripts and the fill, evaluated unconditionally.
        let mut indices = Vec::new();
        for i in idx {
            let e = match i {
                Index::Point(e) | Index::Run { start: e, .. } => e,
                Index::Full(_) => unreachable!("refused above"),
            };
            indices.push(self.index_value(e)?);
        }
        let fv = self.expr(fill)?;
        let fv = self.scalar(fv, Some(elem), fill.span).map_err(|e| {
            Diag::error(fill.span, format!("the fill value must be {} like the elements of '{}': {}", elem.name(), t.name, e.message))
        })?;
        // In range along every dimension but the run's (an index below 0 is a huge unsigned one).
        let mut inside: Option<String> = None;
        for (d, i) in indices.iter().enumerate() {
            if d != run_dim {
                let ok = self.emit(format!("arith.cmpi ult, {i}, {} : index", dims[d]), Ty::scalar(Scalar::Bool), span);
                inside = Some(self.and_bool(inside, ok.s, span));
            }
        }
        let mem_elem = if elem == Scalar::Bool { Scalar::I8 } else { elem };
        let fill_mem = if elem == Scalar::Bool {
            self.emit(format!("arith.extui {} : i1 to i8", fv.s), Ty::scalar(Scalar::I8), span).s
        } else {
            fv.s.clone()
        };
        // Elements are adjacent in memory along the last dimension; along another, one at a time.
        let contiguous = run_dim + 1 == dims.len() && tensor.as_ref().is_none_or(|tb| tb.strides.is_none());
        let per_chunk = if contiguous { (16 / mem_elem.bytes()).max(1) } else { 1 };
        let start = tensor.as_ref().map(|tb| self.linearize(tb, &indices, span));
        let stride = match &tensor {
            Some(tb) if !contiguous => self.stride(tb, run_dim, span),
            _ => None,
        };
        let mut chunks = Vec::new();
        let mut off = 0;
        while off < n {
            let c = per_chunk.min(n - off);
            let mut bits = Vec::new();
            for k in off..off + c {
                let at = self.advance(&indices[run_dim], k as i64, None, span);
                let ok = self.emit(format!("arith.cmpi ult, {at}, {} : index", dims[run_dim]), Ty::scalar(Scalar::Bool), span);
                bits.push(self.and_bool(inside.clone(), ok.s, span));
            }
            let mask_ty = Ty::vector(Scalar::Bool, c);
            let mask = self.emit(format!("vector.from_elements {} : {}", bits.join(", "), mask_ty.mlir()), mask_ty, span);
            let vty = Ty::vector(mem_elem, c);
            let pass = self.emit(format!("vector.broadcast {fill_mem} : {} to {}", mem_elem.mlir(), vty.mlir()), vty, span);
            let at: Vec<String> = match &start {
                Some(lin) => vec![self.advance(lin, off as i64, stride.as_deref(), span)],
                None => {
                    let mut v = indices.clone();
                    v[run_dim] = self.advance(&indices[run_dim], off as i64, None, span);
                    v
                }
            };
            let chunk = self.emit(
                format!(
                    "vector.maskedload {mem}[{}], {}, {} : {mty}, {}, {} into {}",
                    at.join(", "),
                    mask.s,
                    pass.s,
                    mask_ty.mlir(),
                    vty.mlir(),
                    vty.mlir()
                ),
                vty,
                span,
            );
            let chunk = self.chunk_value(chunk, elem, span);
            chunks.push(chunk);
            off += c;
        }
        if runs.is_empty() {
            let one = chunks.pop().expect("one chunk");
            return Ok(Value::V(self.emit(
                format!("vector.extract {}[0] : {} from {}", one.s, elem.mlir(), one.ty.mlir()),
                Ty::scalar(elem),
                span,
            )));
        }
        Ok(Value::Run(Run { chunks, len: n }))
    }

    /// `i + k` (index values), `k` scaled by `stride` when given.
    fn advance(&mut self, i: &str, k: i64, stride: Option<&str>, span: Span) -> String {
        if k == 0 {
            return i.to_string();
        }
        let kc = self.index_const(k, span);
        let step = match stride {
            Some(s) => self.emit(format!("arith.muli {kc}, {s} : index"), Ty::scalar(Scalar::I64), span).s,
            None => kc,
        };
        self.emit(format!("arith.addi {i}, {step} : index"), Ty::scalar(Scalar::I64), span).s
    }

    /// `a && b` of i1 values (`b` alone when there is no `a`).
    fn and_bool(&mut self, a: Option<String>, b: String, span: Span) -> String {
        match a {
            None => b,
            Some(a) => self.emit(format!("arith.andi {a}, {b} : i1"), Ty::scalar(Scalar::Bool), span).s,
        }
    }
}
