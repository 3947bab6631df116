//! `tile.dot` on tensor cores (a pattern of `convert-tile-to-gpu`): each warp computes its
//! `warp_m x warp_n` block of the accumulator with `mma.sync.aligned.m16n8k16`, its operands
//! read from the shared tiles by `ldmatrix`.
//!
//! Per k step of 16, warp `(wm, wn)` loads A's fragments with one `ldmatrix.x4` per 16 rows
//! (its four 8x8 matrices are a0..a3: rows +0/+8, columns +0/+8) and B's with one
//! `ldmatrix.x4.trans` per 16 columns (`.x2.trans` for a last 8): B is stored K x N row-major,
//! and `.trans` hands each lane the column-major fragment the instruction wants. Lane `l` gives
//! the address of row `l % 16`, column `8 (l / 16)` of the 16 x 16 block either way. Then one
//! `mma.sync` per 16 x 8 atom, accumulating into the items `MmaTiling::item` names.
//!
//! When the op carries `swizzle_a`/`swizzle_b = array<i64: B, M, S>` (set by `tile-swizzle`
//! with the copies that fill A and B), each row address is the swizzled element offset: the
//! 16-byte chunks a lane names stay whole under a swizzle with `M >= 3` (8 halves).

use crate::emit::ids::{known_block_size, linear_thread_id};
use phobos_dialects::tile::{verify_dot, DotInput, DOT_K};
use phobos_ir::{diag::Diagnostic, Builder, Op, Ty, Val};
use phobos_layout::mma::ATOM_M;

/// A shared tile's base address as an `!llvm.ptr<3>` (what `ldmatrix` takes).
fn pointer<'a>(b: Builder<'a>, mem: Val<'a>) -> Val<'a> {
    let ctx = b.ctx;
    let idx = b.op_value("memref.extract_aligned_pointer_as_index", &[mem], ctx.index(), &[]);
    let i64v = b.cast("arith.index_cast", idx, ctx.i(64));
    b.op_value("llvm.inttoptr", &[i64v], ctx.known_type("!llvm.ptr<3>"), &[])
}

/// `base + bytes` (an `i8` getelementptr).
fn offset<'a>(b: Builder<'a>, base: Val<'a>, bytes: Val<'a>) -> Val<'a> {
    let ctx = b.ctx;
    let i = b.cast("arith.index_cast", bytes, ctx.i(64));
    let attrs = [
        ("elem_type", ctx.known_attr("i8")),
        ("noWrapFlags", ctx.known_attr("0 : i32")),
        ("rawConstantIndices", ctx.known_attr("array<i32: -2147483648>")),
    ];
    b.op_value("llvm.getelementptr", &[base, i], base.ty(), &attrs)
}

/// `ldmatrix.x{num}` of 8x8 b16 matrices at `ptr`: `num` 32-bit registers.
fn ldmatrix<'a>(b: Builder<'a>, ptr: Val<'a>, num: usize, trans: bool) -> Vec<Val<'a>> {
    let ctx = b.ctx;
    let fields = vec!["i32"; num].join(", ");
    let sty = ctx.known_type(&format!("!llvm.struct<({fields})>"));
    let attrs = [
        ("num", ctx.known_attr(&format!("{num} : i32"))),
        ("layout", ctx.known_attr(if trans { "#nvvm.mma_layout<col>" } else { "#nvvm.mma_layout<row>" })),
        ("shape", ctx.known_attr("#nvvm.ld_st_matrix_shape<m = 8, n = 8>")),
        ("eltType", ctx.known_attr("#nvvm.ld_st_matrix_elt_type<b16>")),
    ];
    let s = b.op_value("nvvm.ldmatrix", &[ptr], sty, &attrs);
    (0..num).map(|i| field(b, s, i, ctx.i(32))).collect()
}

fn field<'a>(b: Builder<'a>, s: Val<'a>, i: usize, ty: Ty<'a>) -> Val<'a> {
    b.op_value("llvm.extractvalue", &[s], ty, &[("position", b.ctx.known_attr(&format!("array<i64: {i}>")))])
}

/// A 32-bit register as `mma.sync` takes it: `vector<2xf16>` for f16, the i32 itself for bf16.
fn operand<'a>(b: Builder<'a>, r: Val<'a>, input: DotInput) -> Val<'a> {
    match input {
        DotInput::F16 => b.op_value("llvm.bitcast", &[r], b.ctx.known_type("vector<2xf16>"), &[]),
        DotInput::BF16 => r,
    }
}

