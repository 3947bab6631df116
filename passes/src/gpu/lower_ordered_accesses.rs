//! `lower-ordered-accesses`: rewrites the ordered accesses of the SIMT level into LLVM atomic
//! loads and stores at GPU scope, on the way to LLVM.
//!
//! The frontend writes `load_acquire(t[i])` as `memref.atomic_rmw ori 0 {phobos.ordering =
//! "acquire"}` (an atomic read: a spin loop on it is never taken for a loop without effects and
//! removed) and `store_release(t[i], v)` as `memref.store {phobos.ordering = "release"}`: at the
//! SIMT level the simulator runs them as a load and a store. LLVM
//! needs the ordering on the access itself: this pass takes the element's address (the memref's
//! aligned pointer plus the row-major offset) and emits `llvm.load ... atomic acquire
//! syncscope("device")` / `llvm.store ... atomic release syncscope("device")`, which NVPTX
//! selects as `ld.acquire.gpu` / `st.release.gpu`. Shared memory keeps its address space.
//! `atomic_cas` (a `memref.generic_atomic_rmw` compare-and-swap, which MLIR would lower to a
//! load and a system-scope `cmpxchg` loop) becomes one `llvm.cmpxchg` at GPU scope, relaxed as
//! CUDA's `atomicCAS` (`atom.relaxed.gpu.cas`; order with `load_acquire`/`fence`).
//! Postcondition: no memref access carries `phobos.ordering`; no compare-and-swap is left as a
//! generic_atomic_rmw.
//!
//! A kernel parameter that an ordered access reaches loses `llvm.noalias`: memory that other
//! threads write while the kernel runs is not the kernel's alone, and NVPTX would otherwise read
//! a parameter the kernel never writes through the non-coherent cache (`ld.global.nc`), and
//! crash selecting it for an atomic load.

use crate::{
    external::PassCx,
    patterns::{self, Illegal, Pattern, DISABLE_PATTERNS},
    registry::PassInfo,
};
use phobos_ir::{diag::Diagnostic, Builder, Op, Val};

/// The patterns of `lower-ordered-accesses`: an access with `phobos.ordering`, and a
/// compare-and-swap.
pub fn populate_lower_ordered_accesses_patterns(patterns: &mut Vec<Pattern>) {
    patterns.extend([
        Pattern::when("memref.atomic_rmw", has_ordering, lower),
        Pattern::when("memref.store", has_ordering, lower),
        Pattern::when("memref.generic_atomic_rmw", is_cas, lower),
    ]);
}

fn has_ordering(o: Op) -> bool {
    o.attr("phobos.ordering").is_some()
}

fn is_cas(o: Op) -> bool {
    phobos_ir::idioms::compare_and_swap(o).is_some()
}

/// What must be gone after the pass: every access the patterns lower.
fn ordered(o: Op) -> bool {
    ((o.is("memref.atomic_rmw") || o.is("memref.store")) && has_ordering(o)) || is_cas(o)
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    // First every parameter an ordered access reaches loses `noalias` (for the plain accesses
    // of it too, lowered by LLVM later).
    for op in module.walk().into_iter().filter(|o| ordered(*o)) {
        // (value, memref, indices) for a store or an atomic_rmw; (memref, indices) for a CAS.
        shared_with_others(op.operand(if op.is("memref.generic_atomic_rmw") { 0 } else { 1 }));
    }
    let mut ps = Vec::new();
    populate_lower_ordered_accesses_patterns(&mut ps);
    let illegal = Illegal { dialects: &[], ops: &[], when: Some(ordered) };
    patterns::apply(module, cx, "lower-ordered-accesses", &ps, illegal)
}

/// Drops `llvm.noalias` from the kernel parameter `mem` views, if it views one.
fn shared_with_others(mem: Val) {
    let mut v = mem;
    while let Some(d) = v.def() {
        if d.num_operands() == 0 || !d.operand(0).ty().is_memref() {
            return;
        }
        v = d.operand(0);
    }
    let Some((blk, index)) = v.block_arg() else { return };
    let Some(func) = blk.parent_op().filter(|f| f.is("gpu.func")) else { return };
    let Some(attrs) = func.attr("arg_attrs").and_then(|a| a.array()) else { return };
    let Some(dict) = attrs.get(index) else { return };
    let kept: Vec<(String, phobos_ir::Attr)> = dict.dict_entries().into_iter().filter(|(n, _)| n != "llvm.noalias").collect();
    if kept.len() == dict.dict_entries().len() {
        return;
    }
    let ctx = func.ctx();
    let mut all = attrs.clone();
    all[index] = ctx.dict_attr(&kept);
    func.set_attr("arg_attrs", ctx.array_attr(&all));
}

