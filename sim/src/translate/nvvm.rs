//! Translating `nvvm` ops: segmented shuffles, dp4a, byte permutes, votes.

use super::*;

impl<'a> Tr<'a> {
    pub(super) fn nvvm_op(&mut self, op: Op<'a>, name: &str) -> R<()> {
        match name {
            "nvvm.shfl.sync" => {
                let k = op.attr("kind").map(|a| a.to_string()).unwrap_or_default();
                let kind = if k.contains("bfly") {
                    ShflKind::Bfly
                } else if k.contains("down") {
                    ShflKind::Down
                } else if k.contains("up") {
                    ShflKind::Up
                } else {
                    ShflKind::Idx
                };
                if op.attr("return_value_and_is_valid").is_some() {
                    return unsupported(op, "nvvm.shfl.sync returning a struct");
                }
                let bits = self.opd_prim(op, 1)?.bits();
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                let loc = self.loc(op);
                self.insts.push(Inst::Shfl { kind, dst, valid: None, v: s[1], b: s[2], c: s[3], mask: s[0], bits, loc });
            }
            "nvvm.dot.accumulate.4way" => {
                let signed = |key: &str| {
                    op.attr(key).map(|a| a.to_string().contains("signed") && !a.to_string().contains("unsigned")).unwrap_or(true)
                };
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Dp4a { dst, a: s[0], b: s[1], c: s[2], a_signed: signed("a_type"), b_signed: signed("b_type") });
            }
            "nvvm.prmt" => {
                let m = op.attr("mode").map(|a| a.to_string()).unwrap_or_default();
                if !m.contains("default") {
                    return unsupported(op, format!("prmt mode {m}"));
                }
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Prmt { dst, a: s[0], b: s[1], sel: s[2] });
            }
            "nvvm.vote.sync" => {
                let k = op.attr("kind").map(|a| a.to_string()).unwrap_or_default();
                let kind = if k.contains("ballot") {
                    0
                } else if k.contains("any") {
                    1
                } else if k.contains("all") {
                    2
                } else {
                    3
                };
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                let loc = self.loc(op);
                self.insts.push(Inst::Vote { kind, dst, mask: s[0], pred: s[1], loc });
            }
            // Warps run in lockstep here: a warp-level barrier orders nothing more.
            "nvvm.bar.warp.sync" => {}
            other => return unsupported(op, format!("the simulator does not support `{other}`")),
        }
        Ok(())
    }
}
