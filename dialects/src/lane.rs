//! The `lane` dialect: accessors and the Rust verifiers for what its IRDL cannot say.

use crate::ops::{LaneOp, PhobosOp};
use phobos_ir::{diag::Diagnostic, Op, Ty};

/// Lanes in a warp on every NVIDIA GPU Phobos targets.
pub const WARP: i64 = 32;

/// The fold kinds with a built-in combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    Sum,
    Max,
    Min,
    Any,
    All,
}

impl Kind {
    pub fn parse(s: &str) -> Option<Kind> {
        Some(match s {
            "sum" => Kind::Sum,
            "max" => Kind::Max,
            "min" => Kind::Min,
            "any" => Kind::Any,
            "all" => Kind::All,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            Kind::Sum => "sum",
            Kind::Max => "max",
            Kind::Min => "min",
            Kind::Any => "any",
            Kind::All => "all",
        }
    }
    /// The `arith` op that combines two values of this fold, of a float type or not. A new kind
    /// gets its combine here (the match is exhaustive in this crate; the enum is not outside).
    pub fn combine_op(self, float: bool) -> &'static str {
        match (self, float) {
            (Kind::Sum, true) => "arith.addf",
            (Kind::Sum, false) => "arith.addi",
            // maximumf/minimumf lower to native max.NaN / min.NaN; maxnumf would need libdevice.
            (Kind::Max, true) => "arith.maximumf",
            (Kind::Max, false) => "arith.maxsi",
            (Kind::Min, true) => "arith.minimumf",
            (Kind::Min, false) => "arith.minsi",
            (Kind::Any, _) => "arith.ori",
            (Kind::All, _) => "arith.andi",
        }
    }
    /// The identity of this fold on floats (combining it changes nothing); `None` for `any` and
    /// `all`, which fold conditions only.
    pub fn float_identity(self) -> Option<f64> {
        match self {
            Kind::Sum => Some(0.0),
            Kind::Max => Some(f64::NEG_INFINITY),
            Kind::Min => Some(f64::INFINITY),
            Kind::Any | Kind::All => None,
        }
    }
    /// The identity of this fold on signed integers of `bits` bits (1 to 64; `i1` for any/all).
    pub fn int_identity(self, bits: u32) -> i64 {
        match self {
            Kind::Sum | Kind::Any => 0,
            Kind::All => -1,
            Kind::Max if bits >= 64 => i64::MIN,
            Kind::Max => -(1i64 << (bits - 1)),
            Kind::Min if bits >= 64 => i64::MAX,
            Kind::Min => (1i64 << (bits - 1)) - 1,
        }
    }
}

/// Shuffle modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    From,
    Xor,
    Down,
    Up,
}

impl Mode {
    pub fn parse(s: &str) -> Option<Mode> {
        Some(match s {
            "from" => Mode::From,
            "xor" => Mode::Xor,
            "down" => Mode::Down,
            "up" => Mode::Up,
            _ => return None,
        })
    }
}

/// The width of a lane op: its `width` attribute, 32 when absent. Call after [`verify`].
pub fn width(op: Op) -> i64 {
    op.int_attr("width").unwrap_or(WARP)
}

/// The kind of a `lane.reduce` / `cta.reduce`. Call after verification.
pub fn kind(op: Op) -> Kind {
    op.str_attr("kind").and_then(|k| Kind::parse(&k)).expect("verified kind")
}

/// The mode of a `lane.shuffle`. Call after verification.
pub fn mode(op: Op) -> Mode {
    op.str_attr("mode").and_then(|k| Mode::parse(&k)).expect("verified mode")
}

/// Checks an optional `width` attribute: an integer power of two from 1 to 32.
pub fn verify_width(op: Op) -> Result<(), Diagnostic> {
    let Some(a) = op.attr("width") else { return Ok(()) };
    let Some(w) = a.int() else {
        return Err(Diagnostic::op_error(op, format!("width must be an integer, got {a}")));
    };
    if !(1..=WARP).contains(&w) || w & (w - 1) != 0 {
        return Err(Diagnostic::op_error(op, format!("width must be a power of two from 1 to 32, got {w}")));
    }
    Ok(())
}

/// any/all fold conditions (i1); the other kinds fold numbers.
pub fn verify_kind_type(op: Op, kind: &str, ty: Ty) -> Result<(), Diagnostic> {
    let is_cond = ty.int_width() == Some(1);
    match kind {
        "any" | "all" if !is_cond => Err(Diagnostic::op_error(op, format!("{kind} folds conditions (i1), got {ty}"))),
        "sum" | "max" | "min" if is_cond => {
            Err(Diagnostic::op_error(op, format!("{kind} folds numbers, not conditions (i1); use any or all")))
        }
        _ => Ok(()),
    }
}

