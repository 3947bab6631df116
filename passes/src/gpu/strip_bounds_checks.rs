//! `strip-bounds-checks`: erases the `cf.assert`s marked `phobos.bounds`.
//!
//! The frontend checks every tensor subscript against its dimension with such an assert. The
//! simulator runs the SIMT level and reports a failing one as an out-of-bounds access naming the
//! subscript; the PTX must not pay for them, so this pass runs first on the way to LLVM. The
//! comparisons feeding the asserts are then dead, and the pipeline's canonicalize removes them.
//! Other asserts are kept.

use crate::external::PassCx;
use crate::registry::PassInfo;
use phobos_ir::Op;

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    for op in module.walk().into_iter().filter(|o| o.is("cf.assert") && o.attr("phobos.bounds").is_some()) {
        cx.erase(op);
    }
    Ok(())
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "strip-bounds-checks",
    name: "StripBoundsChecks",
    summary: "erases the subscript checks (cf.assert {phobos.bounds}) the simulator runs and the PTX does not",
    description: "Erases the cf.asserts the frontend emits to check tensor subscripts \
    (marked phobos.bounds): the simulator runs them, the PTX does not pay for them. Other asserts are kept.",
    anchor: "",
    options: &[],
    run,
};
