//! Property tests: every operation's result equals the enumeration of its definition, coalesce
//! preserves the function, and the checks reject exactly the bad cases. Run with
//! `--nocapture` to see how many cases each property ran and how they split.

use phobos_layout::{
    check_space,
    expr::{eval, Value},
    infer,
    map::swizzle,
    ops::{self, Tiler},
    Layout, Map, Named, Space, Tuple,
};
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::collections::HashMap;

const CASES: u32 = 4000;

fn config() -> ProptestConfig {
    ProptestConfig { cases: CASES, failure_persistence: None, ..ProptestConfig::default() }
}

/// A layout of 1 to 4 leaves with extents 1..=max_extent and strides in `strides`, nested in
/// one of several profiles.
fn layout_with(max_extent: i64, strides: std::ops::RangeInclusive<i64>) -> impl Strategy<Value = Layout> {
    (prop::collection::vec((1..=max_extent, strides), 1..=4), 0..4usize).prop_map(|(leaves, nesting)| {
        let ints = |v: &[(i64, i64)], f: fn(&(i64, i64)) -> i64| v.iter().map(|p| Tuple::Int(f(p))).collect::<Vec<_>>();
        let build = |f: fn(&(i64, i64)) -> i64| -> Tuple {
            let n = leaves.len();
            match nesting {
                0 => Tuple::of(ints(&leaves, f)),
                1 if n >= 3 => Tuple::Tup(vec![Tuple::Tup(ints(&leaves[..2], f)), Tuple::of(ints(&leaves[2..], f))]),
                2 if n >= 3 => Tuple::Tup(vec![Tuple::of(ints(&leaves[..1], f)), Tuple::Tup(ints(&leaves[1..], f))]),
                3 if n >= 2 => Tuple::Tup(vec![Tuple::Tup(ints(&leaves, f))]),
                _ => Tuple::Tup(ints(&leaves, f)),
            }
        };
        Layout::new(build(|p| p.0), build(|p| p.1)).expect("congruent")
    })
}

fn layout() -> impl Strategy<Value = Layout> {
    layout_with(6, 0..=24)
}

/// Layouts whose strides are often compact: more of them compose and complement.
fn nice_layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        layout_with(4, 0..=8),
        layout_with(4, 1..=4).prop_map(|l| Layout::compact(l.shape)),
        (layout_with(4, 1..=4), 0..3usize).prop_map(|(l, k)| {
            // A permutation of the compact strides: a bijection onto [0, size).
            let mut d = l.shape.compact_strides().leaves();
            let k = k.min(d.len() - 1);
            d.rotate_left(k);
            let mut it = d.into_iter();
            Layout { stride: l.shape.rebuild(&mut it), shape: l.shape }
        }),
    ]
}

fn values(m: &Map) -> Vec<i64> {
    m.values()
}

fn first_collision(l: &Layout) -> Option<(i64, i64)> {
    let mut seen = HashMap::new();
    (0..l.size()).find_map(|x| seen.insert(l.eval(x), x).map(|y| (y, x)))
}

fn injective(l: &Layout) -> bool {
    first_collision(l).is_none()
}

/// `l` without its stride-0 (broadcast) modes.
fn without_broadcast(l: &Layout) -> Layout {
    let kept: Vec<Layout> = l.flat().into_iter().filter(|(_, d)| *d != 0).map(|(s, d)| Layout::mode(s, d)).collect();
    if kept.is_empty() {
        Layout::mode(1, 0)
    } else {
        Layout::concat(&kept)
    }
}

fn lay(m: &Map) -> &Layout {
    m.as_layout().expect("a layout")
}

/// Runs `test` on CASES inputs from `strategy`, and prints how many ran and how they split.
fn check<S: Strategy>(name: &str, strategy: S, test: impl Fn(S::Value, &Tally) -> Result<(), TestCaseError>) {
    let tally = Tally::default();
    let mut runner = TestRunner::new(config());
    let result = runner.run(&strategy, |v| {
        tally.1.set(tally.1.get() + 1);
        test(v, &tally)
    });
    let counts = tally.0.borrow();
    let split: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
    eprintln!(
        "property {name}: {} cases{}",
        tally.1.get(),
        if split.is_empty() { String::new() } else { format!(" ({})", split.join(", ")) }
    );
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
}

