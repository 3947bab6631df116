//! Layouts (shape:stride) and CuTe's algebra over them, checked.
//!
//! A layout maps a coordinate in its shape to `Σ coordinate · stride`; a flat index `x` in
//! `[0, size)` is split into coordinates colexicographically (the first mode fastest), as CuTe
//! does. Every operation's result is a function we can enumerate, and composition is checked
//! against that enumeration: CuTe's rule-based composition is used to get CuTe's mode
//! structure, and when its admissibility conditions fail or its result differs from `A(B(x))`,
//! the composition is kept as a composite pair instead (never a wrong layout).

use crate::tuple::Tuple;
use std::fmt;

/// A layout: a shape and a stride of the same profile.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Layout {
    pub shape: Tuple,
    pub stride: Tuple,
}

/// Why an operation has no answer. Each message names the mode and the boundary where it fails
/// and shows the layouts involved.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LayoutError {
    /// B(x) leaves A's domain in a composition.
    OutOfDomain { a: String, b: String, x: i64, value: i64, size: i64 },
    /// Two coordinates map to one value where a space needs a bijection or no aliasing.
    NotInjective { layout: String, x: i64, y: i64, value: i64, why: String },
    /// A value of [0, N) that a bijection misses.
    NotSurjective { layout: String, value: i64, n: i64 },
    /// A complement or inverse that does not exist.
    NotComplementable { layout: String, why: String },
    /// Shapes and strides that do not match, a zero or negative shape, and the like.
    Invalid(String),
    /// A restriction (a slice) was composed.
    Restricted(String),
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::OutOfDomain { a, b, x, value, size } => {
                write!(f, "compose({a}, {b}) is out of domain: {b} maps x = {x} to {value}, outside [0, {size}), the domain of {a}")
            }
            LayoutError::NotInjective { layout, x, y, value, why } => {
                write!(f, "{layout} {why}: coordinates {x} and {y} both map to {value}")
            }
            LayoutError::NotSurjective { layout, value, n } => {
                write!(f, "{layout} is not a bijection onto [0, {n}): no coordinate maps to {value}")
            }
            LayoutError::NotComplementable { layout, why } => write!(f, "{layout} {why}"),
            LayoutError::Invalid(m) => write!(f, "{m}"),
            LayoutError::Restricted(m) => write!(f, "{m}"),
        }
    }
}

pub type Result<T> = std::result::Result<T, LayoutError>;

/// The largest size and stride of a layout (2^32).
pub const MAX_SIZE: i64 = 1 << 32;

/// The largest value a layout may reach (2^62), so that no evaluation overflows.
pub const MAX_SPAN: i64 = 1 << 62;

/// The most elements an operation enumerates to check its result (2^24).
pub const MAX_ENUMERATION: i64 = 1 << 24;

/// An error when `size` is too large to enumerate.
pub fn check_enumerable(size: i64, what: &str) -> Result<()> {
    if size > MAX_ENUMERATION {
        return Err(LayoutError::Invalid(format!(
            "{what}: {size} elements are more than the {MAX_ENUMERATION} Phobos checks by enumeration"
        )));
    }
    Ok(())
}

fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// CuTe's shape_div on integers: a / b when b divides a, 1 when a divides b (a ceiling), else
/// undefined.
fn shape_div(a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    if a % b == 0 {
        Some(a / b)
    } else if a != 0 && b % a == 0 {
        Some(ceil_div(a, b))
    } else {
        None
    }
}

