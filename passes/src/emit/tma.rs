//! Tile copies by the Tensor Memory Accelerator (sm_90a): one thread issues
//! `cp.async.bulk.tensor` for the whole tile, which lands in shared memory asynchronously and
//! completes a transaction count on an mbarrier; every thread waits for the mbarrier's phase.
//!
//! - The tensor map (CUDA's `CUtensorMap`: the tensor's address, sizes and strides, the box the
//!   tile is and the swizzle it is stored under) is built by the launcher: each TMA copy gets a
//!   kernel parameter of its own, a 64-bit pointer to the 128-byte map in global memory
//!   (`i64 {phobos.tensor_map = "A", phobos.box = [..], phobos.swizzle = S, phobos.global_dims = [..]}`,
//!   appended after the other parameters; docs/abi.md).
//! - Each copy site has an mbarrier (8 bytes of static shared memory) per stage, which thread 0
//!   initialises at the kernel's entry and, before each use, invalidates and re-initialises for
//!   one arrival per TMA copy of the phase: each copy's `arrive.expect_tx` of its bytes is one,
//!   so the phase completes when every byte has landed.
//! - Fences: the tensor map is acquired for the tensormap proxy at the entry; every thread's
//!   shared-memory accesses are fenced for the async proxy before the barrier that precedes a
//!   copy into bytes they touched.
//! - A waiting thread sees the tile: no barrier is needed after the wait (the mbarrier's
//!   completion orders the copy's writes before every waiter's reads).

use crate::analysis::divisibility::Divisibility;
use crate::emit::{control::if_then, ids::workgroup_global, pointer};
use phobos_ir::{diag::Diagnostic, Builder, Op, Val};

/// What a `tile.copy` marked `tma` (by `tile-tma`) copies: its box and swizzle span.
pub struct TmaCopy {
    /// The box, outermost first (the tile's shape).
    pub shape: Vec<i64>,
    /// The swizzle span in bytes (32, 64, 128), or 0.
    pub swizzle: i64,
    /// The tile's bytes: the transaction count of one copy.
    pub bytes: i64,
}

impl TmaCopy {
    /// The TMA copy a `tile.copy` marked `tma` makes (`None` when unmarked), checked: a mark
    /// (written by hand) on a copy TMA cannot make, or with another layout than the tile's, is
    /// an error at the copy.
    pub fn checked(copy: Op) -> Result<Option<TmaCopy>, Diagnostic> {
        let Some(marked) = copy.int_attr("tma") else { return Ok(None) };
        let span = span(copy).map_err(|why| Diagnostic::op_error(copy, format!("tma = {marked} but TMA cannot make the copy: {why}")))?;
        if span != marked {
            return Err(Diagnostic::op_error(copy, format!("tma = {marked} but the tile's layout is TMA's {span}-byte swizzle")));
        }
        let shape = phobos_dialects::tile::shape(copy);
        let ebytes = copy.result(0).ty().element().scalar().map_or(0, |s| s.bits().div_ceil(8) as i64);
        Ok(Some(TmaCopy { bytes: shape.iter().product::<i64>() * ebytes, shape, swizzle: span }))
    }
}

