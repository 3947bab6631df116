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
        let c_len: u32 = c.iter().map(|r| r.len).sum();
        let fast = matches!(a_ty, MmaType::F16 | MmaType::BF16) && b_ty == a_ty && *acc == MmaType::F32;
        if k == 16 && fast && a.len() == 4 && b.len() == 2 && c_len == 4 && dst.len == 4 {
            mma_16x8x16_f32(w, a, b, c, *a_ty, *packed, *dst);
            self.stats.mma += 1;
            return Ok(());
        }
        let t = tables(k as u32);
        // A row-major (16 x k), B row-major (k x 8), C (16 x 8): each lane's fragment scattered
        // into them through the ISA's tables (fixed arrays: this runs tens of thousands of times
        // per GEMM).
        let (mut am, mut bm, mut cm) = ([0f64; 512], [0f64; 512], [0f64; 512]);
        gather(w, a, *a_ty, *packed, &t.a, &mut am);
        gather(w, b, *b_ty, *packed, &t.b, &mut bm);
        gather(w, c, *acc, false, &t.c, &mut cm);
        // Each of the 128 sums runs over k in order, all 128 side by side: independent chains
        // the compiler vectorizes (one sum at a time waits on each addition's latency).
        let sums: [u64; 16 * 8] = if *acc == MmaType::S32 {
            // Exact: |products| < 2^14 and 32 of them, so i64 holds the sum; it wraps to i32.
            let mut s = [0i64; 16 * 8];
            for i in 0..k {
                let brow: [i64; 8] = std::array::from_fn(|n| bm[i * 8 + n] as i64);
                for r in 0..16 {
                    let x = am[r * k + i] as i64;
                    for (o, y) in s[r * 8..r * 8 + 8].iter_mut().zip(brow) {
                        *o += x * y;
                    }
                }
            }
            std::array::from_fn(|j| (s[j] + cm[j] as i64) as i32 as u32 as u64)
        } else {
            let mut s = [-0.0f64; 16 * 8];
            for i in 0..k {
                let brow: [f64; 8] = std::array::from_fn(|n| bm[i * 8 + n]);
                for r in 0..16 {
                    let x = am[r * k + i];
                    for (o, y) in s[r * 8..r * 8 + 8].iter_mut().zip(brow) {
                        *o += x * y;
                    }
                }
            }
            std::array::from_fn(|j| match acc {
                MmaType::F16 => half::f16::from_f64(s[j] + cm[j]).to_bits() as u64,
                _ => ((s[j] + cm[j]) as f32).to_bits() as u64,
            })
        };
        for (e, idx) in (0..dst.len).zip(0..4) {
            let row = &mut w.regs[at(*dst, e, 0)..at(*dst, e, 0) + 32];
            for (lane, r) in row.iter_mut().enumerate() {
                *r = sums[t.c[lane][idx] as usize];
            }
        }
        self.stats.mma += 1;
        Ok(())
    }
}

/// m16n8k16 of f16 or bf16 into f32, the GEMMs' instruction, without tables: in its fragments
/// each register of the warp holds one 8 x 8 block of a matrix in lane order (lane 4g + t holds
/// elements 2(4g + t) and the next), row-major for A and C, column-major for B.
fn mma_16x8x16_f32(w: &mut Warp, a: &[Slot], b: &[Slot], c: &[Slot], ty: MmaType, packed: bool, dst: Slot) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has AVX2 and FMA (checked just above), the features the function enables.
        return unsafe { mma_16x8x16_f32_avx2(w, a, b, c, ty, packed, dst) };
    }
    mma_16x8x16_f32_any::<false>(w, a, b, c, ty, packed, dst)
}

/// The same compiled for AVX2 (the sums and conversions four lanes wide) with fused
/// multiply-adds: the simulator's GEMMs spend much of their time here.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn mma_16x8x16_f32_avx2(w: &mut Warp, a: &[Slot], b: &[Slot], c: &[Slot], ty: MmaType, packed: bool, dst: Slot) {
    mma_16x8x16_f32_any::<true>(w, a, b, c, ty, packed, dst)
}

/// The fragment registers a warp decoded lately, each with its bits: a GEMM's A fragment feeds
/// four mma.sync in a row and its B fragment two, so most decodes are a comparison of 32 words.
#[derive(Default)]
pub(super) struct Fragments {
    entries: Vec<Fragment>,
    next: usize,
}

struct Fragment {
    slot: Slot,
    ty: MmaType,
    bits: [u64; 32],
    values: [f64; 64],
}

/// Fragments kept per warp: two k steps' A (4 registers each) and B (2) registers.
const KEPT: usize = 12;