impl Layout {
    /// A layout from a shape and a stride of the same profile, with positive shapes.
    pub fn new(shape: Tuple, stride: Tuple) -> Result<Layout> {
        if !shape.congruent(&stride) {
            return Err(LayoutError::Invalid(format!("shape {shape} and stride {stride} have different profiles")));
        }
        if let Some(s) = shape.leaves().iter().find(|s| **s <= 0) {
            return Err(LayoutError::Invalid(format!("shape {shape} has a non-positive extent {s}")));
        }
        let size = shape.leaves().iter().try_fold(1i64, |acc, s| acc.checked_mul(*s).filter(|v| *v <= MAX_SIZE));
        // Values stay far from i64's limits: every sum of coordinate × stride below 2^62.
        let span: i128 = shape.leaves().iter().zip(stride.leaves()).map(|(s, d)| (*s as i128 - 1) * (d as i128).abs()).sum();
        if size.is_none() || stride.leaves().iter().any(|d| d.unsigned_abs() > MAX_SIZE as u64) || span > MAX_SPAN as i128 {
            return Err(LayoutError::Invalid(format!(
                "{shape}:{stride} is larger than Phobos supports (sizes and strides up to {MAX_SIZE}, values below 2^62)"
            )));
        }
        Ok(Layout { shape, stride })
    }
    /// `n:1`, the layout an integer stands for; an error unless 1 <= n <= 2^32.
    pub fn extent(n: i64) -> Result<Layout> {
        Layout::new(Tuple::Int(n), Tuple::Int(1))
    }
    /// One mode `s:d`.
    pub fn mode(s: i64, d: i64) -> Layout {
        Layout { shape: Tuple::Int(s), stride: Tuple::Int(d) }
    }
    /// The compact column-major layout of a shape.
    pub fn compact(shape: Tuple) -> Layout {
        let stride = shape.compact_strides();
        Layout { shape, stride }
    }
    /// A layout whose top-level modes are `modes`.
    pub fn concat(modes: &[Layout]) -> Layout {
        Layout {
            shape: Tuple::of(modes.iter().map(|m| m.shape.clone()).collect()),
            stride: Tuple::of(modes.iter().map(|m| m.stride.clone()).collect()),
        }
    }
    /// A layout of rank exactly `modes.len()` (a one-mode tuple stays a tuple).
    pub fn tuple(modes: &[Layout]) -> Layout {
        Layout {
            shape: Tuple::Tup(modes.iter().map(|m| m.shape.clone()).collect()),
            stride: Tuple::Tup(modes.iter().map(|m| m.stride.clone()).collect()),
        }
    }
    /// The number of coordinates.
    pub fn size(&self) -> i64 {
        self.shape.product()
    }
    /// One past the largest value (for non-negative strides).
    pub fn cosize(&self) -> i64 {
        self.flat().iter().map(|(s, d)| (s - 1) * d).sum::<i64>() + 1
    }
    pub fn rank(&self) -> usize {
        self.shape.rank()
    }
    /// Top-level mode `i`.
    pub fn get(&self, i: usize) -> Layout {
        Layout { shape: self.shape.modes()[i].clone(), stride: self.stride.modes()[i].clone() }
    }
    pub fn modes(&self) -> Vec<Layout> {
        (0..self.rank()).map(|i| self.get(i)).collect()
    }
    /// The (shape, stride) leaves in order.
    pub fn flat(&self) -> Vec<(i64, i64)> {
        self.shape.leaves().into_iter().zip(self.stride.leaves()).collect()
    }
    /// The value at flat index `x` (colexicographic coordinates).
    pub fn eval(&self, x: i64) -> i64 {
        let mut rest = x;
        let mut v = 0;
        let flat = self.flat();
        for (k, (s, d)) in flat.iter().enumerate() {
            let c = if k + 1 == flat.len() { rest } else { rest % s };
            v += c * d;
            rest /= s;
        }
        v
    }
    /// Every value, in flat-index order.
    pub fn values(&self) -> Vec<i64> {
        (0..self.size()).map(|x| self.eval(x)).collect()
    }

    /// CuTe's coalesce: the coarsest layout with the same function: size-1 modes dropped,
    /// adjacent modes `s0:d0, s1:d1` with `d1 = s0·d0` merged.
    pub fn coalesce(&self) -> Layout {
        let mut out: Vec<(i64, i64)> = Vec::new();
        for (s, d) in self.flat() {
            if s == 1 {
                continue;
            }
            match out.last_mut() {
                Some((s0, d0)) if d == *s0 * *d0 => *s0 *= s,
                _ => out.push((s, d)),
            }
        }
        if out.is_empty() {
            return Layout::mode(1, 0);
        }
        Layout::from_modes(&out)
    }

    /// Coalesces each top-level mode on its own.
    pub fn coalesce_by_mode(&self) -> Layout {
        let modes: Vec<Layout> = self.modes().iter().map(|m| m.coalesce()).collect();
        match self.shape {
            Tuple::Tup(_) => Layout::tuple(&modes),
            Tuple::Int(_) => modes[0].clone(),
        }
    }

