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
        Some(PhobosOp::Tile(TileOp::Dot)) => verify_dot(op).map(|_| ()),
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
    check_swizzle(op, "swizzle", &shape)?;
    Ok(())
}

/// A swizzle attribute (`array<i64: B, M, S>`), when present: CuTe's `Swizzle<B, M, S>` with
/// `S >= B`, that permutes offsets within the `shape` tile (whole blocks of 2^(B + M + S)).
pub fn swizzle_of(op: Op, key: &str) -> Option<[i64; 3]> {
    op.attr(key).and_then(|a| a.dense_ints()).and_then(|s| <[i64; 3]>::try_from(s).ok())
}

fn check_swizzle(op: Op, key: &str, shape: &[i64]) -> Result<(), Diagnostic> {
    let Some(a) = op.attr(key) else { return Ok(()) };
    let bad = |why: &str| Err(Diagnostic::op_error(op, format!("{key} must be array<i64: B, M, S> {why}, got {a}")));
    let Some([b, m, s]) = swizzle_of(op, key) else { return bad("") };
    if !(0..=8).contains(&b) || !(0..=8).contains(&m) || !(b..=16).contains(&s) {
        return bad("with B and M 0 to 8, S from B to 16");
    }
    let size = shape.iter().try_fold(1i64, |x, d| x.checked_mul(*d)).unwrap_or(i64::MAX);
    if size % (1 << (b + m + s)) != 0 {
        return bad(&format!("that permutes within the {size} elements of the tile (blocks of 2^(B + M + S))"));
    }
    Ok(())
}

/// A `tile.dot`'s operand element type: what the tensor cores multiply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DotInput {
    F16,
    BF16,
    /// f32 tiles, each element rounded to tf32 (`cvt.rna.tf32.f32`) as it is loaded.
    TF32,
    /// i8 tiles, accumulated in i32.
    S8,
}

impl DotInput {
    /// The name PTX gives it (`f16`).
    pub fn ptx(self) -> &'static str {
        match self {
            DotInput::F16 => "f16",
            DotInput::BF16 => "bf16",
            DotInput::TF32 => "tf32",
            DotInput::S8 => "s8",
        }
    }
    /// The instruction's K: m16n8k16 for f16/bf16, m16n8k8 for tf32, m16n8k32 for s8.
    pub fn k(self) -> i64 {
        match self {
            DotInput::F16 | DotInput::BF16 => 16,
            DotInput::TF32 => 8,
            DotInput::S8 => 32,
        }
    }
    /// The accumulator's element types it may have (MLIR): f16 inputs accumulate in f32 or f16.
    pub fn accs(self) -> &'static [&'static str] {
        match self {
            DotInput::S8 => &["i32"],
            DotInput::F16 => &["f32", "f16"],
            _ => &["f32"],
        }
    }
}

/// What a verified `tile.dot` computes: its shape, warp tiling and input type.
#[derive(Clone, Copy, Debug)]
pub struct Dot {
    pub tiling: phobos_layout::mma::MmaTiling,
    pub k: i64,
    pub input: DotInput,
    /// The accumulator's element type (MLIR): f32, f16 or i32.
    pub acc: &'static str,
    /// B is given transposed (`transpose_b`): an N x K tile, the product A Bᵀ.
    pub transpose_b: bool,
    /// A is in registers: the tiling of the M x K fragment holding it (`a_shape`).
    pub a_tiling: Option<phobos_layout::mma::MmaTiling>,
}

