//! The `layout` dialect end to end: kernels that apply hundreds of layouts (random and
//! hand-picked; flat, per-mode, restricted, composed, composite, swizzled, and over named axes) are lowered by
//! compose-layouts and convert-layout-to-arith, run on the simulator, and compared with the
//! layout algebra's own evaluation.

use super::e2e::{values, Rng};
use phobos_compiler::{front_door, session::Session};
use phobos_layout::{expr, Layout, Map, Tuple};
use std::{collections::BTreeMap, path::PathBuf};

/// One check: an op (or chain) writing `out[offset + x]` for x in [0, size).
struct Case {
    body: String,
    size: i64,
    want: Vec<i64>,
}

fn eval(text: &str) -> Map {
    match expr::eval(text).unwrap_or_else(|e| panic!("{text}: {e}")) {
        expr::Value::Map(m) => m,
        v => panic!("{text}: {v:?}"),
    }
}

fn random_layout(rng: &mut Rng) -> Layout {
    loop {
        let n = rng.int(1, 4) as usize;
        let leaves: Vec<(i64, i64)> = (0..n).map(|_| (rng.int(1, 6), rng.int(0, 40))).collect();
        let build = |f: fn(&(i64, i64)) -> i64| -> Tuple {
            let ints: Vec<Tuple> = leaves.iter().map(|p| Tuple::Int(f(p))).collect();
            if n >= 3 {
                Tuple::Tup(vec![Tuple::Tup(ints[..2].to_vec()), Tuple::of(ints[2..].to_vec())])
            } else {
                Tuple::of(ints)
            }
        };
        let l = Layout::new(build(|p| p.0), build(|p| p.1)).unwrap();
        if l.size() <= 1024 {
            return l;
        }
    }
}

/// `%c<k>_<i>`: the coordinate of top-level mode i of `l` at x, computed in the kernel.
fn mode_coordinates(l: &Layout, k: usize) -> (String, Vec<String>) {
    let mut text = String::new();
    let mut names = Vec::new();
    let mut prefix = 1;
    for (i, m) in l.modes().iter().enumerate() {
        text += &format!(
            "      %p{k}_{i} = arith.constant {prefix} : index\n      %s{k}_{i} = arith.constant {} : index\n      %q{k}_{i} = arith.divui %x, %p{k}_{i} : index\n      %c{k}_{i} = arith.remui %q{k}_{i}, %s{k}_{i} : index\n",
            m.size()
        );
        names.push(format!("%c{k}_{i}"));
        prefix *= m.size();
    }
    (text, names)
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let flat = |text: &str| {
        let m = eval(text);
        Case {
            body: format!("      %v = \"layout.apply\"(%x) {{layout = \"{text}\"}} : (index) -> index\n"),
            size: m.size(),
            want: m.values(),
        }
    };
    for text in [
        "blocked(32,4)",
        "striped(32,4)",
        "warp_striped(64,2,32)",
        "compose((6,3):(1,7),(3,4):(2,3))",
        "compose((5,3):(7,1),7:1)",
        "swizzle(3,4,3,(8,64):(64,1))",
        "swizzle(2,0,-2,(4,16):(16,1))",
        "zipped_divide((12,32):(32,1),<3:4,8:4>)",
        "raked_product((2,5):(5,1),(3,4):(1,3))",
        "(4,(2,8)):(1,(0,8))",
    ] {
        out.push(flat(text));
    }
    let mut rng = Rng::new(7);
    for k in 0..300 {
        let l = random_layout(&mut rng);
        let text = l.to_string();
        match k % 5 {
            // Per-mode coordinates.
            1 if l.rank() > 1 => {
                let (coords, names) = mode_coordinates(&l, k);
                let types = vec!["index"; names.len()].join(", ");
                out.push(Case {
                    body: format!(
                        "{coords}      %v = \"layout.apply\"({}) {{layout = \"{text}\"}} : ({types}) -> index\n",
                        names.join(", ")
                    ),
                    size: l.size(),
                    want: l.values(),
                });
            }
            // A thread's slice: mode 0 fixed at x's coordinate, the rest at x / size(mode 0).
            2 if l.rank() > 1 => {
                let s0 = l.get(0).size();
                out.push(Case {
                    body: format!(
                        "      %s0 = arith.constant {s0} : index\n      %t = arith.remui %x, %s0 : index\n      %r = arith.divui %x, %s0 : index\n      %v = \"layout.restrict\"(%t, %r) {{layout = \"{text}\", fixed = array<i64: 0>}} : (index, index) -> index\n"
                    ),
                    size: l.size(),
                    want: l.values(),
                });
            }
            // A composition: a bijection onto [0, size) first (folded by compose-layouts).
            3 => {
                // The compact layout of the reversed shape: a permutation of [0, size).
                let perm = Layout::compact(Tuple::of(l.shape.leaves().into_iter().rev().map(Tuple::Int).collect()));
                let want: Vec<i64> = (0..perm.size()).map(|x| l.eval(perm.eval(x))).collect();
                out.push(Case {
                    body: format!(
                        "      %u = \"layout.apply\"(%x) {{layout = \"{perm}\", into = \"logical\"}} : (index) -> index\n      %v = \"layout.apply\"(%u) {{layout = \"{text}\", from = \"logical\"}} : (index) -> index\n"
                    ),
                    size: perm.size(),
                    want,
                });
            }
            // A composite or a swizzle over the random layout.
            4 => {
                let b = random_layout(&mut rng);
                let max = b.values().into_iter().max().unwrap_or(0);
                let a = Layout::new(
                    Tuple::Tup(vec![Tuple::Int(max + 1), Tuple::Int(1)]),
                    Tuple::Tup(vec![Tuple::Int(rng.int(1, 5)), Tuple::Int(0)]),
                )
                .unwrap();
                let text = if k % 2 == 0 { format!("compose({a},{b})") } else { format!("swizzle(2,1,{},{b})", rng.int(2, 4)) };
                out.push(flat(&text));
            }
            _ => out.push(flat(&text)),
        }
    }
    // Named axes: one case per axis of random S[...] layouts that hardware can hold
    // (lanes < 32, warps < 4 in this 128-thread CTA, injective but for broadcasts).
    let mut k = 0;
    while k < 60 {
        let n = rng.int(1, 4) as usize;
        let shape: Vec<i64> = (0..n).map(|_| rng.int(1, 4)).collect();
        let strides: Vec<(i64, Option<String>)> = (0..n)
            .map(|_| (rng.int(0, 8), ["laneid", "warpid", ""][rng.int(0, 2) as usize]).to_owned())
            .map(|(d, a)| (d, (!a.is_empty()).then(|| a.to_string())))
            .collect();
        let named = phobos_layout::Named { shape, strides };
        if named.check(4).is_err() {
            continue;
        }
        k += 1;
        let axes = named.axes();
        let a = k % axes.len();
        let types = vec!["index"; axes.len()].join(", ");
        out.push(Case {
            body: format!(
                "      %p:{} = \"layout.place\"(%x) {{layout = \"{named}\"}} : (index) -> ({types})\n      %v = arith.ori %p#{a}, %p#{a} : index\n",
                axes.len()
            ),
            size: named.size(),
            want: (0..named.size()).map(|x| named.eval(x)[a].1).collect(),
        });
    }
    out
}

