//! Analyses, and the passes that check their results.

pub mod uniformity;
pub mod verify_uniformity;
