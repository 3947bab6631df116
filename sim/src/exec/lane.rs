//! Per-lane instructions: constants, arithmetic, casts, vector ops, reductions within a lane,
//! dp4a, byte permutes, funnel shifts, assertions and moves.

use super::*;

impl Ctx<'_> {
    /// Runs a per-lane instruction for the active lanes.
    pub(super) fn exec_lane(&mut self, cta: &mut Cta, w: &mut Warp, inst: &Inst) -> Result<(), Fault> {
        let mask = w.mask;
        match inst {
            Inst::Const { dst, vals } => {
                for (e, v) in vals.iter().enumerate() {
                    for l in lanes(mask) {
                        w.regs[at(*dst, e as u32, l)] = *v;
                    }
                }
            }
            Inst::Bin { op, ty, dst, a, b, loc } => {
                if let Err(l) = lanewise::bin_lanes(&mut w.regs, *op, *ty, *dst, *a, *b, mask) {
                    return Err(self.fault(
                        FaultKind::DivisionByZero,
                        cta,
                        Some((w, l)),
                        Some(*loc),
                        format!("integer division by zero ({})", ty.name()),
                    ));
                }
            }
            Inst::Un { op, ty, dst, a } => {
                for e in 0..dst.len {
                    for l in lanes(mask) {
                        let x = w.regs[at(*a, e, l)];
                        w.regs[at(*dst, e, l)] = match op {
                            UnOp::FNeg => fput(*ty, -fget(*ty, x)),
                            UnOp::AbsF => fput(*ty, fget(*ty, x).abs()),
                            UnOp::CtPop => ((x & ty.mask()).count_ones()) as u64,
                            UnOp::AbsI => (sext(x, ty.bits()).wrapping_abs() as u64) & ty.mask(),
                        };
                    }
                }
            }
            Inst::Math { f, ty, dst, a, b, ftz } => {
                for e in 0..dst.len {
                    for l in lanes(mask) {
                        let (x, y) = (w.regs[at(*a, e, l)], w.regs[at(*b, e, l)]);
                        w.regs[at(*dst, e, l)] = if *ftz { math::eval_ftz(*f, *ty, x) } else { math::eval(*f, *ty, x, y) };
                    }
                }
            }
            Inst::Fma { ty, dst, a, b, c } => lanewise::fma_lanes(&mut w.regs, *ty, *dst, *a, *b, *c, mask),
            Inst::Cmp { pred, ty, dst, a, b } => lanewise::cmp_lanes(&mut w.regs, *pred, *ty, *dst, *a, *b, mask),
            Inst::Cast { op, from, to, dst, a } => lanewise::cast_lanes(&mut w.regs, *op, *from, *to, *dst, *a, mask),
            Inst::Select { dst, c, a, b } => {
                for e in 0..dst.len {
                    for l in lanes(mask) {
                        let ce = if c.len > 1 { e } else { 0 };
                        let pick = w.regs[at(*c, ce, l)] & 1 != 0;
                        w.regs[at(*dst, e, l)] = if pick { w.regs[at(*a, e, l)] } else { w.regs[at(*b, e, l)] };
                    }
                }
            }
            Inst::Id { id, dst } => {
                for l in lanes(mask) {
                    let t = w.index * 32 + l as u32;
                    let xyz = self.thread_xyz(t);
                    let v = match id {
                        Id::ThreadId(d) => xyz[*d as usize],
                        Id::BlockId(d) => cta.id[*d as usize],
                        Id::BlockDim(d) => self.launch.block[*d as usize],
                        Id::GridDim(d) => self.launch.grid[*d as usize],
                        Id::LaneId => l as u32,
                    };
                    w.regs[at(*dst, 0, l)] = v as u64;
                }
            }
            Inst::FromElements { dst, srcs } => {
                for (e, s) in srcs.iter().enumerate() {
                    if mask == u32::MAX {
                        w.regs.copy_within(at(*s, 0, 0)..at(*s, 0, 32), at(*dst, e as u32, 0));
                        continue;
                    }
                    for l in lanes(mask) {
                        w.regs[at(*dst, e as u32, l)] = w.regs[at(*s, 0, l)];
                    }
                }
            }
            Inst::Broadcast { dst, src } => {
                for e in 0..dst.len {
                    for l in lanes(mask) {
                        w.regs[at(*dst, e, l)] = w.regs[at(*src, if src.len > 1 { e } else { 0 }, l)];
                    }
                }
            }
            Inst::Extract { dst, src, pos, at: None } if *pos < src.len => lanewise::extract_lanes(&mut w.regs, *dst, *src, *pos, mask),
            Inst::Extract { dst, src, pos, at: dynamic } => {
                for l in lanes(mask) {
                    let p = dynamic.map_or(*pos as u64, |s| w.regs[at(s, 0, l)]);
                    w.regs[at(*dst, 0, l)] = if p < src.len as u64 { w.regs[at(*src, p as u32, l)] } else { 0 };
                }
            }
            Inst::Insert { dst, vec, val, pos, at: dynamic } => {
                for l in lanes(mask) {
                    let p = dynamic.map_or(*pos as u64, |s| w.regs[at(s, 0, l)]);
                    let x = w.regs[at(*val, 0, l)];
                    for e in 0..dst.len {
                        w.regs[at(*dst, e, l)] = if e as u64 == p { x } else { w.regs[at(*vec, e, l)] };
                    }
                }
            }
            Inst::ExtractSlice { dst, src, offset } => {
                for e in 0..dst.len {
                    for l in lanes(mask) {
                        w.regs[at(*dst, e, l)] = w.regs[at(*src, offset + e, l)];
                    }
                }
            }
            Inst::VBitcast { dst, src, from, to } => {
                let (fb, tb) = (from.bits() as usize, to.bits() as usize);
                for l in lanes(mask) {
                    let mut bits: u128 = 0;
                    for e in 0..src.len as usize {
                        bits |= ((w.regs[at(*src, e as u32, l)] & from.mask()) as u128) << (e * fb);
                    }
                    for e in 0..dst.len as usize {
                        w.regs[at(*dst, e as u32, l)] = ((bits >> (e * tb)) as u64) & to.mask();
                    }
                }
            }
            Inst::Reduce { kind, ty, dst, src, acc } => {
                for l in lanes(mask) {
                    let mut r = match acc {
                        Some(a) => w.regs[at(*a, 0, l)],
                        None => w.regs[at(*src, 0, l)],
                    };
                    let first = if acc.is_some() { 0 } else { 1 };
                    for e in first..src.len {
                        let x = w.regs[at(*src, e, l)];
                        let op = match (kind, ty.is_float()) {
                            (RedKind::Add, true) => BinOp::FAdd,
                            (RedKind::Add, false) => BinOp::Add,
                            (RedKind::Mul, true) => BinOp::FMul,
                            (RedKind::Mul, false) => BinOp::Mul,
                            (RedKind::Max, true) => BinOp::FMax,
                            (RedKind::Max, false) => BinOp::MaxS,
                            (RedKind::Min, true) => BinOp::FMin,
                            (RedKind::Min, false) => BinOp::MinS,
                            (RedKind::And, _) => BinOp::And,
                            (RedKind::Or, _) => BinOp::Or,
                            (RedKind::Xor, _) => BinOp::Xor,
                        };
                        r = bin(op, *ty, r, x).unwrap_or(0);
                    }
                    w.regs[at(*dst, 0, l)] = r;
                }
            }
            Inst::Dp4a { dst, a, b, c, a_signed, b_signed } => {
                for l in lanes(mask) {
                    let mut acc = sext(w.regs[at(*c, 0, l)], 32);
                    for e in 0..4 {
                        let x = w.regs[at(*a, e, l)] & 0xff;
                        let y = w.regs[at(*b, e, l)] & 0xff;
                        let x = if *a_signed { sext(x, 8) } else { x as i64 };
                        let y = if *b_signed { sext(y, 8) } else { y as i64 };
                        acc = acc.wrapping_add(x * y);
                    }
                    w.regs[at(*dst, 0, l)] = (acc as u64) & 0xffff_ffff;
                }
            }
            Inst::Prmt { dst, a, b, sel } => {
                for l in lanes(mask) {
                    let bytes = (w.regs[at(*a, 0, l)] & 0xffff_ffff) | ((w.regs[at(*b, 0, l)] & 0xffff_ffff) << 32);
                    let s = w.regs[at(*sel, 0, l)] as u32;
                    let mut r: u32 = 0;
                    for i in 0..4 {
                        let nib = (s >> (4 * i)) & 0xf;
                        let byte = ((bytes >> (8 * (nib & 7))) & 0xff) as u32;
                        let byte = if nib & 8 != 0 {
                            if byte & 0x80 != 0 {
                                0xff
                            } else {
                                0
                            }
                        } else {
                            byte
                        };
                        r |= byte << (8 * i);
                    }
                    w.regs[at(*dst, 0, l)] = r as u64;
                }
            }
            Inst::FunnelShift { dst, hi, lo, amount, left } => {
                for l in lanes(mask) {
                    let both = ((w.regs[at(*hi, 0, l)] & 0xffff_ffff) << 32) | (w.regs[at(*lo, 0, l)] & 0xffff_ffff);
                    let s = (w.regs[at(*amount, 0, l)] & 31) as u32;
                    let r = if *left { (both << s) >> 32 } else { both >> s };
                    w.regs[at(*dst, 0, l)] = r & 0xffff_ffff;
                }
            }
            Inst::Assert { cond, msg, bounds, loc } => {
                if let Some(l) = lanes(mask).find(|l| w.regs[at(*cond, 0, *l)] & 1 == 0) {
                    let kind = if *bounds { FaultKind::OutOfBounds } else { FaultKind::Assertion };
                    return Err(self.fault(kind, cta, Some((w, l)), Some(*loc), msg.clone()));
                }
            }
            Inst::Move { pairs } => copy_pairs(&mut w.regs, pairs, mask),
            // The step loop dispatches the other instructions elsewhere.
            _ => {}
        }
        Ok(())
    }
}
