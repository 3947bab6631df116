//! Register arrays redistributed over the CTA: every exchange between
//! blocked, striped and warp_striped, quoted layouts, scatter and gather, on the simulator,
//! against references computed here from the definitions (not from the compiler's tables).

use super::e2e::{compile, compile_with, run, values, Compiled, Rng};
use phobos_compiler::session::Session;
use phobos_passes::pipelines::Exchange;
use phobos_runtime::npy::{Array, Dtype};

/// Position of item `i` of thread `t` under a named layout, from the definitions in docs/language.md.
fn position(layout: &str, threads: i64, n: i64, t: i64, i: i64) -> i64 {
    match layout {
        "blocked" => t * n + i,
        "striped" => i * threads + t,
        "warp_striped" => (t / 32) * 32 * n + i * 32 + t % 32,
        quoted => {
            let m = match phobos_layout::expr::eval(quoted) {
                Ok(phobos_layout::expr::Value::Map(m)) => m,
                other => panic!("{quoted}: {other:?}"),
            };
            m.eval(t + threads * i)
        }
    }
}

/// (thread, item) holding each position under `layout`.
fn owners(layout: &str, threads: i64, n: i64) -> Vec<(i64, i64)> {
    let mut out = vec![(-1, -1); (threads * n) as usize];
    for t in 0..threads {
        for i in 0..n {
            let p = position(layout, threads, n, t, i);
            assert_eq!(out[p as usize], (-1, -1), "{layout} is not a bijection");
            out[p as usize] = (t, i);
        }
    }
    out
}

#[derive(Clone, Copy, Debug)]
enum E {
    F32,
    I32,
    F64,
    I8,
    Bool,
}

impl E {
    fn name(self) -> &'static str {
        match self {
            E::F32 => "f32",
            E::I32 => "i32",
            E::F64 => "f64",
            E::I8 => "i8",
            E::Bool => "bool",
        }
    }
    fn array(self, shape: &[u64], vals: &[f64]) -> Array {
        let data = match self {
            E::F32 => vals.iter().flat_map(|v| (*v as f32).to_le_bytes()).collect(),
            E::I32 => vals.iter().flat_map(|v| (*v as i32).to_le_bytes()).collect(),
            E::F64 => vals.iter().flat_map(|v| v.to_le_bytes()).collect(),
            E::I8 => vals.iter().map(|v| *v as i8 as u8).collect(),
            E::Bool => vals.iter().map(|v| (*v != 0.0) as u8).collect(),
        };
        let dtype = match self {
            E::F32 => Dtype::F32,
            E::I32 => Dtype::I32,
            E::F64 => Dtype::F64,
            E::I8 => Dtype::I8,
            E::Bool => Dtype::Bool,
        };
        Array { dtype, shape: shape.to_vec(), data }
    }
}

/// What one output row of the test kernel holds.
#[derive(Clone, Debug)]
enum Case {
    Exchange(String, String),
    Scatter(String),
    Gather(String),
}

impl Case {
    fn call(&self) -> String {
        let q = |l: &str| if l.contains('(') { format!("\"{l}\"") } else { l.to_string() };
        match self {
            Case::Exchange(a, b) => format!("exchange<{}, {}>(v)", q(a), q(b)),
            Case::Scatter(b) => format!("scatter<{}>(v, r)", q(b)),
            Case::Gather(a) => format!("gather<{}>(v, g)", q(a)),
        }
    }
}

