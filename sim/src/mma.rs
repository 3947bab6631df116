//! Tensor-core fragments as the PTX ISA defines them for `mma.sync.aligned.m16n8k*` (A
//! row-major, B column-major): which element of A, B and C/D each lane holds, and the element
//! types. Lane `l` is in group `g = l / 4`, at `t = l % 4` within it; its fragment's elements are
//! numbered in register order (each 32-bit register holds 32 / bits elements, low bits first).

/// An element type of a multiply-add's operands or accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum MmaType {
    F16,
    BF16,
    /// f32 bits of which the multiply reads the tf32 part (the low 13 mantissa bits ignored).
    TF32,
    S8,
    U8,
    F32,
    S32,
}

impl MmaType {
    /// Bits per element.
    pub fn bits(self) -> u32 {
        match self {
            MmaType::S8 | MmaType::U8 => 8,
            MmaType::F16 | MmaType::BF16 => 16,
            MmaType::TF32 | MmaType::F32 | MmaType::S32 => 32,
        }
    }
    /// The name PTX and NVVM give it.
    pub fn parse(s: &str) -> Option<MmaType> {
        Some(match s {
            "f16" => MmaType::F16,
            "bf16" => MmaType::BF16,
            "tf32" => MmaType::TF32,
            "s8" => MmaType::S8,
            "u8" => MmaType::U8,
            "f32" => MmaType::F32,
            "s32" => MmaType::S32,
            _ => return None,
        })
    }
    /// The value of `bits` (the element's own bits, zero-extended).
    #[inline(always)]
    pub fn value(self, bits: u64) -> f64 {
        match self {
            MmaType::F16 => half::f16::from_bits(bits as u16).to_f64(),
            MmaType::BF16 => half::bf16::from_bits(bits as u16).to_f64(),
            MmaType::TF32 => f32::from_bits(bits as u32 & 0xFFFF_E000) as f64,
            MmaType::S8 => bits as u8 as i8 as f64,
            MmaType::U8 => bits as u8 as f64,
            MmaType::F32 => f32::from_bits(bits as u32) as f64,
            MmaType::S32 => bits as u32 as i32 as f64,
        }
    }
}

/// A shape the simulator runs: m16n8k16 (f16, bf16), m16n8k8 (tf32), m16n8k32 (s8, u8).
pub fn supported(k: u32, ab: MmaType) -> bool {
    matches!((k, ab), (16, MmaType::F16 | MmaType::BF16) | (8, MmaType::TF32) | (32, MmaType::S8 | MmaType::U8))
}

/// (row, column) of A's element `e` in lane `lane` (A is 16 x k).
#[inline(always)]
pub fn a_at(k: u32, lane: u32, e: u32) -> (u32, u32) {
    let (g, t) = (lane / 4, lane % 4);
    match k {
        // Two registers per 8 columns: a0,a1 row g; a2,a3 row g+8; a4..a7 the same 8 columns on.
        16 => (g + 8 * ((e >> 1) & 1), 2 * t + (e & 1) + 8 * (e >> 2)),
        8 => (g + 8 * (e & 1), t + 4 * (e >> 1)),
        // 32: four bytes per register.
        _ => (g + 8 * ((e >> 2) & 1), 4 * t + (e & 3) + 16 * (e >> 3)),
    }
}

/// (row k, column n) of B's element `e` in lane `lane` (B is k x 8).
#[inline(always)]
pub fn b_at(k: u32, lane: u32, e: u32) -> (u32, u32) {
    let (g, t) = (lane / 4, lane % 4);
    match k {
        16 => (2 * t + (e & 1) + 8 * (e >> 1), g),
        8 => (t + 4 * e, g),
        _ => (4 * t + (e & 3) + 16 * (e >> 2), g),
    }
}