/// `d = a b + c` for one m16n8k16 atom: 4 A registers, 2 B, 4 f32 accumulators.
fn mma<'a>(b: Builder<'a>, a: &[Val<'a>], bv: &[Val<'a>], c: &[Val<'a>], input: DotInput) -> Vec<Val<'a>> {
    let ctx = b.ctx;
    let f32t = ctx.known_type("f32");
    let sty = ctx.known_type("!llvm.struct<(f32, f32, f32, f32)>");
    let ty = input.ptx();
    let attrs = [
        ("layoutA", ctx.known_attr("#nvvm.mma_layout<row>")),
        ("layoutB", ctx.known_attr("#nvvm.mma_layout<col>")),
        ("multiplicandAPtxType", ctx.known_attr(&format!("#nvvm.mma_type<{ty}>"))),
        ("multiplicandBPtxType", ctx.known_attr(&format!("#nvvm.mma_type<{ty}>"))),
        ("operandSegmentSizes", ctx.known_attr("array<i32: 4, 2, 4>")),
        ("shape", ctx.known_attr("#nvvm.shape<m = 16, n = 8, k = 16>")),
    ];
    let ops: Vec<Val> = a.iter().chain(bv).chain(c).copied().collect();
    let d = b.op_value("nvvm.mma.sync", &ops, sty, &attrs);
    (0..4).map(|i| field(b, d, i, f32t)).collect()
}

/// The byte offset of element `(row, col)` of a row-major tile of `cols` 2-byte columns, under
/// the swizzle when there is one: `row` and `col` index values.
fn element_bytes<'a>(b: Builder<'a>, row: Val<'a>, col: Val<'a>, cols: i64, swizzle: Option<[i64; 3]>) -> Val<'a> {
    let lin = b.bin("arith.addi", b.bin("arith.muli", row, b.index(cols)), col);
    let lin = match swizzle {
        Some(s) => crate::emit::swizzle::apply(b, lin, s),
        None => lin,
    };
    b.bin("arith.muli", lin, b.index(2))
}

pub fn lower_dot<'a>(op: Op<'a>, _cx: &crate::external::PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let dot = verify_dot(op)?;
    let Some(block) = known_block_size(op) else {
        return Err(Diagnostic::op_error(op, "a tensor-core product needs a known block size (known_block_size on the gpu.func)"));
    };
    let t = dot.tiling;
    let swizzle_of = |key: &str| op.attr(key).and_then(|a| a.dense_ints()).and_then(|s| <[i64; 3]>::try_from(s).ok());
    let (swizzle_a, swizzle_b) = (swizzle_of("swizzle_a"), swizzle_of("swizzle_b"));
    let (a, bt, mut acc) = (op.operand(0), op.operand(1), op.operand(2));
    let b = Builder::before(op);

    // The warp's block and the lane's row and column within a 16 x 16 block.
    let tid = linear_thread_id(b, Some(block));
    let lane = b.bin("arith.remui", tid, b.index(32));
    let warp = b.bin("arith.divui", tid, b.index(32));
    let wm = b.bin("arith.remui", warp, b.index(t.warps_m));
    let wn = b.bin("arith.divui", warp, b.index(t.warps_m));
    let lrow = b.bin("arith.remui", lane, b.index(16));
    let lcol = b.bin("arith.muli", b.bin("arith.divui", lane, b.index(16)), b.index(8));
    let a_row = b.bin("arith.addi", b.bin("arith.muli", wm, b.index(t.warp_m())), lrow);
    let b_col = b.bin("arith.muli", wn, b.index(t.warp_n()));
    let (pa, pb) = (pointer(b, a), pointer(b, bt));

    for ks in 0..dot.k / DOT_K {
        let k0 = ks * DOT_K;
        // A: one x4 per 16 rows.
        let mut a_frag = Vec::new();
        for am in 0..t.atoms_m() {
            let row = b.bin("arith.addi", a_row, b.index(am * ATOM_M));
            let col = b.bin("arith.addi", lcol, b.index(k0));
            let ptr = offset(b, pa, element_bytes(b, row, col, dot.k, swizzle_a));
            a_frag.push(ldmatrix(b, ptr, 4, false));
        }
        // B: one x4.trans per 16 columns (two atoms), an x2.trans for a last 8.
        let mut b_frag: Vec<Vec<Val>> = Vec::new();
        let mut an = 0;
        while an < t.atoms_n() {
            let pair = an + 1 < t.atoms_n();
            let row = b.bin("arith.addi", lrow, b.index(k0));
            // x2 reads lanes 0-15 only; the others name the same rows.
            let lane_col = if pair { lcol } else { b.index(0) };
            let col = b.bin("arith.addi", b.bin("arith.addi", b_col, lane_col), b.index(an * 8));
            let ptr = offset(b, pb, element_bytes(b, row, col, t.n, swizzle_b));
            let regs = ldmatrix(b, ptr, if pair { 4 } else { 2 }, true);
            b_frag.extend(regs.chunks(2).map(|c| c.to_vec()));
            an += if pair { 2 } else { 1 };
        }
        for (an, bf) in b_frag.iter().enumerate() {
            let bops: Vec<Val> = bf.iter().map(|r| operand(b, *r, dot.input)).collect();
            for (am, af) in a_frag.iter().enumerate() {
                let aops: Vec<Val> = af.iter().map(|r| operand(b, *r, dot.input)).collect();
                let items: Vec<i64> = (0..4).map(|r| t.item(am as i64, an as i64, r)).collect();
                let c: Vec<Val> = items.iter().map(|i| crate::emit::vector::extract(b, acc, *i)).collect();
                let d = mma(b, &aops, &bops, &c, dot.input);
                for (i, v) in items.iter().zip(d) {
                    acc = crate::emit::vector::insert(b, v, acc, *i);
                }
            }
        }
    }
    Ok(vec![acc])
}
