//! Atomics, ordered accesses, fences, `while`/`break` and funnel shifts
//! on the simulator, across CTAs, against references computed here.

use super::e2e::{compile, run, values};
use phobos_compiler::session::Session;
use phobos_runtime::npy::{Array, Dtype};

const KERNEL: &str = "@launch(64)
kernel atoms(C: tensor<i32>[1, 8], F: tensor<f32>[1, 2], W: tensor<i32>[128, 2], O: tensor<i32>[128, 6]) {
  let t = ctx.block.x * ctx.threads + ctx.thread
  O[t, 0] = atomic_add(C[0, 0], 1)
  atomic_max(C[0, 1], t)
  atomic_min(C[0, 2], 0 - t)
  atomic_add(F[0, 0], 0.5)
  O[t, 3] = atomic_exch(C[0, 3], t)
  var done = false
  var tries = 0
  while !done {
    let cur = load_acquire(C[0, 4])
    tries += 1
    if atomic_cas(C[0, 4], cur, cur + 2) == cur {
      done = true
    }
  }
  while true {
    let cur = load_acquire(C[0, 5])
    if atomic_cas(C[0, 5], cur, cur + 3) == cur {
      break
    }
    tries += 1
  }
  O[t, 4] = tries
  store_release(C[0, 6], 7)
  fence()
  O[t, 1] = funnel_shift_left(W[t, 0], W[t, 1], t)
  O[t, 2] = funnel_shift_right(W[t, 0], W[t, 1], t)
}
";

fn i32s(shape: &[u64], v: &[i64]) -> Array {
    Array { dtype: Dtype::I32, shape: shape.to_vec(), data: v.iter().flat_map(|x| (*x as i32).to_le_bytes()).collect() }
}

/// CUDA's __funnelshift_l(lo, hi, s): the high word of (hi:lo) << (s mod 32).
fn funnel_left(lo: u32, hi: u32, s: u32) -> u32 {
    ((((hi as u64) << 32 | lo as u64) << (s % 32)) >> 32) as u32
}

/// CUDA's __funnelshift_r(lo, hi, s): the low word of (hi:lo) >> (s mod 32).
fn funnel_right(lo: u32, hi: u32, s: u32) -> u32 {
    (((hi as u64) << 32 | lo as u64) >> (s % 32)) as u32
}

