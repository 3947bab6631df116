//! `lower-fma`: rewrites `math.fma` into `llvm.intr.fma`, on the way to LLVM.
//!
//! The frontend contracts float sums of products into `math.fma` (one rounding, as CUDA does by
//! default); the simulator runs them as such. MLIR 22's `convert-gpu-to-nvvm` maps `math.fma` to
//! libdevice's `__nv_fmaf`, a call that needs libdevice linked; the LLVM intrinsic is what that
//! call becomes anyway, and NVPTX selects it as `fma.rn`. So this pass runs first on the way to
//! LLVM. Postcondition: no `math.fma` is left.

use crate::external::PassCx;
use phobos_dialects::ir::{Builder, Op};

pub const DESCRIPTION: &str = "Rewrites math.fma into llvm.intr.fma (fma.rn in PTX), so that fused \
multiply-adds need no libdevice.";

pub fn run(module: Op, _cx: &PassCx) -> Result<(), ()> {
    for op in module.walk().into_iter().filter(|o| o.is("math.fma")) {
        let b = Builder::before(op);
        let fma = b.op("llvm.intr.fma", &op.operands(), &[op.result(0).ty()], &[]);
        op.replace_with(&[fma.result(0)]);
    }
    Ok(())
}
