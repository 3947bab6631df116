//! `tile.dot` on tensor cores (a pattern of `convert-tile-to-gpu`): each warp computes its
//! `warp_m x warp_n` block of the accumulator with `mma.sync.aligned` (m16n8k16 for f16/bf16,
//! m16n8k8 for tf32, m16n8k32 for s8), its f16/bf16 operands read from the shared tiles by
//! `ldmatrix`, its 32-bit and 8-bit ones element by element (`ldmatrix` moves 16-bit elements:
//! it cannot transpose those).
//!
//! Per k step of 16, warp `(wm, wn)` loads A's fragments with one `ldmatrix.x4` per 16 rows
//! (its four 8x8 matrices are a0..a3: rows +0/+8, columns +0/+8) and B's with one
//! `ldmatrix.x4.trans` per 16 columns (`.x2.trans` for a last 8): B is stored K x N row-major,
//! and `.trans` hands each lane the column-major fragment the instruction wants. Lane `l` gives
//! the address of row `l % 16`, column `8 (l / 16)` of the 16 x 16 block either way. Then one
//! `mma.sync` per 16 x 8 atom, accumulating into the items `MmaTiling::item` names.
//!
//! With `transpose_b`, B is stored N x K row-major (the product is A Bᵀ): its rows are the
//! columns of the fragment the instruction wants, so it is read as A is, with plain
//! `ldmatrix.x4` (two atoms: lane `l` names row `l % 8 + 8 (l / 16)`, column `8 ((l / 8) % 2)`),
//! `.x2` for a last 8, and element by element with rows and columns swapped.
//!
//! When the op carries `swizzle_a`/`swizzle_b = array<i64: B, M, S>` (set by `tile-swizzle`
//! with the copies that fill A and B), each row address is the swizzled element offset: the
//! 16-byte chunks a lane names stay whole under a swizzle with `M >= 3` (8 halves).

use crate::emit::ids::{known_block_size, linear_thread_id};
use crate::emit::pointer;
use phobos_dialects::tile::{verify_dot, DotInput};
use phobos_ir::{
    diag::{Diagnostic, Severity},
    Builder, Op, Ty, Val,
};
use phobos_layout::mma::ATOM_M;

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

/// A 32-bit register as `mma.sync` takes it: `vector<2xf16>` for f16, the i32 itself otherwise.
fn operand<'a>(b: Builder<'a>, r: Val<'a>, input: DotInput) -> Val<'a> {
    match input {
        DotInput::F16 => b.op_value("llvm.bitcast", &[r], b.ctx.known_type("vector<2xf16>"), &[]),
        DotInput::BF16 | DotInput::TF32 | DotInput::S8 => r,
    }
}