/// The element's address as an LLVM pointer (its memref's address space kept), and the
/// element's type and bytes.
fn address<'a>(op: Op<'a>, mem: Val<'a>, idx: &[Val<'a>]) -> Result<(Val<'a>, phobos_ir::Ty<'a>, i64), Diagnostic> {
    let mty = mem.ty();
    let elem = mty.element();
    let bytes = elem.scalar().map(|s| s.bits().div_ceil(8) as i64).unwrap_or(0);
    if bytes < 4 {
        return Err(Diagnostic::op_error(op, format!("an ordered access reads or writes 4 or 8 bytes, not {elem}")));
    }
    let shape = mty.shape();
    if shape.iter().any(|d| d.is_none()) {
        return Err(Diagnostic::op_error(op, format!("an ordered access needs a static shape, got {mty}")));
    }
    let b = Builder::before(op);
    let ctx = b.ctx;
    let (i64t, index) = (ctx.i(64), ctx.index());
    // The row-major offset of the element.
    let mut lin = b.index(0);
    let mut stride = 1i64;
    for (d, i) in idx.iter().enumerate().rev() {
        let term = if stride == 1 { *i } else { b.bin("arith.muli", *i, b.index(stride)) };
        lin = if d + 1 == idx.len() { term } else { b.bin("arith.addi", lin, term) };
        stride *= shape[d].unwrap_or(1);
    }
    let ptr = ctx.known_type(if mty.memory_space() == 3 { "!llvm.ptr<3>" } else { "!llvm.ptr" });
    let base = b.op_value("memref.extract_aligned_pointer_as_index", &[mem], index, &[]);
    let base = b.cast("arith.index_cast", base, i64t);
    let base = b.op_value("llvm.inttoptr", &[base], ptr, &[]);
    let lin = b.cast("arith.index_cast", lin, i64t);
    let at = b.op_value(
        "llvm.getelementptr",
        &[base, lin],
        ptr,
        &[("rawConstantIndices", ctx.known_attr("array<i32: -2147483648>")), ("elem_type", ctx.known_attr(&format!("{elem}")))],
    );
    Ok((at, elem, bytes))
}

fn lower<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let b = Builder::before(op);
    let ctx = b.ctx;
    let i64t = ctx.i(64);
    if let Some((expected, desired)) = phobos_ir::idioms::compare_and_swap(op) {
        let idx: Vec<Val> = op.operands()[1..].to_vec();
        let (at, elem, bytes) = address(op, op.operand(0), &idx)?;
        let pair = ctx.known_type(&format!("!llvm.struct<({elem}, i1)>"));
        let monotonic = ctx.known_attr("2 : i64");
        let cas = b.op_value(
            "llvm.cmpxchg",
            &[at, expected, desired],
            pair,
            &[
                ("success_ordering", monotonic),
                ("failure_ordering", monotonic),
                ("syncscope", ctx.str_attr("device")),
                ("alignment", ctx.int_attr(i64t, bytes)),
            ],
        );
        return Ok(vec![b.op_value("llvm.extractvalue", &[cas], elem, &[("position", ctx.known_attr("array<i64: 0>"))])]);
    }
    let ordering = op.str_attr("phobos.ordering").unwrap_or_default();
    let store = op.is("memref.store");
    if (store && ordering != "release") || (!store && ordering != "acquire") {
        return Err(Diagnostic::op_error(op, format!("phobos.ordering \"{ordering}\" is not one Phobos emits here")));
    }
    // A release store is (value, memref, indices); an acquire load is an atomic `or 0`, (0,
    // memref, indices).
    let first = 1;
    let idx: Vec<Val> = op.operands()[first + 1..].to_vec();
    let (at, _, bytes) = address(op, op.operand(first), &idx)?;
    let attrs = [
        ("alignment", ctx.int_attr(i64t, bytes)),
        ("ordering", ctx.known_attr(if store { "5 : i64" } else { "4 : i64" })),
        ("syncscope", ctx.str_attr("device")),
    ];
    if store {
        b.op("llvm.store", &[op.operand(0), at], &[], &attrs);
        Ok(vec![])
    } else {
        Ok(vec![b.op_value("llvm.load", &[at], op.result(0).ty(), &attrs)])
    }
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "lower-ordered-accesses",
    name: "LowerOrderedAccesses",
    summary: "memref accesses marked phobos.ordering to LLVM acquire loads / release stores at GPU scope",
    description: "Rewrites memref.atomic_rmw ori 0 {phobos.ordering = \"acquire\"} and memref.store \
    {phobos.ordering = \"release\"} into llvm.load/llvm.store with that ordering and syncscope(\"device\") on the \
    element's address (ld.acquire.gpu / st.release.gpu in PTX).",
    anchor: "",
    options: &[DISABLE_PATTERNS],
    run,
};
