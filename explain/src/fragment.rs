//! A tensor-core product's fragments: which lane and register of warp 0 hold which element of
//! the accumulator C (the fragment's layout, `phobos_layout::mma::MmaTiling`), and of one
//! instruction's A and B (the PTX ISA's fragments, as the simulator runs them:
//! `phobos_sim::mma`); and where the swizzled shared tiles it reads put their first 8 rows'
//! 16-byte chunks among the banks. The product's shape, warp grid and instruction are
//! `convert-tile-to-gpu`'s remark (`tile.dot: mma.sync m16n8k16 (f16 into f32), 128 x 128 x 32
//! on 4 x 2 warps ...`), the tiles `tile-swizzle`'s (`tile 'As' (128x32, 64-byte rows) stored
//! under swizzle(2,3,3): ...`).

use phobos_ir::diag::Diagnostic;
use phobos_layout::mma::MmaTiling;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct Fragment {
    /// The `dot`'s line.
    pub line: u32,
    /// The remark: the instruction and the warp grid.
    pub what: String,
    pub m: i64,
    pub n: i64,
    pub warps_m: i64,
    pub warps_n: i64,
    /// Warp 0's block of C: rows and columns.
    pub warp_m: i64,
    pub warp_n: i64,
    /// C's first 16 x 8 block in warp 0: (lane, item) of each element, row-major.
    pub c: Vec<(u32, u32)>,
    /// One instruction's A (16 x k) and B (k x 8): (lane, register element) of each element,
    /// row-major; empty for wgmma (its operands stay in shared memory).
    pub k: u32,
    pub a: Vec<(u32, u32)>,
    pub b: Vec<(u32, u32)>,
    pub tiles: Vec<TileBanks>,
}

/// A swizzled tile's first 8 rows: per row, the 4-bank group (0-7) each 16-byte chunk of a
/// 128-byte line lands in.
#[derive(Clone, Debug, Serialize)]
pub struct TileBanks {
    pub name: String,
    pub rows: i64,
    pub cols: i64,
    pub row_bytes: i64,
    pub swizzle: [i64; 3],
    /// `[row][chunk]` for rows 0-7 and the row's chunks (at most 16).
    pub groups: Vec<Vec<u32>>,
    /// ldmatrix's conflicts under the swizzle, and row-major (the remark's).
    pub conflicts: String,
}

/// The products of the kernel, from the remarks (`file`'s), on `threads` threads.
pub fn fragments(remarks: &[Diagnostic], file: &str, threads: u32) -> Vec<Fragment> {
    let line_of = |d: &Diagnostic| d.loc.as_ref().filter(|l| l.file == file).map(|l| l.line);
    let tiles: Vec<(u32, TileBanks)> = remarks.iter().filter_map(|d| Some((line_of(d)?, tile_banks(&d.message)?))).collect();
    let mut out: Vec<Fragment> = Vec::new();
    for d in remarks {
        let Some(rest) = d.message.strip_prefix("tile.dot: ") else { continue };
        let Some(line) = line_of(d) else { continue };
        let Some((m, n, wm, wn)) = shape(rest) else { continue };
        let Ok(t) = MmaTiling::with_warps(m, n, threads as i64, wm, wn) else { continue };
        if out.iter().any(|f| f.line == line) {
            continue;
        }
        // C: lane l's item e is at coords(l, e); the first 16 x 8 block of warp 0's.
        let mut c = vec![(0, 0); 16 * 8];
        for lane in 0..32 {
            for e in 0..t.items() {
                let (r, col) = t.coords(lane, e);
                if r < 16 && col < 8 {
                    c[(r * 8 + col) as usize] = (lane as u32, e as u32);
                }
            }
        }
        let wgmma = rest.starts_with("wgmma");
        let k = rest.split(" m16n8k").nth(1).and_then(|s| s.split(' ').next()).and_then(|s| s.parse().ok()).unwrap_or(16);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        if !wgmma {
            a = vec![(0, 0); 16 * k as usize];
            b = vec![(0, 0); k as usize * 8];
            for lane in 0..32 {
                for e in 0..16 * k / 32 {
                    let (r, col) = phobos_sim::mma::a_at(k, lane, e);
                    a[(r * k + col) as usize] = (lane, e);
                }
                for e in 0..k * 8 / 32 {
                    let (r, col) = phobos_sim::mma::b_at(k, lane, e);
                    b[(r * 8 + col) as usize] = (lane, e);
                }
            }
        }
        // The tiles copied above the product: those of the remarks before its line, nearest.
        let mut mine: Vec<TileBanks> = Vec::new();
        for (l, tb) in tiles.iter().rev() {
            if *l <= line && !mine.iter().any(|x| x.name == tb.name) && mine.len() < 2 {
                mine.push(tb.clone());
            }
        }
        mine.reverse();
        out.push(Fragment {
            line,
            what: rest.to_string(),
            m,
            n,
            warps_m: wm,
            warps_n: wn,
            warp_m: t.warp_m(),
            warp_n: t.warp_n(),
            c,
            k,
            a,
            b,
            tiles: mine,
        });
    }
    out
}

/// `M x N x K on WM x WN warps` in a `tile.dot:` remark.
fn shape(rest: &str) -> Option<(i64, i64, i64, i64)> {
    let (dims, warps) = rest.split_once(" on ")?;
    let dims: Vec<i64> = dims.rsplit(", ").next()?.split(" x ").map(|x| x.trim().parse().ok()).collect::<Option<_>>()?;
    let warps: Vec<i64> = warps.split(" warps").next()?.split(" x ").map(|x| x.trim().parse().ok()).collect::<Option<_>>()?;
    match (&dims[..], &warps[..]) {
        ([m, n, _], [wm, wn]) => Some((*m, *n, *wm, *wn)),
        _ => None,
    }
}

/// `tile 'As' (128x32, 64-byte rows) stored under swizzle(2,3,3): ldmatrix reads it with 0
/// bank conflicts (192 row-major)` as the banks of its first rows.
fn tile_banks(message: &str) -> Option<TileBanks> {
    let rest = message.strip_prefix("tile '")?;
    let (name, rest) = rest.split_once("' (")?;
    let (dims, rest) = rest.split_once(", ")?;
    let (rows, cols) = dims.split_once('x')?;
    let (rows, cols): (i64, i64) = (rows.parse().ok()?, cols.parse().ok()?);
    let row_bytes: i64 = rest.split('-').next()?.parse().ok()?;
    let sw = rest.split("swizzle(").nth(1)?.split(')').next()?;
    let sw: Vec<i64> = sw.split(',').map(|x| x.trim().parse().ok()).collect::<Option<_>>()?;
    let [bb, mm, ss] = sw[..] else { return None };
    let conflicts = rest.split(" with ").nth(1).unwrap_or("").to_string();
    let elem = (row_bytes / cols.max(1)).max(1);
    let chunks = (row_bytes / 16).clamp(1, 16);
    let groups = (0..rows.min(8))
        .map(|r| {
            (0..chunks)
                .map(|c| {
                    // The chunk's first element, swizzled (CuTe's Swizzle<B, M, S> on element offsets).
                    let swz = phobos_layout::map::swizzle(bb as u32, mm as u32, ss as i32, r * cols + c * 16 / elem);
                    ((swz * elem / 16) % 8) as u32
                })
                .collect()
        })
        .collect();
    Some(TileBanks { name: name.to_string(), rows, cols, row_bytes, swizzle: [bb, mm, ss], groups, conflicts })
}