    pub(crate) fn from_modes(m: &[(i64, i64)]) -> Layout {
        Layout {
            shape: Tuple::of(m.iter().map(|(s, _)| Tuple::Int(*s)).collect()),
            stride: Tuple::of(m.iter().map(|(_, d)| Tuple::Int(*d)).collect()),
        }
    }

    /// Checks that B's values lie in [0, size(self)): the first x that does not is an error.
    pub fn check_domain_of(&self, b: &Layout) -> Result<()> {
        let size = self.size();
        for x in 0..b.size() {
            let v = b.eval(x);
            if v < 0 || v >= size {
                return Err(LayoutError::OutOfDomain { a: self.to_string(), b: b.to_string(), x, value: v, size });
            }
        }
        Ok(())
    }

    /// CuTe's composition rules (composition_impl), when their conditions hold: a layout with
    /// B's mode structure. Not checked here against A(B(x)); see [`crate::Map::compose`].
    pub fn compose_cute(&self, b: &Layout) -> Option<Layout> {
        let a = self.coalesce();
        let (ls, ld): (Vec<i64>, Vec<i64>) = a.flat().into_iter().unzip();
        let (s, d) = compose_impl(&ls, &ld, &b.shape, &b.stride)?;
        Some(Layout { shape: s, stride: d })
    }

    /// CuTe's complement of `self` for a codomain of `cotarget`: the layout that fills the gaps,
    /// ordered so that `(self, complement)` is injective. An error when `self` is not injective
    /// or its strides do not nest.
    pub fn complement(&self, cotarget: i64) -> Result<Layout> {
        if cotarget < 0 {
            return Err(LayoutError::Invalid(format!("complement({self}, {cotarget}): the cotarget is a size and cannot be negative")));
        }
        let mut modes: Vec<(i64, i64)> = self.flat().into_iter().filter(|(s, d)| *s != 1 && *d != 0).collect();
        if let Some((s, d)) = modes.iter().find(|(_, d)| *d < 0) {
            return Err(LayoutError::NotComplementable {
                layout: self.to_string(),
                why: format!("has a negative stride in mode {s}:{d}; its complement is not defined"),
            });
        }
        modes.sort_by_key(|(s, d)| (*d, *s));
        let mut shape = Vec::new();
        let mut stride = Vec::new();
        let mut current = 1i64;
        for (k, (s, d)) in modes.iter().enumerate() {
            if *d < current || d % current != 0 {
                let broadcast = self.flat().iter().any(|(s, d)| *s != 1 && *d == 0);
                let kept: Vec<(i64, i64)> = self.flat().into_iter().filter(|(s, d)| *s != 1 && *d != 0).collect();
                if let Some((x, y, v)) = first_collision(&kept) {
                    let aside = if broadcast { " (its stride-0 modes aside)" } else { "" };
                    return Err(LayoutError::NotComplementable {
                        layout: self.to_string(),
                        why: format!("is not injective{aside}: coordinates {x} and {y} both map to {v}; it has no complement"),
                    });
                }
            }
            if *d < current {
                let (ps, pd) = modes[k - 1];
                return Err(LayoutError::NotComplementable {
                    layout: self.to_string(),
                    why: format!("has no complement: mode {s}:{d} interleaves with mode {ps}:{pd}, which spans [0, {current})"),
                });
            }
            if d % current != 0 {
                return Err(LayoutError::NotComplementable {
                    layout: self.to_string(),
                    why: format!(
                        "has no complement: stride {d} of mode {s}:{d} is not a multiple of {current}, the extent of the modes below it"
                    ),
                });
            }
            shape.push(d / current);
            stride.push(current);
            current = s * d;
        }
        shape.push(ceil_div(cotarget.max(1), current));
        stride.push(current);
        let l = Layout::from_modes(&shape.into_iter().zip(stride).collect::<Vec<_>>());
        Ok(l.coalesce())
    }

    /// CuTe's right inverse: R with self(R(i)) = i for i in [0, size(R)), as large as the strides
    /// allow (a chain of strides from 1).
    pub fn right_inverse(&self) -> Layout {
        let flat = self.coalesce().flat();
        let mut prefix = Vec::new();
        let mut acc = 1;
        for (s, _) in &flat {
            prefix.push(acc);
            acc *= s;
        }
        let mut used = vec![false; flat.len()];
        let mut next = 1i64;
        let mut out: Vec<(i64, i64)> = Vec::new();
        while let Some(i) = (0..flat.len()).find(|i| !used[*i] && flat[*i].1 == next && flat[*i].0 != 1) {
            used[i] = true;
            out.push((flat[i].0, prefix[i]));
            next = flat[i].0 * flat[i].1;
        }
        if out.is_empty() {
            return Layout::mode(1, 0);
        }
        Layout::from_modes(&out).coalesce()
    }

