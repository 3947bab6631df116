//! Translating `gpu` ops: thread, block and lane ids, barriers, shuffles, returns.

use super::*;

impl<'a> Tr<'a> {
    pub(super) fn gpu_op(&mut self, op: Op<'a>, name: &str) -> R<()> {
        match name {
            "gpu.thread_id" | "gpu.block_id" | "gpu.block_dim" | "gpu.grid_dim" => {
                let d = Self::dim(op);
                let id = match name {
                    "gpu.thread_id" => Id::ThreadId(d),
                    "gpu.block_id" => Id::BlockId(d),
                    "gpu.block_dim" => Id::BlockDim(d),
                    _ => Id::GridDim(d),
                };
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Id { id, dst });
            }
            "gpu.lane_id" => {
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Id { id: Id::LaneId, dst });
            }
            "gpu.barrier" => {
                let loc = self.loc(op);
                self.insts.push(Inst::Barrier { loc });
            }
            "gpu.shuffle" => {
                let m = op.attr("mode").map(|a| a.to_string()).unwrap_or_default();
                let kind = if m.contains("xor") {
                    ShflKind::Bfly
                } else if m.contains("down") {
                    ShflKind::Down
                } else if m.contains("up") {
                    ShflKind::Up
                } else {
                    ShflKind::Idx
                };
                let bits = self.opd_prim(op, 0)?.bits();
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                let valid = self.result(op, 1)?;
                let loc = self.loc(op);
                self.insts.push(Inst::GpuShfl { kind, dst, valid, v: s[0], b: s[1], width: s[2], bits, loc });
            }
            "gpu.return" => self.insts.push(Inst::Return),
            other => return unsupported(op, format!("the simulator does not support `{other}`")),
        }
        Ok(())
    }
}
