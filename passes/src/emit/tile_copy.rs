//! The CTA-cooperative copy of a tensor tile into shared memory: `convert-tile-to-gpu`'s
//! lowering of `tile.copy`, and the copies `tile-pipeline` issues for the stages of a loop.
//!
//! - The copy moves chunks of V elements along the tile's last dimension: V is 16 bytes' worth
//!   when the tile's row length, the start and the source's row stride are provably multiples of
//!   it (`prove-alignment`'s divisibility analysis), narrower otherwise, down to one element.
//!   When the proof falls short but the tile's rows hold whole 16-byte chunks, the copy is
//!   versioned: a test of the start and the row stride at run time picks 16-byte chunks (their
//!   alignment stated on the accesses; the simulator faults if a claim is wrong) or the proven V.
//!   Thread t copies chunks t, t + T, t + 2T, ... (T threads per CTA).
//! - Elements outside the tensor are never read; the tile holds zero there, or the copy's fill
//!   value. A chunk that crosses the tensor's edge is copied element by element, each element's
//!   bounds test an `scf.if {phobos.masked}` (the simulator's trace counts the lanes that fail it).
//! - A tile marked `swizzle` (by `tile-swizzle`: only tensor cores read it) stores each chunk at
//!   its swizzled offset.
//! - Asynchronous (sm_80 and later), a chunk of 4, 8 or 16 bytes is `nvvm.cp.async.shared.global`
//!   (`.cg` for 16 bytes, `.ca` below), bypassing registers: a chunk at the edge copies its
//!   elements inside the tensor (`src-size`) and the hardware zero-fills the rest; with a nonzero
//!   fill value, edge chunks are stored element by element as above. The caller commits and
//!   waits ([`commit`], [`wait`]). Narrower chunks go through registers.

use crate::{
    analysis::divisibility::Divisibility,
    emit::control::{for_loop, if_else},
    emit::ids::workgroup_global,
    emit::pointer,
};
use phobos_ir::{Builder, Op, Val};

/// The name of the dynamic shared memory global.
pub const DYNAMIC_SMEM: &str = "__phobos_dynamic_smem";

/// The kernel's dynamic shared memory: an external zero-length workgroup global (MLIR's
/// `gpu.dynamic_shared_memory` would overlap static shared memory).
pub fn dynamic_smem<'a>(module: Op<'a>, b: Builder<'a>) -> Val<'a> {
    let mty = b.ctx.known_type("memref<0xi8, #gpu.address_space<workgroup>>");
    workgroup_global(module, b, DYNAMIC_SMEM, mty, true)
}

/// Raises the dynamic shared memory's alignment to `align` bytes (declaring it if need be):
/// `wgmma`'s swizzles are on absolute shared addresses.
pub fn align_dynamic_smem<'a>(module: Op<'a>, b: Builder<'a>, align: i64) {
    dynamic_smem(module, b);
    let body = module.region(0).first_block().expect("gpu.module has a body");
    if let Some(g) = body.ops().find(|o| o.is("memref.global") && o.str_attr("sym_name").as_deref() == Some(DYNAMIC_SMEM)) {
        if g.int_attr("alignment").unwrap_or(0) < align {
            g.set_attr("alignment", b.ctx.int_attr(b.ctx.i(64), align));
        }
    }
}

/// The view of the dynamic shared memory at byte `offset`, of the tile's type, named.
pub fn view<'a>(module: Op<'a>, b: Builder<'a>, offset: Val<'a>, ty: phobos_ir::Ty<'a>, name: &str) -> Val<'a> {
    let base = dynamic_smem(module, b);
    b.op_value("memref.view", &[base, offset], ty, &[("phobos.name", b.ctx.str_attr(name))])
}

/// `cp.async.commit_group`: this thread's copies since the last commit become one group.
pub fn commit(b: Builder) {
    b.op("nvvm.cp.async.commit.group", &[], &[], &[]);
}

/// `cp.async.wait_group n`: this thread's groups but the `n` newest have landed.
pub fn wait(b: Builder, n: i64) {
    b.op("nvvm.cp.async.wait.group", &[], &[], &[("n", b.ctx.int_attr(b.ctx.i(32), n))]);
}