/// Outcome counts of one property.
#[derive(Default)]
struct Tally(RefCell<BTreeMap<&'static str, usize>>, Cell<usize>);
impl Tally {
    fn add(&self, kind: &'static str) {
        *self.0.borrow_mut().entry(kind).or_default() += 1;
    }
}

#[test]
fn coalesce_keeps_the_function_and_is_coarsest() {
    check("coalesce_keeps_the_function_and_is_coarsest", layout(), |l, tally| {
        let c = l.coalesce();
        prop_assert_eq!(c.values(), l.values(), "{} -> {}", l, c);
        let flat = c.flat();
        prop_assert!(flat.len() == 1 || flat.iter().all(|(s, _)| *s != 1), "{c} keeps a size-1 mode");
        for w in flat.windows(2) {
            prop_assert!(w[1].1 != w[0].0 * w[0].1, "{c} could merge {:?} and {:?}", w[0], w[1]);
        }
        prop_assert_eq!(c.coalesce(), c.clone());
        tally.add(if c.flat().len() < l.flat().len() { "merged" } else { "unchanged" });
        Ok(())
    });
}

#[test]
fn coalesce_by_mode_keeps_each_mode() {
    check("coalesce_by_mode_keeps_each_mode", layout(), |l, _tally| {
        let c = l.coalesce_by_mode();
        prop_assert_eq!(c.rank(), l.rank());
        for i in 0..l.rank() {
            prop_assert_eq!(c.get(i).values(), l.get(i).values());
        }
        Ok(())
    });
}

#[test]
fn compose_is_a_of_b_or_names_the_first_escape() {
    check("compose_is_a_of_b_or_names_the_first_escape", (nice_layout(), nice_layout()), |(a, b), tally| {
        let (ma, mb) = (Map::Layout(a.clone()), Map::Layout(b.clone()));
        let escape = (0..b.size()).find(|x| !(0..a.size()).contains(&b.eval(*x)));
        match (Map::compose(&ma, &mb), escape) {
            (Err(e), Some(x)) => {
                let msg = e.to_string();
                prop_assert!(msg.contains(&format!("maps x = {x} to {}", b.eval(x))), "{msg}");
                tally.add("out of domain");
            }
            (Ok(r), None) => {
                let want: Vec<i64> = (0..b.size()).map(|x| a.eval(b.eval(x))).collect();
                prop_assert_eq!(values(&r), want.clone(), "{} o {} = {}", a, b, r);
                match &r {
                    Map::Layout(l) if b.rank() <= 1 || l.rank() == b.rank() => tally.add("layout"),
                    // B's modes could not be kept: the coarsest flat layout.
                    Map::Layout(l) => {
                        prop_assert_eq!(l.flat().len(), l.coalesce().flat().len(), "{} is coalesced", l);
                        tally.add("layout, flat");
                    }
                    _ => {
                        // A composite only when no layout has the function: checked by brute
                        // force over every shape for small sizes.
                        if want.len() <= 64 {
                            prop_assert!(brute_force_layout(&want).is_none(), "{} o {} is a layout: {:?}", a, b, brute_force_layout(&want));
                            tally.add("composite, no layout (brute force)");
                        } else {
                            tally.add("composite");
                        }
                    }
                }
            }
            (r, escape) => prop_assert!(false, "{a} o {b}: {r:?} but escape {escape:?}"),
        }
        Ok(())
    });
}

/// A flat layout with these values, found by trying every ordered factorization of the size
/// (the strides are the values at the unit coordinates): independent of `infer::from_values`.
fn brute_force_layout(values: &[i64]) -> Option<Vec<(i64, i64)>> {
    fn factorizations(n: i64) -> Vec<Vec<i64>> {
        if n == 1 {
            return vec![vec![]];
        }
        (2..=n)
            .filter(|f| n % f == 0)
            .flat_map(|f| {
                factorizations(n / f).into_iter().map(move |mut rest| {
                    rest.insert(0, f);
                    rest
                })
            })
            .collect()
    }
    if values.first() != Some(&0) {
        return None;
    }
    for shape in factorizations(values.len() as i64) {
        let mut prefix = 1;
        let modes: Vec<(i64, i64)> = shape
            .iter()
            .map(|s| {
                let m = (*s, values[prefix as usize]);
                prefix *= s;
                m
            })
            .collect();
        let l = Layout::new(
            Tuple::Tup(modes.iter().map(|m| Tuple::Int(m.0)).collect()),
            Tuple::Tup(modes.iter().map(|m| Tuple::Int(m.1)).collect()),
        );
        if l.is_ok_and(|l| (0..values.len()).all(|x| l.eval(x as i64) == values[x])) {
            return Some(modes);
        }
    }
    None
}

#[test]
fn from_values_finds_every_layout_in_its_coarsest_form() {
    check("from_values_finds_every_layout_in_its_coarsest_form", nice_layout(), |l, _tally| {
        let v = l.values();
        let found = infer::from_values(&v);
        prop_assert!(found.is_some(), "{} not recovered", l);
        let found = found.unwrap();
        prop_assert_eq!(found.values(), v, "{} recovered as {}", l, found);
        prop_assert_eq!(found.flat().len(), l.coalesce().flat().len(), "{} recovered as {}, not coarsest", l, found);
        Ok(())
    });
}

#[test]
fn compose_with_a_tiler_composes_mode_by_mode() {
    check("compose_with_a_tiler_composes_mode_by_mode", (nice_layout(), nice_layout(), nice_layout()), |(a, b0, b1), _tally| {
        let t = Tiler::Modes(vec![Map::Layout(b0.clone()), Map::Layout(b1.clone())]);
        let ma = Map::Layout(a.clone());
        if let Ok(r) = ops::compose_by_mode(&ma, &t) {
            let r = lay(&r);
            prop_assert_eq!(r.rank(), a.rank());
            for (i, b) in [b0, b1].iter().enumerate() {
                let want: Vec<i64> = (0..b.size()).map(|x| a.get(i).eval(b.eval(x))).collect();
                prop_assert_eq!(r.get(i).values(), want);
            }
            for i in 2..a.rank() {
                prop_assert_eq!(r.get(i), a.get(i));
            }
        } else {
            // Fails only when a mode is out of domain, not a layout, or the tiler is too long.
            let fine = a.rank() >= 2
                && [&b0, &b1]
                    .iter()
                    .enumerate()
                    .all(|(i, b)| matches!(Map::compose(&Map::Layout(a.get(i)), &Map::Layout((*b).clone())), Ok(Map::Layout(_))));
            prop_assert!(!fine, "{a} o <{b0}, {b1}> failed");
        }
        Ok(())
    });
}

#[test]
fn complement_fills_the_gaps_or_names_the_collision() {
    check("complement_fills_the_gaps_or_names_the_collision", (nice_layout(), 1i64..=200), |(l, m), tally| {
        let kept = without_broadcast(&l);
        match l.complement(m) {
            Ok(c) => {
                prop_assert!(injective(&kept), "{l} is not injective but has complement {c}");
                let both = Layout::concat(&[kept.clone(), c.clone()]);
                prop_assert!(injective(&both), "({kept}, {c}) is not injective");
                prop_assert!(kept.size() * c.size() >= m, "({kept}, {c}) is smaller than {m}");
                let v = c.values();
                prop_assert!(v.windows(2).all(|w| w[0] < w[1]), "complement {c} is not ascending");
                tally.add("ok");
            }
            Err(e) => {
                let msg = e.to_string();
                let claims = msg.contains("is not injective");
                prop_assert_eq!(claims, !injective(&kept), "{}", msg);
                tally.add(if claims { "not injective" } else { "strides do not nest" });
            }
        }
        Ok(())
    });
}

#[test]
fn right_inverse_undoes_the_layout() {
    check("right_inverse_undoes_the_layout", nice_layout(), |l, _tally| {
        let r = l.right_inverse();
        for i in 0..r.size() {
            prop_assert_eq!(l.eval(r.eval(i)), i, "{} with right inverse {}", l, r);
        }
        if l.check_bijection().is_ok() {
            prop_assert_eq!(r.size(), l.size(), "{} is a bijection; right inverse {} is short", l, r);
        }
        Ok(())
    });
}

#[test]
fn left_inverse_undoes_the_layout_or_names_the_collision() {
    check("left_inverse_undoes_the_layout_or_names_the_collision", nice_layout(), |l, tally| {
        match l.left_inverse() {
            Ok(li) => {
                for x in 0..l.size() {
                    prop_assert!(l.eval(x) < li.size());
                    prop_assert_eq!(li.eval(l.eval(x)), x, "{} with left inverse {}", l, li);
                }
                let cute = l.complement(l.cosize()).is_ok();
                tally.add(if cute { "layout (CuTe's rule)" } else { "layout (beyond CuTe's rule)" });
            }
            Err(e) => {
                // Only a layout that is not injective has no left-inverse function; an injective
                // one without a layout form has its table.
                let claims = e.to_string().contains("not injective");
                prop_assert_eq!(claims, !injective(&l), "{}", e);
                if !claims {
                    let t = l.left_inverse_table();
                    for x in 0..l.size() {
                        prop_assert_eq!(t[l.eval(x) as usize], x);
                    }
                }
                tally.add(if claims { "not injective" } else { "table (no layout found)" });
            }
        }
        Ok(())
    });
}

#[test]
fn logical_divide_is_a_of_b_and_its_complement() {
    check("logical_divide_is_a_of_b_and_its_complement", (nice_layout(), nice_layout()), |(a, b), tally| {
        let (ma, mb) = (Map::Layout(a.clone()), Map::Layout(b.clone()));
        let r = ops::logical_divide(&ma, &Tiler::One(mb.clone()));
        let want = b.complement(a.size()).ok().and_then(|c| {
            let bc = Layout::concat(&[b.clone(), c]);
            (0..bc.size())
                .map(|x| bc.eval(x))
                .all(|v| (0..a.size()).contains(&v))
                .then(|| (0..bc.size()).map(|x| a.eval(bc.eval(x))).collect::<Vec<_>>())
        });
        match (&r, &want) {
            (Ok(r), Some(w)) => {
                prop_assert_eq!(&values(r), w);
                if let Map::Layout(l) = r {
                    // The tile mode is A o B; zipped and tiled divides rearrange the same modes.
                    prop_assert_eq!(l.get(0).values(), (0..b.size()).map(|x| a.eval(b.eval(x))).collect::<Vec<_>>());
                    let z = ops::zipped_divide(&ma, &Tiler::One(mb.clone())).expect("as logical_divide");
                    prop_assert_eq!(values(&z), w.clone());
                    let td = ops::tiled_divide(&ma, &Tiler::One(mb.clone())).expect("as logical_divide");
                    prop_assert_eq!(values(&td), w.clone());
                    let f = ops::flat_divide(&ma, &Tiler::One(mb)).expect("as logical_divide");
                    prop_assert_eq!(values(&f), w.clone());
                }
                tally.add("ok");
            }
            (Err(_), None) => tally.add("error"),
            (Err(e), Some(_)) => {
                // The composite was not a layout: only the layout-returning path may fail here.
                prop_assert!(e.to_string().contains("not a layout"), "{e}");
                tally.add("error");
            }
            (Ok(r), None) => prop_assert!(false, "{a} / {b} = {r}, but the definition fails"),
        }
        Ok(())
    });
}

#[test]
fn divides_by_a_tiler_rearrange_the_logical_divide() {
    check("divides_by_a_tiler_rearrange_the_logical_divide", (nice_layout(), nice_layout(), nice_layout()), |(a, b0, b1), _tally| {
        let ma = Map::Layout(a.clone());
        let t = Tiler::Modes(vec![Map::Layout(b0), Map::Layout(b1)]);
        if let Ok(Map::Layout(ld)) = ops::logical_divide(&ma, &t) {
            let r = t_len(&t).min(a.rank());
            let tiles: Vec<Layout> = (0..r).map(|i| ld.get(i).get(0)).collect();
            let mut rests: Vec<Layout> = (0..r).map(|i| ld.get(i).get(1)).collect();
            rests.extend((r..a.rank()).map(|i| ld.get(i)));
            for i in 0..r {
                prop_assert_eq!(Layout::concat(&[tiles[i].clone(), rests[i].clone()]).values(), ld.get(i).values());
            }
            let zipped = Layout::concat(&[Layout::concat(&tiles), Layout::concat(&rests)]);
            prop_assert_eq!(values(&ops::zipped_divide(&ma, &t).expect("zipped")), zipped.values());
            let mut tiled = vec![Layout::concat(&tiles)];
            tiled.extend(rests.clone());
            prop_assert_eq!(values(&ops::tiled_divide(&ma, &t).expect("tiled")), Layout::concat(&tiled).values());
            let mut flat = tiles.clone();
            flat.extend(rests);
            prop_assert_eq!(values(&ops::flat_divide(&ma, &t).expect("flat")), Layout::concat(&flat).values());
        }
        Ok(())
    });
}

#[test]
fn logical_product_is_a_then_complement_of_b() {
    check("logical_product_is_a_then_complement_of_b", (nice_layout(), nice_layout()), |(a, b), tally| {
        let (ma, mb) = (Map::Layout(a.clone()), Map::Layout(b.clone()));
        match ops::logical_product(&ma, &Tiler::One(mb.clone())) {
            Ok(Map::Layout(p)) => {
                prop_assert_eq!(p.get(0).values(), a.values());
                let c = a.complement(a.size() * b.cosize()).expect("the product used it");
                prop_assert_eq!(p.get(1).values(), (0..b.size()).map(|x| c.eval(b.eval(x))).collect::<Vec<_>>());
                if injective(&a) && injective(&b) {
                    prop_assert!(injective(&p), "{a} x {b} = {p} aliases");
                }
                for (op, arrange) in [(ops::zipped_product as fn(&Map, &Tiler) -> _, 0), (ops::tiled_product, 1), (ops::flat_product, 2)] {
                    let q = op(&ma, &Tiler::One(mb.clone())).expect("as logical_product");
                    prop_assert_eq!(values(&q), p.values(), "arrangement {}", arrange);
                }
                tally.add("ok");
            }
            Ok(m) => prop_assert!(false, "{m} is not a layout"),
            Err(_) => {
                let c = a.complement(a.size() * b.cosize());
                let fine = c.is_ok_and(|c| matches!(Map::compose(&Map::Layout(c), &mb), Ok(Map::Layout(_))));
                prop_assert!(!fine, "{a} x {b} failed");
                tally.add("error");
            }
        }
        Ok(())
    });
}

#[test]
fn blocked_and_raked_products_interleave_the_logical_product() {
    check("blocked_and_raked_products_interleave_the_logical_product", (layout_with(4, 1..=6), layout_with(4, 1..=6)), |(a, b), tally| {
        let (ma, mb) = (Map::Layout(a.clone()), Map::Layout(b.clone()));
        let r = a.rank().max(b.rank());
        let pad = |l: &Layout| {
            let mut m = l.modes();
            m.resize(r, Layout::mode(1, 0));
            m
        };
        let (am, bm) = (pad(&a), pad(&b));
        let Ok(c) = Layout::tuple(&am).complement(a.size() * b.cosize()) else {
            tally.add("undefined");
            return Ok(());
        };
        let Ok(Map::Layout(cb)) = Map::compose(&Map::Layout(c), &Map::Layout(Layout::tuple(&bm))) else {
            tally.add("undefined");
            return Ok(());
        };
        tally.add("checked");
        let cm = pad(&cb);
        for (raked, op) in [(false, ops::blocked_product as fn(&Map, &Tiler) -> _), (true, ops::raked_product)] {
            let p = op(&ma, &Tiler::One(mb.clone())).expect("defined");
            let p = lay(&p);
            prop_assert_eq!(p.rank(), r);
            for i in 0..r {
                let want =
                    if raked { Layout::concat(&[cm[i].clone(), am[i].clone()]) } else { Layout::concat(&[am[i].clone(), cm[i].clone()]) };
                prop_assert_eq!(p.get(i).values(), want.values(), "mode {} of {}", i, p);
            }
        }
        Ok(())
    });
}

#[test]
fn swizzle_xors_the_bits_it_names() {
    // S drawn from B's up (S >= B: no rejected cases, which made the run abort by chance).
    let strategy = (0u32..=3).prop_flat_map(|b| (Just(b), 0u32..=4, (b.max(1) as i32)..=4, 0i64..4096));
    check("swizzle_xors_the_bits_it_names", strategy, |(b, m, s, x), _tally| {
        let mut want = x;
        for j in 0..b {
            let from = (m as i32 + s) as u32 + j;
            want ^= ((x >> from) & 1) << (m + j);
        }
        prop_assert_eq!(swizzle(b, m, s, x), want);
        prop_assert_eq!(swizzle(b, m, s, swizzle(b, m, s, x)), x, "a swizzle is its own inverse");
        // S < 0 moves the low bits up.
        let mut up = x;
        for j in 0..b {
            up ^= ((x >> (m + j)) & 1) << ((m as i32 + s) as u32 + j);
        }
        prop_assert_eq!(swizzle(b, m, -s, x), up);
        Ok(())
    });
}

#[test]
fn thread_layouts_follow_seed_000() {
    check("thread_layouts_follow_seed_000", (1i64..=64, 1i64..=8, 1i64..=32), |(t, i, w), _tally| {
        let bl = ops::blocked(t, i).expect("positive");
        let st = ops::striped(t, i).expect("positive");
        for th in 0..t {
            for it in 0..i {
                prop_assert_eq!(bl.eval(th + t * it), th * i + it);
                prop_assert_eq!(st.eval(th + t * it), th + it * t);
            }
        }
        match ops::warp_striped(t, i, w) {
            Ok(ws) => {
                prop_assert_eq!(ws.to_string(), format!("(({w},{}),{i}):((1,{}),{w})", t / w, w * i));
                for th in 0..t {
                    for it in 0..i {
                        prop_assert_eq!(ws.eval(th + t * it), (th / w) * w * i + it * w + th % w);
                    }
                }
                prop_assert!(ws.check_bijection().is_ok());
            }
            Err(_) => prop_assert!(t % w != 0),
        }
        Ok(())
    });
}

#[test]
fn space_checks_reject_exactly_the_bad_layouts() {
    check("space_checks_reject_exactly_the_bad_layouts", nice_layout(), |l, tally| {
        let m = Map::Layout(l.clone());
        let mut v = l.values();
        v.sort();
        let bijective = v == (0..l.size()).collect::<Vec<_>>();
        prop_assert_eq!(check_space(&m, Space::Logical).is_ok(), bijective);
        prop_assert_eq!(check_space(&m, Space::ThreadValue).is_ok(), bijective);
        let alias_free = injective(&without_broadcast(&l));
        prop_assert_eq!(check_space(&m, Space::Physical).is_ok(), alias_free);
        tally.add(if bijective { "bijection" } else { "not bijection" });
        tally.add(if alias_free { "alias-free" } else { "aliasing" });
        Ok(())
    });
}

#[test]
fn named_axes_sum_their_digits() {
    check(
        "named_axes_sum_their_digits",
        (prop::collection::vec(1i64..=4, 1..=4), prop::collection::vec((1i64..=8, 0usize..3), 4)),
        |(shape, axes), _tally| {
            let names = ["laneid", "warpid", ""];
            let strides: Vec<(i64, Option<String>)> =
                shape.iter().zip(&axes).map(|(_, (d, a))| (*d, (*a < 2).then(|| names[*a].to_string()))).collect();
            let n = Named { shape: shape.clone(), strides: strides.clone() };
            for flat in 0..n.size() {
                let mut sums: HashMap<String, i64> = HashMap::new();
                let mut rest = flat;
                for k in (0..shape.len()).rev() {
                    let digit = rest % shape[k];
                    rest /= shape[k];
                    *sums.entry(strides[k].1.clone().unwrap_or_else(|| "reg".into())).or_default() += strides[k].0 * digit;
                }
                for (axis, v) in n.eval(flat) {
                    prop_assert_eq!(v, sums[&axis]);
                }
            }
            Ok(())
        },
    );
}

#[test]
fn printed_layouts_parse_back() {
    check("printed_layouts_parse_back", layout_with(9, -5..=40), |l, _tally| {
        match eval(&l.to_string()) {
            Ok(Value::Map(Map::Layout(p))) => prop_assert_eq!(p, l),
            other => prop_assert!(false, "{l} parsed as {other:?}"),
        }
        Ok(())
    });
}

#[test]
fn expressions_never_panic() {
    check("expressions_never_panic", expr(2), |e, tally| {
        match eval(&e) {
            Ok(Value::Map(m)) if m.size() <= 4096 => {
                // What prints, parses back to the same function.
                let back = eval(&m.to_string()).expect("printed maps parse");
                let Value::Map(back) = back else { panic!("{m} parsed as another kind") };
                prop_assert_eq!(back.values(), m.values(), "{}", e);
                tally.add("value");
            }
            Ok(_) => tally.add("value"),
            Err(err) => {
                prop_assert!(!err.to_string().is_empty());
                tally.add("error");
            }
        }
        Ok(())
    });
}

#[test]
fn the_parser_never_panics_on_bytes() {
    check("the_parser_never_panics_on_bytes", "[-0-9(),:<>@\\[\\] a-z_S]{0,40}", |s, tally| {
        match eval(&s) {
            // An error is one line that says something.
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(!msg.is_empty() && !msg.contains('\n'), "{:?} -> {:?}", s, msg);
                tally.add("error");
            }
            Ok(_) => tally.add("value"),
        }
        Ok(())
    });
}