impl Fragments {
    /// Packed register `r`'s values, from the kept ones when its bits are unchanged.
    #[inline(always)]
    fn get(&mut self, regs: &[u64], r: Slot, ty: MmaType) -> &[f64; 64] {
        let bits: &[u64; 32] = regs[at(r, 0, 0)..at(r, 0, 0) + 32].try_into().expect("32 lanes");
        let i = match self.entries.iter().position(|f| f.slot == r && f.ty == ty && f.bits == *bits) {
            Some(i) => i,
            None => {
                let i = if self.entries.len() < KEPT {
                    self.entries.push(Fragment { slot: r, ty, bits: *bits, values: [0.0; 64] });
                    self.entries.len() - 1
                } else {
                    self.next = (self.next + 1) % KEPT;
                    let f = &mut self.entries[self.next];
                    (f.slot, f.ty, f.bits) = (r, ty, *bits);
                    self.next
                };
                decode_block(regs, r, ty, true, &mut self.entries[i].values);
                i
            }
        };
        &self.entries[i].values
    }
}

/// A register of an f16 or bf16 fragment (two halves per lane: one packed word, or two
/// elements) as the 64 values of its block, in lane order.
#[inline(always)]
fn decode_block(regs: &[u64], r: Slot, ty: MmaType, packed: bool, out: &mut [f64; 64]) {
    let lo: &[u64; 32] = regs[at(r, 0, 0)..at(r, 0, 0) + 32].try_into().expect("32 lanes");
    let hi: &[u64; 32] = if packed { lo } else { regs[at(r, 1, 0)..at(r, 1, 0) + 32].try_into().expect("32 lanes") };
    let shift = if packed { 16 } else { 0 };
    for l in 0..32 {
        let (x, y) = (lo[l], hi[l] >> shift);
        if ty == MmaType::F16 {
            out[2 * l] = f16_value(x);
            out[2 * l + 1] = f16_value(y);
        } else {
            out[2 * l] = f32::from_bits((x as u32 & 0xFFFF) << 16) as f64;
            out[2 * l + 1] = f32::from_bits((y as u32 & 0xFFFF) << 16) as f64;
        }
    }
}

#[inline(always)]
fn mma_16x8x16_f32_any<const FUSED: bool>(w: &mut Warp, a: &[Slot], b: &[Slot], c: &[Slot], ty: MmaType, packed: bool, dst: Slot) {
    // A register's values: kept ones for packed registers (the GEMMs'), else decoded into `tmp`.
    #[inline(always)]
    fn block<'w>(w: &'w mut Warp, r: Slot, ty: MmaType, packed: bool, tmp: &'w mut [f64; 64]) -> &'w [f64; 64] {
        if packed {
            w.fragments.get(&w.regs, r, ty)
        } else {
            decode_block(&w.regs, r, ty, false, tmp);
            tmp
        }
    }
    // A row-major 16 x 16: register rb + 2 kb is the block at rows 8 rb, columns 8 kb.
    let mut am = [0f64; 256];
    // B row-major 16 x 8: register kb is the block at rows 8 kb, column-major.
    let mut bm = [0f64; 128];
    let mut tmp = [0f64; 64];
    for (i, r) in a.iter().enumerate() {
        let blk = block(w, *r, ty, packed, &mut tmp);
        let (rb, kb) = (i % 2, i / 2);
        for rr in 0..8 {
            am[(8 * rb + rr) * 16 + 8 * kb..][..8].copy_from_slice(&blk[8 * rr..8 * rr + 8]);
        }
    }
    for (kb, r) in b.iter().enumerate() {
        let blk = block(w, *r, ty, packed, &mut tmp);
        for (j, v) in blk.iter().enumerate() {
            let (n, kk) = (j / 8, j % 8);
            bm[(8 * kb + kk) * 8 + n] = *v;
        }
    }
    // Each output row's 8 sums in registers, over k in order.
    let mut s = [0f64; 128];
    for r in 0..16 {
        let mut acc = [-0.0f64; 8];
        for i in 0..16 {
            let x = am[r * 16 + i];
            for (o, y) in acc.iter_mut().zip(&bm[i * 8..i * 8 + 8]) {
                // Products of f16 or bf16 values are exact in f64, so a fused multiply-add rounds
                // as the addition alone does.
                *o = if FUSED { x.mul_add(*y, *o) } else { *o + x * y };
            }
        }
        s[r * 8..r * 8 + 8].copy_from_slice(&acc);
    }
    // C and D: register e of lane l is element 64 (e / 2) + 2 l + e % 2 of the row-major 16 x 8.
    let c_elems: Vec<(Slot, u32)> = c.iter().flat_map(|r| (0..r.len).map(move |x| (*r, x))).collect();
    for (e, (cr, cx)) in c_elems.into_iter().enumerate().take(4) {
        let cin: [u64; 32] = w.regs[at(cr, cx, 0)..at(cr, cx, 0) + 32].try_into().expect("32 lanes");
        let row: &mut [u64; 32] = (&mut w.regs[at(dst, e as u32, 0)..at(dst, e as u32, 0) + 32]).try_into().expect("32 lanes");
        for l in 0..32 {
            let j = 64 * (e / 2) + 2 * l + e % 2;
            row[l] = ((s[j] + f32::from_bits(cin[l] as u32) as f64) as f32).to_bits() as u64;
        }
    }
}

/// For one k (16, 8 or 32), each lane's fragment elements in register order as flat indices
/// into A (row-major 16 x k), B (row-major k x 8) and C (16 x 8), from [`a_at`], [`b_at`] and
/// [`c_at`].
struct Tables {
    a: [[u16; 16]; 32],
    b: [[u16; 16]; 32],
    c: [[u16; 16]; 32],
}

