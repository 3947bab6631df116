//! Warp exchanges by shuffles: a schedule that moves an exchange whose
//! values stay in their warp in `n` rounds of one indexed shuffle each, with no shared memory.
//!
//! Every item moves in one round. The item going from item `si` of thread `s` to item `m` of
//! thread `r` moves in round `si ⊕ a(s) = m ⊕ c(r)`, where `⊕` is xor (n a power of two) or
//! addition mod n. So in round `k` each thread sends exactly one item (`k ⊖ a(s)`) and receives
//! exactly one (its item `k ⊖ c(r)`): one shuffle a round, from a lane that is a function of the
//! thread. Before the rounds a thread reorders its items by `a`, after them by `c`: a network
//! of one stage per bit of the amount, n selects per stage whose bit differs between threads,
//! nothing for a bit that is the same in all (the reorder is then a renaming).
//!
//! Such `a` and `c` exist for the exchanges whose items move as whole rotations or xors of a
//! thread's array (blocked and warp_striped both ways, for n a power of two; lane permutations
//! of each item for any n); the search tries the amounts those give and keeps the cheapest.
//! Exchanges without one are staged (an arbitrary per-thread permutation costs n² selects).

use crate::{infer, Layout};

/// The warp.
pub const WARP: i64 = 32;

/// How a round combines with an item index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// `k = i ^ amount` (n a power of two).
    Xor,
    /// `k = (i + amount) mod n`.
    Add,
}

impl Combine {
    pub fn plus(self, i: i64, a: i64, n: i64) -> i64 {
        match self {
            Combine::Xor => i ^ a,
            Combine::Add => (i + a).rem_euclid(n),
        }
    }
    pub fn minus(self, k: i64, a: i64, n: i64) -> i64 {
        match self {
            Combine::Xor => k ^ a,
            Combine::Add => (k - a).rem_euclid(n),
        }
    }
}

/// A value per thread, as a kernel computes it from the linear thread index.
#[derive(Clone, Debug, PartialEq)]
pub enum OfThread {
    /// The same in every thread.
    Const(i64),
    /// `layout(t) + offset`.
    Layout(Layout, i64),
    /// Round 0's value xor a constant.
    XorFirst(i64),
    /// Round 0's value plus a constant.
    AddFirst(i64),
}

impl OfThread {
    /// ALU instructions a thread spends on it (a layout: about two).
    pub fn alu(&self) -> i64 {
        match self {
            OfThread::Const(_) => 0,
            OfThread::Layout(..) => 2,
            OfThread::XorFirst(_) | OfThread::AddFirst(_) => 1,
        }
    }
}

/// A constant or a layout of the thread index (plus a constant) with these values.
pub fn of_thread(vals: &[i64]) -> Option<OfThread> {
    let base = vals[0];
    if vals.iter().all(|v| *v == base) {
        return Some(OfThread::Const(base));
    }
    let shifted: Vec<i64> = vals.iter().map(|v| v - base).collect();
    infer::from_values(&shifted).map(|l| OfThread::Layout(l, base))
}

/// The rounds of a shuffled exchange of `n` items per thread.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    pub combine: Combine,
    pub n: i64,
    /// `a(s)` per thread: round `k` sends item `k ⊖ a(s)`.
    pub send: Vec<i64>,
    /// `c(r)` per thread: item `m` arrives in round `m ⊕ c(r)`.
    pub receive: Vec<i64>,
    /// Per round, the lane each thread reads.
    pub lanes: Vec<OfThread>,
}

/// Bits of an amount in `[0, n)`.
pub fn bits(n: i64) -> u32 {
    64 - (n - 1).max(0).leading_zeros()
}

/// The bits of `vals` that differ between threads (each a network stage of n selects).
pub fn varying_bits(vals: &[i64], n: i64) -> Vec<u32> {
    (0..bits(n)).filter(|b| vals.iter().any(|v| (v >> b) & 1 != (vals[0] >> b) & 1)).collect()
}

/// The cost model both mechanisms are compared by, in issue slots of one warp on an SM
/// sub-partition (sm_80/sm_90 throughputs per SM and clock): a shuffle word, a shared-memory
/// access and a warp-level sync take 1 (32 lanes a clock); an integer instruction (select,
/// and, compare, address arithmetic) 1/2 (64 lanes a clock).
///
/// Staging `n` items through shared memory: n stores, n loads, 2 syncs, and per access one
/// integer instruction of address (the layout's constant offsets fold into the access) plus two
/// for a padded buffer (`p + p / P`).
pub fn staging_cost(n: i64, padded: bool) -> f64 {
    let accesses = 2 * n;
    let alu = accesses * if padded { 3 } else { 1 };
    accesses as f64 + 2.0 + alu as f64 / 2.0
}

/// What a schedule costs each thread, counted from its instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    pub shuffles: i64,
    pub selects: i64,
    /// Bit tests, amounts and lanes: integer instructions besides the selects.
    pub alu: i64,
}

