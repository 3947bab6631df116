//! `tile.dot` on sm_90a's warpgroup tensor cores (`wgmma.mma_async`), where the product allows
//! it; `tile_dot` lowers the others to `mma.sync`.
//!
//! A warpgroup is 4 consecutive warps; `wgmma.mma_async.m64nNk16` multiplies a 64 x 16 slice of
//! A by a 16 x N slice of B, both read from shared memory through 64-bit matrix descriptors,
//! into 64 x N accumulators of which warp `w % 4` holds rows `16 (w % 4)` to `16 (w % 4) + 15`
//! in the layout of `mma.sync`'s C fragment repeated along N. That is the accumulator layout
//! of the warp tiling `4G x 1` with 16 rows per warp (`mma_c(64 G, N, 128 G, 4 G, 1)`): the
//! struct's field `i` is the fragment's item `i`, and warpgroup `g` computes rows `64 g` on.
//!
//! The descriptors name the canonical swizzled layouts of the PTX ISA (CuTe's
//! `Swizzle<B, 4, 3>` on byte addresses, B = 3, 2, 1 for rows of 128, 64, 32 bytes), which are
//! exactly the row-major tiles `tile-swizzle` stores for `ldmatrix` (`Swizzle<B, 3, 3>` on f16
//! and bf16 element offsets): 8-row groups `SBO = 8 x row bytes` apart, A K-major (its rows are
//! K), B K-major when transposed (N x K) and MN-major otherwise (K x N: `imm-trans-b`, which
//! f16 and bf16 allow). Each k step of 16 moves A's start 32 bytes along its rows, and B's 32
//! bytes (K-major) or 16 rows (MN-major). The swizzle is on absolute shared addresses, so the
//! tiles are placed 1024-byte aligned (`tile-plan-shared-memory` asks [`reads_tile`]) in a
//! dynamic shared memory aligned to 1024 bytes.
//!
//! Shared memory written by ordinary stores or `cp.async` reaches `wgmma` (the async proxy)
//! after `fence.proxy.async.shared::cta`: one before the barrier that follows the writes (the
//! writers' side), one before the product; then `wgmma.fence`, the k steps, one commit group
//! and `wgmma.wait_group 0` before the accumulators are read.

use crate::emit::ids::linear_thread_id;
use phobos_dialects::tile::{swizzle_of, verify_dot, Dot, DotInput};
use phobos_ir::{Builder, Op, Val};

/// Where a shared tile is read from by a product on `wgmma`: 1024 bytes, the alignment of the
/// 128-byte swizzle's 8-row pattern (the 64- and 32-byte ones repeat every 512 and 256).
pub const TILE_ALIGN: u64 = 1024;

/// One operand as `wgmma` reads it: rows of `row_bytes` (32, 64 or 128), K along them or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand {
    pub row_bytes: i64,
    pub k_major: bool,
}

impl Operand {
    /// The descriptor's swizzle mode: 1 for 128-byte rows, 2 for 64, 3 for 32.
    fn mode(self) -> i64 {
        match self.row_bytes {
            128 => 1,
            64 => 2,
            _ => 3,
        }
    }
    /// The descriptor without its start address: LBO 1 (these layouts do not use it), SBO the
    /// 8-row pattern's bytes, the swizzle mode (all offsets in 16-byte units).
    fn descriptor_bits(self) -> i64 {
        (1 << 16) | (((8 * self.row_bytes) >> 4) << 32) | (self.mode() << 62)
    }
    /// Bytes the start address moves per k step of 16 elements.
    fn k_step(self) -> i64 {
        if self.k_major {
            32
        } else {
            16 * self.row_bytes
        }
    }
}

/// A product `wgmma` computes: its operands, N, and warpgroups along M.
#[derive(Clone, Copy, Debug)]
pub struct Wgmma {
    pub a: Operand,
    pub b: Operand,
    pub n: i64,
    pub groups: i64,
}