/// `d = a b + c` for one atom: 4 A registers, 2 B, 4 accumulators (f16 ones in two
/// `vector<2xf16>` registers, low element first).
fn mma<'a>(b: Builder<'a>, a: &[Val<'a>], bv: &[Val<'a>], c: &[Val<'a>], input: DotInput, acc_ty: &str) -> Vec<Val<'a>> {
    let ctx = b.ctx;
    let acc = ctx.known_type(acc_ty);
    let half = acc_ty == "f16";
    let (c, sty) = if half {
        let pair = ctx.known_type("vector<2xf16>");
        let regs = vec![b.op_value("vector.from_elements", &c[..2], pair, &[]), b.op_value("vector.from_elements", &c[2..], pair, &[])];
        (regs, ctx.known_type("!llvm.struct<(vector<2xf16>, vector<2xf16>)>"))
    } else {
        (c.to_vec(), ctx.known_type(&format!("!llvm.struct<({})>", [acc_ty; 4].join(", "))))
    };
    let segments = format!("array<i32: 4, 2, {}>", c.len());
    let ty = input.ptx();
    let shape = format!("#nvvm.shape<m = 16, n = 8, k = {}>", input.k());
    let mut attrs = vec![
        ("layoutA", ctx.known_attr("#nvvm.mma_layout<row>")),
        ("layoutB", ctx.known_attr("#nvvm.mma_layout<col>")),
        ("multiplicandAPtxType", ctx.known_attr(&format!("#nvvm.mma_type<{ty}>"))),
        ("multiplicandBPtxType", ctx.known_attr(&format!("#nvvm.mma_type<{ty}>"))),
        ("operandSegmentSizes", ctx.known_attr(&segments)),
        ("shape", ctx.known_attr(&shape)),
    ];
    if input == DotInput::S8 {
        // Without .satfinite: sums wrap, as i32 arithmetic does everywhere else.
        attrs.push(("intOverflowBehavior", ctx.known_attr("#nvvm.mma_int_overflow<wrapped>")));
    }
    let ops: Vec<Val> = a.iter().chain(bv).chain(&c).copied().collect();
    let d = b.op_value("nvvm.mma.sync", &ops, sty, &attrs);
    if half {
        let pair = ctx.known_type("vector<2xf16>");
        let regs = [field(b, d, 0, pair), field(b, d, 1, pair)];
        return (0..4).map(|i| crate::emit::vector::extract(b, regs[i / 2], (i % 2) as i64)).collect();
    }
    (0..4).map(|i| field(b, d, i, acc)).collect()
}

/// Element `(row, col)` of a 2-D tile (index values), stored under `swizzle` when it has one.
fn load<'a>(b: Builder<'a>, tile: Val<'a>, row: Val<'a>, col: Val<'a>, swizzle: Option<[i64; 3]>) -> Val<'a> {
    let (row, col) = match swizzle {
        Some(s) => {
            let cols = b.index(tile.ty().shape()[1].unwrap_or(1));
            let lin = crate::emit::swizzle::apply(b, b.bin("arith.addi", b.bin("arith.muli", row, cols), col), s);
            (b.bin("arith.divui", lin, cols), b.bin("arith.remui", lin, cols))
        }
        None => (row, col),
    };
    b.op_value("memref.load", &[tile, row, col], tile.ty().element(), &[])
}

/// A tf32 register: the f32 element rounded to nearest, ties away (`cvt.rna.tf32.f32`).
fn tf32<'a>(b: Builder<'a>, x: Val<'a>) -> Val<'a> {
    b.op_value("nvvm.convert.float.to.tf32", &[x], b.ctx.i(32), &[("rnd", b.ctx.known_attr("#nvvm.fp_rnd_mode<rna>"))])
}

/// Four i8 values as one i32 register, the first in the low byte.
fn pack_bytes<'a>(b: Builder<'a>, bytes: &[Val<'a>]) -> Val<'a> {
    let i32t = b.ctx.i(32);
    let mut word = b.cast("arith.extui", bytes[0], i32t);
    for (i, byte) in bytes.iter().enumerate().skip(1) {
        let w = b.bin("arith.shli", b.cast("arith.extui", *byte, i32t), b.const_int(i32t, 8 * i as i64));
        word = b.bin("arith.ori", word, w);
    }
    word
}

/// Lane `4g + q`'s registers of the A atom at tile rows `row0 + ..` and columns `k0 + ..`, read
/// element by element (tf32, s8), as the PTX ISA's fragment figures place them.
#[allow(clippy::too_many_arguments)]
fn a_by_elements<'a>(
    b: Builder<'a>,
    tile: Val<'a>,
    row0: Val<'a>,
    k0: i64,
    g: Val<'a>,
    q: Val<'a>,
    input: DotInput,
    sw: Option<[i64; 3]>,
) -> Vec<Val<'a>> {
    let at = |dr: i64, dc: i64, qs: i64| {
        let row = b.bin("arith.addi", b.bin("arith.addi", row0, g), b.index(dr));
        let col = b.bin("arith.addi", b.bin("arith.muli", q, b.index(qs)), b.index(k0 + dc));
        (row, col)
    };
    (0..4)
        .map(|r| match input {
            // a0..a3: rows g, g + 8, g, g + 8; columns q, q, q + 4, q + 4.
            DotInput::TF32 => {
                let (row, col) = at(8 * (r & 1), 4 * (r >> 1), 1);
                tf32(b, load(b, tile, row, col, sw))
            }
            // a0..a3: four bytes each at rows g, g + 8, g, g + 8; columns 4q.., 4q.., 4q + 16..
            _ => {
                let bytes: Vec<Val> = (0..4)
                    .map(|e| {
                        let (row, col) = at(8 * (r & 1), 16 * (r >> 1) + e, 4);
                        load(b, tile, row, col, sw)
                    })
                    .collect();
                pack_bytes(b, &bytes)
            }
        })
        .collect()
}

