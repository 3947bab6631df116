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
    Swizzle { b: u32, m: u32, s: i32, inner: Box<Map> },
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
        }
    }
    pub fn eval(&self, x: i64) -> i64 {
        match self {
            Map::Layout(l) => l.eval(x),
            Map::Compose(a, b) => a.eval(b.eval(x)),
            Map::Swizzle { b, m, s, inner } => swizzle(*b, *m, *s, inner.eval(x)),
        }
    }
    pub fn values(&self) -> Vec<i64> {
        (0..self.size()).map(|x| self.eval(x)).collect()
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
        crate::layout::check_enumerable(b.size(), "compose")?;
        let size = a.size();
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
        Ok(Map::Compose(Box::new(a.clone()), Box::new(b.clone())))
    }
}

impl fmt::Display for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Map::Layout(l) => write!(f, "{l}"),
            Map::Compose(a, b) => write!(f, "compose({a},{b})"),
            Map::Swizzle { b, m, s, inner } => write!(f, "swizzle({b},{m},{s},{inner})"),
        }
    }
}
