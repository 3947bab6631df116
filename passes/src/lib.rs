//! Phobos's passes, the registry that names them, and the pipeline builder that runs them in one
//! MLIR pass manager with upstream passes.
//!
//! One pass per file; each file's `//!` block says what the pass does, its pre- and
//! postconditions, and its limits.

pub mod analysis;
pub mod conversion;
pub mod emit;
pub mod external;
pub mod gpu;
pub mod layout;
pub mod patterns;
pub mod pipeline;
pub mod pipelines;
pub mod registry;
pub mod target;
pub mod tile;
pub mod vector;

use registry::PassInfo;

/// The registry's table (see [`registry::passes`]): a new pass is one more line.
pub(crate) static PASSES: &[PassInfo] = &[
    analysis::verify_uniformity::PASS,
    conversion::exchange_to_gpu::PASS,
    tile::infer_barriers::PASS,
    conversion::cta_to_gpu::PASS,
    layout::compose_layouts::PASS,
    conversion::layout_to_arith::PASS,
    tile::swizzle::PASS,
    tile::tma::PASS,
    tile::plan_shared_memory::PASS,
    tile::pipeline::PASS,
    conversion::tile_to_gpu::PASS,
    conversion::lane_to_gpu::PASS,
    vector::fuse_dp4a::PASS,
    gpu::contract_fma::PASS,
    gpu::lower_fast_math::PASS,
    gpu::lower_fma::PASS,
    gpu::lower_math_intrinsics::PASS,
    gpu::lower_ordered_accesses::PASS,
    gpu::strip_bounds_checks::PASS,
    gpu::lower_masked_loads::PASS,
    gpu::merge_repeated_checks::PASS,
    gpu::merge_adjacent_loads::PASS,
    gpu::merge_adjacent_stores::PASS,
    gpu::unroll_register_loops::PASS,
    gpu::elide_barriers::PASS,
    analysis::prove_alignment::PASS,
    gpu::expand_subgroup_ids::PASS,
];
