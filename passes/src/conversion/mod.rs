//! Conversions from Phobos dialects to upstream dialects, one file per source dialect.

pub mod cta_to_gpu;
pub mod exchange_to_gpu;
pub mod lane_to_gpu;
pub mod layout_to_arith;
pub mod tile_dot;
pub mod tile_dot_wgmma;
pub mod tile_to_gpu;
