//! The Phobos layout algebra: hierarchical shape:stride layouts in CuTe notation, CuTe's
//! operations (coalesce, composition, complement, divides, products, inverses, swizzles) with
//! checked results, the rocPRIM thread layouts (blocked, striped, warp_striped), spaces and
//! their proofs, and named hardware axes. Pure Rust, no MLIR: fast to test and fuzz.
//!
//! ```text
//! compose(A, B) = x ↦ A(B(x)): an error when B leaves A's domain; a layout with B's mode
//! structure when the composite is one (checked against the enumeration); otherwise a composite
//! kept as the pair. Never a layout that differs from A∘B.
//! ```

pub mod banks;
pub mod draw;
pub mod exchange;
pub mod expr;
pub mod infer;
pub mod layout;
pub mod map;
pub mod mma;
pub mod named;
pub mod ops;
pub mod query;
pub mod tuple;
pub mod warp_shuffle;

pub use layout::{Layout, LayoutError};
pub use map::Map;
pub use named::Named;
pub use tuple::Tuple;

/// The spaces a layout maps into (docs/layouts.md, "Spaces").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// A bijection onto [0, N).
    Logical,
    /// A bijection onto [0, N).
    ThreadValue,
    /// Alias-free, except modes of stride 0 (broadcast).
    Physical,
}

impl Space {
    pub fn parse(s: &str) -> Option<Space> {
        Some(match s {
            "logical" => Space::Logical,
            "thread-value" => Space::ThreadValue,
            "physical" => Space::Physical,
            _ => return None,
        })
    }
}

/// Checks that `m` may map into `space`.
pub fn check_space(m: &Map, space: Space) -> layout::Result<()> {
    layout::check_enumerable(m.size(), "the space check")?;
    match (m, space) {
        (Map::Layout(l), Space::Logical | Space::ThreadValue) => l.check_bijection(),
        (Map::Layout(l), Space::Physical) => l.check_alias_free(),
        (m, Space::Physical) => match layout::first_repeat(m.size(), |x| m.eval(x)) {
            Some((y, x, value)) => {
                Err(LayoutError::NotInjective { layout: m.to_string(), x: y, y: x, value, why: "aliases in physical space".into() })
            }
            None => Ok(()),
        },
        (m, _) => {
            let n = m.size();
            let mut vals = m.values();
            vals.sort();
            for (i, v) in vals.iter().enumerate() {
                if *v != i as i64 {
                    return Err(LayoutError::Invalid(format!("{m} is not a bijection onto [0, {n})")));
                }
            }
            Ok(())
        }
    }
}
