//! `lower-math-intrinsics`: rewrites the `math` ops that MLIR 22's `convert-gpu-to-nvvm` leaves
//! unconverted into LLVM intrinsics, on the way to LLVM: `math.trunc` into `llvm.intr.trunc`
//! (`cvt.rzi` in PTX) and `math.absi` into `llvm.intr.abs` (`abs.s32`/`abs.s64`; the most
//! negative value stays itself, as the simulator has it). The other `math` ops become libdevice
//! calls in `convert-gpu-to-nvvm`. Postcondition: no `math.trunc` or `math.absi` is left.

use crate::{
    external::PassCx,
    patterns::{self, Illegal, Pattern, DISABLE_PATTERNS},
    registry::PassInfo,
};
use phobos_ir::{diag::Diagnostic, Builder, Op, Val};

/// The patterns of `lower-math-intrinsics`.
pub fn populate_lower_math_intrinsics_patterns(patterns: &mut Vec<Pattern>) {
    patterns.push(Pattern::new("math.trunc", lower_trunc));
    patterns.push(Pattern::new("math.absi", lower_absi));
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let mut ps = Vec::new();
    populate_lower_math_intrinsics_patterns(&mut ps);
    patterns::apply(module, cx, "lower-math-intrinsics", &ps, Illegal::named(&[], &["math.trunc", "math.absi"]))
}

fn lower_trunc<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let t = Builder::before(op).op("llvm.intr.trunc", &op.operands(), &[op.result(0).ty()], &[]);
    Ok(vec![t.result(0)])
}

fn lower_absi<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let b = Builder::before(op);
    let poison = b.ctx.known_attr("false");
    let a = b.op("llvm.intr.abs", &op.operands(), &[op.result(0).ty()], &[("is_int_min_poison", poison)]);
    Ok(vec![a.result(0)])
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "lower-math-intrinsics",
    name: "LowerMathIntrinsics",
    summary: "math.trunc and math.absi to LLVM intrinsics (convert-gpu-to-nvvm leaves them)",
    description: "Rewrites math.trunc into llvm.intr.trunc and math.absi into llvm.intr.abs \
    {is_int_min_poison = false}, which MLIR 22's convert-gpu-to-nvvm does not convert.",
    anchor: "",
    options: &[DISABLE_PATTERNS],
    run,
};