/// Lane `4g + q`'s registers of the B atom at rows `k0 + ..` and columns `col0 + g` of B
/// (`transposed`: of the N x K tile holding Bᵀ, the same elements with row and column swapped).
#[allow(clippy::too_many_arguments)]
fn b_by_elements<'a>(
    b: Builder<'a>,
    tile: Val<'a>,
    col0: Val<'a>,
    k0: i64,
    (g, q): (Val<'a>, Val<'a>),
    input: DotInput,
    sw: Option<[i64; 3]>,
    transposed: bool,
) -> Vec<Val<'a>> {
    let col = b.bin("arith.addi", col0, g);
    let row = |qs: i64, dr: i64| b.bin("arith.addi", b.bin("arith.muli", q, b.index(qs)), b.index(k0 + dr));
    let at = |k: Val<'a>| if transposed { load(b, tile, col, k, sw) } else { load(b, tile, k, col, sw) };
    (0..2)
        .map(|r| match input {
            // b0, b1: rows q, q + 4.
            DotInput::TF32 => tf32(b, at(row(1, 4 * r))),
            // b0, b1: four bytes each at rows 4q.., 4q + 16...
            _ => {
                let bytes: Vec<Val> = (0..4).map(|e| at(row(4, 16 * r + e))).collect();
                pack_bytes(b, &bytes)
            }
        })
        .collect()
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

