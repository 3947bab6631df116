//! Tile copies: `var t = x[i :+ m, :]` (`... else v`: `v` outside the tensor, else zero) as a
//! `tile.copy` into shared memory.

use super::*;

impl<'a> Gen<'a> {
    /// `var xs = x[0 :+ 1, :]`: a CTA-cooperative copy into shared memory (`tile.copy`).
    pub(super) fn tile_copy(&mut self, t: &Ident, idx: &[Index], span: Span, var: &str, fill: Option<&Expr>) -> Result<TileB> {
        let Some(Bind::Tensor(tb)) = self.lookup(&t.name).cloned() else {
            return Err(Diag::error(t.span, format!("'{}' is not a tensor; a tile copies from a tensor", t.name)));
        };
        if tb.strides.is_some() {
            // `tile.copy` reads row-major tensors: a kernel with one has no strided twin.
            return Err(Diag::error(span, format!("a tile copy reads '{}' row-major; a strided view has no tile copy", t.name)));
        }
        if idx.len() != tb.dims.len() {
            return Err(Diag::error(
                span,
                format!("tensor has {} dimensions ({}), indexed with {}", tb.dims.len(), tb.names.join(", "), idx.len()),
            ));
        }
        let mut starts = Vec::new();
        let mut shape = Vec::new();
        for (d, i) in idx.iter().enumerate() {
            let (start, extent) = match i {
                Index::Point(e) => (Some(e), Ok(1)),
                Index::Run { start, len } => (
                    Some(start),
                    match self.expr(len)? {
                        Value::Int(n) => Ok(n),
                        _ => Err(len.span),
                    },
                ),
                Index::Full(s) => (
                    None,
                    match &tb.dims[d] {
                        Dim::Const(c) => Ok(*c),
                        Dim::Arg(..) => Err(*s),
                    },
                ),
            };
            let extent = extent.map_err(|s| {
                Diag::error(
                    s,
                    format!(
                        "a tile's extents must be compile-time constants; {} is bound at launch (fix it with @autotune or -D)",
                        tb.names[d]
                    ),
                )
            })?;
            if extent <= 0 {
                return Err(Diag::error(span, format!("a tile's extents must be positive, got {extent}")));
            }
            shape.push(extent);
            starts.push(match start {
                Some(e) => {
                    let v = self.expr(e)?;
                    let v = self.scalar(v, Some(Scalar::I32), e.span)?;
                    self.index_of(&v, e.span)
                }
                None => self.index_const(0, span),
            });
        }
        let dims: Vec<String> = tb
            .dims
            .iter()
            .map(|d| match d {
                Dim::Const(c) => self.index_const(*c, span),
                Dim::Arg(_, idx) => idx.clone(),
            })
            .collect();
        let elem = tb.elem;
        let shape_txt: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
        let mty = format!("memref<{}x{}, #gpu.address_space<workgroup>>", shape_txt.join("x"), elem.mem());
        let mut operands: Vec<String> = std::iter::once(tb.mem.clone()).chain(starts).chain(dims).collect();
        let mut types: Vec<String> = std::iter::once(tb.mty.clone()).chain((0..2 * shape.len()).map(|_| "index".to_string())).collect();
        if let Some(fill) = fill {
            // Evaluated once; a bool tile holds bytes.
            let v = self.expr(fill)?;
            let v = self.scalar(v, Some(elem), fill.span).map_err(|e| {
                Diag::error(fill.span, format!("the fill value must be {} like the elements of '{}': {}", elem.name(), t.name, e.message))
            })?;
            // The op takes the fill's bits as an index (docs in the tile dialect's IRDL).
            let bits = match elem {
                Scalar::Bool => self.emit(format!("arith.extui {} : i1 to i8", v.s), Ty::scalar(Scalar::I8), fill.span),
                Scalar::F16 | Scalar::BF16 => {
                    self.emit(format!("arith.bitcast {} : {} to i16", v.s, elem.mlir()), Ty::scalar(Scalar::I16), fill.span)
                }
                Scalar::F32 => self.emit(format!("arith.bitcast {} : f32 to i32", v.s), Ty::scalar(Scalar::I32), fill.span),
                Scalar::F64 => self.emit(format!("arith.bitcast {} : f64 to i64", v.s), Ty::scalar(Scalar::I64), fill.span),
                _ => v,
            };
            let bits =
                self.emit(format!("arith.index_castui {} : {} to index", bits.s, bits.ty.mlir()), Ty::scalar(Scalar::I64), fill.span);
            operands.push(bits.s);
            types.push("index".to_string());
        }
        let v = self.emit(
            format!(
                "\"tile.copy\"({}) {{name = \"{var}\", shape = array<i64: {}>}} : ({}) -> {mty}",
                operands.join(", "),
                shape_txt.join(", "),
                types.join(", ")
            ),
            Ty::scalar(elem),
            span,
        );
        Ok(TileB { mem: v.s, mty, elem, shape })
    }
}