/// The swizzle span TMA stores `copy`'s tile in (0: none), or why TMA cannot make the copy.
pub fn span(copy: Op) -> Result<i64, String> {
    phobos_dialects::tile::verify(copy).map_err(|d| d.message)?;
    let shape = phobos_dialects::tile::shape(copy);
    let rank = shape.len();
    let ty = copy.result(0).ty();
    let ebytes = ty.element().scalar().map(|s| s.bits().div_ceil(8) as i64).unwrap_or(0);
    let func = copy.ancestor("gpu.func").ok_or("the copy is in no kernel")?;
    let src = copy.operand(0);
    let Some((_, i)) = src.block_arg().filter(|(b, _)| b.parent_op() == Some(func)) else {
        return Err("its source is no tensor parameter of the kernel".into());
    };
    let attrs = func.attr("arg_attrs").and_then(|a| a.array()).unwrap_or_default();
    let dict = attrs.get(i).copied();
    let tensor_dims: Vec<String> = dict
        .and_then(|d| d.dict_get("phobos.dims"))
        .and_then(|a| a.array())
        .map(|v| v.into_iter().filter_map(|x| x.str()).collect())
        .unwrap_or_default();
    if dict.and_then(|d| d.dict_get("llvm.align")).and_then(|a| a.int()).unwrap_or(0) < 16 {
        return Err("its tensor is not 16-byte aligned (a strided view)".into());
    }
    // TMA reads through the async proxy: the kernel's own writes to the tensor would need a
    // proxy fence before each copy.
    let writes = |o: &Op| o.name().contains("store") || o.name().contains("atomic") || o.name().contains("scatter");
    if func.walk().iter().any(|o| writes(o) && o.operands().contains(&src)) {
        return Err("the kernel writes its tensor too (TMA reads it through another proxy)".into());
    }
    if tensor_dims.len() != rank {
        return Err(format!("its tensor's dimensions are not named ({} of the tile's {rank})", tensor_dims.len()));
    }
    if rank > 5 {
        return Err(format!("the tile has {rank} dimensions; TMA copies up to 5"));
    }
    if let Some(e) = shape.iter().find(|e| **e > 256) {
        return Err(format!("an extent of {e}; TMA's box is at most 256 per dimension"));
    }
    if ![1, 2, 4, 8].contains(&ebytes) {
        return Err(format!("elements of {ebytes} bytes"));
    }
    let row = shape[rank - 1] * ebytes;
    if row % 16 != 0 {
        return Err(format!("its rows are {row} bytes, not a multiple of 16"));
    }
    let fill = phobos_dialects::tile::fill(copy);
    if fill.is_some_and(|f| f.const_int() != Some(0)) {
        return Err("a nonzero fill value (TMA fills with zero)".into());
    }
    // The sizes must be the tensor's own, which the launcher puts in the tensor map.
    for (d, name) in tensor_dims.iter().enumerate() {
        let v = copy.operand(1 + rank + d);
        let ok = match (v.const_int(), name.parse::<i64>().ok()) {
            (Some(c), Some(l)) => c == l,
            (Some(_), None) => true, // fixed at compile time (-D, @autotune): the launch's value
            (None, _) => dim_name(func, v).as_deref() == Some(name.as_str()),
        };
        if !ok {
            return Err(format!("size {d} of the copy is not the tensor's dimension {name}"));
        }
    }
    if rank > 1 {
        let mut div = Divisibility::new(func);
        let last = copy.operand(1 + 2 * rank - 1);
        let proven = last.const_int().map_or_else(|| div.of(last) as i64, |c| c & c.wrapping_neg());
        if (proven * ebytes) % 16 != 0 {
            return Err(format!(
                "the tensor's row stride ({} x {ebytes} bytes) is not a proven multiple of 16 bytes (@aligned({} = {}) proves it)",
                tensor_dims[rank - 1],
                tensor_dims[rank - 1],
                16 / ebytes.min(16)
            ));
        }
    }
    let bytes: i64 = shape.iter().product::<i64>() * ebytes;
    let span = match phobos_dialects::tile::swizzle_of(copy, "swizzle") {
        None => 0,
        Some([b, m, 3]) if (1..=3).contains(&b) && (1i64 << m) * ebytes == 16 && row == 16 << b => 16 << b,
        Some(sw) => {
            return Err(format!("its swizzle Swizzle<{}, {}, {}> of {row}-byte rows is none of TMA's modes", sw[0], sw[1], sw[2]));
        }
    };
    // Whole swizzle patterns (8 rows of the span) or 128-byte blocks per stage.
    let unit = if span == 0 { 128 } else { 8 * span };
    if bytes % unit != 0 {
        return Err(format!("the tile's {bytes} bytes are not a multiple of {unit}"));
    }
    Ok(span)
}

/// The `phobos.dim` of the kernel parameter `v` is cast from, if any.
fn dim_name(func: Op, mut v: Val) -> Option<String> {
    loop {
        if let Some((blk, i)) = v.block_arg() {
            if blk.parent_op() != Some(func) {
                return None;
            }
            let attrs = func.attr("arg_attrs").and_then(|a| a.array())?;
            return attrs.get(i)?.dict_get("phobos.dim")?.str();
        }
        let d = v.def()?;
        if !matches!(d.name().as_str(), "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui" | "arith.trunci") {
            return None;
        }
        v = d.operand(0);
    }
}

