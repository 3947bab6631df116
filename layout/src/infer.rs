//! Layouts recovered from functions: the coarsest layout whose values are a given table (when
//! one exists), and the left inverse of any injective layout (when a layout can be one).
//!
//! A flat layout splits `x` colexicographically: `f(x) = (x mod s0)·d0 + g(x div s0)` with `g`
//! the layout of the other modes. In the coalesced form no mode continues the run of the one
//! before it (`d1 ≠ s0·d0`), so `s0` is exactly the length of the run `f(x) = x·f(1)`, and
//! peeling modes off that way decides whether any layout has the function: [`from_values`] is
//! complete, which is what lets a composite be printed as a layout whenever it is one.

use crate::layout::Layout;
use std::collections::HashMap;

/// The coarsest flat layout whose values at `0..values.len()` are `values`, or None when no
/// layout has this function (it does not start at 0, or is not a sum of per-digit strides).
pub fn from_values(values: &[i64]) -> Option<Layout> {
    if values.first() != Some(&0) {
        return None;
    }
    let mut modes = Vec::new();
    let mut g: Vec<i64> = values.to_vec();
    while g.len() > 1 {
        let d = g[1];
        let run = (1..g.len()).find(|&x| g[x] != x as i64 * d).unwrap_or(g.len());
        if !g.len().is_multiple_of(run) {
            return None;
        }
        let next: Vec<i64> = g.iter().step_by(run).copied().collect();
        if (0..g.len()).any(|x| g[x] != (x % run) as i64 * d + next[x / run]) {
            return None;
        }
        modes.push((run as i64, d));
        g = next;
    }
    if modes.is_empty() {
        modes.push((1, 0));
    }
    Some(Layout::from_modes(&modes).coalesce())
}

/// The coarsest layout with the top-level mode structure of `shape` (its modes' extents, first
/// mode fastest) whose values are `values`: each mode is recovered on its own and the sum
/// checked. None when no such layout exists.
pub fn from_values_by_mode(values: &[i64], extents: &[i64]) -> Option<Layout> {
    if extents.len() < 2 || extents.iter().product::<i64>() as usize != values.len() {
        return None;
    }
    let mut modes = Vec::new();
    let mut prefix = 1usize;
    for e in extents {
        let sub: Vec<i64> = (0..*e as usize).map(|c| values[c * prefix]).collect();
        modes.push(from_values(&sub)?);
        prefix *= *e as usize;
    }
    let l = Layout::tuple(&modes);
    (0..values.len()).all(|x| l.eval(x as i64) == values[x]).then_some(l)
}

/// The most (point, candidate) visits the left-inverse search makes before giving up.
const SEARCH_BUDGET: usize = 2_000_000;

/// A layout `M` with `M(L(x)) = x` for every `x` of an injective layout `L` (values elsewhere
/// are free), on a domain of at least `L`'s cosize; None when the search finds none.
///
/// The points `(L(x), x)` constrain `M`; modes are peeled off as in [`from_values`], trying
/// every divisor of the domain as the first extent (the largest first, for the coarsest
/// result). A stride no point determines is 0. Domains from the cosize up to twice it are
/// tried in order, since a layout can exist only above the cosize (`(2,4):(1,3)`, cosize 11,
/// has the left inverse `(3,4):(1,2)` on 12; `(2,2):(5,3)`, cosize 9, has `(2,2,2,2):(0,2,1,3)`
/// on 16). The search is bounded ([`SEARCH_BUDGET`] point visits), so it can miss a layout.
pub fn left_inverse_search(l: &Layout) -> Option<Layout> {
    let n = l.size();
    let points: Vec<(i64, i64)> = (0..n).map(|x| (l.eval(x), x)).collect();
    let cosize = points.iter().map(|p| p.0).max().unwrap_or(0) + 1;
    let mut budget = SEARCH_BUDGET;
    for domain in cosize..=2 * cosize {
        if let Some(modes) = peel(&points, domain, &mut budget) {
            let modes = if modes.is_empty() { vec![(1, 0)] } else { modes };
            let m = Layout::from_modes(&modes).coalesce();
            if points.iter().all(|(y, x)| m.eval(*y) == *x) {
                return Some(m);
            }
        }
        if budget == 0 {
            return None;
        }
    }
    None
}

/// Flat modes of a layout on `[0, n)` through every `(y, x)` of `points` (y < n), or None.
fn peel(points: &[(i64, i64)], n: i64, budget: &mut usize) -> Option<Vec<(i64, i64)>> {
    if n == 1 {
        return points.iter().all(|(_, x)| *x == 0).then(Vec::new);
    }
    *budget = budget.checked_sub((n as f64).sqrt() as usize + 1)?;
    for e in divisors_descending(n) {
        *budget = budget.checked_sub(points.len())?;
        let Some(stride) = stride_of(points, e) else { continue };
        let mut rest: HashMap<i64, i64> = HashMap::with_capacity(points.len());
        let mut ok = true;
        for (y, x) in points {
            let (r, q) = (y % e, y / e);
            let v = x - r * stride;
            if *rest.entry(q).or_insert(v) != v || (q == 0 && v != 0) {
                ok = false;
                break;
            }
        }
        if !ok {
            continue;
        }
        let mut rest: Vec<(i64, i64)> = rest.into_iter().collect();
        rest.sort_unstable();
        if let Some(mut modes) = peel(&rest, n / e, budget) {
            modes.insert(0, (e, stride));
            return Some(modes);
        }
    }
    None
}

/// The stride of the first digit (extent `e`) the points imply: from a point inside the first
/// digit, else from two points that differ only in it; 0 when none constrains it; None when the
/// implied stride is not an integer.
fn stride_of(points: &[(i64, i64)], e: i64) -> Option<i64> {
    let exact = |dx: i64, dr: i64| (dx % dr == 0).then(|| dx / dr);
    if let Some((y, x)) = points.iter().find(|(y, _)| *y > 0 && *y < e) {
        return exact(*x, *y);
    }
    let mut by_rest: HashMap<i64, (i64, i64)> = HashMap::new();
    for (y, x) in points {
        let (r, q) = (y % e, y / e);
        match by_rest.get(&q) {
            Some((r0, x0)) if *r0 != r => return exact(x - x0, r - r0),
            Some(_) => {}
            None => {
                by_rest.insert(q, (r, *x));
            }
        }
    }
    Some(0)
}

/// The divisors of `n` above 1, largest first, by trial division up to its square root.
fn divisors_descending(n: i64) -> Vec<i64> {
    let mut small = Vec::new();
    let mut large = Vec::new();
    let mut d = 1;
    while d * d <= n {
        if n % d == 0 {
            small.push(d);
            if d * d != n {
                large.push(n / d);
            }
        }
        d += 1;
    }
    large.into_iter().chain(small.into_iter().rev()).filter(|d| *d > 1).collect()
}
