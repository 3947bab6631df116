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
pub mod layout;
pub mod pipeline;
pub mod pipelines;
pub mod registry;
pub mod target;
pub mod tile;
pub mod words;

use registry::{OptInfo, PassInfo};

/// The registry's table (see [`registry::passes`]).
pub(crate) static PASSES: [PassInfo; 13] = [
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
        flag: "compose-layouts",
        name: "ComposeLayouts",
        summary: "folds layout.apply chains into one apply of the composite, in its coarsest form",
        description: layout::compose_layouts::DESCRIPTION,
        anchor: "",
        options: &[],
        run: layout::compose_layouts::run,
    },
    PassInfo {
        flag: "convert-layout-to-arith",
        name: "ConvertLayoutToArith",
        summary: "layout.apply/restrict to index arithmetic: coarsest digits, shifts and masks, folded constants",
        description: conversion::layout_to_arith::DESCRIPTION,
        anchor: "",
        options: &[],
        run: conversion::layout_to_arith::run,
    },
    PassInfo {
        flag: "tile-plan-shared-memory",
        name: "TilePlanSharedMemory",
        summary: "places tiles in dynamic shared memory (with reuse) and checks the chip's limit",
        description: tile::plan_shared_memory::DESCRIPTION,
        anchor: "gpu.module",
        options: &[OptInfo { name: "chip", help: "the target chip, for its shared-memory limit", default: "sm_90" }],
        run: tile::plan_shared_memory::run,
    },
    PassInfo {
        flag: "convert-tile-to-gpu",
        name: "ConvertTileToGpu",
        summary: "tile.copy to a CTA-cooperative copy into dynamic shared memory, with its barriers",
        description: conversion::tile_to_gpu::DESCRIPTION,
        anchor: "gpu.module",
        options: &[],
        run: conversion::tile_to_gpu::run,
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
        flag: "vector-fuse-dp4a",
        name: "VectorFuseDp4a",
        summary: "sums of i8 products to one dp4a (nvvm.dot.accumulate.4way) per four bytes",
        description: conversion::vector_to_dp4a::DESCRIPTION,
        anchor: "gpu.module",
        options: &[],
        run: conversion::vector_to_dp4a::run,
    },
    PassInfo {
        flag: "lower-fma",
        name: "LowerFma",
        summary: "math.fma to llvm.intr.fma (fma.rn in PTX), needing no libdevice",
        description: gpu::lower_fma::DESCRIPTION,
        anchor: "",
        options: &[],
        run: gpu::lower_fma::run,
    },
    PassInfo {
        flag: "strip-bounds-checks",
        name: "StripBoundsChecks",
        summary: "erases the subscript checks (cf.assert {phobos.bounds}) the simulator runs and the PTX does not",
        description: gpu::strip_bounds_checks::DESCRIPTION,
        anchor: "",
        options: &[],
        run: gpu::strip_bounds_checks::run,
    },
    PassInfo {
        flag: "elide-barriers",
        name: "ElideBarriers",
        summary: "removes barriers that order no shared-memory access, with a remark",
        description: gpu::elide_barriers::DESCRIPTION,
        anchor: "gpu.module",
        options: &[],
        run: gpu::elide_barriers::run,
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