    /// The left inverse: a layout M with M(self(x)) = x for every x (M's other values are
    /// free). Every injective layout has a left-inverse function; this is the coarsest layout
    /// found for it: CuTe's `right_inverse((self, complement))` when the complement exists, else
    /// a search ([`crate::infer::left_inverse_search`]). An error when `self` is not injective, or
    /// when no layout is found ([`Layout::left_inverse_table`] is then the function).
    pub fn left_inverse(&self) -> Result<Layout> {
        let modes: Vec<(i64, i64)> = self.flat().into_iter().filter(|(s, _)| *s != 1).collect();
        // Strides that nest: injective, and (self, complement) is a bijection whose inverse
        // CuTe's right inverse is; checked at the modes' corners, not enumerated.
        if self.nested_modes().is_some() {
            if let Ok(c) = self.complement(self.cosize()) {
                let m = Layout::concat(&[self.clone(), c]).right_inverse();
                if self.corners().all(|x| m.eval(self.eval(x)) == x) {
                    return Ok(m);
                }
            }
        }
        if let Some((x, y, v)) = first_collision(&modes) {
            return Err(LayoutError::NotComplementable {
                layout: self.to_string(),
                why: format!("has no left inverse: it is not injective: coordinates {x} and {y} both map to {v}"),
            });
        }
        if let Some((s, d)) = modes.iter().find(|(_, d)| *d < 0) {
            return Err(LayoutError::NotComplementable {
                layout: self.to_string(),
                why: format!("has a negative stride in mode {s}:{d}; a left inverse is defined on [0, cosize), which its values leave"),
            });
        }
        check_enumerable(self.size(), "left_inverse")?;
        let undoes = |m: &Layout| (0..self.size()).all(|x| m.eval(self.eval(x)) == x);
        if let Ok(c) = self.complement(self.cosize()) {
            let m = Layout::concat(&[self.clone(), c]).right_inverse();
            if undoes(&m) {
                return Ok(m);
            }
        }
        check_enumerable(self.cosize(), "left_inverse")?;
        crate::infer::left_inverse_search(self).ok_or_else(|| LayoutError::NotComplementable {
            layout: self.to_string(),
            why: "has a left-inverse function but no layout is one".into(),
        })
    }

    /// The non-trivial modes sorted by stride when their strides nest (each at least the span
    /// of the one before: `d[k+1] >= s[k] * d[k]`, all positive): such a layout is injective,
    /// provably, without enumerating it. None when they do not nest (it may still be injective).
    pub fn nested_modes(&self) -> Option<Vec<(i64, i64)>> {
        let mut modes: Vec<(i64, i64)> = self.flat().into_iter().filter(|(s, _)| *s != 1).collect();
        if modes.iter().any(|(_, d)| *d <= 0) {
            return None;
        }
        modes.sort_by_key(|(s, d)| (*d, *s));
        modes.windows(2).all(|w| w[1].1 >= w[0].0 * w[0].1).then_some(modes)
    }

    /// The smallest and largest value (a sum of each mode's extreme contribution), without
    /// enumerating.
    pub fn value_range(&self) -> (i64, i64) {
        self.flat().iter().fold((0, 0), |(lo, hi), (s, d)| {
            let far = (s - 1) * d;
            (lo + far.min(0), hi + far.max(0))
        })
    }

    /// The left-inverse function of an injective layout on [0, cosize): x at self(x), 0 at the
    /// values self never takes.
    pub fn left_inverse_table(&self) -> Vec<i64> {
        let mut t = vec![0; self.cosize().max(1) as usize];
        for x in 0..self.size() {
            t[self.eval(x) as usize] = x;
        }
        t
    }

