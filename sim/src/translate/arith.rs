//! Translating `arith` and `math` ops (and the LLVM intrinsics the lowering leaves: ctpop, funnel shifts): integer
//! and float arithmetic, comparisons, casts, selects, constants.

use super::*;

impl<'a> Tr<'a> {
    pub(super) fn arith_op(&mut self, op: Op<'a>, name: &str) -> R<()> {
        let bin = |n: &str| -> Option<BinOp> {
            Some(match n {
                "arith.addi" => BinOp::Add,
                "arith.subi" => BinOp::Sub,
                "arith.muli" => BinOp::Mul,
                "arith.divsi" => BinOp::DivS,
                "arith.divui" => BinOp::DivU,
                "arith.remsi" => BinOp::RemS,
                "arith.remui" => BinOp::RemU,
                "arith.andi" => BinOp::And,
                "arith.ori" => BinOp::Or,
                "arith.xori" => BinOp::Xor,
                "arith.shli" => BinOp::Shl,
                "arith.shrsi" => BinOp::ShrS,
                "arith.shrui" => BinOp::ShrU,
                "arith.maxsi" => BinOp::MaxS,
                "arith.minsi" => BinOp::MinS,
                "arith.maxui" => BinOp::MaxU,
                "arith.minui" => BinOp::MinU,
                "arith.addf" => BinOp::FAdd,
                "arith.subf" => BinOp::FSub,
                "arith.mulf" => BinOp::FMul,
                "arith.divf" => BinOp::FDiv,
                "arith.remf" => BinOp::FRem,
                "arith.maximumf" => BinOp::FMax,
                "arith.minimumf" => BinOp::FMin,
                "arith.maxnumf" => BinOp::FMaxNum,
                "arith.minnumf" => BinOp::FMinNum,
                _ => return None,
            })
        };
        if let Some(b) = bin(name) {
            let ty = self.res_prim(op, 0)?;
            let s = self.operands(op)?;
            let dst = self.result(op, 0)?;
            let loc = self.loc(op);
            self.insts.push(Inst::Bin { op: b, ty, dst, a: s[0], b: s[1], loc });
            return Ok(());
        }
        let cast = |n: &str| -> Option<CastOp> {
            Some(match n {
                "arith.extsi" => CastOp::ExtS,
                "arith.extui" => CastOp::ExtU,
                "arith.trunci" => CastOp::Trunc,
                "arith.sitofp" => CastOp::SiToFp,
                "arith.uitofp" => CastOp::UiToFp,
                "arith.fptosi" => CastOp::FpToSi,
                "arith.fptoui" => CastOp::FpToUi,
                "arith.extf" => CastOp::ExtF,
                "arith.truncf" => CastOp::TruncF,
                "arith.bitcast" => CastOp::Bitcast,
                "arith.index_cast" => CastOp::ExtS,
                "arith.index_castui" => CastOp::ExtU,
                _ => return None,
            })
        };
        if let Some(mut c) = cast(name) {
            let from = self.opd_prim(op, 0)?;
            let to = self.res_prim(op, 0)?;
            if name.starts_with("arith.index_cast") && from.bits() > to.bits() {
                c = CastOp::Trunc;
            }
            let a = self.use_(op.operand(0))?;
            let dst = self.result(op, 0)?;
            self.insts.push(Inst::Cast { op: c, from, to, dst, a });
            return Ok(());
        }
        if let Some((f, n)) = MathFn::of_op(name).map(|f| (f, f.arity())) {
            let ty = self.res_prim(op, 0)?;
            if !matches!(ty, Prim::F16 | Prim::BF16 | Prim::F32 | Prim::F64) {
                return unsupported(op, format!("`{name}` on {ty:?}: the math functions take floats"));
            }
            let s = self.operands(op)?;
            let dst = self.result(op, 0)?;
            self.insts.push(Inst::Math { f, ty, dst, a: s[0], b: s[n - 1], ftz: false });
            return Ok(());
        }
        // The hardware's approximations (fast math): an intrinsic call, or tanh's inline PTX.
        let approx = match name {
            "llvm.call_intrinsic" => op.str_attr("intrin"),
            "llvm.inline_asm" => op.str_attr("asm_string"),
            _ => None,
        };
        if let Some(f) = approx.as_deref().and_then(approx_fn) {
            let ty = self.res_prim(op, 0)?;
            let a = self.use_(op.operand(0))?;
            let dst = self.result(op, 0)?;
            self.insts.push(Inst::Math { f, ty, dst, a, b: a, ftz: true });
            return Ok(());
        }
        match name {
            "math.fma" => {
                let ty = self.res_prim(op, 0)?;
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Fma { ty, dst, a: s[0], b: s[1], c: s[2] });
            }
            "arith.constant" => self.constant(op)?,
            "arith.cmpi" | "arith.cmpf" => {
                let p = op.int_attr("predicate").unwrap_or(0);
                let pred = if name == "arith.cmpi" {
                    [Pred::Eq, Pred::Ne, Pred::Slt, Pred::Sle, Pred::Sgt, Pred::Sge, Pred::Ult, Pred::Ule, Pred::Ugt, Pred::Uge]
                        [p as usize % 10]
                } else {
                    let rel = |r| Pred::F { unordered: false, rel: r };
                    let urel = |r| Pred::F { unordered: true, rel: r };
                    match p {
                        0 => Pred::FFalse,
                        1 => rel(FRel::Eq),
                        2 => rel(FRel::Gt),
                        3 => rel(FRel::Ge),
                        4 => rel(FRel::Lt),
                        5 => rel(FRel::Le),
                        6 => rel(FRel::Ne),
                        7 => Pred::FOrd,
                        8 => urel(FRel::Eq),
                        9 => urel(FRel::Gt),
                        10 => urel(FRel::Ge),
                        11 => urel(FRel::Lt),
                        12 => urel(FRel::Le),
                        13 => urel(FRel::Ne),
                        14 => Pred::FUno,
                        _ => Pred::FTrue,
                    }
                };
                let ty = self.opd_prim(op, 0)?;
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Cmp { pred, ty, dst, a: s[0], b: s[1] });
            }
            "arith.select" => {
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Select { dst, c: s[0], a: s[1], b: s[2] });
            }
            "arith.negf" | "math.absf" | "math.absi" | "llvm.intr.abs" | "llvm.intr.ctpop" | "math.ctpop" => {
                let ty = self.res_prim(op, 0)?;
                let a = self.use_(op.operand(0))?;
                let dst = self.result(op, 0)?;
                let u = match name {
                    "arith.negf" => UnOp::FNeg,
                    "math.absf" => UnOp::AbsF,
                    "math.absi" | "llvm.intr.abs" => UnOp::AbsI,
                    _ => UnOp::CtPop,
                };
                self.insts.push(Inst::Un { op: u, ty, dst, a });
            }
            // Each access here is sequentially consistent already: a fence orders nothing more.
            "llvm.fence" => {}
            "llvm.intr.fshl" | "llvm.intr.fshr" => {
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::FunnelShift { dst, hi: s[0], lo: s[1], amount: s[2], left: name == "llvm.intr.fshl" });
            }
            other => return unsupported(op, format!("the simulator does not support `{other}`")),
        }
        Ok(())
    }
}
