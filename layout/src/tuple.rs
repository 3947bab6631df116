//! Hierarchical integer tuples (CuTe's IntTuple): the shapes and strides of layouts.

use std::fmt;

/// An integer, or a tuple of tuples.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Tuple {
    Int(i64),
    Tup(Vec<Tuple>),
}

impl Tuple {
    /// The leaves in order (depth first).
    pub fn leaves(&self) -> Vec<i64> {
        let mut out = Vec::new();
        self.leaves_into(&mut out);
        out
    }
    fn leaves_into(&self, out: &mut Vec<i64>) {
        match self {
            Tuple::Int(v) => out.push(*v),
            Tuple::Tup(v) => v.iter().for_each(|t| t.leaves_into(out)),
        }
    }
    /// The product of the leaves (a shape's size).
    pub fn product(&self) -> i64 {
        self.leaves().iter().product()
    }
    /// Top-level modes: a tuple's elements, or the integer itself.
    pub fn modes(&self) -> Vec<Tuple> {
        match self {
            Tuple::Int(_) => vec![self.clone()],
            Tuple::Tup(v) => v.clone(),
        }
    }
    pub fn rank(&self) -> usize {
        match self {
            Tuple::Int(_) => 1,
            Tuple::Tup(v) => v.len(),
        }
    }
    /// Whether `other` has the same nesting (profile).
    pub fn congruent(&self, other: &Tuple) -> bool {
        match (self, other) {
            (Tuple::Int(_), Tuple::Int(_)) => true,
            (Tuple::Tup(a), Tuple::Tup(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.congruent(y)),
            _ => false,
        }
    }
    /// Rebuilds this profile from `leaves`, consumed in order.
    pub fn rebuild(&self, leaves: &mut impl Iterator<Item = i64>) -> Tuple {
        match self {
            Tuple::Int(_) => Tuple::Int(leaves.next().expect("enough leaves")),
            Tuple::Tup(v) => Tuple::Tup(v.iter().map(|t| t.rebuild(leaves)).collect()),
        }
    }
    /// A tuple of `v`, or `v[0]` itself when there is one element.
    pub fn of(mut v: Vec<Tuple>) -> Tuple {
        if v.len() == 1 {
            v.pop().expect("one element")
        } else {
            Tuple::Tup(v)
        }
    }
    /// Compact column-major strides for this shape: (1, s0, s0*s1, ...), same profile.
    pub fn compact_strides(&self) -> Tuple {
        let mut acc = 1;
        let strides: Vec<i64> = self
            .leaves()
            .iter()
            .map(|s| {
                let d = acc;
                acc *= s;
                d
            })
            .collect();
        self.rebuild(&mut strides.into_iter())
    }
}

impl fmt::Display for Tuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tuple::Int(v) => write!(f, "{v}"),
            Tuple::Tup(v) => {
                write!(f, "(")?;
                for (i, t) in v.iter().enumerate() {
                    if i > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{t}")?;
                }
                write!(f, ")")
            }
        }
    }
}