/// Whether `op`, a `tile.dot`, runs on `wgmma` for `chip` when its tiles are stored in the
/// canonical swizzles, or why not.
pub fn shape(op: Op, chip: &str) -> Result<Wgmma, String> {
    if chip != "sm_90a" {
        return Err(format!("wgmma is sm_90a's; the target is {chip}"));
    }
    let dot = verify_dot(op).map_err(|d| d.message)?;
    let t = dot.tiling;
    if !matches!(dot.input, DotInput::F16 | DotInput::BF16) || dot.acc != "f32" {
        return Err(format!("wgmma is used for f16 and bf16 products into f32; this one is {} into {}", dot.input.ptx(), dot.acc));
    }
    if dot.a_tiling.is_some() {
        return Err("A is in registers".into());
    }
    // The four warps of a warpgroup issue each wgmma together: not under an `if` or `while`,
    // whose control may differ between warps (mma.sync lets each warp run its own).
    let mut at = op.parent();
    while let Some(p) = at.filter(|p| !p.is("gpu.func")) {
        if p.is("scf.if") || p.is("scf.while") || p.is("scf.index_switch") {
            return Err(
                "the product is under control that may differ between warps, and a warpgroup's four warps run each wgmma together".into()
            );
        }
        at = p.parent();
    }
    if t.warps_n != 1 || t.warp_m() != 16 || t.warps_m % 4 != 0 {
        return Err(format!(
            "wgmma needs warpgroups along M with 16 rows per warp: the warp grid {} x 1 (\"mma_c({}, {}, {}, {}, 1)\" when M = 16 x warps), got {} x {}",
            t.threads() / 32,
            16 * t.threads() / 32,
            t.n,
            t.threads(),
            t.threads() / 32,
            t.warps_m,
            t.warps_n
        ));
    }
    if t.n > 256 {
        return Err(format!("wgmma's N is at most 256, got {}", t.n));
    }
    // The swizzle is on absolute addresses: only tiles the plan placed (1024-byte aligned in the
    // dynamic shared memory) are known to start where its pattern does.
    for (i, name) in [(0, "A"), (1, "B")] {
        if !planned(op.operand(i)) {
            return Err(format!("{name} is not a planned shared tile (a tile copy or buffer): its alignment is unknown"));
        }
    }
    let cols = |i: usize| op.operand(i).ty().shape().get(1).copied().flatten().unwrap_or(0);
    let a = Operand { row_bytes: 2 * cols(0), k_major: true };
    let b = Operand { row_bytes: 2 * cols(1), k_major: dot.transpose_b };
    for (name, o) in [("A", a), ("B", b)] {
        if !matches!(o.row_bytes, 32 | 64 | 128) {
            return Err(format!("{name}'s rows are {} bytes; wgmma reads swizzled rows of 32, 64 or 128 bytes", o.row_bytes));
        }
    }
    Ok(Wgmma { a, b, n: t.n, groups: t.warps_m / 4 })
}

/// Whether `v` is a tile `tile-plan-shared-memory` places: a tile copy or buffer, or (once
/// lowered) its view of the dynamic shared memory.
fn planned(v: Val) -> bool {
    let Some(d) = v.def() else { return false };
    if d.is("tile.copy") || d.is("tile.alloc") {
        return true;
    }
    d.is("memref.view")
        && d.operand(0).def().is_some_and(|g| {
            g.is("memref.get_global")
                && g.attr("name").is_some_and(|n| n.to_string() == format!("@{}", crate::emit::tile_copy::DYNAMIC_SMEM))
        })
}

/// [`shape`], and the tiles stored in the canonical swizzles.
pub fn plan(op: Op, chip: &str) -> Result<Wgmma, String> {
    let w = shape(op, chip)?;
    for (name, key, o) in [("A", "swizzle_a", w.a), ("B", "swizzle_b", w.b)] {
        let want = phobos_layout::mma::ldmatrix_swizzle(o.row_bytes / 2, 2);
        if swizzle_of(op, key) != want {
            return Err(format!("{name} is not stored in wgmma's {}-byte swizzle", o.row_bytes));
        }
    }
    Ok(w)
}

/// Whether the tile `copy` defines is read by a product on `wgmma` (so must be 1024-byte
/// aligned): asked before and after `tile-swizzle`, the same answer both times.
pub fn reads_tile(copy: Op, chip: &str) -> bool {
    chip == "sm_90a" && copy.num_results() == 1 && copy.result(0).users().into_iter().any(|u| u.is("tile.dot") && shape(u, chip).is_ok())
}

