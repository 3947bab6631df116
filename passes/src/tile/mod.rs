//! Passes over the `tile` dialect.

pub mod plan_shared_memory;