#[test]
fn atomics_ordered_accesses_and_funnel_shifts_match_the_reference() {
    let session = Session::new(true).unwrap();
    let c = compile(&session, KERNEL);
    let n = 128i64;
    let w: Vec<i64> = (0..2 * n).map(|k| ((k * 0x9E37_79B9) as u32 as i32) as i64).collect();
    let out = run(
        &c,
        "atoms",
        [2, 1, 1],
        vec![
            ("C", i32s(&[1, 8], &[0, 0, 0, -1, 0, 0, 0, 0])),
            ("F", Array { dtype: Dtype::F32, shape: vec![1, 2], data: [0f32, 0.0].iter().flat_map(|v| v.to_le_bytes()).collect() }),
            ("W", i32s(&[128, 2], &w)),
            ("O", i32s(&[128, 6], &vec![0; 6 * 128])),
        ],
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let cs = values(&out["C"]);
    let o = values(&out["O"]);
    assert_eq!(cs[0], n as f64, "atomic_add counted every thread");
    let mut olds: Vec<i64> = (0..n as usize).map(|t| o[t * 6] as i64).collect();
    olds.sort();
    assert_eq!(olds, (0..n).collect::<Vec<_>>(), "atomic_add returned each old value once");
    assert_eq!((cs[1], cs[2]), ((n - 1) as f64, -(n - 1) as f64), "atomic_max / atomic_min");
    assert_eq!(values(&out["F"])[0], 0.5 * n as f64, "atomic_add on f32");
    let mut chain: Vec<i64> = (0..n as usize).map(|t| o[t * 6 + 3] as i64).chain([cs[3] as i64]).collect();
    chain.sort();
    assert_eq!(chain, (-1..n).collect::<Vec<_>>(), "atomic_exch: the olds and the final value are every value once");
    assert_eq!((cs[4], cs[5]), ((2 * n) as f64, (3 * n) as f64), "atomic_cas loops (while, while with break)");
    assert_eq!(cs[6], 7.0, "store_release");
    assert!((0..n as usize).all(|t| o[t * 6 + 4] >= 1.0), "every thread tried at least once");
    for t in 0..n as usize {
        let (lo, hi) = (w[2 * t] as u32, w[2 * t + 1] as u32);
        assert_eq!(o[t * 6 + 1] as i64 as u32, funnel_left(lo, hi, t as u32), "funnel_shift_left, thread {t}");
        assert_eq!(o[t * 6 + 2] as i64 as u32, funnel_right(lo, hi, t as u32), "funnel_shift_right, thread {t}");
    }
}

/// `break` in whiles nested in if, for and while: each ends its own loop.
#[test]
fn nested_whiles_break_their_own_loops() {
    let src = "@launch(32)
kernel nest(X: tensor<i32>[32], O: tensor<i32>[32, 3]) {
  let t = ctx.thread
  var s = 0
  if t < 16 {
    while s < 10 {
      if s == X[t] {
        break
      }
      s += 1
    }
  }
  var total = 0
  for r in range(0, 3) {
    var j = 0
    while true {
      j += 1
      if j >= r + t % 4 {
        break
      }
    }
    total += j
  }
  var outer = 0
  var inner_sum = 0
  while outer < 3 {
    var k = 0
    while k < 100 {
      k += 1
      if k > outer + 1 {
        break
      }
      inner_sum += 1
    }
    outer += 1
  }
  O[t, 0] = s
  O[t, 1] = total
  O[t, 2] = inner_sum
}
";
    let session = Session::new(true).unwrap();
    let c = compile(&session, src);
    let x: Vec<i64> = (0..32).map(|t| (t * 7) % 13).collect();
    let out = run(&c, "nest", [1, 1, 1], vec![("X", i32s(&[32], &x)), ("O", i32s(&[32, 3], &[0; 96]))]).unwrap();
    let o = values(&out["O"]);
    for t in 0..32usize {
        let s = if t < 16 { (0..10).find(|s| *s == x[t]).unwrap_or(10) } else { 0 };
        let total: i64 = (0..3).map(|r| (r + t as i64 % 4).max(1)).sum();
        let want = [s as f64, total as f64, 6.0];
        assert_eq!(&o[t * 3..t * 3 + 3], &want, "thread {t}");
    }
}

/// Two CTAs read a value; one of them releases, the third acquires and overwrites it: the
/// first reader is not ordered before the write, and the checker names it.
#[test]
fn the_cross_cta_checker_keeps_every_readers_read() {
    let src = "@launch(32)
kernel k(X: tensor<i32>[1], F: tensor<i32>[1], O: tensor<i32>[3]) {
  if ctx.thread == 0 {
    let b = ctx.block.x
    if b < 2 {
      O[b] = X[0]
    }
    if b == 1 {
      store_release(F[0], 1)
    }
    if b == 2 {
      while load_acquire(F[0]) == 0 {
      }
      X[0] = 5
    }
  }
}
";
    let session = Session::new(true).unwrap();
    let c = compile(&session, src);
    let r = run(&c, "k", [3, 1, 1], vec![("X", i32s(&[1], &[1])), ("F", i32s(&[1], &[0])), ("O", i32s(&[3], &[0; 3]))]);
    let e = match r {
        Err(e) => format!("{e:?}"),
        Ok(_) => panic!("the race was not found"),
    };
    assert!(e.contains("a write of data read by CTA (0, 0, 0)"), "{e}");
}

/// `store_word` writes a little-endian word into an i8 run, the mirror of `word`.
#[test]
fn store_word_writes_four_bytes_of_a_run() {
    let src = "@launch(32)
kernel sw(A: tensor<i8>[32, 8], B: tensor<i8>[32, 8]) {
  let t = ctx.thread
  store_word(B[t, 0 :+ 8], 1, word(A[t, 0 :+ 8], 0) ^ 0x01020304)
  store_word(B[t, 0 :+ 8], 0, t * 16777619)
}
";
    let session = Session::new(true).unwrap();
    let c = compile(&session, src);
    let a: Vec<u8> = (0..256u32).map(|k| (k * 37 + 11) as u8).collect();
    let arr = |v: &[u8]| Array { dtype: Dtype::I8, shape: vec![32, 8], data: v.to_vec() };
    let out = run(&c, "sw", [1, 1, 1], vec![("A", arr(&a)), ("B", arr(&[0; 256]))]).unwrap();
    let b = &out["B"].data;
    for t in 0..32usize {
        let w0 = u32::from_le_bytes(a[t * 8..t * 8 + 4].try_into().unwrap()) ^ 0x0102_0304;
        let w1 = (t as u32).wrapping_mul(16_777_619);
        assert_eq!(&b[t * 8 + 4..t * 8 + 8], &w0.to_le_bytes(), "thread {t}, word 1");
        assert_eq!(&b[t * 8..t * 8 + 4], &w1.to_le_bytes(), "thread {t}, word 0");
    }
}
