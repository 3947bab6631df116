//! IR that no parent holds yet: an [`OwnedOp`] (a clone) or an [`OwnedRegion`] (new, or a clone
//! of an op's region). Only these can be inserted, and inserting consumes them, so safe code
//! cannot give MLIR an op or region that already has a parent (which would corrupt its lists).
//! Dropped without being inserted, one is destroyed, unless a handle into it was lent out
//! ([`OwnedOp::op`], [`OwnedRegion::add_block`]): a handle is `Copy` and carries the IR's
//! lifetime, so it may still be alive, and the object is leaked instead (a bug of the caller,
//! never a dangling handle).

use crate::*;
use mlir_sys::*;
use std::cell::Cell;

/// An operation in no block: made by [`Op::clone_op`], placed with [`Builder::insert`].
pub struct OwnedOp<'a> {
    op: Op<'a>,
    lent: Cell<bool>,
}

impl<'a> OwnedOp<'a> {
    pub(crate) fn new(op: Op<'a>) -> OwnedOp<'a> {
        OwnedOp { op, lent: Cell::new(false) }
    }
    /// A handle to the op, to read or edit it before it is inserted.
    pub fn op(&self) -> Op<'a> {
        self.lent.set(true);
        self.op
    }
    /// Gives up ownership (to MLIR, which takes it over).
    pub(crate) fn into_raw(self) -> MlirOperation {
        let raw = self.op.raw;
        std::mem::forget(self);
        raw
    }
}

impl Drop for OwnedOp<'_> {
    fn drop(&mut self) {
        if !self.lent.get() {
            // SAFETY: the op is in no block and nothing else owns it; no handle to it was lent.
            unsafe { mlirOperationDestroy(self.op.raw) }
        }
    }
}

impl std::fmt::Debug for OwnedOp<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OwnedOp({})", self.op.name())
    }
}

/// A region in no op: made by [`OwnedRegion::new`] or [`Op::clone_region`], given to an op by
/// [`Builder::op_with_regions`].
pub struct OwnedRegion<'a> {
    reg: Reg<'a>,
    lent: Cell<bool>,
}

impl<'a> OwnedRegion<'a> {
    /// An empty region.
    #[allow(clippy::new_without_default)] // a region is made on purpose, never by default
    pub fn new() -> OwnedRegion<'a> {
        // SAFETY: creates a detached region that this value owns.
        OwnedRegion { reg: Reg::wrap(unsafe { mlirRegionCreate() }), lent: Cell::new(false) }
    }
    pub(crate) fn adopt(reg: Reg<'a>) -> OwnedRegion<'a> {
        OwnedRegion { reg, lent: Cell::new(false) }
    }
    /// Appends a new block with arguments of `args` types (each at `loc`); returns it, to build
    /// into with [`Builder::at_end`].
    pub fn add_block(&self, args: &[Ty<'a>], loc: Loc<'a>) -> Blk<'a> {
        let tys: Vec<MlirType> = args.iter().map(|t| t.raw).collect();
        let locs: Vec<MlirLocation> = args.iter().map(|_| loc.raw).collect();
        // SAFETY: the new block is detached; the region, which we own, takes it over at once.
        let blk = unsafe {
            let b = mlirBlockCreate(tys.len() as isize, tys.as_ptr(), locs.as_ptr());
            mlirRegionAppendOwnedBlock(self.reg.raw, b);
            b
        };
        self.lent.set(true);
        Blk::wrap(blk)
    }
    /// A handle to the region, to read it before it is given to an op.
    pub fn reg(&self) -> Reg<'a> {
        self.lent.set(true);
        self.reg
    }
    /// Gives up ownership (to MLIR, which takes it over).
    pub(crate) fn into_raw(self) -> MlirRegion {
        let raw = self.reg.raw;
        std::mem::forget(self);
        raw
    }
}

impl Drop for OwnedRegion<'_> {
    fn drop(&mut self) {
        if !self.lent.get() {
            // SAFETY: the region is in no op and nothing else owns it; no handle into it was lent.
            unsafe { mlirRegionDestroy(self.reg.raw) }
        }
    }
}

impl std::fmt::Debug for OwnedRegion<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OwnedRegion({} blocks)", self.reg.blocks().len())
    }
}