#[test]
fn lowered_layouts_match_the_algebra_on_the_simulator() {
    let cases = cases();
    let total: i64 = cases.iter().map(|c| c.size).sum();
    let max = cases.iter().map(|c| c.size).max().unwrap();
    let mut body = String::new();
    let mut offset = 0;
    for c in &cases {
        body += &format!(
            "    %n{offset} = arith.constant {} : index\n    %in{offset} = arith.cmpi ult, %x, %n{offset} : index\n    scf.if %in{offset} {{\n{}      %o{offset} = arith.constant {offset} : index\n      %at{offset} = arith.addi %x, %o{offset} : index\n      %w{offset} = arith.index_cast %v : index to i32\n      memref.store %w{offset}, %out[%at{offset}] : memref<{total}xi32>\n    }}\n",
            c.size, c.body
        );
        offset += c.size;
    }
    let src = format!(
        "gpu.module @kernels {{\n  gpu.func @layouts(%out: memref<{total}xi32> {{phobos.tensor = \"out\"}}) kernel attributes {{known_block_size = array<i32: 128, 1, 1>}} {{\n    %tid = gpu.thread_id x\n    %bid = gpu.block_id x\n    %c128 = arith.constant 128 : index\n    %base = arith.muli %bid, %c128 : index\n    %x = arith.addi %base, %tid : index\n{body}    gpu.return\n  }}\n}}\n"
    );
    let session = Session::new(true).unwrap();
    let front_door::Loaded { module, sig, .. } = front_door::load_text(&session, "layouts.mlir", &src, None, "sm_90", &Default::default())
        .unwrap_or_else(|e| panic!("{e:?}\n{src}"));
    assert!(module.op().walk().into_iter().all(|o| !o.name().starts_with("layout.")), "a layout op survived lowering");
    let init = super::e2e::array(super::e2e::T::I32, &[total as u64], &vec![-1.0; total as usize]);
    let arrays: BTreeMap<_, _> = [("out".to_string(), (init, PathBuf::from("out.npy")))].into_iter().collect();
    let grid = (max as u32).div_ceil(128);
    let out = front_door::simulate(&module, &sig, &arrays, &BTreeMap::new(), [grid, 1, 1], &Default::default())
        .unwrap_or_else(|e| panic!("{e:?}"))
        .outputs;
    let got = values(&out.iter().find(|(n, _)| n == "out").unwrap().1);
    let mut offset = 0usize;
    for c in &cases {
        for (x, want) in c.want.iter().enumerate() {
            assert_eq!(got[offset + x] as i64, *want, "x = {x} of\n{}", c.body);
        }
        offset += c.size as usize;
    }
}
