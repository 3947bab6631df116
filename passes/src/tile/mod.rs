//! Passes over the `tile` dialect.

pub mod infer_barriers;
pub mod pipeline;
pub mod plan_shared_memory;
pub mod swizzle;
pub mod tma;