/// (row, column) of C's and D's element `e` in lane `lane` (16 x 8).
#[inline(always)]
pub fn c_at(lane: u32, e: u32) -> (u32, u32) {
    let (g, t) = (lane / 4, lane % 4);
    (g + 8 * (e >> 1), 2 * t + (e & 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shape's fragments cover each element of A, B and C exactly once over the warp.
    #[test]
    fn fragments_tile_the_matrices() {
        for k in [8, 16, 32] {
            let mut seen = [vec![0u8; 16 * k as usize], vec![0u8; k as usize * 8], vec![0u8; 128]];
            for lane in 0..32 {
                for e in 0..16 * k / 32 {
                    let (r, c) = a_at(k, lane, e);
                    seen[0][(r * k + c) as usize] += 1;
                }
                for e in 0..k * 8 / 32 {
                    let (r, c) = b_at(k, lane, e);
                    seen[1][(r * 8 + c) as usize] += 1;
                }
                for e in 0..4 {
                    let (r, c) = c_at(lane, e);
                    seen[2][(r * 8 + c) as usize] += 1;
                }
            }
            assert!(seen.iter().all(|s| s.iter().all(|n| *n == 1)), "k = {k}");
        }
    }

    /// Entries of the PTX ISA's fragment figures, written out (lane, element) -> (row, col).
    #[test]
    fn fragments_match_the_isa_figures() {
        // m16n8k16 .f16/.bf16 A: lane 5 (group 1, thread 1) holds a0..a7 at rows 1, 1, 9, 9, 1,
        // 1, 9, 9 and columns 2, 3, 2, 3, 10, 11, 10, 11.
        let a: Vec<_> = (0..8).map(|e| a_at(16, 5, e)).collect();
        assert_eq!(a, [(1, 2), (1, 3), (9, 2), (9, 3), (1, 10), (1, 11), (9, 10), (9, 11)]);
        // B: lane 6 (group 1, thread 2) holds b0..b3 at rows 4, 5, 12, 13 of column 1.
        assert_eq!((0..4).map(|e| b_at(16, 6, e)).collect::<Vec<_>>(), [(4, 1), (5, 1), (12, 1), (13, 1)]);
        // m16n8k8 .tf32 A: lane 31 (group 7, thread 3): (7, 3), (15, 3), (7, 7), (15, 7).
        assert_eq!((0..4).map(|e| a_at(8, 31, e)).collect::<Vec<_>>(), [(7, 3), (15, 3), (7, 7), (15, 7)]);
        assert_eq!((0..2).map(|e| b_at(8, 31, e)).collect::<Vec<_>>(), [(3, 7), (7, 7)]);
        // m16n8k32 .s8 A: lane 1 bytes 0..3 at row 0, columns 4..7; bytes 12..15 at row 8, 20..23.
        assert_eq!((0..4).map(|e| a_at(32, 1, e)).collect::<Vec<_>>(), [(0, 4), (0, 5), (0, 6), (0, 7)]);
        assert_eq!((12..16).map(|e| a_at(32, 1, e)).collect::<Vec<_>>(), [(8, 20), (8, 21), (8, 22), (8, 23)]);
        assert_eq!((4..8).map(|e| b_at(32, 1, e)).collect::<Vec<_>>(), [(20, 0), (21, 0), (22, 0), (23, 0)]);
        // C/D: lane 9 (group 2, thread 1): (2, 2), (2, 3), (10, 2), (10, 3).
        assert_eq!((0..4).map(|e| c_at(9, e)).collect::<Vec<_>>(), [(2, 2), (2, 3), (10, 2), (10, 3)]);
    }

    /// The layout algebra's operand layouts (`mma_a(K)`, `mma_b(K)`, what `phobos layout`
    /// draws) place every element where these figures do.
    #[test]
    fn the_layout_notation_agrees_with_the_figures() {
        for k in [8u32, 16, 32] {
            let eval = |f: &str| match phobos_layout::expr::eval(&format!("{f}({k})")) {
                Ok(phobos_layout::expr::Value::Map(m)) => m,
                _ => panic!("{f}({k}) is a layout"),
            };
            let (a, b) = (eval("mma_a"), eval("mma_b"));
            let (na, nb) = (16 * k / 32, k * 8 / 32);
            for lane in 0..32 {
                for e in 0..na {
                    let (r, c) = a_at(k, lane, e);
                    assert_eq!(a.eval((lane + 32 * e) as i64), (r * k + c) as i64, "A k{k} lane {lane} element {e}");
                }
                for e in 0..nb {
                    let (r, c) = b_at(k, lane, e);
                    assert_eq!(b.eval((lane + 32 * e) as i64), (r * 8 + c) as i64, "B k{k} lane {lane} element {e}");
                }
            }
        }
    }

    #[test]
    fn element_values_decode_as_the_types_do() {
        assert_eq!(MmaType::F16.value(0x3C00), 1.0);
        assert_eq!(MmaType::BF16.value(0xC000), -2.0);
        // tf32 ignores the low 13 mantissa bits.
        assert_eq!(MmaType::TF32.value(1.0f32.to_bits() as u64 | 0x1FFF), 1.0);
        assert_eq!(MmaType::S8.value(0xFF), -1.0);
        assert_eq!(MmaType::U8.value(0xFF), 255.0);
    }
}
