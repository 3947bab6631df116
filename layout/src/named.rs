//! Layouts over named hardware axes (seed 004): `S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]`.
//!
//! A logical coordinate is flattened row-major over the logical shape, split into mixed-radix
//! digits over the layout's shape (the last extent fastest), and each digit adds stride × digit
//! to its axis. Unnamed strides go to `reg`, the per-thread register index.

use crate::layout::{LayoutError, Result};

/// A flat layout whose strides each name the axis they feed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Named {
    pub shape: Vec<i64>,
    /// (stride, axis; None is `reg`)
    pub strides: Vec<(i64, Option<String>)>,
}

impl Named {
    pub fn size(&self) -> i64 {
        self.shape.iter().product()
    }
    /// The axes in order of first appearance, then `reg` when a stride is unnamed.
    pub fn axes(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (_, a) in &self.strides {
            if let Some(a) = a {
                if !out.contains(a) {
                    out.push(a.clone());
                }
            }
        }
        if self.strides.iter().any(|(_, a)| a.is_none()) {
            out.push("reg".into());
        }
        out
    }
    /// The value of every axis at flat logical index `flat`.
    pub fn eval(&self, flat: i64) -> Vec<(String, i64)> {
        let mut digits = vec![0i64; self.shape.len()];
        let mut rest = flat;
        for k in (0..self.shape.len()).rev() {
            digits[k] = if k == 0 { rest } else { rest % self.shape[k] };
            rest /= self.shape[k];
        }
        self.axes()
            .into_iter()
            .map(|ax| {
                let v = self
                    .strides
                    .iter()
                    .zip(&digits)
                    .filter(|((_, a), _)| a.as_deref().unwrap_or("reg") == ax)
                    .map(|((d, _), c)| d * c)
                    .sum();
                (ax, v)
            })
            .collect()
    }
    /// One line per axis over the row-major logical shape: `NAME: v0 v1 ...`.
    pub fn table(&self, logical: &[i64]) -> Result<Vec<String>> {
        let n: i64 = logical.iter().product();
        if n != self.size() {
            return Err(LayoutError::Invalid(format!(
                "the logical shape ({}) has {n} elements but the layout covers {}",
                logical.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "),
                self.size()
            )));
        }
        let cols: Vec<Vec<(String, i64)>> = (0..n).map(|i| self.eval(i)).collect();
        Ok(self
            .axes()
            .iter()
            .enumerate()
            .map(|(a, name)| format!("{name}: {}", cols.iter().map(|c| c[a].1.to_string()).collect::<Vec<_>>().join(" ")))
            .collect())
    }
}

impl std::fmt::Display for Named {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shape: Vec<String> = self.shape.iter().map(|s| s.to_string()).collect();
        let strides: Vec<String> =
            self.strides.iter().map(|(d, a)| match a { Some(a) => format!("{d}@{a}"), None => d.to_string() }).collect();
        write!(f, "S[({}):({})]", shape.join(","), strides.join(","))
    }
}
