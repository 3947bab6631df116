//! Phobos's passes, the registry that names them, and the pipeline builder that runs them in one
//! MLIR pass manager with upstream passes.
//!
//! One pass per file; each file's `//!` block says what the pass does, its pre- and
//! postconditions, and its limits.

pub mod analysis;
pub mod conversion;
pub mod external;
pub mod gpu;
pub mod ids;
pub mod pipeline;
pub mod pipelines;
pub mod registry;
pub mod words;

use registry::{OptInfo, PassInfo};

/// The registry's table (see [`registry::passes`]).
pub(crate) static PASSES: [PassInfo; 5] = [
    PassInfo {
        flag: "verify-uniformity",
        name: "VerifyUniformity",
        summary: "rejects collectives under control their warp or CTA does not share",
        description: analysis::verify_uniformity::DESCRIPTION,
        anchor: "gpu.module",
        options: &[],
        run: analysis::verify_uniformity::run,
    },
    PassInfo {
        flag: "convert-cta-to-gpu",
        name: "ConvertCtaToGpu",
        summary: "cta.* folds to warp butterflies, a workgroup scratch and three gpu.barriers",
        description: conversion::cta_to_gpu::DESCRIPTION,
        anchor: "gpu.module",
        options: &[],
        run: conversion::cta_to_gpu::run,
    },
    PassInfo {
        flag: "convert-lane-to-gpu",
        name: "ConvertLaneToGpu",
        summary: "lane.* collectives and shuffles to gpu.shuffle / nvvm.shfl.sync and arith",
        description: conversion::lane_to_gpu::DESCRIPTION,
        anchor: "gpu.module",
        options: &[],
        run: conversion::lane_to_gpu::run,
    },
    PassInfo {
        flag: "prove-alignment",
        name: "ProveAlignment",
        summary: "sets vector.load/store alignment from a divisibility analysis (@aligned, constants, loops)",
        description: analysis::prove_alignment::DESCRIPTION,
        anchor: "gpu.module",
        options: &[],
        run: analysis::prove_alignment::run,
    },
    PassInfo {
        flag: "expand-subgroup-ids",
        name: "ExpandSubgroupIds",
        summary: "gpu.subgroup_id / num_subgroups / subgroup_size to thread-id arithmetic",
        description: gpu::expand_subgroup_ids::DESCRIPTION,
        anchor: "gpu.module",
        options: &[],
        run: gpu::expand_subgroup_ids::run,
    },
];

#[allow(dead_code)]
const NO_OPTIONS: &[OptInfo] = &[];