fn t_len(t: &Tiler) -> usize {
    match t {
        Tiler::One(_) => 1,
        Tiler::Modes(m) => m.len(),
    }
}

/// Random expressions of the `phobos layout` language, `depth` calls deep.
fn expr(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        layout_with(4, 0..=8).prop_map(|l| l.to_string()),
        layout_with(4, 1..=4).prop_map(|l| l.shape.to_string()),
        (1i64..=8, 1i64..=4).prop_map(|(t, i)| format!("blocked({t},{i})")),
        (1i64..=8, 1i64..=4).prop_map(|(t, i)| format!("striped({t},{i})")),
        (1i64..=8, 1i64..=4, 1i64..=4).prop_map(|(t, i, w)| format!("warp_striped({t},{i},{w})")),
    ]
    .boxed();
    if depth == 0 {
        return leaf;
    }
    let sub = expr(depth - 1);
    const BINARY: [&str; 11] = [
        "compose",
        "logical_divide",
        "zipped_divide",
        "tiled_divide",
        "flat_divide",
        "logical_product",
        "blocked_product",
        "raked_product",
        "zipped_product",
        "tiled_product",
        "flat_product",
    ];
    let binary = &BINARY[..];
    prop_oneof![
        leaf,
        (prop::sample::select(binary), sub.clone(), sub.clone()).prop_map(|(f, a, b)| format!("{f}({a}, {b})")),
        (prop::sample::select(binary), sub.clone(), sub.clone(), sub.clone()).prop_map(|(f, a, b, c)| format!("{f}({a},<{b},{c}>)")),
        (prop::sample::select(&["coalesce", "right_inverse", "left_inverse"][..]), sub.clone()).prop_map(|(f, a)| format!("{f}({a})")),
        (sub.clone(), 1i64..=64).prop_map(|(a, m)| format!("complement({a},{m})")),
        (0i64..=3, 0i64..=3, 0i64..=3, sub).prop_map(|(b, m, s, a)| format!("swizzle({b},{m},{s},{a})")),
    ]
    .boxed()
}

/// The closed forms that spare large layouts an enumeration: nested strides are injective, the
/// value range is the enumeration's, and a chain from 1 is a bijection.
#[test]
fn closed_forms_agree_with_the_enumeration() {
    check("closed_forms", prop_oneof![layout(), nice_layout()], |l, t| {
        let vals: Vec<i64> = (0..l.size()).map(|x| l.eval(x)).collect();
        let (lo, hi) = l.value_range();
        prop_assert_eq!((lo, hi), (*vals.iter().min().unwrap(), *vals.iter().max().unwrap()), "value_range of {}", l);
        if l.nested_modes().is_some() {
            t.add("nested");
            prop_assert!(injective(&l), "{} has nested strides but is not injective", l);
        } else {
            t.add("not nested");
        }
        let mut sorted = vals.clone();
        sorted.sort();
        let bijection = sorted.iter().enumerate().all(|(i, v)| i as i64 == *v);
        prop_assert_eq!(l.check_bijection().is_ok(), bijection, "check_bijection of {}", l);
        Ok(())
    });
}
