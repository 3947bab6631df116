//! Translating `nvvm` ops: segmented shuffles, dp4a, byte permutes, votes, tensor cores and
//! asynchronous copies.

use super::*;
use crate::mma::MmaType;

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
            "nvvm.mma.sync" => self.mma(op)?,
            "nvvm.convert.float.to.tf32" => {
                let text = |key: &str| op.attr(key).map(|a| a.to_string()).unwrap_or_default();
                if !text("rnd").contains("rna") || text("sat").contains("satfinite") || op.attr("relu").and_then(|a| a.bool()) == Some(true)
                {
                    return unsupported(op, "the simulator runs cvt.rna.tf32.f32 (rnd = rna, no saturation or relu)");
                }
                let a = self.use_(op.operand(0))?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Cast { op: CastOp::Tf32, from: Prim::F32, to: Prim::I32, dst, a });
            }
            "nvvm.ldmatrix" => {
                let text = |key: &str| op.attr(key).map(|a| a.to_string()).unwrap_or_default();
                if !text("eltType").contains("b16") || !text("shape").contains("m = 8, n = 8") {
                    return unsupported(op, "the simulator runs ldmatrix of 8x8 b16 matrices");
                }
                let num = op.int_attr("num").unwrap_or(1);
                if ![1, 2, 4].contains(&num) {
                    return unsupported(op, format!("ldmatrix of {num} matrices"));
                }
                let ptr = self.use_(op.operand(0))?;
                let dst = self.result(op, 0)?;
                let loc = self.loc(op);
                self.insts.push(Inst::LdMatrix { num: num as u32, trans: text("layout").contains("col"), ptr, dst, loc });
            }
            "nvvm.cp.async.shared.global" => {
                let size = op.int_attr("size").unwrap_or(0);
                if ![4, 8, 16].contains(&size) {
                    return unsupported(op, format!("cp.async of {size} bytes (4, 8 or 16)"));
                }
                let dst = self.use_(op.operand(0))?;
                let src = self.use_(op.operand(1))?;
                let src_size = if op.num_operands() > 2 { Some(self.use_(op.operand(2))?) } else { None };
                let loc = self.loc(op);
                self.insts.push(Inst::CpAsync { dst, src, size: size as u32, src_size, loc });
            }
            "nvvm.cp.async.commit.group" => self.insts.push(Inst::CpAsyncCommit),
            "nvvm.cp.async.wait.group" => {
                let n = op.int_attr("n").unwrap_or(0).clamp(0, u32::MAX as i64) as u32;
                let loc = self.loc(op);
                self.insts.push(Inst::CpAsyncWait { n, loc });
            }
            "nvvm.mbarrier.init" => {
                let (addr, count) = (self.use_(op.operand(0))?, self.use_(op.operand(1))?);
                if op.num_operands() > 2 {
                    return unsupported(op, "a predicated mbarrier.init");
                }
                let loc = self.loc(op);
                self.insts.push(Inst::MbarInit { addr, count, loc });
            }
            "nvvm.mbarrier.inval" => {
                let addr = self.use_(op.operand(0))?;
                let loc = self.loc(op);
                self.insts.push(Inst::MbarInval { addr, loc });
            }
            "nvvm.mbarrier.arrive.expect_tx" | "nvvm.mbarrier.expect_tx" | "nvvm.mbarrier.arrive" => {
                if op.num_results() > 0
                    || (name != "nvvm.mbarrier.arrive" && op.num_operands() != 2)
                    || (name == "nvvm.mbarrier.arrive" && op.num_operands() != 1)
                {
                    return unsupported(
                        op,
                        format!("{name} with a count, a predicate or a state result (the simulator waits on parities)"),
                    );
                }
                let addr = self.use_(op.operand(0))?;
                let tx = if op.num_operands() > 1 { Some(self.use_(op.operand(1))?) } else { None };
                let loc = self.loc(op);
                self.insts.push(Inst::MbarArrive { addr, tx, arrive: name != "nvvm.mbarrier.expect_tx", loc });
            }
            "nvvm.mbarrier.try_wait.parity" => {
                let (addr, parity) = (self.use_(op.operand(0))?, self.use_(op.operand(1))?);
                let loc = self.loc(op);
                self.insts.push(Inst::MbarWait { addr, parity, loc });
            }
            // The simulator has one memory proxy: mbarriers and tensor maps are seen at once.
            "nvvm.fence.mbarrier.init" | "nvvm.fence.proxy.acquire" => {}
            "nvvm.cp.async.bulk.tensor.shared.cluster.global" => {
                let seg = op.attr("operandSegmentSizes").and_then(|a| a.dense_ints()).unwrap_or_default();
                if seg.len() < 4 || seg[0] != 1 || seg[1] != 1 || seg[3] != 1 || seg[4..].iter().any(|n| *n != 0) {
                    return unsupported(op, "cp.async.bulk.tensor with im2col offsets, a multicast mask, a cache hint or a predicate");
                }
                let n = seg[2] as usize;
                if !(1..=5).contains(&n) {
                    return unsupported(op, format!("cp.async.bulk.tensor of {n} dimensions"));
                }
                let dst = self.use_(op.operand(0))?;
                let desc = self.use_(op.operand(1))?;
                let coords = (0..n).map(|i| self.use_(op.operand(2 + i))).collect::<R<Vec<_>>>()?;
                let bar = self.use_(op.operand(2 + n))?;
                let loc = self.loc(op);
                self.insts.push(Inst::TmaLoad { dst, desc, coords, bar, loc });
            }
            // Warps run in lockstep here: a warp-level barrier orders nothing more.
            "nvvm.bar.warp.sync" => {}
            // One memory proxy here: shared memory written by stores is what wgmma reads.
            "nvvm.fence.proxy" => {}
            "nvvm.wgmma.mma_async" => self.wgmma(op)?,
            "nvvm.wgmma.fence.aligned" => {
                let loc = self.loc(op);
                self.insts.push(Inst::WgmmaFence { loc });
            }
            "nvvm.wgmma.commit.group.sync.aligned" => {
                let loc = self.loc(op);
                self.insts.push(Inst::WgmmaCommit { loc });
            }
            "nvvm.wgmma.wait.group.sync.aligned" => {
                let n = op.int_attr("group").unwrap_or(0).clamp(0, u32::MAX as i64) as u32;
                let loc = self.loc(op);
                self.insts.push(Inst::WgmmaWait { n, loc });
            }
            other => return unsupported(op, format!("the simulator does not support `{other}`")),
        }
        Ok(())
    }
}

