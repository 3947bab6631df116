//! Reading a register array (`vector<n x T>`) item by item, as lowerings build it.

use phobos_ir::{Builder, Val};

/// MLIR's marker for a position given by an operand (`ShapedType::kDynamic`).
const DYNAMIC: i64 = i64::MIN;

/// `vector.extract %v[i]`, a constant position.
pub fn extract<'a>(b: Builder<'a>, v: Val<'a>, i: i64) -> Val<'a> {
    let attr = b.ctx.known_attr(&format!("array<i64: {i}>"));
    b.op_value("vector.extract", &[v], v.ty().element(), &[("static_position", attr)])
}

/// `vector.extract %v[%i]`, a position computed at run time (an `index`).
pub fn extract_at<'a>(b: Builder<'a>, v: Val<'a>, i: Val<'a>) -> Val<'a> {
    let attr = b.ctx.known_attr(&format!("array<i64: {DYNAMIC}>"));
    b.op_value("vector.extract", &[v, i], v.ty().element(), &[("static_position", attr)])
}

/// `vector.insert %x, %v[i]`, a constant position: the array with item `i` replaced.
pub fn insert<'a>(b: Builder<'a>, x: Val<'a>, v: Val<'a>, i: i64) -> Val<'a> {
    let attr = b.ctx.known_attr(&format!("array<i64: {i}>"));
    b.op_value("vector.insert", &[x, v], v.ty(), &[("static_position", attr)])
}
