//! Tensors and tiles indexed: addresses, subscript bounds checks, point loads and stores, and
//! runs read as vector loads.

use super::*;

impl<'a> Gen<'a> {
    // ---------------------------------------------------------------------------------------
    // Tensors, runs and tiles

    /// (memref, memref type, element type, indices) of a point subscript.
    pub(super) fn point_address(&mut self, t: &Ident, idx: &[Index], span: Span) -> Result<(String, String, Scalar, Vec<String>)> {
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
                let idxs = self.tile_indices(&tile, &points, t, None)?;
                Ok((tile.mem.clone(), tile.mty.clone(), tile.elem, idxs))
            }
            _ => Err(Diag::error(t.span, format!("'{}' is not a tensor or a tile", t.name))),
        }
    }

    /// The indices of a tile or shared buffer, each checked against its extent (for a run of
    /// `n` along `run`'s dimension, its end too): on the simulator, stripped before LLVM.
    pub(super) fn tile_indices(&mut self, tile: &TileB, points: &[&Expr], t: &Ident, run: Option<(usize, u32)>) -> Result<Vec<String>> {
        if points.len() != tile.shape.len() {
            return Err(Diag::error(
                t.span,
                format!("tile '{}' has {} dimensions, indexed with {}", t.name, tile.shape.len(), points.len()),
            ));
        }
        let mut out = Vec::new();
        for (d, p) in points.iter().enumerate() {
            let v = self.expr(p)?;
            let v =
                self.scalar(v, Some(Scalar::I32), p.span).map_err(|e| Diag::error(p.span, format!("indices are i32: {}", e.message)))?;
            let i = self.index_of(&v, p.span);
            let dim = self.index_const(tile.shape[d], p.span);
            self.bounds_check(
                &t.name,
                d,
                &i,
                &dim,
                &tile.shape[d].to_string(),
                p.span,
                run.filter(|(rd, _)| *rd == d).map(|(_, n)| n),
                p.span,
            );
            out.push(i);
        }
        Ok(out)
    }

    /// The row-major linear index (index type) of `name[points]`; `run` is the dimension of a
    /// run and its length, its point the run's start. Each subscript is checked against its
    /// dimension by a `cf.assert` marked `phobos.bounds`: the simulator runs it (a fault naming
    /// the subscript), `strip-bounds-checks` removes it before LLVM, so the PTX pays nothing.
    pub(super) fn linear(&mut self, name: &str, t: &TensorB, points: &[&Expr], run: Option<(usize, u32)>, span: Span) -> Result<String> {
        if points.len() != t.dims.len() {
            return Err(Diag::error(
                span,
                format!("tensor has {} dimensions ({}), indexed with {}", t.dims.len(), t.names.join(", "), points.len()),
            ));
        }
        let mut acc = None;
        for (d, p) in points.iter().enumerate() {
            let i = self.index_value(p)?;
            let dim = self.dim_index(&t.dims[d], span);
            self.bounds_check(name, d, &i, &dim, &t.names[d], p.span, run.filter(|(rd, _)| *rd == d).map(|(_, n)| n), span);
            acc = Some(self.linear_term(acc, t, d, &i, span));
        }
        Ok(acc.expect("at least one dimension"))
    }

    /// A subscript's value as an `index` (it must be an `i32`).
    pub(super) fn index_value(&mut self, p: &Expr) -> Result<String> {
        let v = self.expr(p)?;
        let v = self.scalar(v, Some(Scalar::I32), p.span).map_err(|e| Diag::error(p.span, format!("indices are i32: {}", e.message)))?;
        Ok(self.index_of(&v, p.span))
    }

    /// A tensor dimension's size as an `index` value.
    pub(super) fn dim_index(&mut self, d: &Dim, span: Span) -> String {
        match d {
            Dim::Const(c) => self.index_const(*c, span),
            Dim::Arg(_, idx) => idx.clone(),
        }
    }

    /// The row-major linear index of `indices` (one per dimension of `t`).
    pub(super) fn linearize(&mut self, t: &TensorB, indices: &[String], span: Span) -> String {
        let mut acc = None;
        for (d, i) in indices.iter().enumerate() {
            acc = Some(self.linear_term(acc, t, d, i, span));
        }
        acc.expect("at least one dimension")
    }

    /// `acc + i * stride(d)` (the first term alone when there is no `acc`).
    fn linear_term(&mut self, acc: Option<String>, t: &TensorB, d: usize, i: &str, span: Span) -> String {
        let term = match self.stride(t, d, span) {
            None => i.to_string(),
            Some(s) => self.emit(format!("arith.muli {i}, {s} : index"), Ty::scalar(Scalar::I64), span).s,
        };
        match acc {
            None => term,
            Some(a) => self.emit(format!("arith.addi {a}, {term} : index"), Ty::scalar(Scalar::I64), span).s,
        }
    }

    /// Asserts `0 <= i < dim` for subscript `d` of `name` (`dim` an index value, `dim_text` how
    /// the message names it); for a run of `n`: `i + n <= dim` too.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn bounds_check(
        &mut self,
        name: &str,
        d: usize,
        i: &str,
        dim: &str,
        dim_text: &str,
        at: Span,
        run: Option<u32>,
        span: Span,
    ) {
        let text: String =
            self.src.text.get(at.start as usize..at.end as usize).unwrap_or("?").split_whitespace().collect::<Vec<_>>().join(" ");
        let what = format!("{name}: subscript {d} ({text}) is outside [0, {dim_text})");
        let ok = self.emit(format!("arith.cmpi ult, {i}, {dim} : index"), Ty::scalar(Scalar::Bool), at);
        self.emit_void(format!("cf.assert {}, \"{}\" {{phobos.bounds}}", ok.s, escape(&what)), at);
        if let Some(n) = run {
            let len = self.index_const(n as i64, span);
            let end = self.emit(format!("arith.addi {i}, {len} : index"), Ty::scalar(Scalar::I64), at);
            let ok = self.emit(format!("arith.cmpi ule, {}, {dim} : index", end.s), Ty::scalar(Scalar::Bool), at);
            let what = format!("{name}: the run {text} :+ {n} leaves [0, {dim_text}) in dimension {d}");
            self.emit_void(format!("cf.assert {}, \"{}\" {{phobos.bounds}}", ok.s, escape(&what)), at);
        }
    }

    /// The element stride of dimension `d` (index SSA): a launch argument in a strided twin;
    /// else row-major, None when it is 1.
    pub(super) fn stride(&mut self, t: &TensorB, d: usize, span: Span) -> Option<String> {
        if let Some(s) = &t.strides {
            return Some(s[d].clone());
        }
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

    pub(super) fn load_point(&mut self, mem: &str, mty: &str, elem: Scalar, idx: &[String], span: Span) -> V {
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

    pub(super) fn store_point(&mut self, mem: &str, mty: &str, elem: Scalar, idx: &[String], v: V, span: Span) {
        let v = if elem == Scalar::Bool { self.emit(format!("arith.extui {} : i1 to i8", v.s), Ty::scalar(Scalar::I8), span) } else { v };
        self.emit_void(format!("memref.store {}, {mem}[{}] : {mty}", v.s, idx.join(", ")), span);
    }

    pub(super) fn subscript(&mut self, t: &Ident, idx: &[Index], span: Span) -> Result<Value> {
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
                // The last dimension of a row-major tensor is contiguous: vector loads.
                let stride = if d + 1 == tb.dims.len() && tb.strides.is_none() { None } else { self.stride(&tb, d, span) };
                self.read_run(&tb.mem, &tb.mty, tb.elem, vec![lin], 0, stride, n, span)
            }
            Some(Bind::Tile(tile)) => {
                let idxs = self.tile_indices(&tile, &points, t, Some((d, n)))?;
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
    pub(super) fn read_run(
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
            let chunk = self.chunk_value(chunk, elem, span);
            chunks.push(chunk);
            off += c;
        }
        Ok(Value::Run(Run { chunks, len: n }))
    }

    /// A chunk of a run as the language holds it: bytes of a `bool` run become `i1`s.
    pub(super) fn chunk_value(&mut self, chunk: V, elem: Scalar, span: Span) -> V {
        if elem != Scalar::Bool {
            return chunk;
        }
        let vty = chunk.ty;
        let z = self.const_int(0, vty, span);
        let c = vty.lanes.unwrap_or(1);
        self.emit(format!("arith.cmpi ne, {}, {} : {}", chunk.s, z.s, vty.mlir()), Ty::vector(Scalar::Bool, c), span)
    }
}