impl Cost {
    /// Issue slots, as [`staging_cost`] counts them.
    pub fn weighted(&self) -> f64 {
        self.shuffles as f64 + (self.selects + self.alu) as f64 / 2.0
    }
}

impl Schedule {
    /// Cost per thread for items of `words` 32-bit words.
    pub fn cost(&self, words: i64) -> Cost {
        let mut selects = 0;
        let mut alu = 0;
        for vals in [&self.send, &self.receive] {
            let dynamic = varying_bits(vals, self.n).len() as i64;
            selects += dynamic * self.n;
            // The amount (a layout) once, then an and and a compare per varying bit.
            if dynamic > 0 {
                alu += 2 + 2 * dynamic;
            }
        }
        alu += self.lanes.iter().map(OfThread::alu).sum::<i64>();
        Cost { shuffles: self.n * words, selects, alu }
    }

    /// Runs the schedule on `items[thread][item]` as the kernel does (tests, and a check).
    pub fn run<T: Copy>(&self, items: &[Vec<T>]) -> Vec<Vec<T>> {
        let (t, n) = (items.len(), self.n);
        let sent: Vec<Vec<T>> =
            (0..t).map(|s| (0..n).map(|k| items[s][self.combine.minus(k, self.send[s], n) as usize]).collect()).collect();
        let lanes: Vec<Vec<i64>> = self.lane_values(t as i64);
        (0..t)
            .map(|r| {
                let warp = r as i64 / WARP * WARP;
                let got: Vec<T> = (0..n as usize).map(|k| sent[(warp + lanes[k][r]) as usize][k]).collect();
                (0..n).map(|m| got[self.combine.plus(m, self.receive[r], n) as usize]).collect()
            })
            .collect()
    }

    /// Each round's lane per thread, from the expressions.
    pub fn lane_values(&self, t: i64) -> Vec<Vec<i64>> {
        let first = eval(&self.lanes[0], t, &[]);
        self.lanes.iter().map(|l| eval(l, t, &first)).collect()
    }
}

fn eval(e: &OfThread, t: i64, first: &[i64]) -> Vec<i64> {
    (0..t)
        .map(|x| match e {
            OfThread::Const(c) => *c,
            OfThread::Layout(l, o) => l.eval(x) + o,
            OfThread::XorFirst(d) => first[x as usize] ^ d,
            OfThread::AddFirst(d) => first[x as usize] + d,
        })
        .collect()
}

/// The cheapest schedule for the exchange whose output item `i` of thread `th` is input item
/// `src[th + t·i]` = (thread, item), every value staying in its warp; None when none is found.
pub fn schedule(src: &[(i64, i64)], t: i64, n: i64) -> Option<Schedule> {
    if t % WARP != 0 || src.len() as i64 != t * n {
        return None;
    }
    // Where each input item goes: (thread, item).
    let mut dest = vec![(0i64, 0i64); (t * n) as usize];
    for (x, &(s, si)) in src.iter().enumerate() {
        if s / WARP != (x as i64 % t) / WARP {
            return None;
        }
        dest[(s + t * si) as usize] = (x as i64 % t, x as i64 / t);
    }
    let combines: &[Combine] = if n & (n - 1) == 0 { &[Combine::Xor, Combine::Add] } else { &[Combine::Add] };
    let mut best: Option<(i64, Schedule)> = None;
    for &cb in combines {
        // Candidate send amounts: none; the item slot each thread's item 0 lands in, or its
        // negation; and those a receive amount (none, the source item of item 0, or its
        // negation) implies for item 0 of each sender.
        let slot0: Vec<i64> = (0..t).map(|s| dest[s as usize].1).collect();
        let from0: Vec<i64> = (0..t).map(|r| src[r as usize].1).collect();
        let neg = |v: &[i64]| v.iter().map(|x| cb.minus(0, *x, n)).collect::<Vec<_>>();
        let mut sends = vec![vec![0; t as usize], slot0.clone(), neg(&slot0)];
        for c in [vec![0; t as usize], from0.clone(), neg(&from0)] {
            sends.push(
                (0..t)
                    .map(|s| {
                        let (r, m) = dest[s as usize];
                        cb.plus(m, c[r as usize], n)
                    })
                    .collect(),
            );
        }
        for a in sends {
            if let Some(s) = with_send(src, t, n, cb, a) {
                let c = s.cost(1);
                let score = 2 * c.shuffles + c.selects + c.alu;
                if best.as_ref().is_none_or(|(b, _)| score < *b) {
                    best = Some((score, s));
                }
            }
        }
    }
    best.map(|(_, s)| s)
}