/// A new kernel parameter: the pointer to the tensor map of `copy`'s tensor (argument `tensor`
/// of `func`), as a generic `!llvm.ptr` at the entry.
pub fn tensor_map_param<'a>(func: Op<'a>, copy: Op<'a>, t: &TmaCopy) -> Result<Val<'a>, String> {
    let ctx = func.ctx();
    let (blk, i) = copy.operand(0).block_arg().ok_or("the source is no kernel parameter")?;
    let attrs = func.attr("arg_attrs").and_then(|a| a.array()).unwrap_or_default();
    let tensor = attrs.get(i).and_then(|d| d.dict_get("phobos.tensor")).and_then(|a| a.str()).unwrap_or_else(|| format!("arg{i}"));
    let rank = t.shape.len();
    // The sizes the copy reads: constants known here, else the launch's (the tensor's dimensions).
    let dims: Vec<String> = (0..rank).map(|d| copy.operand(1 + rank + d).const_int().unwrap_or(-1).to_string()).collect();
    let shape: Vec<String> = t.shape.iter().map(|e| e.to_string()).collect();
    let n = blk.num_args();
    let loc = func.loc();
    let arg = blk.add_arg(ctx.i(64), loc);
    let mut texts: Vec<String> = (0..n).map(|k| attrs.get(k).map_or_else(|| "{}".to_string(), |a| a.to_string())).collect();
    texts.push(format!(
        "{{phobos.tensor_map = \"{tensor}\", phobos.box = array<i64: {}>, phobos.swizzle = {} : i64, phobos.global_dims = array<i64: {}>}}",
        shape.join(", "),
        t.swizzle,
        dims.join(", ")
    ));
    func.set_attr("arg_attrs", ctx.known_attr(&format!("[{}]", texts.join(", "))));
    let tys: Vec<String> = blk.args().iter().map(|a| a.ty().to_string()).collect();
    func.set_attr("function_type", ctx.known_attr(&format!("({}) -> ()", tys.join(", "))));
    let b = Builder::before(blk.first_op().ok_or("the kernel has no body")?);
    let map = b.op_value("llvm.inttoptr", &[arg], ctx.known_type("!llvm.ptr"), &[]);
    // The map was written through the generic proxy (the launcher's copy); TMA reads it
    // through the tensormap proxy, which a kernel must acquire explicitly (PTX ISA 8.3).
    let bytes = b.const_int(ctx.i(32), 128);
    b.op("nvvm.fence.proxy.acquire", &[map, bytes], &[], &[("scope", ctx.known_attr("#nvvm.mem_scope<sys>"))]);
    Ok(map)
}

/// `count` new mbarriers of `module`, contiguous in static shared memory (8 bytes each): the
/// first's address as a `!llvm.ptr<3>` built at `b` ([`nth`] gives the others). Thread 0 of
/// `func` initialises them at its entry, so that every later (re-)initialisation ([`init`])
/// may invalidate them first, as PTX requires.
pub fn mbarriers<'a>(module: Op<'a>, func: Op<'a>, b: Builder<'a>, count: i64) -> Result<Val<'a>, String> {
    let body = module.region(0).first_block().expect("gpu.module has a body");
    let n =
        body.ops().filter(|o| o.is("memref.global") && o.str_attr("sym_name").is_some_and(|s| s.starts_with("__phobos_mbarriers"))).count();
    let name = format!("__phobos_mbarriers{n}");
    let mty = b.ctx.known_type(&format!("memref<{count}xi64, #gpu.address_space<workgroup>>"));
    let entry = func.region(0).first_block().and_then(|blk| blk.first_op()).ok_or("the kernel has no body")?;
    let eb = Builder::before(entry).with_loc(b.loc);
    let tid = crate::emit::ids::linear_thread_id(eb, crate::emit::ids::known_block_size(func));
    let first = pointer::base(eb, workgroup_global(module, eb, &name, mty, false), 3);
    by_first(eb, tid, |tb| {
        let one = tb.const_int(tb.ctx.i(32), 1);
        for i in 0..count {
            let bar = if i == 0 { first } else { nth(tb, first, tb.index(i)) };
            tb.op("nvvm.mbarrier.init", &[bar, one], &[], &[]);
        }
    });
    Ok(pointer::base(b, workgroup_global(module, b, &name, mty, false), 3))
}