/// A tile copy: `src[starts :+ shape]` of the row-major tensor of sizes `dims`.
pub struct TileCopy<'a> {
    pub src: Val<'a>,
    pub starts: Vec<Val<'a>>,
    pub dims: Vec<Val<'a>>,
    pub shape: Vec<i64>,
    /// The fill value's bits (an index), when the copy has one.
    pub fill: Option<Val<'a>>,
    /// The swizzle of a 2-D tile's element offsets (`tile-swizzle`).
    pub swizzle: Option<[i64; 3]>,
}

impl<'a> TileCopy<'a> {
    /// The copy a `tile.copy` makes (verified).
    pub fn of(op: Op<'a>) -> TileCopy<'a> {
        let shape = phobos_dialects::tile::shape(op);
        let rank = shape.len();
        TileCopy {
            src: op.operand(0),
            starts: (0..rank).map(|d| op.operand(1 + d)).collect(),
            dims: (0..rank).map(|d| op.operand(1 + rank + d)).collect(),
            shape,
            fill: phobos_dialects::tile::fill(op),
            swizzle: op.attr("swizzle").and_then(|a| a.dense_ints()).and_then(|s| <[i64; 3]>::try_from(s).ok()),
        }
    }

    /// Emits the copy into `view` at `b` (`func` the kernel, `block` its CTA's extents), as
    /// `cp.async` where `asynchronous` allows; whether it issued any (to commit and wait for).
    pub fn emit(&self, b: Builder<'a>, func: Op<'a>, block: [i64; 3], view: Val<'a>, asynchronous: bool) -> bool {
        let (src, starts, dims, shape) = (self.src, &self.starts, &self.dims, &self.shape);
        let rank = shape.len();
        let threads = block[0] * block[1] * block[2];
        let elem = view.ty().element();
        let ebytes = elem.scalar().map(|s| s.bits().div_ceil(8) as i64).unwrap_or(4);
        // The chunk width: 16 bytes when proven, else the widest power of two that is.
        let last = shape[rank - 1];
        let mut div = Divisibility::new(func);
        let mut proven = div.of(starts[rank - 1]);
        // Every row stride is a multiple of the last dimension, so that one must keep the alignment.
        if rank > 1 {
            proven = proven.min(div.of(dims[rank - 1]));
        }
        let vmax = (16 / ebytes).max(1);
        let mut v = vmax;
        while v > 1 && (last % v != 0 || proven < v as u64) {
            v /= 2;
        }
        // Versioned at run time when the proof falls short but the tile's rows hold whole 16-byte
        // chunks: where the start and the row length turn out multiples of the chunk, 16-byte
        // copies (their alignment claimed, the tensor's base being 16-byte aligned), else `v`.
        let base_align = crate::analysis::prove_alignment::element_alignment(func, &mut div, src, b.index(0));
        let versioned = v < vmax && last % vmax == 0 && base_align >= 16;

        // Thread t copies chunks t, t + T, ...
        let tid = crate::emit::ids::linear_thread_id(b, Some(block));
        // A tile inside a tensor of constant sizes needs no edge handling.
        let inside = (0..rank).all(|d| match (starts[d].const_int(), dims[d].const_int()) {
            (Some(s), Some(n)) => s >= 0 && s + shape[d] <= n,
            _ => false,
        });
        let outside = match self.fill {
            // The fill's bits, back to the element type.
            Some(bits) => {
                let width = elem.scalar().map(|s| s.bits()).unwrap_or(32);
                let int = b.cast("arith.index_castui", bits, b.ctx.i(width));
                if elem.is_float() {
                    b.cast("arith.bitcast", int, elem)
                } else {
                    int
                }
            }
            None if elem.is_float() => b.const_float(elem, 0.0),
            None => b.const_int(elem, 0),
        };
        // A tile that only tensor cores read is stored under its swizzle (`tile-swizzle`).
        let swizzle = self.swizzle.filter(|_| rank == 2);
        let store_at = |lb: Builder<'a>, coords: &[Val<'a>]| -> Vec<Val<'a>> {
            let Some(sw) = swizzle else { return coords.to_vec() };
            let cols = lb.index(last);
            let lin = lb.bin("arith.addi", lb.bin("arith.muli", coords[0], cols), coords[1]);
            let s = crate::emit::swizzle::apply(lb, lin, sw);
            vec![lb.bin("arith.divui", s, cols), lb.bin("arith.remui", s, cols)]
        };
        // Asynchronous copies (sm_80+) for chunks of 4 bytes or more; the zero fill is the
        // hardware's (`src-size`), any other fill is stored element by element.
        let zero_fill = self.fill.is_none_or(|bits| bits.const_int() == Some(0));
        let (tile_ptr, src_ptr) =
            if asynchronous { (Some(pointer::base(b, view, 3)), Some(pointer::base(b, src, 1))) } else { (None, None) };
        let issued = std::cell::Cell::new(false);
        // `cp.async` of `bytes` from `from` to the chunk at `coords`; `valid`: the bytes read (the
        // rest zero), all when `None`.
        let cp_async = |lb: Builder<'a>, coords: &[Val<'a>], from: Val<'a>, bytes: i64, valid: Option<Val<'a>>| {
            let (Some(tile_ptr), Some(_)) = (tile_ptr, src_ptr) else { return };
            let at = store_at(lb, coords);
            let mut lin = at[0];
            for (d, c) in at.iter().enumerate().skip(1) {
                lin = lb.bin("arith.addi", lb.bin("arith.muli", lin, lb.index(shape[d])), *c);
            }
            let to = pointer::offset(lb, tile_ptr, lb.bin("arith.muli", lin, lb.index(ebytes)));
            let ctx = lb.ctx;
            let cache = if bytes == 16 { "cg" } else { "ca" };
            let attrs =
                [("size", ctx.int_attr(ctx.i(32), bytes)), ("modifier", ctx.known_attr(&format!("#nvvm<load_cache_modifier {cache}>")))];
            let mut operands = vec![to, from];
            operands.extend(valid.map(|n| lb.cast("arith.index_cast", n, ctx.i(32))));
            lb.op("nvvm.cp.async.shared.global", &operands, &[], &attrs);
            issued.set(true);
        };
        // The copy in chunks of `v` elements; `claim`: the alignment in bytes its accesses have.
        let copy = |b: Builder<'a>, v: i64, claim: Option<i64>| {
            let chunk_async = asynchronous && [4, 8, 16].contains(&(v * ebytes));
            let chunks_per_row = last / v;
            let total_chunks: i64 = shape[..rank - 1].iter().product::<i64>() * chunks_per_row;
            let ub = b.index(total_chunks);
            let step = b.index(threads);
            let vec_ty = b.ctx.known_type(&format!("vector<{v}x{elem}>"));
            let aligned = |o: Op<'a>| {
                if let Some(a) = claim {
                    o.set_attr("alignment", o.ctx().int_attr(o.ctx().i(64), a));
                }
            };
            for_loop(b, tid, ub, step, |lb, c| {
                // Tile coordinates of the chunk (row-major), then the tensor's.
                let cpr = lb.index(chunks_per_row);
                let mut coords = vec![lb.index(0); rank];
                let col = lb.bin("arith.remui", c, cpr);
                coords[rank - 1] = lb.bin("arith.muli", col, lb.index(v));
                let mut rest = lb.bin("arith.divui", c, cpr);
                for d in (0..rank - 1).rev() {
                    let e = lb.index(shape[d]);
                    coords[d] = lb.bin("arith.remui", rest, e);
                    rest = lb.bin("arith.divui", rest, e);
                }
                let g: Vec<Val> = (0..rank).map(|d| lb.bin("arith.addi", starts[d], coords[d])).collect();
                // The linear index of the chunk's first element in the tensor.
                let mut lin = g[0];
                for d in 1..rank {
                    lin = lb.bin("arith.muli", lin, dims[d]);
                    lin = lb.bin("arith.addi", lin, g[d]);
                }
                // In bounds: every row coordinate, and the chunk's last element.
                let mut rows_ok = lb.cmpi("eq", lb.index(0), lb.index(0));
                for d in 0..rank - 1 {
                    let ok = lb.cmpi("ult", g[d], dims[d]);
                    rows_ok = lb.bin("arith.andi", rows_ok, ok);
                }
                let vlast = lb.bin("arith.addi", g[rank - 1], lb.index(v - 1));
                let inb = lb.bin("arith.andi", lb.cmpi("ult", vlast, dims[rank - 1]), rows_ok);
                // The edge: element by element, the fill value (zero by default) outside.
                let edge_vector = |eb: Builder<'a>| -> Val<'a> {
                    let mut elems = Vec::new();
                    for k in 0..v {
                        let col_k = eb.bin("arith.addi", g[rank - 1], eb.index(k));
                        let col_ok = eb.cmpi("ult", col_k, dims[rank - 1]);
                        let ok = eb.bin("arith.andi", rows_ok, col_ok);
                        let at = eb.bin("arith.addi", lin, eb.index(k));
                        let e = if_else(eb, ok, &[elem], |ib| vec![ib.op_value("memref.load", &[src, at], elem, &[])], |_| vec![outside]);
                        // The lanes that take the else branch hold a masked element (phobos explain).
                        e.set_attr("phobos.masked", eb.ctx.unit_attr());
                        elems.push(e.result(0));
                    }
                    eb.op_value("vector.from_elements", &elems, vec_ty, &[])
                };
                let src_base = || src_ptr.expect("asynchronous copies have the source's pointer");
                let global_at = |lb: Builder<'a>| pointer::offset(lb, src_base(), lb.bin("arith.muli", lin, lb.index(ebytes)));
                if chunk_async && inside {
                    cp_async(lb, &coords, global_at(lb), v * ebytes, None);
                    return;
                }
                if chunk_async && zero_fill {
                    // The elements of the chunk inside the tensor: none past a row bound, else up to
                    // the last dimension's end.
                    let col_ok = lb.cmpi("ult", g[rank - 1], dims[rank - 1]);
                    let ok = lb.bin("arith.andi", rows_ok, col_ok);
                    let zero = lb.index(0);
                    let rest = lb.bin(
                        "arith.subi",
                        lb.op_value("arith.select", &[col_ok, dims[rank - 1], g[rank - 1]], lb.ctx.index(), &[]),
                        g[rank - 1],
                    );
                    let elems = lb.op_value("arith.select", &[ok, lb.bin("arith.minui", rest, lb.index(v)), zero], lb.ctx.index(), &[]);
                    // A chunk wholly outside reads nothing; its address is the tensor's start.
                    let any = lb.cmpi("ne", elems, zero);
                    let from = lb.op_value("arith.select", &[any, global_at(lb), src_base()], src_base().ty(), &[]);
                    cp_async(lb, &coords, from, v * ebytes, Some(lb.bin("arith.muli", elems, lb.index(ebytes))));
                    return;
                }
                if chunk_async {
                    // A nonzero fill: whole chunks asynchronously, edge chunks element by element.
                    if_else(
                        lb,
                        inb,
                        &[],
                        |tb| {
                            cp_async(tb, &coords, global_at(tb), v * ebytes, None);
                            vec![]
                        },
                        |eb| {
                            let mut st = vec![edge_vector(eb), view];
                            st.extend(store_at(eb, &coords));
                            aligned(eb.op("vector.store", &st, &[], &[]));
                            vec![]
                        },
                    );
                    return;
                }
                if inside {
                    let load = lb.op("vector.load", &[src, lin], &[vec_ty], &[]);
                    aligned(load);
                    let mut st = vec![load.result(0), view];
                    st.extend(store_at(lb, &coords));
                    aligned(lb.op("vector.store", &st, &[], &[]));
                    return;
                }
                let chunk = if_else(
                    lb,
                    inb,
                    &[vec_ty],
                    |tb| {
                        let load = tb.op("vector.load", &[src, lin], &[vec_ty], &[]);
                        aligned(load);
                        vec![load.result(0)]
                    },
                    |eb| vec![edge_vector(eb)],
                );
                let mut st = vec![chunk.result(0), view];
                st.extend(store_at(lb, &coords));
                aligned(lb.op("vector.store", &st, &[], &[]));
            });
        };
        if versioned {
            let m = b.index(vmax);
            let zero = b.index(0);
            let mut whole = b.cmpi("eq", b.bin("arith.remui", starts[rank - 1], m), zero);
            if rank > 1 {
                let row = b.cmpi("eq", b.bin("arith.remui", dims[rank - 1], m), zero);
                whole = b.bin("arith.andi", whole, row);
            }
            if_else(
                b,
                whole,
                &[],
                |tb| {
                    copy(tb, vmax, Some(16));
                    vec![]
                },
                |eb| {
                    copy(eb, v, None);
                    vec![]
                },
            );
        } else {
            copy(b, v, None);
        }
        issued.get()
    }
}