/// The combine of a `*.reduce_with`: either a region of one block `(T, T)` ending in
/// `gpu.yield T`, or an empty region and `combine = @f`.
pub fn verify_combine(op: Op) -> Result<(), Diagnostic> {
    let ty = op.operand(0).ty();
    let region = op.region(0);
    let blocks = region.blocks();
    let sym = op.attr("combine");
    match (blocks.len(), sym) {
        (0, Some(a)) => {
            if a.symbol().is_none() {
                return Err(Diagnostic::op_error(op, format!("combine must be a symbol (@f), got {a}")));
            }
            Ok(())
        }
        (0, None) => Err(Diagnostic::op_error(op, "needs a combine: a region or `combine = @f`")),
        (_, Some(_)) => Err(Diagnostic::op_error(op, "has both a combine region and `combine`; give one")),
        (1, None) => {
            let b = blocks[0];
            let args = b.args();
            if args.len() != 2 || args.iter().any(|a| a.ty() != ty) {
                return Err(Diagnostic::op_error(op, format!("combine region must take two {ty} arguments")));
            }
            match b.terminator() {
                Some(t) if t.is("gpu.yield") && t.num_operands() == 1 && t.operand(0).ty() == ty => Ok(()),
                _ => Err(Diagnostic::op_error(op, format!("combine region must end in gpu.yield of one {ty}"))),
            }
        }
        _ => Err(Diagnostic::op_error(op, "combine region must have one block")),
    }
}

/// The Rust half of the `lane` ops' verification (IRDL did the rest at parse time).
pub fn verify(op: Op) -> Result<(), Diagnostic> {
    let Some(PhobosOp::Lane(which)) = PhobosOp::of(op) else { return Ok(()) };
    match which {
        LaneOp::Reduce => {
            verify_width(op)?;
            let kind = op.str_attr("kind").unwrap_or_default();
            verify_kind_type(op, &kind, op.operand(0).ty())
        }
        LaneOp::Argmax | LaneOp::Argmin => verify_width(op),
        LaneOp::ReduceWith | LaneOp::ScanWith => {
            verify_width(op)?;
            verify_combine(op)
        }
        LaneOp::Scan => verify_width(op),
        LaneOp::Shuffle => {
            verify_width(op)?;
            let w = width(op);
            let m = op.str_attr("mode").unwrap_or_default();
            if m == "xor" {
                if let Some(c) = op.operand(1).const_int() {
                    if c < 0 || c >= w {
                        return Err(Diagnostic::op_error(op, format!("xor mask {c} is not below the width {w}")));
                    }
                }
            }
            Ok(())
        }
    }
}

/// Typed builders: the ops as a frontend creates them (verified like parsed ones).
pub mod build {
    use super::{Kind, Mode};
    use phobos_ir::{Attr, Builder, OwnedRegion, Ty, Val};

