//! Passes over upstream gpu ops.

pub mod elide_barriers;
pub mod expand_subgroup_ids;
pub mod lower_fma;
pub mod strip_bounds_checks;
