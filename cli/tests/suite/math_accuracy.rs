//! The simulator's math functions against an independent reference, in ULP of the result's
//! type: f32 and f64 over a fixed sample (random bit patterns, so every binade, denormals,
//! infinities and NaN, plus uniform values in [-10, 10] and the special values), f16 over all
//! 65,536 inputs (through f32, as the language computes it). The reference is the platform's
//! libm in f64 (glibc, through Rust's `f64` methods), where the simulator uses musl's (the
//! `libm` crate); `erf` and `erfc`, which Rust's `f64` lacks, are checked against musl's f64.
//! Each largest error must be within `docs/math.md`'s table (measured there over 10^6 inputs:
//! `PHOBOS_MATH_SAMPLES=1000000 cargo test --release -p phobos-cli --test suite math_accuracy
//! -- --nocapture` prints the rows).

use phobos_cli::selftest::Rng;
use phobos_sim::{exec::math::eval, program::MathFn, Prim};

/// (name in the language and the table, the function, its reference in f64, arguments).
type Reference = fn(f64, f64, f64) -> f64;
const FUNCS: &[(&str, MathFn, Reference, usize)] = &[
    ("exp", MathFn::Exp, |x, _, _| x.exp(), 1),
    ("exp2", MathFn::Exp2, |x, _, _| x.exp2(), 1),
    ("expm1", MathFn::Expm1, |x, _, _| x.exp_m1(), 1),
    ("log", MathFn::Log, |x, _, _| x.ln(), 1),
    ("log2", MathFn::Log2, |x, _, _| x.log2(), 1),
    ("log10", MathFn::Log10, |x, _, _| x.log10(), 1),
    ("log1p", MathFn::Log1p, |x, _, _| x.ln_1p(), 1),
    ("sqrt", MathFn::Sqrt, |x, _, _| x.sqrt(), 1),
    ("rsqrt", MathFn::Rsqrt, |x, _, _| 1.0 / x.sqrt(), 1),
    ("cbrt", MathFn::Cbrt, |x, _, _| x.cbrt(), 1),
    ("sin", MathFn::Sin, |x, _, _| x.sin(), 1),
    ("cos", MathFn::Cos, |x, _, _| x.cos(), 1),
    ("tan", MathFn::Tan, |x, _, _| x.tan(), 1),
    ("sinh", MathFn::Sinh, |x, _, _| x.sinh(), 1),
    ("cosh", MathFn::Cosh, |x, _, _| x.cosh(), 1),
    ("tanh", MathFn::Tanh, |x, _, _| x.tanh(), 1),
    ("asin", MathFn::Asin, |x, _, _| x.asin(), 1),
    ("acos", MathFn::Acos, |x, _, _| x.acos(), 1),
    ("atan", MathFn::Atan, |x, _, _| x.atan(), 1),
    ("atan2", MathFn::Atan2, |x, y, _| x.atan2(y), 2),
    ("erf", MathFn::Erf, |x, _, _| libm::erf(x), 1),
    ("erfc", MathFn::Erfc, |x, _, _| libm::erfc(x), 1),
    ("pow", MathFn::Pow, |x, y, _| x.powf(y), 2),
    ("floor", MathFn::Floor, |x, _, _| x.floor(), 1),
    ("ceil", MathFn::Ceil, |x, _, _| x.ceil(), 1),
    ("round", MathFn::Round, |x, _, _| x.round(), 1),
    ("trunc", MathFn::Trunc, |x, _, _| x.trunc(), 1),
    ("copysign", MathFn::CopySign, |x, y, _| x.copysign(y), 2),
];

/// The error of `got` against the exact-ish `want`, in ULP of a float with `mant` mantissa bits
/// and minimum exponent `emin` (0 when both are the same NaN-or-infinity; infinite on a
/// mismatch of those).
fn ulp_error(got: f64, want: f64, mant: i32, emin: i32) -> f64 {
    // Past the type's largest finite value (its last binade's rounding boundary included), the
    // correctly rounded result is an infinity.
    let emax = -emin + 1;
    let limit = 2f64.powi(emax + 1) * (1.0 - 2f64.powi(-mant - 2));
    let want = if want.is_finite() && want.abs() >= limit { want.signum() * f64::INFINITY } else { want };
    if got.is_nan() || want.is_nan() {
        return if got.is_nan() && want.is_nan() { 0.0 } else { f64::INFINITY };
    }
    if got.is_infinite() || want.is_infinite() {
        return if got == want { 0.0 } else { f64::INFINITY };
    }
    if got == want {
        return 0.0;
    }
    let e = if want == 0.0 { emin } else { (want.abs().log2().floor() as i32).max(emin) };
    libm::scalbn((got - want).abs(), mant - e)
}

