//! Translating `memref` ops and vector loads and stores: globals, views, allocas, loads, stores, atomics.

use super::*;

impl<'a> Tr<'a> {
    pub(super) fn memref_op(&mut self, op: Op<'a>, name: &str) -> R<()> {
        match name {
            "memref.get_global" if self.dynamic.contains(&op.attr("name").and_then(|a| a.symbol()).unwrap_or_default()) => {
                // The base of the dynamic shared memory; its views give typed tiles.
                self.memrefs.push(MemRef {
                    src: MemSrc::Dynamic { offset: self.shared_bytes },
                    elem: Prim::I8,
                    strides: vec![1],
                    name: "dynamic shared memory".into(),
                    shift: None,
                });
                self.memref_of.insert(op.result(0), self.memrefs.len() - 1);
            }
            "memref.view" => {
                let base = self.memref(op, op.operand(0))?;
                let MemSrc::Dynamic { offset } = self.memrefs[base].src else {
                    return unsupported(op, "memref.view of memory other than the dynamic shared memory");
                };
                let ty = op.result(0).ty();
                if op.num_operands() > 2 || ty.shape().iter().any(|d| d.is_none()) {
                    return unsupported(op, "memref.view with dynamic sizes");
                }
                let (elem, _) =
                    prim_of(ty.element()).ok_or_else(|| Unsupported { message: "view element type".into(), loc: op.loc().src() })?;
                let n: i64 = ty.shape().iter().map(|d| d.unwrap_or(0)).product();
                // A byte offset known at run time (a pipelined tile's stage) is checked at each
                // access; a constant one here.
                let (shift, dynamic) = match op.operand(1).const_int() {
                    Some(c) => (c, None),
                    None => (0, Some(self.use_(op.operand(1))?)),
                };
                let end = (shift as i128) + n as i128 * elem.bytes() as i128;
                if dynamic.is_none() && (shift < 0 || end > self.dynamic_bytes as i128) {
                    return unsupported(
                        op,
                        format!(
                            "memref.view of bytes [{shift}, {end}) of the dynamic shared memory, but the kernel declares {} (phobos.dynamic_shared_bytes)",
                            self.dynamic_bytes
                        ),
                    );
                }
                let name = op.str_attr("phobos.name").map(|n| format!("tile {n}")).unwrap_or_else(|| "a tile".into());
                self.memrefs.push(MemRef {
                    src: MemSrc::Shared { offset: offset + shift as u32, bytes: (n as u32) * elem.bytes() as u32 },
                    elem,
                    strides: strides_of(ty),
                    name,
                    shift: dynamic,
                });
                self.memref_of.insert(op.result(0), self.memrefs.len() - 1);
            }
            // A shared memref's address: its byte offset in the CTA's shared memory; a tensor's,
            // its argument's global address (what `cp.async` reads from).
            "memref.extract_aligned_pointer_as_index" => {
                let m = self.memref(op, op.operand(0))?;
                let address = match self.memrefs[m].src {
                    MemSrc::Shared { offset, .. } | MemSrc::Dynamic { offset } => offset as u64,
                    MemSrc::Arg(i) => crate::program::global_address(i),
                    MemSrc::Private { .. } => return unsupported(op, "the simulator takes the address of shared or global memory only"),
                };
                let dst = self.result(op, 0)?;
                match self.memrefs[m].shift {
                    Some(shift) => {
                        let base = self.new_slot(1);
                        let loc = self.loc(op);
                        self.insts.push(Inst::Const { dst: base, vals: vec![address] });
                        self.insts.push(Inst::Bin { op: BinOp::Add, ty: Prim::I64, dst, a: base, b: shift, loc });
                    }
                    None => self.insts.push(Inst::Const { dst, vals: vec![address] }),
                }
            }
            "memref.get_global" => {
                let g = op.attr("name").and_then(|a| a.symbol()).unwrap_or_default();
                let ty = op.result(0).ty();
                let Some((offset, bytes)) = self.shared.get(&g).copied() else {
                    return unsupported(op, format!("global @{g} is not in workgroup memory; the simulator models shared globals only"));
                };
                let (elem, _) =
                    prim_of(ty.element()).ok_or_else(|| Unsupported { message: "global element type".into(), loc: op.loc().src() })?;
                self.memrefs.push(MemRef {
                    src: MemSrc::Shared { offset, bytes },
                    elem,
                    strides: strides_of(ty),
                    name: format!("@{g}"),
                    shift: None,
                });
                self.memref_of.insert(op.result(0), self.memrefs.len() - 1);
            }
            "memref.alloca" => {
                let ty = op.result(0).ty();
                if ty.shape().iter().any(|d| d.is_none()) {
                    return unsupported(op, "a private allocation of dynamic size");
                }
                let (elem, _) =
                    prim_of(ty.element()).ok_or_else(|| Unsupported { message: "alloca element type".into(), loc: op.loc().src() })?;
                let n: i64 = ty.shape().iter().map(|d| d.unwrap_or(0)).product();
                let bytes = (n as u32) * elem.bytes() as u32;
                let offset = self.private_bytes.div_ceil(16) * 16;
                self.private_bytes = offset + bytes;
                self.memrefs.push(MemRef {
                    src: MemSrc::Private { offset, bytes },
                    elem,
                    strides: strides_of(ty),
                    name: "a private array".into(),
                    shift: None,
                });
                self.memref_of.insert(op.result(0), self.memrefs.len() - 1);
            }
            "memref.load" | "vector.load" => {
                let mem = self.memref(op, op.operand(0))?;
                let idx = op.operands()[1..].iter().map(|v| self.use_(*v)).collect::<R<Vec<_>>>()?;
                let dst = self.result(op, 0)?;
                let align = op.int_attr("alignment").unwrap_or(0) as u32;
                let loc = self.loc(op);
                self.insts.push(Inst::Load { dst, mem, idx, n: dst.len, align, loc, acquire: false });
            }
            "vector.maskedload" => {
                let ops = op.operands();
                let mem = self.memref(op, ops[0])?;
                let idx = ops[1..ops.len() - 2].iter().map(|v| self.use_(*v)).collect::<R<Vec<_>>>()?;
                let (mask, pass) = (self.use_(ops[ops.len() - 2])?, self.use_(ops[ops.len() - 1])?);
                let dst = self.result(op, 0)?;
                let loc = self.loc(op);
                self.insts.push(Inst::MaskedLoad { dst, mem, idx, mask, pass, loc });
            }
            "memref.store" | "vector.store" => {
                let src = self.use_(op.operand(0))?;
                let mem = self.memref(op, op.operand(1))?;
                let idx = op.operands()[2..].iter().map(|v| self.use_(*v)).collect::<R<Vec<_>>>()?;
                let align = op.int_attr("alignment").unwrap_or(0) as u32;
                let loc = self.loc(op);
                let scatter = op.int_attr("phobos.scatter_item").map(|i| i as u32);
                let release = op.str_attr("phobos.ordering").as_deref() == Some("release");
                self.insts.push(Inst::Store { src, mem, idx, n: src.len, align, loc, scatter, release });
            }
            "memref.atomic_rmw" if op.str_attr("phobos.ordering").as_deref() == Some("acquire") => {
                // load_acquire: an atomic `or 0` in the IR, a load here.
                let mem = self.memref(op, op.operand(1))?;
                let idx = op.operands()[2..].iter().map(|v| self.use_(*v)).collect::<R<Vec<_>>>()?;
                let dst = self.result(op, 0)?;
                let loc = self.loc(op);
                self.insts.push(Inst::Load { dst, mem, idx, n: 1, align: 0, loc, acquire: true });
            }
            "memref.atomic_rmw" => {
                // MLIR 22 stores the kind as the enum's integer (arith's AtomicRMWKind order).
                const KINDS: [&str; 16] = [
                    "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu", "minimumf", "minnumf", "mins", "minu", "mulf",
                    "muli", "ori", "xori",
                ];
                let kind_attr = op.attr("kind");
                let kind_text = match kind_attr.and_then(|a| a.int()) {
                    Some(i) => KINDS.get(i as usize).map(|k| k.to_string()).unwrap_or_else(|| i.to_string()),
                    None => kind_attr.map(|a| a.to_string()).unwrap_or_default(),
                };
                let kind = match kind_text.trim_start_matches("#arith.atomic_rmw_kind<").trim_end_matches('>') {
                    "addi" => AtomicKind::AddI,
                    "addf" => AtomicKind::AddF,
                    "maxs" => AtomicKind::MaxS,
                    "mins" => AtomicKind::MinS,
                    "maxu" => AtomicKind::MaxU,
                    "minu" => AtomicKind::MinU,
                    "maximumf" | "maxnumf" => AtomicKind::MaxF,
                    "minimumf" | "minnumf" => AtomicKind::MinF,
                    "andi" => AtomicKind::And,
                    "ori" => AtomicKind::Or,
                    "xori" => AtomicKind::Xor,
                    "assign" => AtomicKind::Exchange,
                    k => return unsupported(op, format!("atomic kind {k}")),
                };
                let ty = self.res_prim(op, 0)?;
                let val = self.use_(op.operand(0))?;
                let mem = self.memref(op, op.operand(1))?;
                let idx = op.operands()[2..].iter().map(|v| self.use_(*v)).collect::<R<Vec<_>>>()?;
                let dst = self.result(op, 0)?;
                let loc = self.loc(op);
                self.insts.push(Inst::Atomic { kind, ty, dst, val, mem, idx, loc });
            }
            "memref.generic_atomic_rmw" => {
                // Only the compare-and-swap Phobos emits: select(old == expected, desired, old).
                let Some((cmp, val)) = phobos_ir::idioms::compare_and_swap(op) else {
                    return unsupported(op, "memref.generic_atomic_rmw other than a compare-and-swap (select(old == e, d, old))");
                };
                let cmp = self.use_(cmp)?;
                let val = self.use_(val)?;
                let mem = self.memref(op, op.operand(0))?;
                let idx = op.operands()[1..].iter().map(|v| self.use_(*v)).collect::<R<Vec<_>>>()?;
                let dst = self.result(op, 0)?;
                let loc = self.loc(op);
                self.insts.push(Inst::Cas { dst, cmp, val, mem, idx, loc });
            }
            other => return unsupported(op, format!("the simulator does not support `{other}`")),
        }
        Ok(())
    }
}
