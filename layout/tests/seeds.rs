//! Worked examples of the thread layouts and named axes, and CuTe's documented results.

use phobos_layout::{expr::eval, expr::Value, Map};

fn ev(s: &str) -> Map {
    match eval(s).unwrap_or_else(|e| panic!("{s}: {e}")) {
        Value::Map(m) => m,
        v => panic!("{s}: {v:?}"),
    }
}

#[test]
fn seed_000_thread_layouts() {
    // 4 threads x 3 items, blocked: thread t holds t*3 .. t*3+2.
    let b = ev("blocked(4,3)");
    assert_eq!(b.to_string(), "(4,3):(3,1)");
    for t in 0..4 {
        for i in 0..3 {
            assert_eq!(b.eval(t + 4 * i), t * 3 + i);
        }
    }
    // Striped: item i of thread t is t + i*4, which is (4,3):(1,4).
    let s = ev("striped(4,3)");
    assert_eq!(s.to_string(), "(4,3):(1,4)");
    assert_eq!((0..3).map(|i| s.eval(4 * i)).collect::<Vec<_>>(), vec![0, 4, 8]);
    // Two four-thread warps, two items: thread 0 [0, 4], thread 4 (warp 1) [8, 12].
    let w = ev("warp_striped(8,2,4)");
    assert_eq!(w.to_string(), "((4,2),2):((1,8),4)");
    let items = |t: i64| (0..2).map(|i| w.eval(t + 8 * i)).collect::<Vec<_>>();
    assert_eq!(items(0), vec![0, 4]);
    assert_eq!(items(3), vec![3, 7]);
    assert_eq!(items(4), vec![8, 12]);
    assert_eq!(items(7), vec![11, 15]);
}

#[test]
fn seed_004_named_axes() {
    let Value::Named(n) = eval("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]").unwrap() else { panic!() };
    assert_eq!(n.axes(), vec!["laneid", "warpid", "reg"]);
    for i in 0..8 {
        for j in 0..16 {
            let v = n.eval(i * 16 + j);
            assert_eq!(v, vec![("laneid".into(), 4 * i + j / 2 % 4), ("warpid".into(), j / 8), ("reg".into(), j % 2)]);
        }
    }
}

#[test]
fn cute_documented_results() {
    assert_eq!(ev("compose((6,2):(8,2),(4,3):(3,1))").to_string(), "((2,2),3):((24,2),8)");
    assert_eq!(ev("complement((2,2):(1,6),24)").to_string(), "(3,2):(2,12)");
    assert_eq!(ev("logical_divide((4,2,3):(2,1,8),4:2)").to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    assert_eq!(ev("coalesce((2,(1,6)):(1,(6,2)))").to_string(), "12:1");
    assert_eq!(ev("right_inverse((4,8):(8,1))").to_string(), "(8,4):(4,1)");
    // CuTe's docs print ((2,3),(5,4)):((5,10),(1,30)); its code coalesces each mode, as here.
    assert_eq!(ev("blocked_product((2,5):(5,1),(3,4):(1,3))").to_string(), "(6,(5,4)):(5,(1,30))");
    assert_eq!(ev("raked_product((2,5):(5,1),(3,4):(1,3))").to_string(), "((3,2),(4,5)):((10,5),(30,1))");
    assert_eq!(ev("zipped_divide((12,32):(32,1),<3:4,8:4>)").to_string(), "((3,8),(4,4)):((128,4),(32,1))");
}

#[test]
fn compositions_that_are_not_layouts_stay_composites() {
    // CuTe DSL gives (3,(2,2)):(2,(3,7)) here, which differs from A(B(i)) at i = 5 and 11.
    let c = ev("compose((6,3):(1,7),(3,4):(2,3))");
    assert_eq!(c.to_string(), "compose((6,3):(1,7),(3,4):(2,3))");
    let (a, b) = (ev("(6,3):(1,7)"), ev("(3,4):(2,3)"));
    for x in 0..12 {
        assert_eq!(c.eval(x), a.eval(b.eval(x)));
    }
    assert_eq!(ev("compose((5,3):(7,1),7:1)").to_string(), "compose((5,3):(7,1),7:1)");
}

#[test]
fn errors_explain() {
    let e = eval("compose(4:1,(2,3):(1,2))").unwrap_err().to_string();
    assert_eq!(e, "compose(4:1, (2,3):(1,2)) is out of domain: (2,3):(1,2) maps x = 4 to 4, outside [0, 4), the domain of 4:1");
    let e = eval("complement((2,2):(1,1),8)").unwrap_err().to_string();
    assert_eq!(e, "(2,2):(1,1) is not injective: coordinates 1 and 2 both map to 1; it has no complement");
    let e = eval("left_inverse((2,2):(1,1))").unwrap_err().to_string();
    assert!(e.contains("has no left inverse"), "{e}");
}
