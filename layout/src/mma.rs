//! Tensor-core tilings of a CTA: how `mma.sync` m16n8 instructions cover an `M x N` block of C
//! over the CTA's warps, and the thread/value layout of the accumulator that results.
//!
//! The warps form a `warps_m x warps_n` grid (warp `w` at `(w % warps_m, w / warps_m)`), each
//! owning a `warp_m x warp_n` block of `atoms_m x atoms_n` instructions (16 x 8 each). In one
//! instruction lane `l = 4g + q` holds C at rows `g` and `g + 8`, columns `2q` and `2q + 1`
//! (registers c0..c3, as the PTX ISA numbers them). Item `e` of a thread is register `e % 4` of
//! atom `(e / 4) % atoms_m, e / (4 atoms_m)`.

use crate::exchange::WARP;

/// Rows of C per instruction.
pub const ATOM_M: i64 = 16;
/// Columns of C per instruction.
pub const ATOM_N: i64 = 8;
/// Items per thread past which the accumulator no longer fits the registers beside the
/// operands (255 per thread on sm_80/sm_90).
pub const MAX_ITEMS: i64 = 128;

/// The largest extent of an accumulator (far past what registers hold: products stay in i64).
pub const MAX_EXTENT: i64 = 1 << 20;

/// The warp tiling of an `m x n` accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MmaTiling {
    pub m: i64,
    pub n: i64,
    pub warps_m: i64,
    pub warps_n: i64,
}

impl MmaTiling {
    /// The tiling of `m x n` over `threads` threads with `warps_m x warps_n` warps, checked.
    pub fn with_warps(m: i64, n: i64, threads: i64, warps_m: i64, warps_n: i64) -> Result<MmaTiling, String> {
        if threads % WARP != 0 || threads <= 0 {
            return Err(format!("tensor cores need whole warps; the CTA has {threads} threads"));
        }
        if !(1..=32).contains(&warps_m) || !(1..=32).contains(&warps_n) {
            return Err(format!("warps along M and along N are 1 to 32 each, got {warps_m} x {warps_n}"));
        }
        if warps_m * warps_n * WARP != threads {
            return Err(format!("{warps_m} x {warps_n} warps do not make the CTA's {} warps", threads / WARP));
        }
        if !(1..=MAX_EXTENT).contains(&m) || !(1..=MAX_EXTENT).contains(&n) {
            return Err(format!("an accumulator's extents are 1 to {MAX_EXTENT}, got {m} x {n}"));
        }
        if m % (ATOM_M * warps_m) != 0 || n % (ATOM_N * warps_n) != 0 {
            return Err(format!(
                "a {m} x {n} accumulator over {warps_m} x {warps_n} warps needs rows a multiple of {} and columns a multiple of {}",
                ATOM_M * warps_m,
                ATOM_N * warps_n
            ));
        }
        let t = MmaTiling { m, n, warps_m, warps_n };
        if t.items() > MAX_ITEMS {
            return Err(format!(
                "a {m} x {n} accumulator over {threads} threads holds {} items per thread; at most {MAX_ITEMS} fit in registers (more threads, or a smaller tile)",
                t.items()
            ));
        }
        Ok(t)
    }

