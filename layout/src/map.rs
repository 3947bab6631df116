//! What a layout expression evaluates to: a layout, a composite kept as a pair (when the
//! composition is not a layout), or a swizzled map.

use crate::layout::{Layout, LayoutError, Result};
use std::fmt;

/// A function from [0, size) to integers.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Map {
    Layout(Layout),
    /// `a ∘ b`: b first. Evaluated, and emitted, naively: compute b, split by div/mod into a's
    /// coordinates, apply a.
    Compose(Box<Map>, Box<Map>),
    /// CuTe's `Swizzle<B, M, S>` applied after `inner`.
    Swizzle {
        b: u32,
        m: u32,
        s: i32,
        inner: Box<Map>,
    },
    /// A function given by its values, printed as the expression it came from (the left
    /// inverse of an injective layout that no layout equals).
    Table {
        name: String,
        values: Vec<i64>,
    },
}

/// `Swizzle<B, M, S>` on an offset: xor the B bits at M + S (or M, for S < 0) into the B bits at
/// M (or M - S).
pub fn swizzle(b: u32, m: u32, s: i32, o: i64) -> i64 {
    let mask = (1i64 << b) - 1;
    if s >= 0 {
        let yyy = mask << (m as i64 + s as i64);
        o ^ ((o & yyy) >> s)
    } else {
        let yyy = mask << m;
        o ^ ((o & yyy) << (-s))
    }
}

impl Map {
    pub fn size(&self) -> i64 {
        match self {
            Map::Layout(l) => l.size(),
            Map::Compose(_, b) => b.size(),
            Map::Swizzle { inner, .. } => inner.size(),
            Map::Table { values, .. } => values.len() as i64,
        }
    }
    pub fn eval(&self, x: i64) -> i64 {
        match self {
            Map::Layout(l) => l.eval(x),
            Map::Compose(a, b) => a.eval(b.eval(x)),
            Map::Swizzle { b, m, s, inner } => swizzle(*b, *m, *s, inner.eval(x)),
            Map::Table { values, .. } => values[x as usize],
        }
    }
    pub fn values(&self) -> Vec<i64> {
        (0..self.size()).map(|x| self.eval(x)).collect()
    }
    /// The first function given only by its values (a [`Map::Table`]) inside this map: a kernel
    /// cannot compute one.
    pub fn table(&self) -> Option<&str> {
        match self {
            Map::Layout(_) => None,
            Map::Compose(a, b) => a.table().or_else(|| b.table()),
            Map::Swizzle { inner, .. } => inner.table(),
            Map::Table { name, .. } => Some(name),
        }
    }
    /// The layout, when this is one.
    pub fn as_layout(&self) -> Option<&Layout> {
        match self {
            Map::Layout(l) => Some(l),
            _ => None,
        }
    }
    /// The layout, or an error saying `what` needs one.
    pub fn layout(&self, what: &str) -> Result<&Layout> {
        self.as_layout().ok_or_else(|| LayoutError::Invalid(format!("{what} needs a layout, and {self} is not one")))
    }

    /// `a ∘ b` (x ↦ a(b(x))). An error when b leaves a's domain. A layout with b's mode structure
    /// (CuTe's) when the composite is one, checked against the enumeration; else the pair.
    pub fn compose(a: &Map, b: &Map) -> Result<Map> {
        Map::compose_with(a, b, true)
    }

    /// [`Map::compose`] for the divides and products, whose results are read mode by mode: a
    /// layout only with B's top-level modes (CuTe's, or each mode recovered on its own), never
    /// a flat one.
    pub fn compose_keeping_modes(a: &Map, b: &Map) -> Result<Map> {
        Map::compose_with(a, b, false)
    }

    fn compose_with(a: &Map, b: &Map, flat_ok: bool) -> Result<Map> {
        let size = a.size();
        // A single-mode A is linear on its domain: a(b(x)) is B with its strides scaled, once
        // B's values (their range, in closed form) stay in A's domain. No enumeration.
        if let (Map::Layout(la), Map::Layout(lb)) = (a, b) {
            let flat = la.coalesce().flat();
            let (lo, hi) = lb.value_range();
            if flat.len() == 1 && lo >= 0 && hi < size {
                if let Some(r) = la.compose_cute(lb) {
                    return Ok(Map::Layout(r));
                }
            }
        }
        crate::layout::check_enumerable(b.size(), "compose")?;
        for x in 0..b.size() {
            let v = b.eval(x);
            if v < 0 || v >= size {
                return Err(LayoutError::OutOfDomain { a: a.to_string(), b: b.to_string(), x, value: v, size });
            }
        }
        if let (Map::Layout(la), Map::Layout(lb)) = (a, b) {
            if let Some(r) = la.compose_cute(lb) {
                if r.size() == lb.size() && (0..lb.size()).all(|x| r.eval(x) == la.eval(lb.eval(x))) {
                    return Ok(Map::Layout(r));
                }
            }
        }
        // Not CuTe's layout: the coarsest layout with this function when there is one (B's
        // top-level modes kept if they can be), else the pair.
        let values: Vec<i64> = (0..b.size()).map(|x| a.eval(b.eval(x))).collect();
        let extents: Vec<i64> = b.as_layout().map(|l| l.modes().iter().map(Layout::size).collect()).unwrap_or_default();
        let flat = || if flat_ok || extents.len() < 2 { crate::infer::from_values(&values) } else { None };
        if let Some(l) = crate::infer::from_values_by_mode(&values, &extents).or_else(flat) {
            return Ok(Map::Layout(l));
        }
        Ok(Map::Compose(Box::new(a.clone()), Box::new(b.clone())))
    }
}

impl fmt::Display for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Map::Layout(l) => write!(f, "{l}"),
            Map::Compose(a, b) => write!(f, "compose({a},{b})"),
            Map::Swizzle { b, m, s, inner } => write!(f, "swizzle({b},{m},{s},{inner})"),
            Map::Table { name, .. } => write!(f, "{name}"),
        }
    }
}
