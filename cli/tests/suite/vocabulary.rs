//! The closed op vocabulary (`phobos_dialects::ops`) is the one the IRDL files define.

use phobos_dialects::ops::{CtaOp, LaneOp, LayoutOp, PhobosOp, TileOp};

/// The ops each IRDL file defines, in order.
fn irdl_ops(text: &str) -> Vec<String> {
    text.lines().filter_map(|l| l.trim().strip_prefix("irdl.operation @")).map(|r| r.trim_end_matches(" {").to_string()).collect()
}

#[test]
fn the_vocabulary_is_the_irdl_one() {
    let files = [
        (
            LaneOp::DIALECT,
            include_str!("../../../dialects/irdl/lane.irdl.mlir"),
            LaneOp::ALL.iter().map(|o| o.short_name()).collect::<Vec<_>>(),
        ),
        (CtaOp::DIALECT, include_str!("../../../dialects/irdl/cta.irdl.mlir"), CtaOp::ALL.iter().map(|o| o.short_name()).collect()),
        (TileOp::DIALECT, include_str!("../../../dialects/irdl/tile.irdl.mlir"), TileOp::ALL.iter().map(|o| o.short_name()).collect()),
        (
            LayoutOp::DIALECT,
            include_str!("../../../dialects/irdl/layout.irdl.mlir"),
            LayoutOp::ALL.iter().map(|o| o.short_name()).collect(),
        ),
    ];
    for (dialect, text, ours) in files {
        assert_eq!(irdl_ops(text), ours, "the {dialect} dialect's IRDL and its op enum differ");
    }
    assert_eq!(phobos_dialects::DIALECTS.len(), 4, "a new dialect gets an op enum here");
}

#[test]
fn names_round_trip() {
    for op in PhobosOp::all() {
        assert_eq!(PhobosOp::parse(op.name()), Some(op));
    }
    assert_eq!(PhobosOp::parse("lane.bogus"), None);
    assert_eq!(PhobosOp::parse("arith.addi"), None);
}
