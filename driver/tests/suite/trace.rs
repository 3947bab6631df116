//! The simulator's trace of one CTA (what `phobos explain` reads): its range bookkeeping and
//! line counts, checked against hand-computed values.

use phobos_sim::trace::{coarsen, merge, MemAccess, Trace};

#[test]
fn merge_joins_touching_and_overlapping_ranges() {
    let mut r = vec![(8, 4), (0, 4), (4, 2), (20, 4), (22, 8)];
    merge(&mut r);
    assert_eq!(r, vec![(0, 6), (8, 4), (20, 10)]);
}

#[test]
fn coarsen_bounds_the_ranges_and_covers_them() {
    let mut r: Vec<(u64, u64)> = (0..100).map(|i| (i * 10 + (i % 3), 2)).collect();
    let before = r.clone();
    coarsen(&mut r, 10);
    assert!(r.len() <= 10 && r.len() >= 9, "{}", r.len());
    for (o, n) in before {
        assert!(r.iter().any(|(a, m)| *a <= o && o + n <= a + m), "({o}, {n}) lost");
    }
}

#[test]
fn lines_count_each_warp_access() {
    let mut t = Trace::new([0, 0, 0], 32, 1);
    let access = || MemAccess { memref: 0, write: false, atomic: false, width: 4, global: true, conflicts: 0 };
    // 32 lanes reading 4 bytes each along a row: one line.
    let row: Vec<(u64, u64)> = (0..32).map(|l| (l * 4, 4)).collect();
    t.memory(0, access(), &row);
    // 32 lanes reading a column of a row-major 32 x 32 f32 tensor: 32 lines for 128 bytes.
    let col: Vec<(u64, u64)> = (0..32).map(|l| (l * 128, 4)).collect();
    t.memory(0, access(), &col);
    // 32 lanes reading 4 bytes at an offset of 64: two lines for 128 bytes.
    let off: Vec<(u64, u64)> = (0..32).map(|l| (64 + l * 4, 4)).collect();
    t.memory(0, access(), &off);
    let m = t.insts[0].mem.as_ref().unwrap();
    assert_eq!((m.lines, m.min_lines, m.bytes), (35, 3, 384));
}