impl<'a> Tr<'a> {
    /// `nvvm.mma.sync` (m16n8k16 f16/bf16, m16n8k8 tf32, m16n8k32 s8/u8; A row, B col).
    fn mma(&mut self, op: Op<'a>) -> R<()> {
        let text = |key: &str| op.attr(key).map(|a| a.to_string()).unwrap_or_default();
        let shape = text("shape");
        let num = |key: &str| -> Option<u32> {
            shape.split(&format!("{key} = ")).nth(1)?.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
        };
        let (Some(16), Some(8), Some(k)) = (num("m"), num("n"), num("k")) else {
            return unsupported(op, format!("the simulator runs mma.sync of shapes m16n8k*, not {shape}"));
        };
        if !text("layoutA").contains("row") || !text("layoutB").contains("col") {
            return unsupported(op, "the simulator runs mma.sync with A row-major and B column-major (.row.col)");
        }
        let segments = op.attr("operandSegmentSizes").and_then(|a| a.dense_ints()).unwrap_or_default();
        let [na, nb, nc] = segments[..] else { return unsupported(op, "mma.sync without its operand segments") };
        let (na, nb) = (na as usize, nb as usize);
        // The operands' element types: named by the op, or f16 (vector<2xf16> registers).
        let named = |key: &str| text(key).split('<').nth(1).and_then(|s| s.split('>').next()).and_then(MmaType::parse);
        let a_ty = named("multiplicandAPtxType").unwrap_or(MmaType::F16);
        let b_ty = named("multiplicandBPtxType").unwrap_or(a_ty);
        if !crate::mma::supported(k, a_ty) || !crate::mma::supported(k, b_ty) {
            return unsupported(op, format!("the simulator does not run mma.sync m16n8k{k} on {a_ty:?} x {b_ty:?}"));
        }
        let acc = match self.res_prim(op, 0)? {
            Prim::F32 => MmaType::F32,
            Prim::F16 => MmaType::F16,
            Prim::I32 => MmaType::S32,
            p => return unsupported(op, format!("mma.sync accumulating in {p:?}")),
        };
        if op.num_operands() != na + nb + nc as usize {
            return unsupported(op, "mma.sync operands do not match their segments");
        }
        // A packed register is an i32 holding narrower elements (bf16, tf32 bits, s8, u8). f16
        // registers bitcast from i32 words (ldmatrix's) are read as those words.
        let look_through = mma_reads_packed(op);
        let packed = look_through || self.opd_prim(op, 0)? == Prim::I32;
        let mut s = Vec::with_capacity(op.num_operands());
        for (i, v) in op.operands().into_iter().enumerate() {
            let v = if look_through && i < na + nb { packed_source(v).unwrap_or(v) } else { v };
            s.push(self.use_(v)?);
        }
        let dst = self.result(op, 0)?;
        let loc = self.loc(op);
        self.insts.push(Inst::Mma {
            k,
            a_ty,
            b_ty,
            acc,
            a: s[..na].to_vec(),
            b: s[na..na + nb].to_vec(),
            c: s[na + nb..].to_vec(),
            packed,
            dst,
            loc,
        });
        Ok(())
    }
}