/// Checks a `tile.dot` and says what it computes.
pub fn verify_dot(op: Op) -> Result<Dot, Diagnostic> {
    use phobos_ir::Scalar;
    let err = |m: String| Err(Diagnostic::op_error(op, m));
    let Some(warps) = op.attr("warps").and_then(|a| a.dense_ints()).filter(|w| w.len() == 2) else {
        return err("warps must be array<i64: warps along M, warps along N>".into());
    };
    let (a, b, c) = (op.operand(0).ty(), op.operand(1).ty(), op.operand(2).ty());
    // A in registers: an M x K fragment (`a_shape`) in the accumulator layout of the warp grid
    // `warps_m x 1`, as an earlier product left it (attention's probabilities).
    let a_regs = a.is_vector();
    let a_shape = op.attr("a_shape").and_then(|x| x.dense_ints()).filter(|s| s.len() == 2);
    if a_regs && a_shape.is_none() {
        return err("A in registers needs a_shape = array<i64: M, K>".into());
    }
    for (name, t) in [("A", a), ("B", b)] {
        if name == "A" && a_regs {
            continue;
        }
        if !t.is_memref() || t.memory_space() != 3 || t.shape().len() != 2 || t.shape().iter().any(|d| d.is_none()) {
            return err(format!("{name} must be a static 2-D tile in workgroup memory, got {t}"));
        }
    }
    if a_regs && !matches!(a.element().scalar(), Some(Scalar::F16 | Scalar::BF16)) {
        return err(format!("A in registers must hold f16 or bf16 (the A fragment of m16n8k16), got {a}"));
    }
    let input = match (a.element().scalar(), b.element().scalar()) {
        (Some(Scalar::F16), Some(Scalar::F16)) => DotInput::F16,
        (Some(Scalar::BF16), Some(Scalar::BF16)) => DotInput::BF16,
        (Some(Scalar::F32), Some(Scalar::F32)) => DotInput::TF32,
        (Some(Scalar::Int(8)), Some(Scalar::Int(8))) => DotInput::S8,
        _ => {
            return err(format!(
                "A and B must have one element type of f16, bf16, f32 (as tf32) or i8, got {} and {}",
                a.element(),
                b.element()
            ))
        }
    };
    for (name, t) in [("A", a), ("B", b)] {
        // The lowering addresses rows by the tile's extents: a strided view would be misread.
        let text = t.to_string();
        if text.contains("strided<") || text.contains("affine_map") {
            return err(format!("{name} must be a row-major tile (no layout), got {t}"));
        }
    }
    let sb = b.shape();
    let transpose_b = op.attr("transpose_b").is_some();
    let (m, k) = match &a_shape {
        Some(s) if a_regs => (s[0], s[1]),
        _ => (a.shape()[0].unwrap_or(0), a.shape()[1].unwrap_or(0)),
    };
    let (kb, n) = if transpose_b { (sb[1].unwrap_or(0), sb[0].unwrap_or(0)) } else { (sb[0].unwrap_or(0), sb[1].unwrap_or(0)) };
    if k != kb && transpose_b {
        return err(format!("A is {m} x {k} and B (transposed) is {n} x {kb}: A's columns must be B's columns"));
    }
    if k != kb {
        return err(format!("A is {m} x {k} and B is {kb} x {n}: A's columns must be B's rows"));
    }
    if k % input.k() != 0 {
        return err(format!("K = {k} must be a multiple of {} (the instruction's K for {})", input.k(), input.ptx()));
    }
    if warps.iter().any(|w| !(1..=32).contains(w)) {
        return err(format!("warps must be 1 to 32 along each of M and N, got {} x {}", warps[0], warps[1]));
    }
    // A tile past any chip's shared memory would unroll into an unbounded lowering.
    for (name, t) in [("A", a), ("B", b)].into_iter().filter(|(n, _)| !(a_regs && *n == "A")) {
        let bytes = t.shape().iter().map(|d| d.unwrap_or(0)).try_fold(1i64, |x, d| x.checked_mul(d)).unwrap_or(i64::MAX);
        if bytes > 232_448 {
            return err(format!("{name} ({t}) holds more elements than any chip's shared memory has bytes (232448)"));
        }
    }
    let threads = match op.ancestor("gpu.func").and_then(|f| f.attr("known_block_size")).and_then(|a| a.dense_ints()) {
        Some(bs) if bs.len() == 3 && bs.iter().all(|d| (1..=1024).contains(d)) => bs.iter().product(),
        _ => 32 * warps[0] * warps[1],
    };
    let tiling = phobos_layout::mma::MmaTiling::with_warps(m, n, threads, warps[0], warps[1]).map_err(|e| Diagnostic::op_error(op, e))?;
    let wants: Vec<String> = input.accs().iter().map(|a| format!("vector<{}x{a}>", tiling.items())).collect();
    let Some(acc) = input.accs().iter().zip(&wants).find(|(_, w)| c.is_vector() && c.to_string() == **w).map(|(a, _)| *a) else {
        return err(format!("the accumulator of a {m} x {n} product over {threads} threads is {} per thread, got {c}", wants.join(" or ")));
    };
    // A in registers: the accumulator layout of the M x K product on the same warps along M.
    let a_tiling = if a_regs {
        if warps[1] != 1 {
            return err(format!(
                "A in registers needs the warp grid {} x 1 (each warp's rows of A whole), got {} x {}",
                warps[0], warps[0], warps[1]
            ));
        }
        let at = phobos_layout::mma::MmaTiling::with_warps(m, k, threads, warps[0], 1).map_err(|e| Diagnostic::op_error(op, e))?;
        let want = format!("vector<{}x{}>", at.items(), a.element());
        if a.to_string() != want {
            return err(format!("A in registers, {m} x {k} over {threads} threads, is {want} per thread, got {a}"));
        }
        if op.attr("swizzle_a").is_some() {
            return err("swizzle_a is for a tile; A is in registers".into());
        }
        Some(at)
    } else {
        None
    };
    // An operand a copy fills is read under that copy's swizzle, and only that.
    let b_shape = if transpose_b { [n, k] } else { [k, n] };
    for (i, key, shape) in [(0, "swizzle_a", [m, k]), (1, "swizzle_b", b_shape)] {
        check_swizzle(op, key, &shape)?;
        let Some(copy) = op.operand(i).def().filter(|d| d.is("tile.copy")) else { continue };
        let copied = swizzle_of(copy, "swizzle");
        if swizzle_of(op, key) != copied {
            return err(format!(
                "{key} must be the swizzle its tile is stored under ({}), got {}",
                copied.map_or("none".into(), |s| format!("{s:?}")),
                swizzle_of(op, key).map_or("none".into(), |s| format!("{s:?}"))
            ));
        }
    }
    if op.result(0).ty() != c {
        return err(format!("the result must have the accumulator's type {c}, got {}", op.result(0).ty()));
    }
    Ok(Dot { tiling, k, input, acc, transpose_b, a_tiling })
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

    /// `tile.dot`: `c + a b` on tensor cores, `a` (M x K) and `b` (K x N) shared tiles of f16,
    /// bf16, f32 (multiplied as tf32) or i8, `c` the accumulator of the warp tiling `warps`
    /// (`[along M, along N]`; `phobos_layout::mma::MmaTiling::choose` picks one),
    /// `vector<items x f32>` per thread (`i32` for i8).
    pub fn dot<'a>(b: Builder<'a>, a: Val<'a>, bt: Val<'a>, c: Val<'a>, warps: [i64; 2]) -> Val<'a> {
        let w = b.ctx.known_attr(&format!("array<i64: {}, {}>", warps[0], warps[1]));
        b.op_value("tile.dot", &[a, bt, c], c.ty(), &[("warps", w)])
    }

    /// [`dot`] with `b` given transposed (`transpose_b`): an N x K shared tile, `c + a bᵀ` (a
    /// linear layer's row-major weights, attention's keys).
    pub fn dot_transposed_b<'a>(b: Builder<'a>, a: Val<'a>, bt: Val<'a>, c: Val<'a>, warps: [i64; 2]) -> Val<'a> {
        let d = dot(b, a, bt, c, warps);
        d.def().expect("just built").set_attr("transpose_b", b.ctx.unit_attr());
        d
    }

    /// [`dot`] with `a` in registers (`a_shape = [M, K]`): an f16 or bf16 vector holding the
    /// M x K matrix in the accumulator layout of the warp tiling `[warps[0], 1]`, as an earlier
    /// product leaves it (attention's probabilities); `warps` must be `[warps along M, 1]`.
    /// With `transpose_b`, `bt` is N x K.
    pub fn dot_a_in_registers<'a>(
        b: Builder<'a>,
        a: Val<'a>,
        bt: Val<'a>,
        c: Val<'a>,
        warps: [i64; 2],
        a_shape: [i64; 2],
        transpose_b: bool,
    ) -> Val<'a> {
        let d = dot(b, a, bt, c, warps);
        let op = d.def().expect("just built");
        op.set_attr("a_shape", b.ctx.known_attr(&format!("array<i64: {}, {}>", a_shape[0], a_shape[1])));
        if transpose_b {
            op.set_attr("transpose_b", b.ctx.unit_attr());
        }
        d
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