    /// The combine region of a `reduce_with`: one block `(a, b)` of `ty` whose body `combine`
    /// builds, ending in `gpu.yield` of its result.
    pub(crate) fn combine_region<'a>(
        b: Builder<'a>,
        ty: Ty<'a>,
        combine: impl FnOnce(Builder<'a>, Val<'a>, Val<'a>) -> Val<'a>,
    ) -> OwnedRegion<'a> {
        let r = OwnedRegion::new();
        let blk = r.add_block(&[ty, ty], b.loc);
        let inner = Builder::at_end(blk, b.loc);
        let args = blk.args();
        let v = combine(inner, args[0], args[1]);
        inner.op("gpu.yield", &[v], &[], &[]);
        r
    }

    /// `lane.argmax`: the lane of the piece of `width` lanes holding the largest `value` (the
    /// lowest such lane), an `i32`, in every lane of the piece.
    pub fn argmax<'a>(b: Builder<'a>, value: Val<'a>, width: i64) -> Val<'a> {
        let ctx = b.ctx;
        b.op_value("lane.argmax", &[value], ctx.i(32), &[("width", ctx.int_attr(ctx.i(32), width))])
    }

    /// `lane.argmin`: the lane of the piece of `width` lanes holding the smallest `value` (the
    /// lowest such lane), an `i32`, in every lane of the piece.
    pub fn argmin<'a>(b: Builder<'a>, value: Val<'a>, width: i64) -> Val<'a> {
        let ctx = b.ctx;
        b.op_value("lane.argmin", &[value], ctx.i(32), &[("width", ctx.int_attr(ctx.i(32), width))])
    }

    /// `lane.reduce_with`: folds `value` over pieces of `width` lanes with `combine(a, b)`,
    /// which must be associative and commutative; its body is built by the closure.
    pub fn reduce_with<'a>(
        b: Builder<'a>,
        value: Val<'a>,
        width: i64,
        combine: impl FnOnce(Builder<'a>, Val<'a>, Val<'a>) -> Val<'a>,
    ) -> Val<'a> {
        with_combine(b, "lane.reduce_with", value, width, combine)
    }

    /// `lane.reduce_with` whose combine is the `func.func` the symbol attribute `combine` names.
    pub fn reduce_with_symbol<'a>(b: Builder<'a>, value: Val<'a>, width: i64, combine: Attr<'a>) -> Val<'a> {
        let ctx = b.ctx;
        b.op_value("lane.reduce_with", &[value], value.ty(), &[("width", ctx.int_attr(ctx.i(32), width)), ("combine", combine)])
    }

    /// `lane.reduce_with` whose combine is `region` (one block `(a, b)` ending in `gpu.yield`,
    /// e.g. a copy of another fold's region).
    pub fn reduce_with_region<'a>(b: Builder<'a>, value: Val<'a>, width: i64, region: OwnedRegion<'a>) -> Val<'a> {
        let ctx = b.ctx;
        b.op_with_regions("lane.reduce_with", &[value], &[value.ty()], &[("width", ctx.int_attr(ctx.i(32), width))], vec![region]).result(0)
    }

    /// `lane.reduce` of `value` with `kind` over pieces of `width` lanes (32: the whole warp).
    pub fn reduce<'a>(b: Builder<'a>, kind: Kind, value: Val<'a>, width: i64) -> Val<'a> {
        let ctx = b.ctx;
        let ty = value.ty();
        b.op_value("lane.reduce", &[value], ty, &[("kind", ctx.str_attr(kind.name())), ("width", ctx.int_attr(ctx.i(32), width))])
    }

    /// `lane.scan`: the inclusive prefix fold of `value` with `kind` (sum, max or min) within
    /// pieces of `width` lanes: lane i of a piece gets the fold of the piece's lanes 0..=i.
    pub fn scan<'a>(b: Builder<'a>, kind: Kind, value: Val<'a>, width: i64) -> Val<'a> {
        let ctx = b.ctx;
        let ty = value.ty();
        b.op_value("lane.scan", &[value], ty, &[("kind", ctx.str_attr(kind.name())), ("width", ctx.int_attr(ctx.i(32), width))])
    }

    /// `lane.scan_with`: the inclusive prefix fold of `value` within pieces of `width` lanes by
    /// `combine(earlier, later)`, which must be associative; its body is built by the closure.
    pub fn scan_with<'a>(
        b: Builder<'a>,
        value: Val<'a>,
        width: i64,
        combine: impl FnOnce(Builder<'a>, Val<'a>, Val<'a>) -> Val<'a>,
    ) -> Val<'a> {
        with_combine(b, "lane.scan_with", value, width, combine)
    }

    /// `name` (a `*_with` op) of `value` over pieces of `width` lanes, its combine region built
    /// by the closure.
    fn with_combine<'a>(
        b: Builder<'a>,
        name: &str,
        value: Val<'a>,
        width: i64,
        combine: impl FnOnce(Builder<'a>, Val<'a>, Val<'a>) -> Val<'a>,
    ) -> Val<'a> {
        let ctx = b.ctx;
        let r = combine_region(b, value.ty(), combine);
        b.op_with_regions(name, &[value], &[value.ty()], &[("width", ctx.int_attr(ctx.i(32), width))], vec![r]).result(0)
    }

    /// `lane.shuffle` of `value` in `mode` by `offset` (an i32) within pieces of `width` lanes.
    pub fn shuffle<'a>(b: Builder<'a>, mode: Mode, value: Val<'a>, offset: Val<'a>, width: i64) -> Val<'a> {
        let ctx = b.ctx;
        let ty = value.ty();
        let name = match mode {
            Mode::From => "from",
            Mode::Xor => "xor",
            Mode::Down => "down",
            Mode::Up => "up",
        };
        b.op_value("lane.shuffle", &[value, offset], ty, &[("mode", ctx.str_attr(name)), ("width", ctx.int_attr(ctx.i(32), width))])
    }
}
