//! Tensor-core multiply-adds, as whole-warp operations over the ISA's fragments
//! ([`crate::mma`]). Products are exact in f64 (f16, bf16 and tf32 products are) and summed
//! there, then rounded once to the accumulator's type: within f32 accumulation error of a GPU,
//! which does not fix the order of its additions. Integers wrap as the instruction does without
//! `.satfinite`.

use super::*;
use crate::mma::{a_at, b_at, c_at, MmaType};

impl Ctx<'_> {
    pub(super) fn exec_mma(&mut self, cta: &mut Cta, w: &mut Warp, inst: &Inst) -> Result<(), Fault> {
        let Inst::Mma { k, a_ty, b_ty, acc, a, b, c, packed, dst, loc } = inst else { return Ok(()) };
        self.whole_warp(cta, w, "mma.sync", *loc)?;
        let k = *k as usize;
        // Each lane's fragment, element by element in register order, into the matrices (fixed
        // arrays: this runs once per instruction, tens of thousands of times per GEMM).
        fn unpack(w: &Warp, regs: &[Slot], ty: MmaType, packed: bool, lane: usize, mut put: impl FnMut(u32, u64)) {
            let mut e = 0;
            for r in regs {
                if packed && ty.bits() < 32 {
                    let word = w.regs[at(*r, 0, lane)];
                    let bits = ty.bits();
                    for i in 0..32 / bits {
                        put(e, (word >> (i * bits)) & ((1u64 << bits) - 1));
                        e += 1;
                    }
                } else {
                    for x in 0..r.len {
                        put(e, w.regs[at(*r, x, lane)]);
                        e += 1;
                    }
                }
            }
        }
        let (mut am, mut bm, mut cm) = ([0f64; 16 * 32], [0f64; 32 * 8], [0f64; 16 * 8]);
        for lane in 0..32u32 {
            unpack(w, a, *a_ty, *packed, lane as usize, |e, bits| {
                let (r, col) = a_at(k as u32, lane, e);
                am[r as usize * k + col as usize] = a_ty.value(bits);
            });
            unpack(w, b, *b_ty, *packed, lane as usize, |e, bits| {
                // Held transposed (column n contiguous), so each sum runs over adjacent elements.
                let (row, n) = b_at(k as u32, lane, e);
                bm[n as usize * k + row as usize] = b_ty.value(bits);
            });
            unpack(w, c, *acc, false, lane as usize, |e, bits| {
                let (r, n) = c_at(lane, e);
                cm[r as usize * 8 + n as usize] = acc.value(bits);
            });
        }
        for lane in 0..32u32 {
            for e in 0..dst.len {
                let (r, n) = c_at(lane, e);
                let (r, n) = (r as usize, n as usize);
                let bits = if *acc == MmaType::S32 {
                    // Exact: |products| < 2^14 and 32 of them, so i64 holds the sum; it wraps to i32.
                    let s: i64 = (0..k).map(|i| am[r * k + i] as i64 * bm[n * k + i] as i64).sum::<i64>() + cm[r * 8 + n] as i64;
                    s as i32 as u32 as u64
                } else {
                    let (row, col) = (&am[r * k..r * k + k], &bm[n * k..n * k + k]);
                    let s: f64 = row.iter().zip(col).map(|(x, y)| x * y).sum::<f64>() + cm[r * 8 + n];
                    match acc {
                        MmaType::F16 => half::f16::from_f64(s).to_bits() as u64,
                        _ => (s as f32).to_bits() as u64,
                    }
                };
                w.regs[at(*dst, e, lane as usize)] = bits;
            }
        }
        self.stats.mma += 1;
        Ok(())
    }
}

impl Ctx<'_> {
    pub(super) fn exec_ldmatrix(&mut self, cta: &mut Cta, w: &mut Warp, inst: &Inst) -> Result<(), Fault> {
        let Inst::LdMatrix { num, trans, ptr, dst, loc } = inst else { return Ok(()) };
        let (num, loc) = (*num as usize, *loc);
        self.whole_warp(cta, w, "ldmatrix", loc)?;
        let size = cta.shared.len();
        // Each matrix's eight rows: 16 bytes at the address lane 8i + r gives, in shared memory.
        let mut rows = vec![[0u16; 8]; 8 * num];
        let mut banked = Vec::new();
        for (lane, row) in rows.iter_mut().enumerate() {
            let addr = w.regs[at(*ptr, 0, lane)] as usize;
            if addr.checked_add(16).is_none_or(|end| end > size) {
                let message = format!(
                    "ldmatrix row {} of matrix {} at shared byte {addr}, past the {size} bytes of shared memory",
                    lane % 8,
                    lane / 8
                );
                return Err(self.fault(FaultKind::OutOfBounds, cta, Some((w, lane)), Some(loc), message));
            }
            if !addr.is_multiple_of(16) {
                let message =
                    format!("ldmatrix row {} of matrix {} at shared byte {addr}, which is not 16-byte aligned", lane % 8, lane / 8);
                return Err(self.fault(FaultKind::Misaligned, cta, Some((w, lane)), Some(loc), message));
            }
            self.check_race(cta, w, lane, addr, 16, false, loc)?;
            banked.push((lane as u32, addr as u64));
            for (e, v) in row.iter_mut().enumerate() {
                *v = u16::from_le_bytes([cta.shared[addr + 2 * e], cta.shared[addr + 2 * e + 1]]);
            }
        }
        for lane in 0..32usize {
            let (g, t) = (lane / 4, lane % 4);
            for m in 0..num {
                let pick = |i: usize| if *trans { rows[8 * m + 2 * t + i][g] } else { rows[8 * m + g][2 * t + i] };
                w.regs[at(*dst, m as u32, lane)] = pick(0) as u64 | (pick(1) as u64) << 16;
            }
        }
        self.stats.bank_conflicts += phobos_layout::banks::conflicts(&banked, 16);
        self.stats.ldmatrix += 1;
        if let Some(t) = self.tracing(cta) {
            t.event(w.pc, w.index, trace::EventKind::Read, banked.iter().map(|&(_, a)| (a, 16)));
        }
        Ok(())
    }
}

impl Ctx<'_> {
    /// A `.aligned` instruction: every lane of the warp runs it together.
    pub(super) fn whole_warp(&self, cta: &Cta, w: &Warp, what: &str, loc: u32) -> Result<(), Fault> {
        if w.mask == u32::MAX {
            return Ok(());
        }
        let message = format!("{what} is .aligned: every lane of the warp runs it together, but only lanes {} are here", lane_list(w.mask));
        Err(self.fault(FaultKind::DivergentShuffle, cta, Some((w, w.mask.trailing_zeros().min(31) as usize)), Some(loc), message))
    }
}
