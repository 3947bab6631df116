//! LLVM pointers to memrefs' memory, for the SIMT-level `nvvm` ops that take them (`ldmatrix`,
//! `cp.async`): the memref's aligned base address, cast to a pointer of its address space.

use phobos_ir::{Builder, Val};

/// A memref's base address as a `!llvm.ptr<space>`: 3 for shared memory (what `ldmatrix` and
/// `cp.async`'s destination take), 1 for global (`cp.async`'s source; generic, then cast).
pub fn base<'a>(b: Builder<'a>, mem: Val<'a>, space: u32) -> Val<'a> {
    let ctx = b.ctx;
    let idx = b.op_value("memref.extract_aligned_pointer_as_index", &[mem], ctx.index(), &[]);
    let i64v = b.cast("arith.index_cast", idx, ctx.i(64));
    if space == 3 {
        return b.op_value("llvm.inttoptr", &[i64v], ctx.known_type("!llvm.ptr<3>"), &[]);
    }
    let generic = b.op_value("llvm.inttoptr", &[i64v], ctx.known_type("!llvm.ptr"), &[]);
    b.op_value("llvm.addrspacecast", &[generic], ctx.known_type(&format!("!llvm.ptr<{space}>")), &[])
}

/// `base + bytes` (an `i8` getelementptr).
pub fn offset<'a>(b: Builder<'a>, base: Val<'a>, bytes: Val<'a>) -> Val<'a> {
    let ctx = b.ctx;
    let i = b.cast("arith.index_cast", bytes, ctx.i(64));
    let attrs = [
        ("elem_type", ctx.known_attr("i8")),
        ("noWrapFlags", ctx.known_attr("0 : i32")),
        ("rawConstantIndices", ctx.known_attr("array<i32: -2147483648>")),
    ];
    b.op_value("llvm.getelementptr", &[base, i], base.ty(), &attrs)
}

/// The SM version of a chip name (`sm_90a` -> 90; 0 when it is none).
pub fn sm(chip: &str) -> u32 {
    chip.trim_start_matches("sm_").trim_end_matches('a').parse().unwrap_or(0)
}