/// A kernel that loads item i of thread t from X[t*n + i] (ranks from R, gather ranks from G),
/// runs each case, and stores item i of thread t of case c's result at Y[c, t*n + i].
fn kernel(threads: i64, n: i64, e: E, cases: &[Case]) -> String {
    let total = threads * n;
    let mut s = format!(
        "@launch({threads})\nkernel k(X: tensor<{e}>[1, {total}], R: tensor<i32>[1, {total}], G: tensor<i32>[1, {total}], Y: tensor<{e}>[{c}, {total}]) {{\n  let t = ctx.thread\n  var v: {e}[{n}]\n  var r: i32[{n}]\n  var g: i32[{n}]\n  for i in range(0, {n}) {{\n    v[i] = X[0, t * {n} + i]\n    r[i] = R[0, t * {n} + i]\n    g[i] = G[0, t * {n} + i]\n  }}\n",
        e = e.name(),
        c = cases.len()
    );
    for (c, case) in cases.iter().enumerate() {
        s += &format!("  let s{c} = {}\n", case.call());
    }
    s += &format!("  for i in range(0, {n}) {{\n");
    for c in 0..cases.len() {
        s += &format!("    Y[{c}, t * {n} + i] = s{c}[i]\n");
    }
    s + "  }\n}\n"
}

/// The reference result of `case`: the value of thread t's item i at index t*n + i.
fn reference(case: &Case, threads: i64, n: i64, x: &[f64], ranks: &[i64], gathers: &[i64]) -> Vec<f64> {
    let total = (threads * n) as usize;
    let mut out = vec![0.0; total];
    match case {
        Case::Exchange(a, b) => {
            let own = owners(a, threads, n);
            for t in 0..threads {
                for i in 0..n {
                    let (st, si) = own[position(b, threads, n, t, i) as usize];
                    out[(t * n + i) as usize] = x[(st * n + si) as usize];
                }
            }
        }
        Case::Scatter(b) => {
            let mut at = vec![0.0; total];
            for k in 0..total {
                at[ranks[k] as usize] = x[k];
            }
            for t in 0..threads {
                for i in 0..n {
                    out[(t * n + i) as usize] = at[position(b, threads, n, t, i) as usize];
                }
            }
        }
        Case::Gather(a) => {
            let own = owners(a, threads, n);
            for k in 0..total {
                let (st, si) = own[gathers[k] as usize];
                out[k] = x[(st * n + si) as usize];
            }
        }
    }
    out
}

/// Runs `cases` on the simulator with exchanges within warps moved as `how` says; returns the
/// shuffles in the SIMT IR.
fn check(session: &Session, threads: i64, n: i64, e: E, cases: &[Case], seed: u64, how: Exchange) -> usize {
    let src = kernel(threads, n, e, cases);
    let c: Compiled = compile_with(session, &src, how);
    let shuffles = c.module.op().walk().into_iter().filter(|o| o.is("gpu.shuffle") || o.is("nvvm.shfl.sync")).count();
    let total = threads * n;
    let mut rng = Rng::new(seed);
    let (lo, hi) = if matches!(e, E::Bool) { (0, 1) } else { (-100, 100) };
    let x: Vec<f64> = (0..total).map(|_| rng.int(lo, hi) as f64).collect();
    let mut ranks: Vec<i64> = (0..total).collect();
    for k in (1..ranks.len()).rev() {
        ranks.swap(k, rng.int(0, k as i64) as usize);
    }
    let gathers: Vec<i64> = (0..total).map(|_| rng.int(0, total - 1)).collect();
    let i32s = |v: &[i64]| Array {
        dtype: Dtype::I32,
        shape: vec![1, total as u64],
        data: v.iter().flat_map(|r| (*r as i32).to_le_bytes()).collect(),
    };
    let out = run(
        &c,
        "k",
        [1, 1, 1],
        vec![
            ("X", e.array(&[1, total as u64], &x)),
            ("R", i32s(&ranks)),
            ("G", i32s(&gathers)),
            ("Y", e.array(&[cases.len() as u64, total as u64], &vec![0.0; cases.len() * total as usize])),
        ],
    )
    .unwrap_or_else(|err| panic!("{threads} threads, {n} items, {}: {err:?}\n{src}", e.name()));
    let y = values(&out["Y"]);
    for (ci, case) in cases.iter().enumerate() {
        let want = reference(case, threads, n, &x, &ranks, &gathers);
        let got = &y[ci * total as usize..(ci + 1) * total as usize];
        if got != want.as_slice() {
            let k = (0..total as usize).find(|k| got[*k] != want[*k]).unwrap();
            panic!(
                "{case:?}, {threads} threads, {n} items, {}, exchange={}: thread {} item {} is {} but the reference is {}\n{src}",
                e.name(),
                how.name(),
                k as i64 / n,
                k as i64 % n,
                got[k],
                want[k]
            );
        }
    }
    shuffles
}