/// The mbarrier `i` (an index) after `first`.
pub fn nth<'a>(b: Builder<'a>, first: Val<'a>, i: Val<'a>) -> Val<'a> {
    pointer::offset(b, first, b.bin("arith.muli", i, b.index(8)))
}

/// Thread 0 (`tid`) re-initialises the `count` mbarriers from `first` (invalidated first) for
/// `arrivals` arrivals each (one per TMA copy a phase waits for), then issues what `then`
/// builds; a barrier must follow before any other thread waits on them, and precede it after
/// every thread's last wait on them.
pub fn init<'a>(b: Builder<'a>, tid: Val<'a>, (first, count): (Val<'a>, i64), arrivals: i64, then: impl FnOnce(Builder<'a>)) {
    by_first(b, tid, |tb| {
        let n = tb.const_int(tb.ctx.i(32), arrivals);
        for i in 0..count {
            let bar = if i == 0 { first } else { nth(tb, first, tb.index(i)) };
            tb.op("nvvm.mbarrier.inval", &[bar], &[], &[]);
            tb.op("nvvm.mbarrier.init", &[bar, n], &[], &[]);
        }
        // The initialisation is seen by the copies' completions (the async proxy).
        tb.op("nvvm.fence.mbarrier.init", &[], &[], &[]);
        then(tb);
    });
}

/// The copy of the box at `starts` (outermost first) into `dst` (a `!llvm.ptr<3>`), its bytes
/// expected on `bar`: built where one thread runs it.
pub fn issue<'a>(tb: Builder<'a>, t: &TmaCopy, (map, bar, dst): (Val<'a>, Val<'a>, Val<'a>), starts: &[Val<'a>]) {
    let ctx = tb.ctx;
    let bytes = tb.const_int(ctx.i(32), t.bytes);
    tb.op("nvvm.mbarrier.arrive.expect_tx", &[bar, bytes], &[], &[]);
    // A shared::cluster address (a CTA's own shared memory is in its cluster of one).
    let dst = tb.op_value("llvm.addrspacecast", &[dst], ctx.known_type("!llvm.ptr<7>"), &[]);
    let mut ops = vec![dst, map];
    // Coordinates innermost first, in elements (i32).
    ops.extend(starts.iter().rev().map(|s| tb.cast("arith.index_cast", *s, ctx.i(32))));
    ops.push(bar);
    let seg = ctx.known_attr(&format!("array<i32: 1, 1, {}, 1, 0, 0, 0, 0>", starts.len()));
    tb.op("nvvm.cp.async.bulk.tensor.shared.cluster.global", &ops, &[], &[("operandSegmentSizes", seg)]);
}

/// `fence.proxy.async.shared::cta`: this thread's shared-memory accesses so far (the generic
/// proxy's) are ordered before later ones of the async proxy (TMA's writes, wgmma's reads);
/// a barrier after it extends that to every thread's.
pub fn async_proxy_fence(b: Builder) {
    let kind = b.ctx.known_attr("#nvvm.proxy_kind<async.shared>");
    b.op("nvvm.fence.proxy", &[], &[], &[("kind", kind), ("space", b.ctx.known_attr("#nvvm.shared_space<cta>"))]);
}

/// Thread 0 (`tid`) runs what `body` builds.
pub fn by_first<'a>(b: Builder<'a>, tid: Val<'a>, body: impl FnOnce(Builder<'a>)) {
    let is_first = b.cmpi("eq", tid, b.index(0));
    if_then(b, is_first, body);
}

/// Every thread waits for the phase of `bar` whose parity is `parity` (an i32) to complete.
pub fn wait<'a>(b: Builder<'a>, bar: Val<'a>, parity: Val<'a>) {
    let ticks = b.const_int(b.ctx.i(32), 0x989680);
    b.op("nvvm.mbarrier.try_wait.parity", &[bar, parity, ticks], &[], &[]);
}