impl<'a> Tr<'a> {
    /// `nvvm.wgmma.mma_async` m64nNk16 of f16 or bf16 into f32, A and B from descriptors.
    fn wgmma(&mut self, op: Op<'a>) -> R<()> {
        let text = |key: &str| op.attr(key).map(|a| a.to_string()).unwrap_or_default();
        let shape = text("shape");
        let num = |key: &str| -> Option<u32> {
            shape.split(&format!("{key} = ")).nth(1)?.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
        };
        let (Some(64), Some(n), Some(16)) = (num("m"), num("n"), num("k")) else {
            return unsupported(op, format!("the simulator runs wgmma.mma_async of shapes m64nNk16, not {shape}"));
        };
        if n == 0 || n % 8 != 0 || n > 256 {
            return unsupported(op, format!("wgmma.mma_async's N must be a multiple of 8 up to 256, got {n}"));
        }
        let named = |key: &str| text(key).split('<').nth(1).and_then(|s| s.split('>').next()).map(str::to_string);
        let ty = match (named("typeA").as_deref(), named("typeB").as_deref(), named("typeD").as_deref()) {
            (Some("f16"), Some("f16"), Some("f32")) => MmaType::F16,
            (Some("bf16"), Some("bf16"), Some("f32")) => MmaType::BF16,
            (a, b, d) => {
                return unsupported(op, format!("the simulator runs wgmma.mma_async of f16 or bf16 into f32, not {a:?} x {b:?} into {d:?}"))
            }
        };
        if op.num_operands() != 3 {
            return unsupported(op, "wgmma.mma_async with A in registers (the simulator reads A from its descriptor)");
        }
        let dst = self.result(op, 0)?;
        let c = self.use_(op.operand(0))?;
        let (a_desc, b_desc) = (self.use_(op.operand(1))?, self.use_(op.operand(2))?);
        if dst.len != n / 2 || c.len != n / 2 {
            return unsupported(op, format!("wgmma.mma_async m64n{n}k16 accumulates in {} f32 per thread", n / 2));
        }
        let loc = self.loc(op);
        self.insts.push(Inst::Wgmma {
            n,
            ty,
            a_kmajor: named("layoutA").as_deref() != Some("col"),
            b_kmajor: named("layoutB").as_deref() != Some("row"),
            scale_d: named("scaleD").as_deref() != Some("zero"),
            neg_a: named("scaleA").as_deref() == Some("neg"),
            neg_b: named("scaleB").as_deref() == Some("neg"),
            a_desc,
            b_desc,
            c,
            dst,
            loc,
        });
        Ok(())
    }