fn named_cases() -> Vec<Case> {
    let names = ["blocked", "striped", "warp_striped"];
    let mut cases = Vec::new();
    for a in names {
        for b in names {
            cases.push(Case::Exchange(a.into(), b.into()));
        }
        cases.push(Case::Scatter(a.into()));
        cases.push(Case::Gather(a.into()));
    }
    cases
}

/// Every exchange, scatter and gather of the named layouts, with each mechanism for exchanges
/// within warps: blocked and warp_striped (the same as striped in one warp) move by shuffles
/// when forced for a power-of-two item count, never when staging is forced.
fn named_cases_match_the_reference(how: Exchange) {
    let session = Session::new(true).unwrap();
    let cases = named_cases();
    let mut seed = 1;
    for warps in [1, 2, 3, 4, 8] {
        for n in (1..=8).chain([16]) {
            let types: &[E] = if n == 4 || n == 3 { &[E::F32, E::I32, E::F64, E::I8, E::Bool] } else { &[E::F32] };
            for e in types {
                seed += 1;
                let shuffles = check(&session, 32 * warps, n, *e, &cases, seed, how);
                let words = if matches!(e, E::F64) { 2 } else { 1 };
                match how {
                    // blocked <-> warp_striped both ways, n shuffles of `words` words each.
                    Exchange::Shuffle if n > 1 && n & (n - 1) == 0 => {
                        assert!(shuffles >= 2 * n as usize * words, "{n} items: {shuffles} shuffles")
                    }
                    Exchange::Staging => assert_eq!(shuffles, 0, "staging forced, {n} items"),
                    _ => {}
                }
            }
        }
    }
}

#[test]
fn exchanges_scatters_and_gathers_match_the_reference() {
    named_cases_match_the_reference(Exchange::Auto)
}

#[test]
fn exchanges_match_the_reference_by_shuffles() {
    named_cases_match_the_reference(Exchange::Shuffle)
}

#[test]
fn exchanges_match_the_reference_by_staging() {
    named_cases_match_the_reference(Exchange::Staging)
}

#[test]
fn quoted_layouts_match_the_reference() {
    let session = Session::new(true).unwrap();
    // blocked spelled out (with hierarchical modes: still the identity), blocked with items 1
    // and 2 swapped (register moves), warp_striped spelled out, and an arbitrary bijection of
    // shape (T, n).
    let cases = vec![
        Case::Exchange("(128,4):(4,1)".into(), "striped".into()),
        Case::Exchange("blocked".into(), "((32,4),4):((4,128),1)".into()),
        Case::Exchange("blocked".into(), "(128,(2,2)):(4,(2,1))".into()),
        Case::Exchange("((32,4),4):((1,128),32)".into(), "blocked".into()),
        Case::Exchange("striped".into(), "((2,64),(2,2)):((2,8),(1,4))".into()),
        Case::Scatter("((32,4),4):((4,128),1)".into()),
        Case::Gather("((2,64),(2,2)):((2,8),(1,4))".into()),
    ];
    for how in Exchange::ALL {
        check(&session, 128, 4, E::F32, &cases, 7, how);
    }
    // Lane permutations of each item (any n) and quoted warp-local layouts, every mechanism.
    for n in [2, 3, 4] {
        let cases = vec![
            Case::Exchange("striped".into(), format!("((2,16,2),{n}):((16,1,32),64)")),
            Case::Exchange(format!("((2,16,2),{n}):((16,1,32),64)"), "striped".into()),
            Case::Exchange("warp_striped".into(), format!("((4,8,2),{n}):(({n},{},{}),1)", 4 * n, 32 * n)),
        ];
        for how in Exchange::ALL {
            let shuffles = check(&session, 64, n, E::F32, &cases, 11 + n as u64, how);
            if how == Exchange::Shuffle {
                assert!(shuffles >= 2 * n as usize, "{n} items: {shuffles} shuffles");
            }
        }
    }
}

