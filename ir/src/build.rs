//! Building ops at an insertion point.

use crate::*;
use mlir_sys::*;

/// Where new ops go: before an op, or at the end of a block.
#[derive(Clone, Copy, Debug)]
pub enum At<'a> {
    Before(Op<'a>),
    End(Blk<'a>),
}

/// Builds ops at an insertion point with one location.
#[derive(Clone, Copy, Debug)]
pub struct Builder<'a> {
    pub ctx: Ctx<'a>,
    pub loc: Loc<'a>,
    pub at: At<'a>,
}

impl<'a> Builder<'a> {
    /// A builder that inserts before `op`, with `op`'s location.
    pub fn before(op: Op<'a>) -> Builder<'a> {
        Builder { ctx: op.ctx(), loc: op.loc(), at: At::Before(op) }
    }
    /// A builder that appends to `blk`.
    pub fn at_end(blk: Blk<'a>, loc: Loc<'a>) -> Builder<'a> {
        // SAFETY: `loc` is live for `'a`; mlirLocationGetContext only reads it.
        let ctx = Ctx::wrap(unsafe { mlirLocationGetContext(loc.raw) });
        Builder { ctx, loc, at: At::End(blk) }
    }
    pub fn with_loc(self, loc: Loc<'a>) -> Builder<'a> {
        Builder { loc, ..self }
    }

    /// Creates and inserts a generic op.
    pub fn op(self, name: &str, operands: &[Val<'a>], results: &[Ty<'a>], attrs: &[(&str, Attr<'a>)]) -> Op<'a> {
        self.op_with_regions(name, operands, results, attrs, Vec::new())
    }

    /// Creates an op that takes over `regions` (built with [`OwnedRegion::add_block`]) and
    /// inserts it; returns it.
    pub fn op_with_regions(
        self,
        name: &str,
        operands: &[Val<'a>],
        results: &[Ty<'a>],
        attrs: &[(&str, Attr<'a>)],
        regions: Vec<OwnedRegion<'a>>,
    ) -> Op<'a> {
        self.check_same_ir(name, operands, results);
        let ops: Vec<MlirValue> = operands.iter().map(|v| v.raw).collect();
        let tys: Vec<MlirType> = results.iter().map(|t| t.raw).collect();
        let regs: Vec<MlirRegion> = regions.into_iter().map(OwnedRegion::into_raw).collect();
        // SAFETY: the state borrows live handles of this context for the call; the regions are
        // detached and owned (consumed above), and the new op takes them over.
        let op = unsafe {
            let mut st = mlirOperationStateGet(sref(name), self.loc.raw);
            mlirOperationStateAddOperands(&mut st, ops.len() as isize, ops.as_ptr());
            mlirOperationStateAddResults(&mut st, tys.len() as isize, tys.as_ptr());
            let named: Vec<MlirNamedAttribute> = attrs
                .iter()
                .map(|(n, a)| MlirNamedAttribute { name: mlirIdentifierGet(self.ctx.raw, sref(n)), attribute: a.raw })
                .collect();
            mlirOperationStateAddAttributes(&mut st, named.len() as isize, named.as_ptr());
            mlirOperationStateAddOwnedRegions(&mut st, regs.len() as isize, regs.as_ptr());
            Op::wrap(mlirOperationCreate(&mut st))
        };
        assert!(!op.is_null(), "phobos bug: could not create `{name}`");
        self.place(op.raw);
        op
    }

    /// Handles share one lifetime brand, so the compiler cannot tell two contexts' or two
    /// modules' apart: a value of another context, or of another module (which may be dropped
    /// while the new op still uses it), is a checked error here.
    fn check_same_ir(self, name: &str, operands: &[Val<'a>], results: &[Ty<'a>]) {
        let foreign_ctx = operands.iter().map(|v| v.ty()).chain(results.iter().copied()).any(|t| t.ctx() != self.ctx);
        assert!(!foreign_ctx, "phobos bug: building '{name}' with a value or type of another MLIR context");
        let here = match self.at {
            At::Before(op) => Some(op),
            At::End(blk) => blk.parent_op(),
        }
        .and_then(root);
        for v in operands {
            let owner = match v.def() {
                Some(d) => Some(d),
                None => v.block_arg().and_then(|(b, _)| b.parent_op()),
            };
            if let (Some(here), Some(there)) = (here, owner.and_then(root)) {
                assert!(here == there, "phobos bug: building '{name}' with a value of another module");
            }
        }
    }

    /// Inserts an op that is in no block (a clone); returns it, now in place.
    pub fn insert(self, op: OwnedOp<'a>) -> Op<'a> {
        let raw = op.into_raw();
        self.place(raw);
        Op::wrap(raw)
    }

    /// Links the detached op `raw` at the insertion point.
    fn place(self, raw: MlirOperation) {
        match self.at {
            At::Before(b) => {
                let blk =
                    b.block().unwrap_or_else(|| panic!("phobos bug: inserting before '{}', which is in no block (erased?)", b.name()));
                // SAFETY: `raw` is detached and owned by the caller, which gives it up; `b` is in `blk`.
                unsafe { mlirBlockInsertOwnedOperationBefore(blk.raw, b.raw, raw) }
            }
            // SAFETY: as above; `blk` is a live block.
            At::End(blk) => unsafe { mlirBlockAppendOwnedOperation(blk.raw, raw) },
        }
    }

    pub fn op_value(self, name: &str, operands: &[Val<'a>], result: Ty<'a>, attrs: &[(&str, Attr<'a>)]) -> Val<'a> {
        self.op(name, operands, &[result], attrs).result(0)
    }

    pub fn const_int(self, ty: Ty<'a>, v: i64) -> Val<'a> {
        self.op_value("arith.constant", &[], ty, &[("value", self.ctx.int_attr(ty, v))])
    }
    pub fn i32(self, v: i64) -> Val<'a> {
        self.const_int(self.ctx.i(32), v)
    }
    pub fn index(self, v: i64) -> Val<'a> {
        self.const_int(self.ctx.index(), v)
    }
    /// A float constant of type `ty` (f16/bf16/f32/f64). Infinities and NaN are written as bit
    /// patterns; finite values in decimal with a '.', as MLIR's lexer wants.
    pub fn const_float(self, ty: Ty<'a>, v: f64) -> Val<'a> {
        let text = if v.is_finite() {
            let mut s = format!("{v:e}");
            if !s.contains('.') {
                let e = s.find('e').unwrap_or(s.len());
                s.insert_str(e, ".0");
            }
            format!("{s} : {ty}")
        } else {
            let bits = match ty.scalar() {
                Some(Scalar::F16) => format!(
                    "0x{:04X}",
                    if v.is_nan() {
                        0x7E00u16
                    } else if v > 0.0 {
                        0x7C00
                    } else {
                        0xFC00
                    }
                ),
                Some(Scalar::BF16) => format!(
                    "0x{:04X}",
                    if v.is_nan() {
                        0x7FC0u16
                    } else if v > 0.0 {
                        0x7F80
                    } else {
                        0xFF80
                    }
                ),
                Some(Scalar::F64) => format!("0x{:016X}", v.to_bits()),
                _ => format!("0x{:08X}", (v as f32).to_bits()),
            };
            format!("{bits} : {ty}")
        };
        self.op_value("arith.constant", &[], ty, &[("value", self.ctx.known_attr(&text))])
    }
    /// Binary arith op with the type of `a`.
    pub fn bin(self, name: &str, a: Val<'a>, b: Val<'a>) -> Val<'a> {
        self.op_value(name, &[a, b], a.ty(), &[])
    }
    pub fn cmpi(self, pred: &str, a: Val<'a>, b: Val<'a>) -> Val<'a> {
        let p = match pred {
            "eq" => 0,
            "ne" => 1,
            "slt" => 2,
            "sle" => 3,
            "sgt" => 4,
            "sge" => 5,
            "ult" => 6,
            "ule" => 7,
            "ugt" => 8,
            "uge" => 9,
            _ => panic!("phobos bug: cmpi predicate {pred}"),
        };
        let i64t = self.ctx.i(64);
        self.op_value("arith.cmpi", &[a, b], self.ctx.i(1), &[("predicate", self.ctx.int_attr(i64t, p))])
    }
    pub fn cmpf(self, pred: &str, a: Val<'a>, b: Val<'a>) -> Val<'a> {
        let p = match pred {
            "oeq" => 1,
            "ogt" => 2,
            "oge" => 3,
            "olt" => 4,
            "ole" => 5,
            "one" => 6,
            "ord" => 7,
            "ueq" => 8,
            "ugt" => 9,
            "uge" => 10,
            "ult" => 11,
            "ule" => 12,
            "une" => 13,
            "uno" => 14,
            _ => panic!("phobos bug: cmpf predicate {pred}"),
        };
        let i64t = self.ctx.i(64);
        self.op_value("arith.cmpf", &[a, b], self.ctx.i(1), &[("predicate", self.ctx.int_attr(i64t, p))])
    }
    pub fn select(self, c: Val<'a>, a: Val<'a>, b: Val<'a>) -> Val<'a> {
        self.op_value("arith.select", &[c, a, b], a.ty(), &[])
    }
    /// A cast op (`arith.extui`, `arith.bitcast`, ...) to `ty`.
    pub fn cast(self, name: &str, v: Val<'a>, ty: Ty<'a>) -> Val<'a> {
        self.op_value(name, &[v], ty, &[])
    }
}

/// The module `op` is in: the outermost op around it when that is a `builtin.module`; None for
/// an op whose outermost op is something else (detached: an erased op, or a region being built).
fn root(op: Op) -> Option<Op> {
    let mut o = op;
    while let Some(p) = o.parent() {
        o = p;
    }
    o.is("builtin.module").then_some(o)
}
