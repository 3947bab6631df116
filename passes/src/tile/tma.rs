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

use crate::analysis::divisibility::Divisibility;
use crate::external::PassCx;
use crate::registry::{OptInfo, PassInfo};
use phobos_ir::{
    diag::{Diagnostic, Severity},
    Op, Val,
};

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let chip = cx.options.get("chip").unwrap_or("sm_90");
    if chip != "sm_90a" {
        return Ok(());
    }
    for copy in module.walk().into_iter().filter(|o| o.is("tile.copy") && o.attr("tma").is_none()) {
        let name = phobos_dialects::tile::buffer_name(copy);
        match span(copy) {
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

/// The swizzle span TMA stores `copy`'s tile in (0: none), or why TMA cannot make the copy.
pub fn span(copy: Op) -> Result<i64, String> {
    phobos_dialects::tile::verify(copy).map_err(|d| d.message)?;
    let shape = phobos_dialects::tile::shape(copy);
    let rank = shape.len();
    let ty = copy.result(0).ty();
    let ebytes = ty.element().scalar().map(|s| s.bits().div_ceil(8) as i64).unwrap_or(0);
    let func = copy.ancestor("gpu.func").ok_or("the copy is in no kernel")?;
    let src = copy.operand(0);
    let Some((_, i)) = src.block_arg().filter(|(b, _)| b.parent_op() == Some(func)) else {
        return Err("its source is no tensor parameter of the kernel".into());
    };
    let attrs = func.attr("arg_attrs").and_then(|a| a.array()).unwrap_or_default();
    let dict = attrs.get(i).copied();
    let tensor_dims: Vec<String> = dict
        .and_then(|d| d.dict_get("phobos.dims"))
        .and_then(|a| a.array())
        .map(|v| v.into_iter().filter_map(|x| x.str()).collect())
        .unwrap_or_default();
    if dict.and_then(|d| d.dict_get("llvm.align")).and_then(|a| a.int()).unwrap_or(0) < 16 {
        return Err("its tensor is not 16-byte aligned (a strided view)".into());
    }
    // TMA reads through the async proxy: the kernel's own writes to the tensor would need a
    // proxy fence before each copy.
    let writes = |o: &Op| o.name().contains("store") || o.name().contains("atomic") || o.name().contains("scatter");
    if func.walk().iter().any(|o| writes(o) && o.operands().contains(&src)) {
        return Err("the kernel writes its tensor too (TMA reads it through another proxy)".into());
    }
    if tensor_dims.len() != rank {
        return Err(format!("its tensor's dimensions are not named ({} of the tile's {rank})", tensor_dims.len()));
    }
    if rank > 5 {
        return Err(format!("the tile has {rank} dimensions; TMA copies up to 5"));
    }
    if let Some(e) = shape.iter().find(|e| **e > 256) {
        return Err(format!("an extent of {e}; TMA's box is at most 256 per dimension"));
    }
    if ![1, 2, 4, 8].contains(&ebytes) {
        return Err(format!("elements of {ebytes} bytes"));
    }
    let row = shape[rank - 1] * ebytes;
    if row % 16 != 0 {
        return Err(format!("its rows are {row} bytes, not a multiple of 16"));
    }
    let fill = phobos_dialects::tile::fill(copy);
    if fill.is_some_and(|f| f.const_int() != Some(0)) {
        return Err("a nonzero fill value (TMA fills with zero)".into());
    }
    // The sizes must be the tensor's own, which the launcher puts in the tensor map.
    for (d, name) in tensor_dims.iter().enumerate() {
        let v = copy.operand(1 + rank + d);
        let ok = match (v.const_int(), name.parse::<i64>().ok()) {
            (Some(c), Some(l)) => c == l,
            (Some(_), None) => true, // fixed at compile time (-D, @autotune): the launch's value
            (None, _) => dim_name(func, v).as_deref() == Some(name.as_str()),
        };
        if !ok {
            return Err(format!("size {d} of the copy is not the tensor's dimension {name}"));
        }
    }
    if rank > 1 {
        let mut div = Divisibility::new(func);
        let last = copy.operand(1 + 2 * rank - 1);
        let proven = last.const_int().map_or_else(|| div.of(last) as i64, |c| c & c.wrapping_neg());
        if (proven * ebytes) % 16 != 0 {
            return Err(format!(
                "the tensor's row stride ({} x {ebytes} bytes) is not a proven multiple of 16 bytes (@aligned({} = {}) proves it)",
                tensor_dims[rank - 1],
                tensor_dims[rank - 1],
                16 / ebytes.min(16)
            ));
        }
    }
    let bytes: i64 = shape.iter().product::<i64>() * ebytes;
    let span = match phobos_dialects::tile::swizzle_of(copy, "swizzle") {
        None => 0,
        Some([b, m, 3]) if (1..=3).contains(&b) && (1i64 << m) * ebytes == 16 && row == 16 << b => 16 << b,
        Some(sw) => {
            return Err(format!("its swizzle Swizzle<{}, {}, {}> of {row}-byte rows is none of TMA's modes", sw[0], sw[1], sw[2]));
        }
    };
    // Whole swizzle patterns (8 rows of the span) or 128-byte blocks per stage.
    let unit = if span == 0 { 128 } else { 8 * span };
    if bytes % unit != 0 {
        return Err(format!("the tile's {bytes} bytes are not a multiple of {unit}"));
    }
    Ok(span)
}

/// The `phobos.dim` of the kernel parameter `v` is cast from, if any.
fn dim_name(func: Op, mut v: Val) -> Option<String> {
    loop {
        if let Some((blk, i)) = v.block_arg() {
            if blk.parent_op() != Some(func) {
                return None;
            }
            let attrs = func.attr("arg_attrs").and_then(|a| a.array())?;
            return attrs.get(i)?.dict_get("phobos.dim")?.str();
        }
        let d = v.def()?;
        if !matches!(d.name().as_str(), "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui" | "arith.trunci") {
            return None;
        }
        v = d.operand(0);
    }
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
