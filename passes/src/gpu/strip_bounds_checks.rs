//! `strip-bounds-checks`: erases the `cf.assert`s marked `phobos.bounds`.
//!
//! The frontend checks every tensor subscript against its dimension with such an assert. The
//! simulator runs the SIMT level and reports a failing one as an out-of-bounds access naming the
//! subscript; the PTX must not pay for them, so this pass runs first on the way to LLVM. The
//! comparisons feeding the asserts are then dead, and the pipeline's canonicalize removes them.
//! Other asserts are kept.

use crate::external::PassCx;
use phobos_dialects::ir::Op;

pub const DESCRIPTION: &str = "Erases the cf.asserts the frontend emits to check tensor subscripts \
(marked phobos.bounds): the simulator runs them, the PTX does not pay for them. Other asserts are kept.";

pub fn run(module: Op, _cx: &PassCx) -> Result<(), ()> {
    for op in module.walk().into_iter().filter(|o| o.is("cf.assert") && o.attr("phobos.bounds").is_some()) {
        op.erase();
    }
    Ok(())
}
