//! The closed vocabulary of Phobos's dialects: one variant per op its IRDL defines (a test
//! checks that the two agree). The verifiers, the uniformity analysis and the lowerings match
//! on these exhaustively, so a new op in an IRDL file, once added here, fails to compile until
//! each of them has its arm.

use phobos_ir::Op;

/// Defines an op enum of one dialect: its variants, their names, and the list of them.
macro_rules! dialect_ops {
    ($(#[$doc:meta])* $enum:ident, $dialect:literal, { $($variant:ident => $name:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $enum {
            $($variant),+
        }

        impl $enum {
            /// Every op of the dialect, in its IRDL file's order.
            pub const ALL: &'static [$enum] = &[$($enum::$variant),+];
            /// The dialect's namespace.
            pub const DIALECT: &'static str = $dialect;

            /// The op's name without its dialect (`reduce_with`).
            pub fn short_name(self) -> &'static str {
                match self {
                    $($enum::$variant => $name),+
                }
            }

            /// The op's full name (`lane.reduce_with`).
            pub fn name(self) -> &'static str {
                match self {
                    $($enum::$variant => concat!($dialect, ".", $name)),+
                }
            }

            /// The op named `short` in this dialect.
            pub fn parse(short: &str) -> Option<$enum> {
                match short {
                    $($name => Some($enum::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

dialect_ops!(
    /// The `lane` dialect: warp collectives and shuffles.
    LaneOp, "lane", {
        Reduce => "reduce",
        Argmax => "argmax",
        Argmin => "argmin",
        ReduceWith => "reduce_with",
        Scan => "scan",
        ScanWith => "scan_with",
        Shuffle => "shuffle",
    }
);

dialect_ops!(
    /// The `cta` dialect: CTA collectives and redistributions.
    CtaOp, "cta", {
        Reduce => "reduce",
        Argmax => "argmax",
        ReduceWith => "reduce_with",
        Exchange => "exchange",
        Scatter => "scatter",
        Gather => "gather",
    }
);

dialect_ops!(
    /// The `tile` dialect: shared-memory tiles.
    TileOp, "tile", {
        Copy => "copy",
        Alloc => "alloc",
        Dot => "dot",
    }
);

dialect_ops!(
    /// The `layout` dialect: layout values applied to coordinates.
    LayoutOp, "layout", {
        Apply => "apply",
        Restrict => "restrict",
        Place => "place",
    }
);

/// An op of one of Phobos's dialects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhobosOp {
    Lane(LaneOp),
    Cta(CtaOp),
    Tile(TileOp),
    Layout(LayoutOp),
}

impl PhobosOp {
    /// The op named `name` (`lane.scan`); None for an op of another dialect, or a name the
    /// dialect does not define.
    pub fn parse(name: &str) -> Option<PhobosOp> {
        let (dialect, short) = name.split_once('.')?;
        match dialect {
            LaneOp::DIALECT => LaneOp::parse(short).map(PhobosOp::Lane),
            CtaOp::DIALECT => CtaOp::parse(short).map(PhobosOp::Cta),
            TileOp::DIALECT => TileOp::parse(short).map(PhobosOp::Tile),
            LayoutOp::DIALECT => LayoutOp::parse(short).map(PhobosOp::Layout),
            _ => None,
        }
    }

    /// What `op` is, when it is a Phobos op.
    pub fn of(op: Op) -> Option<PhobosOp> {
        PhobosOp::parse(&op.name())
    }

    /// The full name (`lane.scan`).
    pub fn name(self) -> &'static str {
        match self {
            PhobosOp::Lane(o) => o.name(),
            PhobosOp::Cta(o) => o.name(),
            PhobosOp::Tile(o) => o.name(),
            PhobosOp::Layout(o) => o.name(),
        }
    }

    /// Every Phobos op.
    pub fn all() -> impl Iterator<Item = PhobosOp> {
        (LaneOp::ALL.iter().map(|o| PhobosOp::Lane(*o)))
            .chain(CtaOp::ALL.iter().map(|o| PhobosOp::Cta(*o)))
            .chain(TileOp::ALL.iter().map(|o| PhobosOp::Tile(*o)))
            .chain(LayoutOp::ALL.iter().map(|o| PhobosOp::Layout(*o)))
    }
}
