//! The `tile` dialect: the Rust half of its verification.

use crate::ops::{PhobosOp, TileOp};
use phobos_ir::{diag::Diagnostic, Op};

/// The name a tile or shared buffer goes by (in the shared-memory plan, the lowered view's
/// `phobos.name`, messages): its source name, else `tile` or `buffer`.
pub fn buffer_name(op: Op) -> String {
    op.str_attr("name").unwrap_or_else(|| if op.is("tile.alloc") { "buffer" } else { "tile" }.into())
}

/// The tile's extents (`shape` attribute). Call after [`verify`].
pub fn shape(op: Op) -> Vec<i64> {
    op.attr("shape").and_then(|a| a.dense_ints()).unwrap_or_default()
}

/// A `tile.copy`'s fill value (what elements outside the tensor hold), when it has one: its bits
/// as an `index`, zero-extended.
pub fn fill<'a>(op: Op<'a>) -> Option<phobos_ir::Val<'a>> {
    let rank = shape(op).len();
    (op.num_operands() == 2 + 2 * rank).then(|| op.operand(1 + 2 * rank))
}

pub fn verify(op: Op) -> Result<(), Diagnostic> {
    match PhobosOp::of(op) {
        Some(PhobosOp::Tile(TileOp::Alloc)) => verify_alloc(op),
        Some(PhobosOp::Tile(TileOp::Copy)) => verify_copy(op),
        _ => Ok(()),
    }
}

fn verify_copy(op: Op) -> Result<(), Diagnostic> {
    let Some(shape) = op.attr("shape").and_then(|a| a.dense_ints()) else {
        return Err(Diagnostic::op_error(op, "shape must be an array<i64: ...>"));
    };
    if shape.is_empty() || shape.iter().any(|e| *e <= 0) {
        return Err(Diagnostic::op_error(op, format!("shape must list positive extents, got {shape:?}")));
    }
    let rank = shape.len();
    if op.num_operands() != 1 + 2 * rank && op.num_operands() != 2 + 2 * rank {
        return Err(Diagnostic::op_error(
            op,
            format!(
                "takes the source, then a start and a size per dimension: {} operands for rank {rank}, got {} (or one more: a fill value)",
                1 + 2 * rank,
                op.num_operands()
            ),
        ));
    }
    let src = op.operand(0).ty();
    if src.shape().len() != 1 {
        return Err(Diagnostic::op_error(op, format!("the source must be a 1-D memref (the tensor's buffer), got {src}")));
    }
    let res = op.result(0).ty();
    let want: Vec<Option<i64>> = shape.iter().map(|e| Some(*e)).collect();
    if res.shape() != want {
        return Err(Diagnostic::op_error(op, format!("the result's shape must be the tile's {shape:?}, got {res}")));
    }
    if res.element() != src.element() {
        return Err(Diagnostic::op_error(
            op,
            format!("the tile's element type {} differs from the source's {}", res.element(), src.element()),
        ));
    }
    if res.memory_space() != 3 {
        return Err(Diagnostic::op_error(op, format!("the tile must live in workgroup memory, got {res}")));
    }
    Ok(())
}

fn verify_alloc(op: Op) -> Result<(), Diagnostic> {
    let Some(shape) = op.attr("shape").and_then(|a| a.dense_ints()) else {
        return Err(Diagnostic::op_error(op, "shape must be an array<i64: ...>"));
    };
    if shape.is_empty() || shape.iter().any(|e| *e <= 0) {
        return Err(Diagnostic::op_error(op, format!("shape must list positive extents, got {shape:?}")));
    }
    let res = op.result(0).ty();
    let want: Vec<Option<i64>> = shape.iter().map(|e| Some(*e)).collect();
    if res.shape() != want || res.memory_space() != 3 {
        return Err(Diagnostic::op_error(op, format!("the buffer must be a workgroup memref of the shape {shape:?}, got {res}")));
    }
    Ok(())
}

/// Typed builders.
pub mod build {
    use phobos_ir::{Builder, Ty, Val};

    /// `tile.copy`: the box `start_d :+ shape_d` of the row-major tensor `source` (a 1-D memref)
    /// whose sizes are `sizes`, into a new shared-memory tile of `shape` (`starts`, then `sizes`:
    /// one `index` per dimension each). Elements outside the tensor are not read; they are zero.
    pub fn copy<'a>(b: Builder<'a>, source: Val<'a>, starts: &[Val<'a>], sizes: &[Val<'a>], shape: &[i64]) -> Val<'a> {
        copy_with(b, source, starts, sizes, shape, None)
    }

    fn copy_with<'a>(
        b: Builder<'a>,
        source: Val<'a>,
        starts: &[Val<'a>],
        sizes: &[Val<'a>],
        shape: &[i64],
        fill: Option<Val<'a>>,
    ) -> Val<'a> {
        let ctx = b.ctx;
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        let mty = ctx.known_type(&format!("memref<{}x{}, #gpu.address_space<workgroup>>", dims.join("x"), source.ty().element()));
        let shape_attr = ctx.known_attr(&format!("array<i64: {}>", dims.join(", ")));
        let mut ops = vec![source];
        ops.extend_from_slice(starts);
        ops.extend_from_slice(sizes);
        ops.extend(fill);
        b.op_value("tile.copy", &ops, mty, &[("shape", shape_attr)])
    }

    /// [`copy`] whose elements outside the tensor hold `fill` (of the tensor's element type,
    /// the same in every thread) instead of zero.
    pub fn copy_fill<'a>(b: Builder<'a>, source: Val<'a>, starts: &[Val<'a>], sizes: &[Val<'a>], shape: &[i64], fill: Val<'a>) -> Val<'a> {
        let ty = fill.ty();
        let bits = ty.scalar().map(|s| s.bits()).unwrap_or(32);
        let int = if ty.is_float() { b.cast("arith.bitcast", fill, b.ctx.i(bits)) } else { fill };
        let index = b.cast("arith.index_castui", int, b.ctx.index());
        copy_with(b, source, starts, sizes, shape, Some(index))
    }

    /// `tile.alloc`: a shared-memory buffer of `shape` elements of `elem`, named for errors.
    pub fn alloc<'a>(b: Builder<'a>, name: &str, elem: Ty<'a>, shape: &[i64]) -> Val<'a> {
        let ctx = b.ctx;
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        let mty = ctx.known_type(&format!("memref<{}x{elem}, #gpu.address_space<workgroup>>", dims.join("x")));
        let shape_attr = ctx.known_attr(&format!("array<i64: {}>", dims.join(", ")));
        b.op_value("tile.alloc", &[], mty, &[("name", ctx.str_attr(name)), ("shape", shape_attr)])
    }
}
