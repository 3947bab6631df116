//! Analyses shared by every pass (divisibility, memory accesses, uniformity), and the passes
//! that check or use their results. A pass imports analyses from here, never another pass.

pub mod divisibility;
pub mod memory;
pub mod pipelining;
pub mod prove_alignment;
pub mod uniformity;
pub mod verify_uniformity;
