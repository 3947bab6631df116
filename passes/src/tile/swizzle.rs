//! `tile-swizzle`: stores the tiles that tensor cores read under an XOR swizzle, so that
//! neither their copy nor `ldmatrix` has bank conflicts.
//!
//! A `tile.copy` whose every user is a `tile.dot` gets `swizzle = array<i64: B, M, S>` (CuTe's
//! `Swizzle<B, M, S>` on the tile's row-major element offsets: for 16-bit tiles, which
//! `ldmatrix` reads, `phobos_layout::mma::ldmatrix_swizzle`; for f32 and i8 tiles, read element
//! by element as one operand, the candidate with the fewest conflicts of those reads and the
//! copy, `element_swizzle`), and each such dot `swizzle_a`/`swizzle_b` for the operand it fills; the copy's and the dot's lowerings apply it to every address. A swizzle
//! moves whole 16-byte chunks, so the copy's vector stores stay whole. Tiles that other ops
//! read keep the row-major order those reads assume. A remark states each choice and the
//! `ldmatrix` conflicts it removes (the bank model of `phobos_layout::banks`).

use crate::external::PassCx;
use crate::registry::PassInfo;
use phobos_ir::{
    diag::{Diagnostic, Severity},
    Op,
};
use phobos_layout::mma::{element_conflicts, element_swizzle, ldmatrix_conflicts, ldmatrix_swizzle};

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    for copy in module.walk().into_iter().filter(|o| o.is("tile.copy")) {
        let tile = copy.result(0);
        let users = tile.users();
        if users.is_empty() || users.iter().any(|u| !u.is("tile.dot")) || copy.attr("swizzle").is_some() {
            continue;
        }
        let ty = tile.ty();
        let shape = phobos_dialects::tile::shape(copy);
        let ebytes = ty.element().scalar().map(|s| s.bits().div_ceil(8) as i64).unwrap_or(4);
        let [rows, cols] = shape[..] else { continue };
        // ldmatrix reads 16-bit tiles; 32- and 8-bit ones (tf32, s8) are read element by element,
        // as the A or the B operand: the swizzle is searched for those reads.
        // A transposed B (`transpose_b`: N x K) is read with A's pattern.
        let as_a = users.iter().any(|u| u.operand(0) == tile || (u.operand(1) == tile && u.attr("transpose_b").is_some()));
        let as_b = users.iter().any(|u| u.operand(1) == tile && u.attr("transpose_b").is_none());
        let element = match ebytes {
            4 => Some(8),
            1 => Some(32),
            _ => None,
        };
        let (sw, reader) = match element {
            None => match ldmatrix_swizzle(cols, ebytes) {
                Some(sw) => (sw, "ldmatrix reads"),
                None => continue,
            },
            Some(_) if as_a == as_b => continue,
            Some(k) => match element_swizzle(if as_a { 'a' } else { 'b' }, k, rows, cols, ebytes) {
                Some(sw) => (sw, "element-wise operand reads see"),
                None => continue,
            },
        };
        // The swizzle permutes offsets within blocks of 2^(B + M + S): the tile must hold whole ones.
        if (rows * cols) % (1 << (sw[0] + sw[1] + sw[2])) != 0 {
            continue;
        }
        let attr = module.ctx().known_attr(&format!("array<i64: {}, {}, {}>", sw[0], sw[1], sw[2]));
        copy.set_attr("swizzle", attr);
        for u in &users {
            if u.operand(0) == tile {
                u.set_attr("swizzle_a", attr);
            }
            if u.operand(1) == tile {
                u.set_attr("swizzle_b", attr);
            }
        }
        let name = phobos_dialects::tile::buffer_name(copy);
        let conflicts = |s: Option<[i64; 3]>| match element {
            None => ldmatrix_conflicts(rows, cols, ebytes, s),
            Some(k) => element_conflicts(if as_a { 'a' } else { 'b' }, k, rows, cols, ebytes, s),
        };
        let (before, after) = (conflicts(None), conflicts(Some(sw)));
        cx.diags.emit(Diagnostic::new(
            Severity::Remark,
            copy.loc().src(),
            format!(
                "tile '{name}' ({rows}x{cols}, {}-byte rows) stored under swizzle({},{},{}): {reader} it with {after} bank conflicts ({before} row-major)",
                cols * ebytes,
                sw[0],
                sw[1],
                sw[2]
            ),
        ));
    }
    Ok(())
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "tile-swizzle",
    name: "TileSwizzle",
    summary: "stores tiles that only tensor cores read under an XOR swizzle free of bank conflicts",
    description: "Marks each tile.copy of 16-bit elements read only by tile.dot with swizzle = [B, M, S] \
    (and its dots with swizzle_a/swizzle_b), the XOR swizzle under which the copy's 16-byte stores and \
    ldmatrix's row reads have no bank conflicts; a remark states the choice and the conflicts removed.",
    anchor: "gpu.module",
    options: &[],
    run,
};
