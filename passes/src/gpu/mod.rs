//! Passes over upstream gpu ops.

pub mod adjacent;
pub mod contract_fma;
pub mod elide_barriers;
pub mod expand_subgroup_ids;
pub mod lower_fast_math;
pub mod lower_fma;
pub mod lower_masked_loads;
pub mod lower_math_intrinsics;
pub mod lower_ordered_accesses;
pub mod merge_adjacent_loads;
pub mod merge_adjacent_stores;
pub mod merge_repeated_checks;
pub mod strip_bounds_checks;
pub mod unroll_register_loops;
