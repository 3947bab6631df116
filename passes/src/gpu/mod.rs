//! Passes over upstream gpu ops.

pub mod expand_subgroup_ids;