fn samples(n: usize, bits: u32, seed: u64) -> Vec<f64> {
    let mut rng = Rng::new(seed);
    let specials =
        [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 10.0, -10.0, 88.7, 89.0, 710.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 1e-40, 5e-324];
    let mut v: Vec<f64> = specials.to_vec();
    while v.len() < n {
        let r = rng.next_u64();
        v.push(if r & 1 == 0 {
            if bits == 32 {
                f32::from_bits((r >> 32) as u32) as f64
            } else {
                f64::from_bits(rng.next_u64())
            }
        } else {
            ((r >> 11) as f64 / (1u64 << 53) as f64) * 20.0 - 10.0
        });
    }
    if bits == 32 {
        v.iter_mut().for_each(|x| *x = *x as f32 as f64);
    }
    v
}

/// The largest error of each function: (name, f32, f64, f16).
fn measure(n: usize) -> Vec<(&'static str, f64, f64, f64)> {
    let (x32, y32) = (samples(n, 32, 1), samples(n, 32, 2));
    let (x64, y64) = (samples(n, 64, 3), samples(n, 64, 4));
    let mut rows = Vec::new();
    for (name, f, reference, args) in FUNCS {
        let second = |ys: &[f64], i: usize| if *args == 2 { ys[i] } else { 0.0 };
        let mut e32: f64 = 0.0;
        for (i, x) in x32.iter().enumerate() {
            let y = second(&y32, i);
            let got = f32::from_bits(eval(*f, Prim::F32, (*x as f32).to_bits() as u64, (y as f32).to_bits() as u64) as u32) as f64;
            let e = ulp_error(got, reference(*x, y, 0.0), 23, -126);
            if e > e32 && e.is_infinite() {
                eprintln!("{name} f32 ({x:e}, {y:e}): got {got:e}, want {:e}", reference(*x, y, 0.0));
            }
            e32 = e32.max(e);
        }
        let mut e64: f64 = 0.0;
        for (i, x) in x64.iter().enumerate() {
            let y = second(&y64, i);
            let got = f64::from_bits(eval(*f, Prim::F64, x.to_bits(), y.to_bits()));
            let e = ulp_error(got, reference(*x, y, 0.0), 52, -1022);
            if e > e64 && e.is_infinite() {
                eprintln!("{name} f64 ({x:e}, {y:e}): got {got:e}, want {:e}", reference(*x, y, 0.0));
            }
            e64 = e64.max(e);
        }
        // f16: every input (the second argument from a fixed set), through f32.
        let mut e16: f64 = 0.0;
        for h in 0..=u16::MAX {
            let x = half::f16::from_bits(h);
            for y in if *args == 2 { &[0.5f32, -3.0, 2.0][..] } else { &[0.0f32][..] } {
                let r32 = f32::from_bits(eval(*f, Prim::F32, x.to_f32().to_bits() as u64, y.to_bits() as u64) as u32);
                let got = half::f16::from_f32(r32).to_f64();
                e16 = e16.max(ulp_error(got, reference(x.to_f64(), *y as f64, 0.0), 10, -14));
            }
        }
        rows.push((*name, e32, e64, e16));
    }
    rows
}

/// `docs/math.md`'s simulator columns: name -> (f32, f64, f16) largest errors in ULP.
fn table() -> std::collections::BTreeMap<String, (f64, f64, f64)> {
    let text = std::fs::read_to_string(super::workspace_root().join("docs/math.md")).expect("docs/math.md");
    let mut out = std::collections::BTreeMap::new();
    // The rows of the "## Accuracy" section's table (the fast-math table follows it).
    let section = text.split("\n## ").find(|s| s.starts_with("Accuracy")).expect("an Accuracy section");
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let num = |s: &str| s.parse::<f64>().unwrap_or_else(|_| panic!("a number in docs/math.md: '{s}' in {line}"));
        out.insert(cells[1].trim_matches('`').to_string(), (num(cells[2]), num(cells[4]), num(cells[6])));
    }
    out
}

/// Every function the language names (the one table, `phobos_math::FUNCTIONS`) has its
/// reference here, under the same name: a function added to the table is measured.
#[test]
fn every_language_function_has_a_reference() {
    for (f, name, _, n) in phobos_math::FUNCTIONS {
        if let Some(name) = name {
            assert!(FUNCS.iter().any(|(m, g, _, k)| m == name && g == f && k == n), "{name} has no reference in math_accuracy.rs");
        }
    }
}

#[test]
fn math_accuracy_within_the_table() {
    let n = std::env::var("PHOBOS_MATH_SAMPLES").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
    let rows = measure(n);
    let table = table();
    let mut bad = Vec::new();
    for (name, e32, e64, e16) in &rows {
        let up = |v: f64| (v * 1000.0).ceil() / 1000.0;
        eprintln!("| `{name}` | {:.3} | | {:.3} | | {:.3} |", up(*e32), up(*e64), up(*e16));
        let Some((t32, t64, t16)) = table.get(*name) else {
            bad.push(format!("{name} is not in docs/math.md"));
            continue;
        };
        for (what, got, bound) in [("f32", e32, t32), ("f64", e64, t64), ("f16", e16, t16)] {
            if *got > bound + 1e-9 {
                bad.push(format!("{name} {what}: {got:.3} ULP, the table says {bound}"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
