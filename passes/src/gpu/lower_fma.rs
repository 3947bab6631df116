//! `lower-fma`: rewrites `math.fma` into `llvm.intr.fma`, on the way to LLVM.
//!
//! The frontend contracts float sums of products into `math.fma` (one rounding, as CUDA does by
//! default); the simulator runs them as such. MLIR 22's `convert-gpu-to-nvvm` maps `math.fma` to
//! libdevice's `__nv_fmaf`, a call that needs libdevice linked; the LLVM intrinsic is what that
//! call becomes anyway, and NVPTX selects it as `fma.rn`. So this pass runs first on the way to
//! LLVM. Postcondition: no `math.fma` is left.

use crate::{
    external::PassCx,
    patterns::{self, Illegal, Pattern, DISABLE_PATTERNS},
    registry::PassInfo,
};
use phobos_ir::{diag::Diagnostic, Builder, Op, Val};

/// The patterns of `lower-fma`.
pub fn populate_lower_fma_patterns(patterns: &mut Vec<Pattern>) {
    patterns.push(Pattern::new("math.fma", lower_fma));
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let mut ps = Vec::new();
    populate_lower_fma_patterns(&mut ps);
    patterns::apply(module, cx, "lower-fma", &ps, Illegal::named(&[], &["math.fma"]))
}

fn lower_fma<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let fma = Builder::before(op).op("llvm.intr.fma", &op.operands(), &[op.result(0).ty()], &[]);
    Ok(vec![fma.result(0)])
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "lower-fma",
    name: "LowerFma",
    summary: "math.fma to llvm.intr.fma (fma.rn in PTX), needing no libdevice",
    description: "Rewrites math.fma into llvm.intr.fma (fma.rn in PTX), so that fused \
    multiply-adds need no libdevice.",
    anchor: "",
    options: &[DISABLE_PATTERNS],
    run,
};