/// The product on `wgmma`: `acc + A B` for the warpgroup's rows.
pub fn lower<'a>(op: Op<'a>, dot: &Dot, w: &Wgmma, block: [i64; 3], acc: Val<'a>) -> Val<'a> {
    let b = Builder::before(op);
    let ctx = b.ctx;
    let i64t = ctx.i(64);
    let c64 = |v: i64| b.op_value("arith.constant", &[], i64t, &[("value", ctx.int_attr(i64t, v))]);
    // A descriptor: the tile's shared address plus `skip` bytes, in 16-byte units, and the
    // layout's constant fields.
    let descriptor = |mem: Val<'a>, skip: Val<'a>, o: Operand| {
        let idx = b.op_value("memref.extract_aligned_pointer_as_index", &[mem], ctx.index(), &[]);
        let at = b.cast("arith.index_cast", b.bin("arith.addi", idx, skip), i64t);
        let start = b.bin("arith.andi", b.bin("arith.shrui", at, c64(4)), c64(0x3FFF));
        b.bin("arith.ori", start, c64(o.descriptor_bits()))
    };
    let tid = linear_thread_id(b, Some(block));
    let group = b.bin("arith.divui", tid, b.index(128));
    let a_rows = b.bin("arith.muli", group, b.index(64 * w.a.row_bytes));
    let da = descriptor(op.operand(0), a_rows, w.a);
    let db = descriptor(op.operand(1), b.index(0), w.b);
    // The accumulator as the instruction's struct: field i is item i.
    let fields = vec!["f32"; (w.n / 2) as usize].join(", ");
    let sty = ctx.known_type(&format!("!llvm.struct<({fields})>"));
    let f32t = ctx.known_type("f32");
    let mut s = b.op_value("llvm.mlir.poison", &[], sty, &[]);
    for i in 0..w.n / 2 {
        let x = crate::emit::vector::extract(b, acc, i);
        s = b.op_value("llvm.insertvalue", &[s, x], sty, &[("position", ctx.known_attr(&format!("array<i64: {i}>")))]);
    }
    // The writers' side (CUTLASS's `fence_view_async_shared` before the barrier) and the
    // reader's (Triton's, before the product): the tiles' generic writes reach the async proxy.
    if let Some(bar) = barrier_before(op) {
        if !previous(bar).is_some_and(|p| p.is("nvvm.fence.proxy")) {
            crate::emit::tma::async_proxy_fence(Builder::before(bar));
        }
    }
    crate::emit::tma::async_proxy_fence(b);
    b.op("nvvm.wgmma.fence.aligned", &[], &[], &[]);
    let ty = dot.input.ptx();
    let attrs = [
        ("shape", ctx.known_attr(&format!("#nvvm.shape<m = 64, n = {}, k = 16>", w.n))),
        ("typeA", ctx.known_attr(&format!("#nvvm.wgmma_type<{ty}>"))),
        ("typeB", ctx.known_attr(&format!("#nvvm.wgmma_type<{ty}>"))),
        ("typeD", ctx.known_attr("#nvvm.wgmma_type<f32>")),
        ("scaleD", ctx.known_attr("#nvvm.wgmma_scale_out<one>")),
        ("scaleA", ctx.known_attr("#nvvm.wgmma_scale_in<one>")),
        ("scaleB", ctx.known_attr("#nvvm.wgmma_scale_in<one>")),
        ("layoutA", ctx.known_attr("#nvvm.mma_layout<row>")),
        // B is K-major as the instruction's "col"; MN-major (K x N row-major) is "row".
        ("layoutB", ctx.known_attr(if w.b.k_major { "#nvvm.mma_layout<col>" } else { "#nvvm.mma_layout<row>" })),
        ("satfinite", ctx.known_attr("#nvvm.mma_int_overflow<wrapped>")),
    ];
    for ks in 0..dot.k / 16 {
        let da = b.bin("arith.addi", da, c64((ks * w.a.k_step()) >> 4));
        let db = b.bin("arith.addi", db, c64((ks * w.b.k_step()) >> 4));
        s = b.op_value("nvvm.wgmma.mma_async", &[s, da, db], sty, &attrs);
    }
    b.op("nvvm.wgmma.commit.group.sync.aligned", &[], &[], &[]);
    b.op("nvvm.wgmma.wait.group.sync.aligned", &[], &[], &[("group", ctx.known_attr("0 : i64"))]);
    let mut out = acc;
    for i in 0..w.n / 2 {
        let x = b.op_value("llvm.extractvalue", &[s], f32t, &[("position", ctx.known_attr(&format!("array<i64: {i}>")))]);
        out = crate::emit::vector::insert(b, x, out, i);
    }
    out
}

/// The op before `op` in its block.
fn previous(op: Op) -> Option<Op> {
    let mut last = None;
    for o in op.block()?.ops() {
        if o == op {
            return last;
        }
        last = Some(o);
    }
    None
}

/// The last barrier before `op`: in its block, else before the op holding it, up to the
/// function (the one after the tiles' copies landed).
fn barrier_before(op: Op) -> Option<Op> {
    let mut at = op;
    loop {
        let mut last = None;
        for o in at.block()?.ops() {
            if o == at {
                break;
            }
            if o.is("gpu.barrier") {
                last = Some(o);
            }
        }
        if last.is_some() {
            return last;
        }
        at = at.parent().filter(|p| !p.is("gpu.func"))?;
    }
}