    /// Coordinates that exercise every mode: 0, each mode's first and last step, the last
    /// coordinate, and up to 4096 from each end.
    fn corners(&self) -> impl Iterator<Item = i64> + '_ {
        let n = self.size();
        let mut pts: Vec<i64> = (0..n.min(4096)).chain((n - n.min(4096)..n).rev()).collect();
        let mut step = 1;
        for (s, _) in self.flat() {
            pts.extend([step, (s - 1) * step].into_iter().filter(|x| *x < n));
            step = step.saturating_mul(s);
        }
        pts.into_iter()
    }

    /// Whether the layout is a bijection onto [0, size): the first collision or gap if not.
    pub fn check_bijection(&self) -> Result<()> {
        let n = self.size();
        // Strides that chain from 1 (`n:1` once coalesced): a bijection, with no enumeration.
        if self.nested_modes().is_some_and(|m| m.first().is_none_or(|f| f.1 == 1) && m.windows(2).all(|w| w[1].1 == w[0].0 * w[0].1)) {
            return Ok(());
        }
        check_enumerable(n, "the bijection check")?;
        let mut seen: Vec<Option<i64>> = vec![None; n as usize];
        for x in 0..n {
            let v = self.eval(x);
            if v < 0 || v >= n {
                return Err(LayoutError::Invalid(format!(
                    "{self} is not a bijection onto [0, {n}): coordinate {x} maps to {v}, outside it"
                )));
            }
            if let Some(y) = seen[v as usize] {
                return Err(LayoutError::NotInjective {
                    layout: self.to_string(),
                    x: y,
                    y: x,
                    value: v,
                    why: format!("is not a bijection onto [0, {n})"),
                });
            }
            seen[v as usize] = Some(x);
        }
        if let Some(v) = seen.iter().position(|s| s.is_none()) {
            return Err(LayoutError::NotSurjective { layout: self.to_string(), value: v as i64, n });
        }
        Ok(())
    }

    /// Whether distinct coordinates reach distinct values, modes of stride 0 (broadcast) aside.
    pub fn check_alias_free(&self) -> Result<()> {
        let kept: Vec<(i64, i64)> = self.flat().into_iter().filter(|(_, d)| *d != 0).collect();
        let l = if kept.is_empty() { Layout::mode(1, 0) } else { Layout::from_modes(&kept) };
        if l.nested_modes().is_some() {
            return Ok(());
        }
        check_enumerable(l.size(), "the aliasing check")?;
        match first_repeat(l.size(), |x| l.eval(x)) {
            Some((y, x, value)) => Err(LayoutError::NotInjective {
                layout: self.to_string(),
                x: y,
                y: x,
                value,
                why: "aliases in physical space (only stride-0 modes may broadcast)".into(),
            }),
            None => Ok(()),
        }
    }
}

/// The first repeated value of `eval` over `0..n` in index order: `(y, x, value)` with `y < x`
/// the first two indices that map to it, `x` the smallest such. A bitset over the values' range
/// finds `x` (2 MB for 2^24 values, where a hash map of them took 9 s and 600 MB), a second scan
/// `y`; a range too wide for a bitset is sorted instead.
pub fn first_repeat(n: i64, eval: impl Fn(i64) -> i64) -> Option<(i64, i64, i64)> {
    if n <= 1 {
        return None;
    }
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for x in 0..n {
        let v = eval(x);
        lo = lo.min(v);
        hi = hi.max(v);
    }
    let range = (hi as i128 - lo as i128 + 1) as u128;
    let x = if range <= 1 << 28 {
        let mut seen = vec![0u64; (range as usize).div_ceil(64)];
        (0..n).find(|&x| {
            let i = (eval(x) - lo) as usize;
            let (w, b) = (i / 64, 1u64 << (i % 64));
            let repeat = seen[w] & b != 0;
            seen[w] |= b;
            repeat
        })?
    } else {
        let mut pairs: Vec<(i64, i64)> = (0..n).map(|x| (eval(x), x)).collect();
        pairs.sort_unstable();
        pairs.windows(2).filter(|p| p[0].0 == p[1].0).map(|p| p[1].1).min()?
    };
    let v = eval(x);
    let y = (0..x).find(|&y| eval(y) == v).expect("an earlier index maps to it");
    Some((y, x, v))
}

/// The first two flat indices of the layout `modes` (shape, stride pairs) with equal values.
fn first_collision(modes: &[(i64, i64)]) -> Option<(i64, i64, i64)> {
    if modes.is_empty() {
        return None;
    }
    let l = Layout::from_modes(modes);
    if l.size() > MAX_ENUMERATION {
        return None;
    }
    first_repeat(l.size(), |x| l.eval(x))
}