pub fn lower_dot<'a>(op: Op<'a>, cx: &crate::external::PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let dot = verify_dot(op)?;
    // mma.sync m16n8k16 and ldmatrix came with sm_80 (LLVM cannot select them before).
    let chip = cx.options.get("chip").unwrap_or("sm_90");
    if crate::emit::pointer::sm(chip) < 80 {
        return Err(Diagnostic::op_error(
            op,
            format!("tensor-core products (mma.sync, ldmatrix) need sm_80 or later; the target is {chip}"),
        ));
    }
    // The occupancy asked of ptxas (`.minnctapersm`): as many CTAs as fit the SM's 65,536
    // registers at max(128, accumulators + 64) per thread, or 256 when the kernel has several
    // products (attention holds several fragments at once: 254 registers). Left to itself,
    // ptxas spilled the i8 GEMM at 80 registers for sm_90a; asked for one CTA, it took 168 for
    // the f16 one.
    if let Some(func) = op.ancestor("gpu.func") {
        let t = dot.tiling;
        let several = func.walk().into_iter().filter(|o| o.is("tile.dot")).count() > 1;
        let per_thread = if several { 256 } else { (t.items() + 64).max(128) };
        let ctas = (65536 / (t.threads() * per_thread)).max(1);
        let ctas = func.int_attr("nvvm.minctasm").map_or(ctas, |c| c.min(ctas));
        func.set_attr("nvvm.minctasm", op.ctx().int_attr(op.ctx().i(32), ctas));
    }
    let Some(block) = known_block_size(op) else {
        return Err(Diagnostic::op_error(op, "a tensor-core product needs a known block size (known_block_size on the gpu.func)"));
    };
    // The product, its warp grid and instruction, in a remark (`phobos explain` draws its
    // fragments from it); on sm_90a, warpgroups on wgmma where the product allows.
    let t = dot.tiling;
    let shape = format!("{} x {} x {} on {} x {} warps of {} x {}", t.m, t.n, dot.k, t.warps_m, t.warps_n, t.warp_m(), t.warp_n());
    let types = format!("{} into {}", dot.input.ptx(), dot.acc);
    let mut not_wgmma = String::new();
    if chip == "sm_90a" {
        match super::tile_dot_wgmma::plan(op, chip) {
            Ok(w) => {
                let what = format!(
                    "tile.dot: wgmma.mma_async m64n{}k16 ({types}), {shape}: {} warpgroup{}, {} per warpgroup and k step of {}",
                    w.n,
                    w.groups,
                    if w.groups == 1 { "" } else { "s" },
                    dot.k / 16,
                    dot.k
                );
                cx.diags.emit(Diagnostic::new(Severity::Remark, op.loc().src(), what));
                // The swizzles are on absolute addresses: the tiles' base 1024-byte aligned.
                let module = op.ancestor("gpu.module").expect("a tile.dot is in a gpu.module");
                crate::emit::tile_copy::align_dynamic_smem(module, Builder::before(op), super::tile_dot_wgmma::TILE_ALIGN as i64);
                return Ok(vec![super::tile_dot_wgmma::lower(op, &dot, &w, block, op.operand(2))]);
            }
            Err(why) => not_wgmma = format!(" (not wgmma: {why})"),
        }
    }
    cx.diags.emit(Diagnostic::new(
        Severity::Remark,
        op.loc().src(),
        format!(
            "tile.dot: mma.sync m16n8k{} ({types}), {shape}: {} per warp and k step of {}{not_wgmma}",
            dot.input.k(),
            t.atoms_m() * t.atoms_n(),
            dot.input.k()
        ),
    ));
    let swizzle_of = |key: &str| phobos_dialects::tile::swizzle_of(op, key);
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
    let pa = dot.a_tiling.is_none().then(|| pointer::base(b, a, 3));
    let pb = pointer::base(b, bt, 3);

    let (g, q) = (b.bin("arith.divui", lane, b.index(4)), b.bin("arith.remui", lane, b.index(4)));
    let wide = matches!(dot.input, DotInput::TF32 | DotInput::S8);
    for ks in 0..dot.k / dot.input.k() {
        let k0 = ks * dot.input.k();
        if wide {
            // 32-bit and 8-bit operands, element by element.
            let a_frag: Vec<Vec<Val>> = (0..t.atoms_m())
                .map(|am| {
                    let row0 = b.bin("arith.addi", b.bin("arith.muli", wm, b.index(t.warp_m())), b.index(am * ATOM_M));
                    a_by_elements(b, a, row0, k0, g, q, dot.input, swizzle_a)
                })
                .collect();
            let b_frag: Vec<Vec<Val>> = (0..t.atoms_n())
                .map(|an| {
                    let col0 = b.bin("arith.addi", b_col, b.index(an * 8));
                    b_by_elements(b, bt, col0, k0, (g, q), dot.input, swizzle_b, dot.transpose_b)
                })
                .collect();
            acc = mma_atoms(b, &t, &a_frag, &b_frag, acc, dot.input, dot.acc);
            continue;
        }
        // A: one x4 per 16 rows; in registers, the fragment's items of the step's two atoms.
        let mut a_frag = Vec::new();
        for am in 0..t.atoms_m() {
            if let Some(at) = dot.a_tiling {
                a_frag.push(a_from_registers(b, a, &at, am, ks));
                continue;
            }
            let pa = pa.expect("A is a tile");
            let row = b.bin("arith.addi", a_row, b.index(am * ATOM_M));
            let col = b.bin("arith.addi", lcol, b.index(k0));
            let ptr = pointer::offset(b, pa, element_bytes(b, row, col, dot.k, swizzle_a));
            a_frag.push(ldmatrix(b, ptr, 4, false));
        }
        // B: one x4.trans per 16 columns (two atoms), an x2.trans for a last 8; transposed, a
        // plain x4 per 16 rows of the N x K tile (x2 for a last 8).
        let mut b_frag: Vec<Vec<Val>> = Vec::new();
        let mut an = 0;
        while an < t.atoms_n() {
            let pair = an + 1 < t.atoms_n();
            let ptr = if dot.transpose_b {
                // Matrix l / 8: rows +8 for the second atom, columns +8 for the second half of K.
                let second = if pair { b.bin("arith.muli", b.bin("arith.divui", lane, b.index(16)), b.index(8)) } else { b.index(0) };
                let within = b.bin("arith.addi", b.bin("arith.remui", lane, b.index(8)), second);
                let row = b.bin("arith.addi", b.bin("arith.addi", b_col, b.index(an * 8)), within);
                let half = b.bin("arith.muli", b.bin("arith.remui", b.bin("arith.divui", lane, b.index(8)), b.index(2)), b.index(8));
                let col = b.bin("arith.addi", half, b.index(k0));
                pointer::offset(b, pb, element_bytes(b, row, col, dot.k, swizzle_b))
            } else {
                let row = b.bin("arith.addi", lrow, b.index(k0));
                // x2 reads lanes 0-15 only; the others name the same rows.
                let lane_col = if pair { lcol } else { b.index(0) };
                let col = b.bin("arith.addi", b.bin("arith.addi", b_col, lane_col), b.index(an * 8));
                pointer::offset(b, pb, element_bytes(b, row, col, t.n, swizzle_b))
            };
            let regs = ldmatrix(b, ptr, if pair { 4 } else { 2 }, !dot.transpose_b);
            b_frag.extend(regs.chunks(2).map(|c| c.to_vec()));
            an += if pair { 2 } else { 1 };
        }
        acc = mma_atoms(b, &t, &a_frag, &b_frag, acc, dot.input, dot.acc);
    }
    Ok(vec![acc])
}