fn tables(k: u32) -> &'static Tables {
    static T: [std::sync::OnceLock<Tables>; 3] = [const { std::sync::OnceLock::new() }; 3];
    let slot = match k {
        16 => 0,
        8 => 1,
        _ => 2,
    };
    T[slot].get_or_init(|| {
        let mut t = Tables { a: [[0; 16]; 32], b: [[0; 16]; 32], c: [[0; 16]; 32] };
        for lane in 0..32u32 {
            for e in 0..16u32 {
                let ((r, col), (row, n)) = (a_at(k, lane, e), b_at(k, lane, e));
                // Past a fragment's elements the entries are never read; keep them in bounds.
                t.a[lane as usize][e as usize] = ((r * k + col) % (16 * k)) as u16;
                t.b[lane as usize][e as usize] = ((row * 8 + n) % (8 * k)) as u16;
                let (r, n) = c_at(lane, e % 4);
                t.c[lane as usize][e as usize] = (r * 8 + n) as u16;
            }
        }
        t
    })
}

/// Every lane's registers `regs` (of element type `ty`; `packed`: 32-bit words of narrower
/// elements, low bits first) into `out` at the lanes' table entries.
fn gather(w: &Warp, regs: &[Slot], ty: MmaType, packed: bool, idx: &[[u16; 16]; 32], out: &mut [f64; 512]) {
    // One loop per type, so that the conversion is inlined into it.
    fn go(w: &Warp, regs: &[Slot], bits: u32, packed: bool, idx: &[[u16; 16]; 32], out: &mut [f64; 512], value: impl Fn(u64) -> f64) {
        let per = if packed && bits < 32 { 32 / bits } else { 1 };
        let mask = if bits == 32 { u32::MAX as u64 } else { (1u64 << bits) - 1 };
        let mut e = 0usize;
        for r in regs {
            let words = if per > 1 { 1 } else { r.len };
            for x in 0..words {
                let lanes = &w.regs[at(*r, x, 0)..at(*r, x, 0) + 32];
                for (lane, word) in lanes.iter().enumerate() {
                    for i in 0..per as usize {
                        // The masks keep every index in bounds without a check.
                        out[idx[lane][(e + i) & 15] as usize & 511] = value((word >> (i as u32 * bits)) & mask);
                    }
                }
                e += per as usize;
            }
        }
    }
    let bits = ty.bits();
    match ty {
        MmaType::F16 => go(w, regs, bits, packed, idx, out, f16_value),
        MmaType::BF16 => go(w, regs, bits, packed, idx, out, |b| f32::from_bits((b as u32) << 16) as f64),
        _ => go(w, regs, bits, packed, idx, out, |b| ty.value(b)),
    }
}

/// An f16's value, exactly, without branches (nor a call through the `half` crate's CPU-feature
/// dispatch): its exponent and mantissa placed as an f32's, scaled by 2^112 (the difference of
/// the biases), which also places subnormals; all-ones exponents made an f32's infinity or NaN.
#[inline(always)]
fn f16_value(b: u64) -> f64 {
    let b = b as u32 & 0xFFFF;
    let special = if b & 0x7C00 == 0x7C00 { 0x7F80_0000 } else { 0 };
    let magnitude = f32::from_bits((b & 0x7FFF) << 13 | special) as f64 * f64::from_bits((1023 + 112) << 52);
    if b & 0x8000 != 0 {
        -magnitude
    } else {
        magnitude
    }
}

impl Ctx<'_> {
    pub(super) fn exec_ldmatrix(&mut self, cta: &mut Cta, w: &mut Warp, inst: &Inst) -> Result<(), Fault> {
        let Inst::LdMatrix { num, trans, ptr, dst, loc } = inst else { return Ok(()) };
        let (num, loc) = (*num as usize, *loc);
        self.whole_warp(cta, w, "ldmatrix", loc)?;
        let size = cta.shared.len();
        // Each matrix's eight rows: 16 bytes at the address lane 8i + r gives, in shared memory.
        let mut rows = [[0u16; 8]; 32];
        let mut banked = [(0u32, 0u64); 32];
        for (lane, row) in rows[..8 * num].iter_mut().enumerate() {
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
            banked[lane] = (lane as u32, addr as u64);
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
        let banked = &banked[..8 * num];
        self.stats.bank_conflicts += phobos_layout::banks::conflicts(banked, 16);
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

#[cfg(test)]
mod tests {
    use super::f16_value;

    /// Every f16 bit pattern: the same value as the `half` crate's conversion (NaNs as NaNs).
    #[test]
    fn f16_values_are_exact() {
        for bits in 0..=u16::MAX {
            let (ours, theirs) = (f16_value(bits as u64), half::f16::from_bits(bits).to_f64());
            assert!(ours.to_bits() == theirs.to_bits() || (ours.is_nan() && theirs.is_nan()), "{bits:#06x}: {ours} vs {theirs}");
        }
    }
}
