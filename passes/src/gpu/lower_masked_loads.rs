//! `lower-masked-loads`: rewrites `vector.maskedload` into loads at clamped indices and selects,
//! on the way to LLVM.
//!
//! A read with a fill value (`X[r, j] else v`) is a `vector.maskedload` at L1: the simulator
//! reads only the elements whose mask bit is set. MLIR lowers it to `llvm.masked.load`, which
//! NVPTX scalarizes into a branch per element. Here each element is instead read at its index
//! when its bit is set and at index 0 when not (every index 0: in bounds of any non-empty
//! memref), then selected against the fill: no branch, no fault. The runtime never passes an
//! empty buffer without an address, so index 0 is readable. Postcondition: no
//! `vector.maskedload` is left.

use crate::{
    emit::vector::extract,
    external::PassCx,
    patterns::{self, Illegal, Pattern, DISABLE_PATTERNS},
    registry::PassInfo,
};
use phobos_ir::{diag::Diagnostic, Builder, Op, Val};

/// The patterns of `lower-masked-loads`.
pub fn populate_lower_masked_loads_patterns(patterns: &mut Vec<Pattern>) {
    patterns.push(Pattern::new("vector.maskedload", lower_masked_load));
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let mut ps = Vec::new();
    populate_lower_masked_loads_patterns(&mut ps);
    patterns::apply(module, cx, "lower-masked-loads", &ps, Illegal::named(&[], &["vector.maskedload"]))
}

/// `vector.maskedload %m[%i...], %mask, %pass`: element `e` at `%i...` with the last index
/// advanced by `e`.
fn lower_masked_load<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let ops = op.operands();
    let (mem, mask, pass) = (ops[0], ops[ops.len() - 2], ops[ops.len() - 1]);
    let idx = &ops[1..ops.len() - 2];
    let ty = op.result(0).ty();
    let n = ty.shape().first().copied().flatten().ok_or_else(|| Diagnostic::op_error(op, "a masked load of a dynamic vector"))?;
    let b = Builder::before(op);
    let zero = b.index(0);
    let mut elems = Vec::new();
    for e in 0..n {
        let ok = extract(b, mask, e);
        let mut at: Vec<Val<'a>> = idx.to_vec();
        if e > 0 {
            let last = at.len() - 1;
            at[last] = b.bin("arith.addi", at[last], b.index(e));
        }
        let safe: Vec<Val<'a>> = at.iter().map(|i| b.select(ok, *i, zero)).collect();
        let operands: Vec<Val<'a>> = std::iter::once(mem).chain(safe).collect();
        let x = b.op_value("memref.load", &operands, ty.element(), &[]);
        elems.push(b.select(ok, x, extract(b, pass, e)));
    }
    Ok(vec![b.op_value("vector.from_elements", &elems, ty, &[])])
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "lower-masked-loads",
    name: "LowerMaskedLoads",
    summary: "vector.maskedload to loads at clamped indices and selects: no branch in the PTX",
    description: "Rewrites each vector.maskedload (a read with a fill value) into one load per \
    element, at its index when its mask bit is set and at index 0 when not, and a select against \
    the pass-through value: no branch and no out-of-bounds read in the PTX.",
    anchor: "",
    options: &[DISABLE_PATTERNS],
    run,
};
