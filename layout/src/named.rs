//! Layouts over named hardware axes: `S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]`.
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
    /// The most warps a CTA has (1024 threads).
    pub const MAX_WARPS: i64 = 32;

    /// Checks what hardware can hold: the size is enumerable; `laneid` stays in [0, 32) and
    /// `warpid` in [0, `warps`), every other axis non-negative; and distinct logical coordinates
    /// reach distinct (axis, ..., reg) tuples, except along stride-0 modes (an explicit
    /// broadcast: the copies of a replicated value).
    pub fn check(&self, warps: i64) -> Result<()> {
        crate::layout::check_enumerable(self.size(), "a layout over named axes")?;
        let axes = self.axes();
        let mut ranges = Vec::new();
        for ax in &axes {
            let modes = self.strides.iter().zip(&self.shape).filter(|((_, a), _)| a.as_deref().unwrap_or("reg") == ax);
            let (lo, hi) = modes.fold((0i64, 0i64), |(lo, hi), ((d, _), s)| (lo + (d * (s - 1)).min(0), hi + (d * (s - 1)).max(0)));
            let limit = match ax.as_str() {
                "laneid" => Some(32),
                "warpid" => Some(warps),
                _ => None,
            };
            if lo < 0 || limit.is_some_and(|l| hi >= l) {
                let range = limit.map(|l| format!("[0, {l})")).unwrap_or_else(|| "[0, ...)".into());
                return Err(LayoutError::Invalid(format!("{self} gives {ax} values from {lo} to {hi}, outside {range}")));
            }
            ranges.push(hi as u128 + 1);
        }
        // Injectivity over the modes that are not broadcasts: axis tuples packed mixed-radix.
        let span: u128 = ranges.iter().product();
        if span > u64::MAX as u128 {
            return Ok(());
        }
        let kept: Vec<usize> = (0..self.shape.len()).filter(|k| self.strides[*k].0 != 0).collect();
        let count: i64 = kept.iter().map(|k| self.shape[*k]).product();
        let mut seen: std::collections::HashMap<u64, i64> = std::collections::HashMap::with_capacity(count as usize);
        let mut digits = vec![0i64; self.shape.len()];
        for _ in 0..count {
            let flat = digits.iter().zip(&self.shape).fold(0i64, |acc, (d, s)| acc * s + d);
            let vals = self.eval(flat);
            let key = vals.iter().zip(&ranges).fold(0u128, |acc, ((_, v), r)| acc * r + *v as u128) as u64;
            if let Some(other) = seen.insert(key, flat) {
                let at: Vec<String> = vals.iter().map(|(a, v)| format!("{a}={v}")).collect();
                return Err(LayoutError::Invalid(format!(
                    "{self} maps logical indices {other} and {flat} to the same place ({}); make it injective, or broadcast with a stride-0 mode",
                    at.join(", ")
                )));
            }
            // Next digits, the last kept mode fastest (row-major).
            for k in kept.iter().rev() {
                digits[*k] += 1;
                if digits[*k] < self.shape[*k] {
                    break;
                }
                digits[*k] = 0;
            }
        }
        Ok(())
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
        let strides: Vec<String> = self
            .strides
            .iter()
            .map(|(d, a)| match a {
                Some(a) => format!("{d}@{a}"),
                None => d.to_string(),
            })
            .collect();
        write!(f, "S[({}):({})]", shape.join(","), strides.join(","))
    }
}
