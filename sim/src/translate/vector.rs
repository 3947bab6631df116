//! Translating `vector` ops: elements, broadcasts, extracts and inserts, slices, bitcasts, reductions.

use super::*;

impl<'a> Tr<'a> {
    pub(super) fn vector_op(&mut self, op: Op<'a>, name: &str) -> R<()> {
        match name {
            "vector.reduction" => {
                let k = op.attr("kind").map(|a| a.to_string()).unwrap_or_default();
                let kind = if k.contains("add") {
                    RedKind::Add
                } else if k.contains("mul") {
                    RedKind::Mul
                } else if k.contains("max") {
                    RedKind::Max
                } else if k.contains("min") {
                    RedKind::Min
                } else if k.contains("and") {
                    RedKind::And
                } else if k.contains("xor") {
                    RedKind::Xor
                } else if k.contains("or") {
                    RedKind::Or
                } else {
                    return unsupported(op, format!("reduction kind {k}"));
                };
                let ty = self.res_prim(op, 0)?;
                let src = self.use_(op.operand(0))?;
                let acc = if op.num_operands() > 1 { Some(self.use_(op.operand(1))?) } else { None };
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Reduce { kind, ty, dst, src, acc });
            }
            "vector.from_elements" => {
                let srcs = self.operands(op)?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::FromElements { dst, srcs });
            }
            "vector.broadcast" | "vector.splat" => {
                let src = self.use_(op.operand(0))?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Broadcast { dst, src });
            }
            // A struct or vector with no value yet (before its fields are inserted): zeros.
            "llvm.mlir.poison" | "llvm.mlir.undef" => {
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Const { dst, vals: vec![0; dst.len as usize] });
            }
            // A scalar field of a struct set: the element at the fields' flat offset.
            "llvm.insertvalue" => {
                let pos = op.attr("position").and_then(|a| a.dense_ints()).unwrap_or_default();
                let fields = op.operand(0).ty().struct_fields().unwrap_or_default();
                let i = match pos[..] {
                    [i] if (0..fields.len() as i64).contains(&i) && prim_of(fields[i as usize]).is_some_and(|(_, n)| n == 1) => i as usize,
                    _ => return unsupported(op, "llvm.insertvalue of other than a scalar field at one position"),
                };
                let offset: u32 = fields[..i].iter().map(|t| prim_of(*t).map_or(0, |(_, n)| n)).sum();
                let vec = self.use_(op.operand(0))?;
                let val = self.use_(op.operand(1))?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Insert { dst, vec, val, pos: offset, at: None });
            }
            // A field of a struct (held flat): the elements of the fields before it come first.
            "llvm.extractvalue" => {
                let pos = op.attr("position").and_then(|a| a.dense_ints()).unwrap_or_default();
                let fields = op.operand(0).ty().struct_fields().unwrap_or_default();
                let i = match pos[..] {
                    [i] if (0..fields.len() as i64).contains(&i) => i as usize,
                    _ => return unsupported(op, "llvm.extractvalue of a nested position"),
                };
                let offset = fields[..i].iter().map(|t| prim_of(*t).map_or(0, |(_, n)| n)).sum();
                let src = self.use_(op.operand(0))?;
                // A wgmma's results are read through the instruction, which checks they landed.
                let from_wgmma = op.operand(0).def().is_none_or(|d| d.name().starts_with("nvvm.wgmma"));
                if !from_wgmma && self.alias(op, src, offset)? {
                    return Ok(());
                }
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::ExtractSlice { dst, src, offset });
            }
            "vector.extract" => {
                let (pos, at) = self.vector_position(op, 1)?;
                let src = self.use_(op.operand(0))?;
                // Position p of a vector of vectors is its p-th row of n elements.
                let n = prim_of(op.result(0).ty()).map_or(1, |(_, n)| n);
                if at.is_none() && self.alias(op, src, pos * n)? {
                    return Ok(());
                }
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Extract { dst, src, pos, at });
            }
            "vector.insert" => {
                let (pos, at) = self.vector_position(op, 2)?;
                let val = self.use_(op.operand(0))?;
                let vec = self.use_(op.operand(1))?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Insert { dst, vec, val, pos, at });
            }
            "vector.extract_strided_slice" => {
                let off = op.attr("offsets").and_then(|a| a.array()).and_then(|v| v.first().and_then(|x| x.int())).unwrap_or(0);
                let src = self.use_(op.operand(0))?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::ExtractSlice { dst, src, offset: off as u32 });
            }
            "llvm.bitcast" if super::nvvm::only_packed_mma_operand(op.result(0)) => {}
            "vector.bitcast" | "llvm.bitcast" => {
                let from = self.opd_prim(op, 0)?;
                let to = self.res_prim(op, 0)?;
                let src = self.use_(op.operand(0))?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::VBitcast { dst, src, from, to });
            }
            other => return unsupported(op, format!("the simulator does not support `{other}`")),
        }
        Ok(())
    }

    /// Makes `op`'s one result the elements of `src` from `offset` on, with no instruction,
    /// when they lie inside it: an extract is a copy of values that never change while the
    /// result is live (every SSA value has a slot of its own, written only where it is defined;
    /// loop latches copy through a scratch when a yielded value overlaps an iteration
    /// argument). A GEMM's fragments pass through hundreds of such extracts per loop iteration.
    fn alias(&mut self, op: Op<'a>, src: Slot, offset: u32) -> R<bool> {
        let r = op.result(0);
        let Some((_, n)) = prim_of(r.ty()) else { return Ok(false) };
        if self.slots.contains_key(&r) || offset + n > src.len {
            return Ok(false);
        }
        self.slots.insert(r, Slot { off: src.off + offset, len: n });
        Ok(true)
    }

    /// The one position of a 1-D `vector.extract`/`vector.insert` whose vector operands come
    /// first (`fixed` of them): a constant, or the index operand after them.
    fn vector_position(&mut self, op: Op<'a>, fixed: usize) -> R<(u32, Option<Slot>)> {
        let pos = op.attr("static_position").and_then(|a| a.dense_ints()).unwrap_or_default();
        match (pos.as_slice(), op.num_operands() - fixed) {
            (&[p], 0) if p >= 0 => Ok((p as u32, None)),
            (&[p], 1) if p < 0 => Ok((0, Some(self.use_(op.operand(fixed))?))),
            _ => unsupported(op, format!("{} with a multi-dimensional position", op.name())),
        }
    }
}