/// CuTe composition_impl over a coalesced A (flattened `ls:ld`) and B's shape/stride.
fn compose_impl(ls: &[i64], ld: &[i64], rs: &Tuple, rd: &Tuple) -> Option<(Tuple, Tuple)> {
    match (rs, rd) {
        (Tuple::Tup(ss), Tuple::Tup(ds)) => {
            let mut s_out = Vec::new();
            let mut d_out = Vec::new();
            for (s, d) in ss.iter().zip(ds) {
                let (a, b) = compose_impl(ls, ld, s, d)?;
                s_out.push(a);
                d_out.push(b);
            }
            Some((Tuple::Tup(s_out), Tuple::Tup(d_out)))
        }
        (Tuple::Int(s), Tuple::Int(d)) => {
            let (s, d) = (*s, *d);
            if d == 0 {
                return Some((Tuple::Int(s), Tuple::Int(0)));
            }
            let r = ls.len();
            if r == 1 {
                return Some((Tuple::Int(s), Tuple::Int(d * ld[0])));
            }
            let (shape_1, stride_1, rest_stride) = if d == 1 {
                (ls[..r - 1].to_vec(), ld[..r - 1].to_vec(), 1)
            } else {
                // Divide out the stride from A's shape.
                let mut shape_1 = Vec::new();
                let mut rest_stride = d;
                for di in &ls[..r - 1] {
                    shape_1.push(shape_div(*di, rest_stride)?);
                    rest_stride = shape_div(rest_stride, *di)?;
                }
                let stride_1: Vec<i64> = (0..r - 1).map(|i| shape_div(ls[i], shape_1[i]).map(|q| ld[i] * q)).collect::<Option<_>>()?;
                (shape_1, stride_1, rest_stride)
            };
            // Mod out B's shape.
            let mut shape_2 = Vec::new();
            let mut rest_shape = s;
            for si in &shape_1 {
                shape_2.push((*si).min(rest_shape));
                rest_shape = shape_div(rest_shape, *si)?;
            }
            Some(bw_coalesce(&shape_2, &stride_1, rest_shape, rest_stride * ld[r - 1]))
        }
        _ => None,
    }
}

/// CuTe's bw_coalesce: folds (old modes, back to front) into (new_shape, new_stride).
fn bw_coalesce(old_s: &[i64], old_d: &[i64], new_s: i64, new_d: i64) -> (Tuple, Tuple) {
    let mut ns: Vec<i64> = vec![new_s];
    let mut nd: Vec<i64> = vec![new_d];
    for i in (0..old_s.len()).rev() {
        if old_s[i] == 1 {
            continue;
        }
        if ns.len() == 1 && ns[0] == 1 {
            ns[0] = old_s[i];
            nd[0] = old_d[i];
        } else if old_s[i] * old_d[i] == nd[0] {
            ns[0] *= old_s[i];
            nd[0] = old_d[i];
        } else {
            ns.insert(0, old_s[i]);
            nd.insert(0, old_d[i]);
        }
    }
    if ns.len() == 1 && ns[0] == 1 {
        return (Tuple::Int(1), Tuple::Int(0));
    }
    (Tuple::of(ns.into_iter().map(Tuple::Int).collect()), Tuple::of(nd.into_iter().map(Tuple::Int).collect()))
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.shape, self.stride)
    }
}

#[cfg(test)]
mod tests {
    use super::first_repeat;

    /// The first repeat, as a hash map scan in index order finds it.
    fn naive(values: &[i64]) -> Option<(i64, i64, i64)> {
        let mut seen = std::collections::HashMap::new();
        values.iter().enumerate().find_map(|(x, v)| seen.insert(*v, x as i64).map(|y| (y, x as i64, *v)))
    }

    #[test]
    fn first_repeat_is_the_scan_in_index_order() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for case in 0..2000 {
            let n = (next() % 40) as usize;
            // Narrow ranges (the bitset), and wide ones with negatives and repeats (the sort).
            let values: Vec<i64> = if case % 2 == 0 {
                let spread = 1 + next() % 50;
                (0..n).map(|_| (next() % spread) as i64 - (spread / 3) as i64).collect()
            } else {
                (0..n).map(|_| (next() % 30) as i64 * (1 << 36) - (1 << 39)).collect()
            };
            assert_eq!(first_repeat(n as i64, |x| values[x as usize]), naive(&values), "{values:?}");
        }
    }
}