    /// The tiling the compiler chooses for `m x n` on `threads` threads: of the warp grids that
    /// divide the block, the one whose warp blocks have the smallest `warp_m + warp_n` (the
    /// operand rows each warp loads per k step), then the most warps along M.
    pub fn choose(m: i64, n: i64, threads: i64) -> Result<MmaTiling, String> {
        if !(1..=MAX_EXTENT).contains(&m) || !(1..=MAX_EXTENT).contains(&n) {
            return Err(format!("an accumulator's extents are 1 to {MAX_EXTENT}, got {m} x {n}"));
        }
        if threads % WARP != 0 || threads <= 0 {
            return Err(format!("tensor cores need whole warps; the CTA has {threads} threads"));
        }
        let warps = threads / WARP;
        let mut best: Option<MmaTiling> = None;
        let mut first_err = None;
        for wm in (1..=warps).rev().filter(|wm| warps % wm == 0) {
            match MmaTiling::with_warps(m, n, threads, wm, warps / wm) {
                Ok(t) => {
                    if best.is_none_or(|b| t.warp_m() + t.warp_n() < b.warp_m() + b.warp_n()) {
                        best = Some(t)
                    }
                }
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        best.ok_or_else(|| {
            let e = first_err.unwrap_or_default();
            if e.contains("items per thread") {
                e
            } else {
                format!(
                    "no grid of the CTA's {warps} warps tiles a {m} x {n} accumulator with {ATOM_M} x {ATOM_N} instructions (rows a multiple of 16 x warps along M, columns of 8 x warps along N)"
                )
            }
        })
    }

    pub fn threads(&self) -> i64 {
        self.warps_m * self.warps_n * WARP
    }
    /// Rows of C per warp.
    pub fn warp_m(&self) -> i64 {
        self.m / self.warps_m
    }
    /// Columns of C per warp.
    pub fn warp_n(&self) -> i64 {
        self.n / self.warps_n
    }
    pub fn atoms_m(&self) -> i64 {
        self.warp_m() / ATOM_M
    }
    pub fn atoms_n(&self) -> i64 {
        self.warp_n() / ATOM_N
    }
    /// Items (accumulator elements) per thread.
    pub fn items(&self) -> i64 {
        self.m * self.n / self.threads()
    }
    /// The item of a thread that is register `reg` (0..4) of atom `(am, an)`.
    pub fn item(&self, am: i64, an: i64, reg: i64) -> i64 {
        reg + 4 * (am + self.atoms_m() * an)
    }
    /// (row, column) of C that item `e` of thread `t` holds.
    pub fn coords(&self, t: i64, e: i64) -> (i64, i64) {
        let (lane, w) = (t % WARP, t / WARP);
        let (g, q) = (lane / 4, lane % 4);
        let (wm, wn) = (w % self.warps_m, w / self.warps_m);
        let (reg, atom) = (e % 4, e / 4);
        let (am, an) = (atom % self.atoms_m(), atom / self.atoms_m());
        let row = wm * self.warp_m() + am * ATOM_M + (reg / 2) * 8 + g;
        let col = wn * self.warp_n() + an * ATOM_N + 2 * q + reg % 2;
        (row, col)
    }
    /// The accumulator's thread/value layout in `phobos layout` notation: thread `t`, item `e`
    /// (index `t + T·e`) to the row-major position `row · n + col`.
    pub fn layout_text(&self) -> String {
        let n = self.n;
        format!(
            "(((4,8),({},{})),(2,2,{},{})):(((2,{n}),({},{})),(1,{},{},8))",
            self.warps_m,
            self.warps_n,
            self.atoms_m(),
            self.atoms_n(),
            self.warp_m() * n,
            self.warp_n(),
            8 * n,
            16 * n
        )
    }
}

/// The thread/value layout of one instruction's A operand (`a`) or B operand (`b`) for an
/// instruction K of 16 (f16, bf16), 8 (tf32) or 32 (s8, one item per byte), as the PTX ISA's
/// fragment figures place them: lane `4g + q`, item `e` (register order, low bits first) to the
/// row-major position in A (16 x K) or B (K x 8). `mma_a(K)`/`mma_b(K)` in the layout notation.
pub fn operand_layout_text(operand: char, k: i64) -> Option<String> {
    Some(
        match (operand, k) {
            // f16/bf16: a0,a1 row g cols 2q, 2q+1; a2,a3 row g+8; a4..a7 the same 8 columns on.
            ('a', 16) => "((4,8),(2,2,2)):((2,16),(1,128,8))",
            // b0,b1 rows 2q, 2q+1; b2,b3 rows 2q+8, 2q+9; column g.
            ('b', 16) => "((4,8),(2,2)):((16,1),(8,64))",
            // tf32: a0 (g, q), a1 (g+8, q), a2 (g, q+4), a3 (g+8, q+4).
            ('a', 8) => "((4,8),(2,2)):((1,8),(64,4))",
            // b0 (q, g), b1 (q+4, g).
            ('b', 8) => "((4,8),2):((8,1),32)",
            // s8: bytes 0-3 row g cols 4q..; 4-7 row g+8; 8-15 the same 16 columns on.
            ('a', 32) => "((4,8),(4,2,2)):((4,32),(1,256,16))",
            // bytes 0-3 rows 4q..4q+3, 4-7 rows 4q+16..; column g.
            ('b', 32) => "((4,8),(4,2)):((32,1),(8,128))",
            _ => return None,
        }
        .to_string(),
    )
}

/// The swizzle (`[B, M, S]`, CuTe's `Swizzle<B, M, S>` on element offsets) under which a
/// row-major tile of `cols` columns of `elem_bytes`-byte elements has no bank conflicts for
/// `ldmatrix` (eight rows of one 16-byte chunk column per phase) nor for row-wise 16-byte
/// stores: the chunk's index in its 128-byte line xored with the rows that would share its
/// banks. None when the rows need none (one chunk wide) or the chunks per row are not a power
/// of two.
pub fn ldmatrix_swizzle(cols: i64, elem_bytes: i64) -> Option<[i64; 3]> {
    let row = cols * elem_bytes;
    if row % 16 != 0 || elem_bytes > 16 || 16 % elem_bytes != 0 {
        return None;
    }
    let chunks = row / 16;
    if chunks < 2 || chunks & (chunks - 1) != 0 {
        return None;
    }
    let m = (16 / elem_bytes).trailing_zeros() as i64;
    let log = chunks.trailing_zeros() as i64;
    // Rows narrower than 128 bytes: the lines above bit 3 of the chunk index; wider: the rows.
    Some(if chunks >= 8 { [3, m, log] } else { [log, m, 3] })
}

/// Bank conflicts of reading a `rows x cols` row-major tile (of `elem_bytes`-byte elements,
/// under `swizzle`) with `ldmatrix`: every 8-row group at every 16-byte chunk column, one phase
/// each, counted by the bank model of [`crate::banks`].
pub fn ldmatrix_conflicts(rows: i64, cols: i64, elem_bytes: i64, swizzle: Option<[i64; 3]>) -> u64 {
    let per_chunk = 16 / elem_bytes;
    let mut total = 0;
    for r0 in (0..rows - rows % 8).step_by(8) {
        for c in (0..cols - cols % per_chunk).step_by(per_chunk as usize) {
            let lanes: Vec<(u32, u64)> = (0..8)
                .map(|l| {
                    let lin = (r0 + l) * cols + c;
                    let lin = swizzle.map_or(lin, |[b, m, s]| crate::map::swizzle(b as u32, m as u32, s as i32, lin));
                    (l as u32, (lin * elem_bytes) as u64)
                })
                .collect();
            total += crate::banks::conflicts(&lanes, 16);
        }
    }
    total
}

/// The warp-wide reads of one atom's operand when it is read element by element (tf32, `k` = 8;
/// s8, `k` = 32: `ldmatrix` moves 16-bit elements only): per register (and byte), each lane's
/// (row, column) in the atom, as the lowering reads them (the PTX ISA's figures).
pub fn element_reads(operand: char, k: i64) -> Vec<Vec<(u32, i64, i64)>> {
    let lanes = |f: &dyn Fn(i64, i64) -> (i64, i64)| -> Vec<(u32, i64, i64)> {
        (0..32u32)
            .map(|l| {
                let (r, c) = f(l as i64 / 4, l as i64 % 4);
                (l, r, c)
            })
            .collect()
    };
    match (operand, k) {
        ('a', 8) => (0..4).map(|r| lanes(&|g, q| (g + 8 * (r & 1), q + 4 * (r >> 1)))).collect(),
        ('b', 8) => (0..2).map(|r| lanes(&|g, q| (q + 4 * r, g))).collect(),
        ('a', 32) => (0..16).map(|e| lanes(&|g, q| (g + 8 * ((e >> 2) & 1), 4 * q + 16 * (e >> 3) + (e & 3)))).collect(),
        ('b', 32) => (0..8).map(|e| lanes(&|g, q| (4 * q + 16 * (e >> 2) + (e & 3), g))).collect(),
        _ => Vec::new(),
    }
}

/// Bank conflicts of a `rows x cols` tile of `elem_bytes`-byte elements under `swizzle`: its
/// operand reads element by element (every atom of the tile, [`element_reads`]) and its copy's
/// 16-byte row stores (eight consecutive chunks per phase).
pub fn element_conflicts(operand: char, k: i64, rows: i64, cols: i64, elem_bytes: i64, swizzle: Option<[i64; 3]>) -> u64 {
    let at = |r: i64, c: i64| {
        let lin = r * cols + c;
        swizzle.map_or(lin, |[b, m, s]| crate::map::swizzle(b as u32, m as u32, s as i32, lin)) * elem_bytes
    };
    let (step_r, step_c) = if operand == 'a' { (ATOM_M, k) } else { (k, ATOM_N) };
    let mut total = 0;
    for r0 in (0..rows - rows % step_r).step_by(step_r as usize) {
        for c0 in (0..cols - cols % step_c).step_by(step_c as usize) {
            for read in element_reads(operand, k) {
                let lanes: Vec<(u32, u64)> = read.iter().map(|(l, r, c)| (*l, at(r0 + r, c0 + c) as u64)).collect();
                total += crate::banks::conflicts(&lanes, elem_bytes as u64);
            }
        }
    }
    let per_chunk = 16 / elem_bytes;
    let chunks = rows * cols / per_chunk;
    for c0 in (0..chunks - chunks % 8).step_by(8) {
        let lanes: Vec<(u32, u64)> = (0..8).map(|t| (t as u32, at(0, (c0 + t) * per_chunk) as u64)).collect();
        total += crate::banks::conflicts(&lanes, 16);
    }
    total
}

/// The swizzle with the fewest [`element_conflicts`] (none when no candidate beats the
/// row-major order), of those that keep 16-byte chunks whole and permute within the tile.
pub fn element_swizzle(operand: char, k: i64, rows: i64, cols: i64, elem_bytes: i64) -> Option<[i64; 3]> {
    let min_m = (16 / elem_bytes).trailing_zeros() as i64;
    let size = rows * cols;
    let mut best = (element_conflicts(operand, k, rows, cols, elem_bytes, None), None);
    for b in 1..=3 {
        for m in min_m..=min_m + 2 {
            for s in b..=7 {
                if size % (1 << (b + m + s)) != 0 {
                    continue;
                }
                let c = element_conflicts(operand, k, rows, cols, elem_bytes, Some([b, m, s]));
                if c < best.0 {
                    best = (c, Some([b, m, s]));
                }
            }
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exchange::resolve;

    #[test]
    fn the_layout_text_is_the_coordinates() {
        for (m, n, threads) in [(16, 8, 32), (64, 64, 128), (128, 128, 256), (128, 64, 128), (32, 256, 256), (16, 64, 64)] {
            let t = MmaTiling::choose(m, n, threads).unwrap();
            let map = resolve(&t.layout_text(), threads, t.items()).unwrap();
            for e in 0..t.items() {
                for th in 0..threads {
                    let (r, c) = t.coords(th, e);
                    assert_eq!(map.eval(th + threads * e), r * n + c, "{t:?} thread {th} item {e}");
                }
            }
        }
    }

    #[test]
    fn one_warp_holds_the_isa_fragment() {
        // The ISA's m16n8 C fragment, written out: c0, c1 at (g, 2q + {0, 1}), c2, c3 at g + 8.
        let t = MmaTiling::choose(16, 8, 32).unwrap();
        for lane in 0..32 {
            let (g, q) = (lane / 4, lane % 4);
            let want = [(g, 2 * q), (g, 2 * q + 1), (g + 8, 2 * q), (g + 8, 2 * q + 1)];
            for (reg, w) in want.iter().enumerate() {
                assert_eq!(t.coords(lane, reg as i64), *w);
            }
        }
    }

    #[test]
    fn the_choice_keeps_warp_blocks_square() {
        let t = MmaTiling::choose(128, 128, 256).unwrap();
        assert_eq!((t.warps_m, t.warps_n, t.warp_m(), t.warp_n()), (4, 2, 32, 64));
        let t = MmaTiling::choose(64, 64, 128).unwrap();
        assert_eq!((t.warps_m, t.warps_n), (2, 2));
        let t = MmaTiling::choose(16, 128, 128).unwrap();
        assert_eq!((t.warps_m, t.warps_n), (1, 4));
    }

    #[test]
    fn swizzled_tiles_have_no_ldmatrix_conflicts() {
        for cols in [16, 32, 64, 128, 256] {
            let sw = ldmatrix_swizzle(cols, 2).unwrap();
            let rows = 64;
            assert_eq!(ldmatrix_conflicts(rows, cols, 2, Some(sw)), 0, "{cols} columns under {sw:?}");
            // A bijection of the tile's offsets, whole 16-byte chunks kept together.
            let mut seen = vec![false; (rows * cols) as usize];
            for x in 0..rows * cols {
                let y = crate::map::swizzle(sw[0] as u32, sw[1] as u32, sw[2] as i32, x);
                assert_eq!(y / 8, crate::map::swizzle(sw[0] as u32, sw[1] as u32, sw[2] as i32, x / 8 * 8) / 8);
                seen[y as usize] = true;
            }
            assert!(seen.iter().all(|s| *s));
        }
        // Without a swizzle, rows 64 bytes apart meet in the same banks.
        assert!(ldmatrix_conflicts(64, 32, 2, None) > 0);
        assert_eq!(ldmatrix_swizzle(8, 2), None);
        assert_eq!(ldmatrix_swizzle(48, 2), None);
    }

    /// The element-read operands (tf32, s8) of the tutorial's tiles find a swizzle with no bank
    /// conflicts, where row-major order has many.
    #[test]
    fn element_read_tiles_find_conflict_free_swizzles() {
        for (op, k, rows, cols, eb) in [('a', 8, 64, 32, 4), ('b', 8, 32, 64, 4), ('a', 32, 64, 64, 1), ('b', 32, 64, 64, 1)] {
            let before = element_conflicts(op, k, rows, cols, eb, None);
            let sw = element_swizzle(op, k, rows, cols, eb).unwrap_or_else(|| panic!("{op} k{k} {rows}x{cols}: no swizzle"));
            let after = element_conflicts(op, k, rows, cols, eb, Some(sw));
            assert!(before > 0, "{op} k{k}: row-major has conflicts");
            assert_eq!(after, 0, "{op} k{k} {rows}x{cols} under {sw:?}: {after} conflicts ({before} row-major)");
        }
    }

    #[test]
    fn refusals_say_why() {
        assert!(MmaTiling::choose(24, 8, 32).unwrap_err().contains("no grid"));
        assert!(MmaTiling::choose(16, 8, 48).unwrap_err().contains("whole warps"));
        assert!(MmaTiling::choose(256, 256, 128).unwrap_err().contains("at most 128"));
        assert!(MmaTiling::with_warps(64, 64, 128, 2, 1).unwrap_err().contains("do not make"));
        // Hostile sizes are refusals, never an overflow.
        assert!(MmaTiling::with_warps(64, 64, 128, i64::MAX / 2, 4).unwrap_err().contains("1 to 32 each"));
        assert!(MmaTiling::choose(1 << 40, 1 << 40, 128).unwrap_err().contains("1 to"));
    }
}