    /// Pointers as integers (byte addresses in shared memory): casts move them, a
    /// `getelementptr` adds its index times the element's size.
    pub(super) fn pointer_op(&mut self, op: Op<'a>, name: &str) -> R<()> {
        let dst = self.result(op, 0)?;
        let src = self.use_(op.operand(0))?;
        if name != "llvm.getelementptr" {
            self.insts.push(Inst::Move { pairs: vec![(dst, src)] });
            return Ok(());
        }
        let size = op.attr("elem_type").and_then(|a| a.type_value()).and_then(prim_of).map(|(p, n)| p.bytes() as u64 * n as u64);
        // A constant index folded into the op (`%p[8]`).
        let raw = op.attr("rawConstantIndices").and_then(|a| a.dense_ints()).unwrap_or_default();
        let folded = (op.num_operands() == 1 && raw.len() == 1 && raw[0] != i32::MIN as i64).then(|| raw[0]);
        let (Some(size), 2 | 1) = (size, op.num_operands()) else {
            return unsupported(op, "the simulator runs a getelementptr of one index over a scalar or vector element");
        };
        let idx = match folded {
            Some(c) => {
                let s = self.new_slot(1);
                self.insts.push(Inst::Const { dst: s, vals: vec![c as u64] });
                s
            }
            None if op.num_operands() == 2 => self.use_(op.operand(1))?,
            None => return unsupported(op, "the simulator runs a getelementptr of one index over a scalar or vector element"),
        };
        let scale = self.new_slot(1);
        self.insts.push(Inst::Const { dst: scale, vals: vec![size] });
        let bytes = self.new_slot(1);
        let loc = self.loc(op);
        self.insts.push(Inst::Bin { op: BinOp::Mul, ty: Prim::I64, dst: bytes, a: idx, b: scale, loc });
        self.insts.push(Inst::Bin { op: BinOp::Add, ty: Prim::I64, dst, a: src, b: bytes, loc });
        Ok(())
    }
}

/// The i32 word a `vector<2xf16>` or `vector<2xbf16>` register was bitcast from, if it was.
fn packed_source(v: Val<'_>) -> Option<Val<'_>> {
    let d = v.def().filter(|d| d.is("llvm.bitcast"))?;
    let two_halves = prim_of(v.ty()).is_some_and(|(p, n)| n == 2 && matches!(p, Prim::F16 | Prim::BF16));
    (two_halves && prim_of(d.operand(0).ty()) == Some((Prim::I32, 1))).then(|| d.operand(0))
}

/// The number of A and B registers of `nvvm.mma.sync` `op` (its first operands).
fn mma_ab_count(op: Op<'_>) -> usize {
    let segments = op.attr("operandSegmentSizes").and_then(|a| a.dense_ints()).unwrap_or_default();
    segments.iter().take(2).sum::<i64>() as usize
}

/// Whether `nvvm.mma.sync` `op` can read every A and B register as an i32 word: each is one, or
/// was bitcast from one.
fn mma_reads_packed(op: Op<'_>) -> bool {
    (0..mma_ab_count(op)).all(|i| {
        let v = op.operand(i);
        prim_of(v.ty()) == Some((Prim::I32, 1)) || packed_source(v).is_some()
    })
}

/// Whether the bitcast result `v` is read only as A or B registers of mma.syncs that read them
/// as the words they came from: then it needs no instruction.
pub(super) fn only_packed_mma_operand(v: Val<'_>) -> bool {
    let users = v.users();
    packed_source(v).is_some()
        && !users.is_empty()
        && users.iter().all(|u| {
            u.is("nvvm.mma.sync")
                && mma_reads_packed(*u)
                && u.operands().into_iter().enumerate().all(|(i, o)| o != v || i < mma_ab_count(*u))
        })
}
