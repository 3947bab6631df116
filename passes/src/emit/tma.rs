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

use crate::emit::{control::if_then, ids::workgroup_global, pointer};
use phobos_ir::{Builder, Op, Val};

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
    /// The TMA copy a `tile.copy` marked `tma` makes, if it is one.
    pub fn of(copy: Op) -> Option<TmaCopy> {
        let span = copy.int_attr("tma")?;
        let shape = phobos_dialects::tile::shape(copy);
        let ebytes = copy.result(0).ty().element().scalar().map(|s| s.bits().div_ceil(8) as i64)?;
        Some(TmaCopy { bytes: shape.iter().product::<i64>() * ebytes, shape, swizzle: span })
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
