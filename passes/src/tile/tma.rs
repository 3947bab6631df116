//! `tile-tma{chip=sm_90}`: marks the tile copies the Tensor Memory Accelerator makes. On
//! sm_90a a `tile.copy` of a kernel's tensor becomes one `cp.async.bulk.tensor` of the whole
//! tile (`emit::tma`) when TMA can make it: rank 1 to 5, every extent at most 256, rows of a
//! multiple of 16 bytes, the tensor's row stride a proven multiple of 16 bytes (its last
//! dimension's divisibility: `@aligned` or a constant), sizes that are the tensor's own, a zero
//! fill (TMA zero-fills what lies outside), a layout TMA writes (row-major, or under
//! `tile-swizzle`'s swizzle when it is TMA's 32-, 64- or 128-byte mode with rows of exactly
//! that span), and a tensor the kernel does not write (TMA reads through the async proxy). The
//! copy gets `tma = SPAN` (0: no swizzle), which `tile-plan-shared-memory` (1024-byte
//! alignment), `tile-pipeline` and `convert-tile-to-gpu` honour. A remark says which copies TMA
//! makes, and why not for the others. Runs after `tile-swizzle`.

use crate::emit::tma;
use crate::external::PassCx;
use crate::registry::{OptInfo, PassInfo};
use phobos_ir::{
    diag::{Diagnostic, Severity},
    Op,
};

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let chip = cx.options.get("chip").unwrap_or("sm_90");
    if chip != "sm_90a" {
        return Ok(());
    }
    for copy in module.walk().into_iter().filter(|o| o.is("tile.copy") && o.attr("tma").is_none()) {
        let name = phobos_dialects::tile::buffer_name(copy);
        match tma::span(copy) {
            Ok(span) => {
                copy.set_attr("tma", copy.ctx().int_attr(copy.ctx().i(64), span));
                let how = if span == 0 { "row-major".to_string() } else { format!("in the {span}-byte swizzle") };
                cx.diags.emit(Diagnostic::new(
                    Severity::Remark,
                    copy.loc().src(),
                    format!("tile {name}: copied by TMA (cp.async.bulk.tensor), {how}"),
                ));
            }
            Err(why) => {
                cx.diags.emit(Diagnostic::new(Severity::Remark, copy.loc().src(), format!("tile {name}: not copied by TMA: {why}")))
            }
        }
    }
    Ok(())
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "tile-tma",
    name: "TileTma",
    summary: "marks the tile copies TMA makes on sm_90a (tma = swizzle span), with a remark for each",
    description: "On sm_90a, marks each tile.copy that the Tensor Memory Accelerator can make (a kernel tensor's \
    tile of rank 1-5, extents up to 256, 16-byte rows and row stride, zero fill, row-major or in TMA's 32/64/128-byte \
    swizzle) with tma = SPAN; a remark says why not for the others. Runs after tile-swizzle.",
    anchor: "gpu.module",
    options: &[OptInfo { name: "chip", help: "the target chip: TMA copies on sm_90a only", default: "sm_90" }],
    run,
};
