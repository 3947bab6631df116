//! Register arrays and shared buffers: `var v: f32[4]`, `v[i]`, `var buf: shared<f32>[8, 64]`.
//!
//! A register array is one SSA `vector<n x T>` per thread, carried through `if` and `for` like
//! any variable; an item is read with `vector.extract` and written with `vector.insert`. Its
//! index is a constant or the variable of a `for` with constant bounds, so that every access is
//! in bounds by construction and LLVM can keep the items in registers once the loop is
//! unrolled. A shared buffer is a `tile.alloc`, placed by the shared-memory planner like a tile.

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

impl<'a> Gen<'a> {
    /// `var v: f32[4]` or `var buf: shared<f32>[8, 64]`.
    pub(super) fn buffer_stmt(&mut self, name: &Ident, elem: &TypeName, shared: bool, dims: &[(i64, Span)], span: Span) -> Result<()> {
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
        self.bind(&name.name, Bind::Val { v: zero, mutable: true, decl: name.span });
        Ok(())
    }

    /// The item `idx` of register array `name` (of `n` items) designates.
    pub(super) fn item_pos(&mut self, name: &str, n: u32, idx: &[Index], span: Span) -> Result<ItemPos> {
        let [Index::Point(e)] = idx else {
            return Err(Diag::error(span, format!("register array '{name}' takes one index: {name}[i]")));
        };
        let bad = |why: String| {
            Diag::error(e.span, format!("{why}; a register array's index is a constant or the variable of a for with constant bounds"))
        };
        match self.expr(e)? {
            Value::Int(i) if (0..n as i64).contains(&i) => Ok(ItemPos::Static(i)),
            Value::Int(i) => Err(Diag::error(e.span, format!("index {i} is out of bounds for '{name}', which holds {n} items"))),
            Value::V(v) => {
                let Some(&(a, b, step)) = self.loop_ranges.get(&v.s) else {
                    return Err(bad("this index is computed at run time".into()));
                };
                if a < b {
                    let last = a + (b - 1 - a) / step * step;
                    if a < 0 || last >= n as i64 {
                        return Err(Diag::error(
                            e.span,
                            format!("the loop runs this index from {a} to {last}, out of bounds for '{name}', which holds {n} items"),
                        ));
                    }
                }
                Ok(ItemPos::Dynamic(self.index_of(&v, e.span)))
            }
            _ => Err(bad("this index is not an integer".into())),
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
        self.rebind(name, out);
        Ok(())
    }
}
