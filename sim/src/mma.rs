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

/// (row, column) of `wgmma.m64nNk16`'s f32 accumulator field `i` in lane `lane` of the
/// warpgroup's warp `warp` (0-3): warp `warp` holds rows `16 warp` on, each 8 columns as
/// `mma.sync`'s C fragment (`{d0, d1}` row g, `{d2, d3}` row g + 8), 8 columns after 8.
#[inline(always)]
pub fn wgmma_d_at(warp: u32, lane: u32, i: u32) -> (u32, u32) {
    let (r, c) = c_at(lane, i % 4);
    (16 * warp + r, 8 * (i / 4) + c)
}

/// A `wgmma` matrix descriptor's fields (PTX ISA, "Matrix Descriptor Format"): bytes, not
/// 16-byte units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WgmmaDesc {
    pub start: u64,
    /// Leading dimension byte offset.
    pub lbo: u64,
    /// Stride dimension byte offset.
    pub sbo: u64,
    pub base_offset: u64,
    /// 0 none (interleaved 8 x 16-byte core matrices), 1: 128-byte, 2: 64-byte, 3: 32-byte swizzle.
    pub swizzle: u64,
}

impl WgmmaDesc {
    pub fn decode(d: u64) -> WgmmaDesc {
        WgmmaDesc {
            start: (d & 0x3FFF) << 4,
            lbo: ((d >> 16) & 0x3FFF) << 4,
            sbo: ((d >> 32) & 0x3FFF) << 4,
            base_offset: (d >> 49) & 7,
            swizzle: (d >> 62) & 3,
        }
    }
    /// Bytes of a swizzled row (the pattern's width): 128, 64, 32; 16 for core matrices.
    pub fn width(self) -> u64 {
        match self.swizzle {
            1 => 128,
            2 => 64,
            3 => 32,
            _ => 16,
        }
    }
    /// The swizzle on a shared address: bits 4.. (the 16-byte chunk in a row) xored with the
    /// row in the 8-row pattern, bits 7.. (CuTe's `Swizzle<B, 4, 3>`, B = 3, 2, 1).
    pub fn swizzle(self, addr: u64) -> u64 {
        let b = match self.swizzle {
            1 => 3,
            2 => 2,
            3 => 1,
            _ => return addr,
        };
        phobos_layout::map::swizzle(b, 4, 3, addr as i64) as u64
    }
    /// Whether the start lies where its swizzle pattern begins (a base offset the simulator
    /// does not model is refused): the pattern's row bits of the start are zero.
    pub fn aligned(self) -> bool {
        self.base_offset == 0 && (self.swizzle == 0 || (self.start >> 7) & ((self.width() / 16) - 1) == 0)
    }
    /// The shared address of element (`mn`, `k`) of an operand of `elem` bytes per element:
    /// `mn` its row of A (column of B), `k` along K, in the canonical layouts of the PTX ISA
    /// ("Shared Memory Matrix Layout", CuTe's `make_gmma_desc`):
    /// - K-major: 8-row groups SBO apart; a row's K bytes contiguous within the width (rows
    ///   `width` apart), core matrices of 16 bytes LBO apart along K when not swizzled;
    /// - MN-major: 8 K-rows `width` apart (16 without swizzle) and groups of 8 SBO apart
    ///   (LBO without swizzle); MN contiguous within the width, blocks LBO apart (SBO without).
    pub fn address(self, k_major: bool, mn: u64, k: u64, elem: u64) -> u64 {
        let w = self.width();
        let linear = if k_major {
            let kb = k * elem;
            let (row, along) = if self.swizzle == 0 { (16, (kb / 16) * self.lbo + kb % 16) } else { (w, kb) };
            (mn / 8) * self.sbo + (mn % 8) * row + along
        } else {
            let nb = mn * elem;
            if self.swizzle == 0 {
                nb % 16 + (nb / 16) * self.sbo + (k % 8) * 16 + (k / 8) * self.lbo
            } else {
                nb % w + (nb / w) * self.lbo + (k % 8) * w + (k / 8) * self.sbo
            }
        };
        self.swizzle(self.start + linear)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The accumulator fields of wgmma cover the 64 x N block once, and match the ISA's figure
    /// for m64nNk16 .f32 D: warp 1 lane 5 holds d0, d1 at row 16 + 1, columns 2, 3; d2, d3 at
    /// row 16 + 9; d4 at row 17, column 10.
    #[test]
    fn wgmma_accumulators_tile_the_block() {
        let n = 24u32;
        let mut seen = vec![0u8; 64 * n as usize];
        for warp in 0..4 {
            for lane in 0..32 {
                for i in 0..n / 2 {
                    let (r, c) = wgmma_d_at(warp, lane, i);
                    seen[(r * n + c) as usize] += 1;
                }
            }
        }
        assert!(seen.iter().all(|s| *s == 1));
        let got: Vec<_> = (0..5).map(|i| wgmma_d_at(1, 5, i)).collect();
        assert_eq!(got, [(17, 2), (17, 3), (25, 2), (25, 3), (17, 10)]);
    }

    /// Descriptors decode as the ISA lays them out, and the canonical 128-byte swizzle of a
    /// K-major 64 x 64 f16 tile (rows of 128 bytes, SBO 1024) is the tile's row-major bytes
    /// with the 16-byte chunk xored by the row's low 3 bits: element (9, 20) is row 9 (chunk
    /// 2 xor 1 = 3), byte 4 in its chunk.
    #[test]
    fn wgmma_descriptors_address_the_canonical_layouts() {
        let d = (2048u64 >> 4) | (1 << 16) | ((1024u64 >> 4) << 32) | (1 << 62);
        let desc = WgmmaDesc::decode(d);
        assert_eq!(desc, WgmmaDesc { start: 2048, lbo: 16, sbo: 1024, base_offset: 0, swizzle: 1 });
        assert!(desc.aligned());
        assert_eq!(desc.address(true, 9, 20, 2), 2048 + 9 * 128 + 3 * 16 + 8);
        // Stepping K by 16 moves the start 32 bytes: the same element as k = 16 + 4.
        let step = WgmmaDesc { start: 2048 + 32, ..desc };
        assert_eq!(step.address(true, 9, 4, 2), desc.address(true, 9, 20, 2));
        // MN-major, 64-byte swizzle: a 32 x 32 K x N f16 tile row-major (rows of 64 bytes), SBO
        // 512 per 8 K-rows: element (k 10, n 5) is row 10, chunk 0 xor ((10 >> 1) & 3 = 1).
        let mn = WgmmaDesc { start: 0, lbo: 16, sbo: 512, base_offset: 0, swizzle: 2 };
        assert_eq!(mn.address(false, 5, 10, 2), 10 * 64 + 16 + 10);
        // No swizzle, K-major: 8 x 16-byte core matrices, K halves LBO apart.
        let core = WgmmaDesc { start: 0, lbo: 256, sbo: 128, base_offset: 0, swizzle: 0 };
        assert_eq!(core.address(true, 11, 9, 2), 128 + 3 * 16 + 256 + 2);
        assert!(!WgmmaDesc { start: 128, ..desc }.aligned());
    }

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