/// The schedule with send amounts `a`, when the receive side is a permutation by an amount too
/// and every amount and lane is computable.
fn with_send(src: &[(i64, i64)], t: i64, n: i64, cb: Combine, a: Vec<i64>) -> Option<Schedule> {
    let round = |s: i64, si: i64| cb.plus(si, a[s as usize], n);
    // c(r): the round of item 0 (m = 0, so m ⊕ c = c).
    let c: Vec<i64> = (0..t)
        .map(|r| {
            let (s, si) = src[r as usize];
            round(s, si)
        })
        .collect();
    for (x, &(s, si)) in src.iter().enumerate() {
        let (r, m) = (x as i64 % t, x as i64 / t);
        if round(s, si) != cb.plus(m, c[r as usize], n) {
            return None;
        }
    }
    if of_thread(&a).is_none() || of_thread(&c).is_none() {
        return None;
    }
    let lane_vals: Vec<Vec<i64>> =
        (0..n).map(|k| (0..t).map(|r| src[(r + t * cb.minus(k, c[r as usize], n)) as usize].0 % WARP).collect()).collect();
    let first = of_thread(&lane_vals[0])?;
    let mut lanes = vec![first];
    for vals in &lane_vals[1..] {
        let d = vals[0] ^ lane_vals[0][0];
        let e = vals[0] - lane_vals[0][0];
        let lane = if vals.iter().zip(&lane_vals[0]).all(|(v, f)| *v == f ^ d) {
            OfThread::XorFirst(d)
        } else if vals.iter().zip(&lane_vals[0]).all(|(v, f)| *v == f + e) {
            OfThread::AddFirst(e)
        } else {
            of_thread(vals)?
        };
        lanes.push(lane);
    }
    Some(Schedule { combine: cb, n, send: a, receive: c, lanes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exchange::{named, resolve, sources};

    fn src(a: &str, b: &str, t: i64, n: i64) -> Vec<(i64, i64)> {
        let m = |x: &str| resolve(&named(x, t, n).unwrap_or_else(|| x.to_string()), t, n).unwrap();
        sources(&m(a), &m(b), t, n)
    }

    /// The schedule moves every item where the exchange says.
    fn check(s: &Schedule, src: &[(i64, i64)], t: i64, n: i64) {
        let items: Vec<Vec<(i64, i64)>> = (0..t).map(|th| (0..n).map(|i| (th, i)).collect()).collect();
        let out = s.run(&items);
        for r in 0..t {
            for m in 0..n {
                assert_eq!(out[r as usize][m as usize], src[(r + t * m) as usize], "thread {r} item {m}: {s:?}");
            }
        }
    }

    #[test]
    fn blocked_and_warp_striped_shuffle_both_ways() {
        for warps in [1, 2, 4] {
            for n in [1, 2, 4, 8, 16] {
                let t = 32 * warps;
                for (a, b) in [("blocked", "warp_striped"), ("warp_striped", "blocked")] {
                    let src = src(a, b, t, n);
                    let s = schedule(&src, t, n).unwrap_or_else(|| panic!("{a} -> {b}, {t} threads, {n} items: no schedule"));
                    check(&s, &src, t, n);
                    // One shuffle per item; a reorder on each side of at most log2(n) stages.
                    let c = s.cost(1);
                    assert_eq!(c.shuffles, n);
                    assert!(c.selects <= 2 * n * bits(n) as i64, "{c:?}");
                }
            }
        }
    }

    #[test]
    fn lane_permutations_need_no_selects() {
        // Each item moves between lanes, staying item i: no reorder, n shuffles, any n.
        for n in [2, 3, 5] {
            let t = 64;
            let src = src("striped", &format!("((2,16,2),{n}):((16,1,32),64)"), t, n);
            let s = schedule(&src, t, n).expect("a lane permutation shuffles");
            check(&s, &src, t, n);
            assert_eq!(s.cost(1).selects, 0);
        }
    }

    #[test]
    fn exchanges_across_warps_have_no_schedule() {
        assert_eq!(schedule(&src("blocked", "striped", 64, 2), 64, 2), None);
    }

    #[test]
    fn every_schedule_found_is_right() {
        // Quoted layouts of 32 and 64 threads, 1 to 8 items: whatever is found must be right.
        let mut found = 0;
        for t in [32, 64] {
            for n in 1..=8 {
                let shapes = [
                    "blocked".to_string(),
                    "warp_striped".to_string(),
                    format!("(({t}),{n}):(({n}),1)"),
                    format!("((2,{}),{n}):((1,{}),2)", t / 2, 2 * n),
                    format!("((16,{}),{n}):(({n},{}),1)", t / 16, 16 * n),
                ];
                for a in &shapes {
                    for b in &shapes {
                        let m = |x: &str| resolve(&named(x, t, n).unwrap_or_else(|| x.to_string()), t, n);
                        let (Ok(ma), Ok(mb)) = (m(a), m(b)) else { continue };
                        let src = sources(&ma, &mb, t, n);
                        if let Some(s) = schedule(&src, t, n) {
                            check(&s, &src, t, n);
                            found += 1;
                        }
                    }
                }
            }
        }
        assert!(found > 50, "{found}");
    }
}
