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

/// A strided walk has equal gaps: merged evenly (no box swallows the tail); few ranges are left
/// alone; a bound of 0 means 1.
#[test]
fn coarsen_spreads_equal_gaps_and_leaves_few_ranges_alone() {
    let mut r: Vec<(u64, u64)> = (0..10_000).map(|i| (i * 256, 4)).collect();
    coarsen(&mut r, 100);
    assert_eq!(r.len(), 100);
    let widest = r.iter().map(|x| x.1).max().unwrap();
    assert!(widest <= 4 * (10_000 / 100) * 256, "a box of {widest} bytes for 100 strided ranges");
    assert_eq!(r.first().unwrap().0, 0);
    assert_eq!(r.last().map(|x| x.0 + x.1).unwrap(), 9_999 * 256 + 4);
    let mut few = vec![(0, 4), (100, 4)];
    coarsen(&mut few, 10);
    assert_eq!(few, vec![(0, 4), (100, 4)]);
    coarsen(&mut few, 0);
    assert_eq!(few, vec![(0, 104)]);
}

/// The shared-memory plan's remark reads back as what it says; other messages are not one.
#[test]
fn plan_remarks_round_trip() {
    use phobos_passes::tile::plan_shared_memory::PlanEntry;
    let e = PlanEntry { name: "exchange staging".into(), offset: 1024, bytes: 524, shape: "131".into(), elem: "f32".into() };
    assert_eq!(e.remark(), "shared 'exchange staging': offset 1024, 524 bytes (131 of f32)");
    assert_eq!(PlanEntry::parse(&e.remark()), Some(e));
    for other in ["barrier elided: no shared-memory access", "shared 'x': offset a, 4 bytes (1 of f32)", "shared 'x': offset 0, 4 bytes"] {
        assert_eq!(PlanEntry::parse(other), None, "{other}");
    }
}

/// Warp 0's shuffle sources are named by the pattern they follow.
#[test]
fn shuffle_patterns_are_named() {
    use phobos_explain::facts::pattern;
    use phobos_sim::program::ShflKind;
    let by = |f: &dyn Fn(i32) -> i32| -> [i8; 32] { std::array::from_fn(|l| f(l as i32) as i8) };
    assert_eq!(pattern(Some(ShflKind::Bfly), &by(&|l| l ^ 16)), "xor 16");
    assert_eq!(pattern(Some(ShflKind::Bfly), &by(&|l| l ^ 5)), "xor 5");
    assert_eq!(pattern(Some(ShflKind::Down), &by(&|l| if l + 3 < 32 { l + 3 } else { l })), "down 3");
    assert_eq!(pattern(Some(ShflKind::Up), &by(&|l| if l >= 2 { l - 2 } else { l })), "up 2");
    assert_eq!(pattern(Some(ShflKind::Idx), &by(&|_| 7)), "from 7");
    assert_eq!(pattern(Some(ShflKind::Idx), &by(&|l| (l * 3) % 32)), "idx");
    assert_eq!(pattern(Some(ShflKind::Idx), &by(&|l| l)), "none (every lane keeps its value)");
    // Lanes that did not take part (-1) do not count against the pattern.
    let mut half = by(&|l| l ^ 1);
    half[16..].fill(-1);
    assert_eq!(pattern(Some(ShflKind::Bfly), &half), "xor 1");
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
    let m = &t.insts[0].mem[0];
    assert_eq!((m.lines, m.min_lines, m.bytes), (35, 3, 384));
}