#[test]
fn seed_000_examples() {
    // Two worked examples of 4 threads x 2 items (docs/language.md), widened to a 32-thread CTA
    // (threads 0-3 carry values A..H = 1..8; the others keep their items in place). Scatter to
    // blocked: ranks [7, 0], [6, 1], [5, 2], [4, 3]. Gather from striped: a rank r (of 4 threads) is
    // position r % 4 + 32 * (r / 4) of 32 threads, so ranks [7, 6] become [35, 34].
    let session = Session::new(true).unwrap();
    let src = "@launch(32)\nkernel k(X: tensor<i32>[32, 2], R: tensor<i32>[32, 2], G: tensor<i32>[32, 2], S: tensor<i32>[32, 2], T: tensor<i32>[32, 2]) {\n  let t = ctx.thread\n  var v: i32[2]\n  var r: i32[2]\n  var g: i32[2]\n  for i in range(0, 2) {\n    v[i] = X[t, i]\n    r[i] = R[t, i]\n    g[i] = G[t, i]\n  }\n  let s = scatter<blocked>(v, r)\n  let u = gather<striped>(v, g)\n  for i in range(0, 2) {\n    S[t, i] = s[i]\n    T[t, i] = u[i]\n  }\n}\n";
    let c = compile(&session, src);
    let mut x: Vec<i64> = (0..64).map(|k| 100 + k).collect();
    let mut r: Vec<i64> = (0..64).collect();
    let mut g: Vec<i64> = (0..64).map(|k| (k % 2) * 32 + k / 2).collect();
    // Scatter: thread t's values [A, B], ... and ranks.
    let seed_x = [[1, 2], [3, 4], [5, 6], [7, 8]];
    let seed_r = [[7, 0], [6, 1], [5, 2], [4, 3]];
    // Gather: thread t holds [A, E], [B, F], ... (striped); ranks [7, 6], [5, 4], ... widened.
    let gather_x = [[1, 5], [2, 6], [3, 7], [4, 8]];
    let seed_g = [[7, 6], [5, 4], [3, 2], [1, 0]];
    let arr = |v: &[i64]| Array { dtype: Dtype::I32, shape: vec![32, 2], data: v.iter().flat_map(|x| (*x as i32).to_le_bytes()).collect() };
    let run_with = |x: &[i64], r: &[i64], g: &[i64]| {
        let out =
            run(&c, "k", [1, 1, 1], vec![("X", arr(x)), ("R", arr(r)), ("G", arr(g)), ("S", arr(&[0; 64])), ("T", arr(&[0; 64]))]).unwrap();
        (values(&out["S"]), values(&out["T"]))
    };
    for t in 0..4 {
        for i in 0..2 {
            x[t * 2 + i] = seed_x[t][i];
            r[t * 2 + i] = seed_r[t][i];
        }
    }
    let (s, _) = run_with(&x, &r, &g);
    let after_scatter = [[2, 4], [6, 8], [7, 5], [3, 1]]; // [B, D], [F, H], [G, E], [C, A]
    for t in 0..4 {
        assert_eq!([s[t * 2] as i64, s[t * 2 + 1] as i64], after_scatter[t], "scatter<blocked>: thread {t}");
    }
    for t in 0..4 {
        for i in 0..2 {
            x[t * 2 + i] = gather_x[t][i];
            g[t * 2 + i] = seed_g[t][i] % 4 + 32 * (seed_g[t][i] / 4);
        }
    }
    let (_, u) = run_with(&x, &r, &g);
    let after_gather = [[8, 7], [6, 5], [4, 3], [2, 1]]; // [H, G], [F, E], [D, C], [B, A]
    for t in 0..4 {
        assert_eq!([u[t * 2] as i64, u[t * 2 + 1] as i64], after_gather[t], "gather<striped>: thread {t}");
    }
}