/// The A registers of atom row `am` at k step `ks` from a fragment in registers (tiling `at`:
/// the accumulator layout of the M x K product, warps along M only): a0..a3 are rows g, g + 8
/// of columns 2q, 2q + 1 of its atoms 2 ks and 2 ks + 1 (k 0-7, then 8-15), as that layout
/// holds them, each pair packed into a 32-bit register.
fn a_from_registers<'a>(b: Builder<'a>, frag: Val<'a>, at: &phobos_layout::mma::MmaTiling, am: i64, ks: i64) -> Vec<Val<'a>> {
    let pair_ty = b.ctx.known_type(&format!("vector<2x{}>", frag.ty().element()));
    [(2 * ks, 0), (2 * ks, 2), (2 * ks + 1, 0), (2 * ks + 1, 2)]
        .iter()
        .map(|&(an, r)| {
            let x = crate::emit::vector::extract(b, frag, at.item(am, an, r));
            let y = crate::emit::vector::extract(b, frag, at.item(am, an, r + 1));
            let pair = b.op_value("vector.from_elements", &[x, y], pair_ty, &[]);
            b.op_value("llvm.bitcast", &[pair], b.ctx.i(32), &[])
        })
        .collect()
}

/// One `mma.sync` per atom of the warp's block, on the items of `acc` it owns.
fn mma_atoms<'a>(
    b: Builder<'a>,
    t: &phobos_layout::mma::MmaTiling,
    a_frag: &[Vec<Val<'a>>],
    b_frag: &[Vec<Val<'a>>],
    mut acc: Val<'a>,
    input: DotInput,
    acc_ty: &str,
) -> Val<'a> {
    for (an, bf) in b_frag.iter().enumerate() {
        let bops: Vec<Val> = bf.iter().map(|r| operand(b, *r, input)).collect();
        for (am, af) in a_frag.iter().enumerate() {
            let aops: Vec<Val> = af.iter().map(|r| operand(b, *r, input)).collect();
            let items: Vec<i64> = (0..4).map(|r| t.item(am as i64, an as i64, r)).collect();
            let c: Vec<Val> = items.iter().map(|i| crate::emit::vector::extract(b, acc, *i)).collect();
            let d = mma(b, &aops, &bops, &c, input, acc_ty);
            for (i, v) in items.iter().zip(d) {
                acc = crate::emit::vector::insert(b, v, acc, *i);
            }
        }
    }
    acc
}
