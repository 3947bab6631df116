//! Analyses, and the passes that check their results.

pub mod prove_alignment;
pub mod uniformity;
pub mod verify_uniformity;
