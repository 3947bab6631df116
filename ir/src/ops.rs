//! Operations, values, blocks and regions: reading the IR and moving it around. Erasing goes
//! through [`crate::Rewriter`].

use crate::*;
use mlir_sys::*;

/// Printing switches melior's `OperationPrintingFlags` has no setter for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrintExtras {
    pub skip_regions: bool,
    pub assume_verified: bool,
    pub name_loc_as_prefix: bool,
}

impl PrintExtras {
    /// Sets the switches on `flags` (mlir-opt's `--mlir-print-skip-regions`,
    /// `--mlir-print-assume-verified`, `--mlir-use-nameloc-as-prefix`).
    pub fn apply(self, flags: &melior::ir::operation::OperationPrintingFlags) {
        // SAFETY: `flags` is borrowed for the call and owns its MlirOpPrintingFlags, which the setters only
        // update (they set switches a later print reads).
        unsafe {
            let raw = flags.to_raw();
            if self.skip_regions {
                mlirOpPrintingFlagsSkipRegions(raw);
            }
            if self.assume_verified {
                mlirOpPrintingFlagsAssumeVerified(raw);
            }
            if self.name_loc_as_prefix {
                mlirOpPrintingFlagsPrintNameLocAsPrefix(raw);
            }
        }
    }
}

impl<'a> Op<'a> {
    pub fn name(self) -> String {
        // SAFETY: the op is live for `'a` (it borrows its module); its name is an identifier uniqued in the
        // context, which from_sref copies.
        unsafe { from_sref(mlirIdentifierStr(mlirOperationGetName(self.raw))) }
    }
    /// True when the op's name is `name`; avoids allocating for the common check.
    pub fn is(self, name: &str) -> bool {
        // SAFETY: the op is live for `'a`; the name's bytes (`s.length` of them at `s.data`, never null) are
        // uniqued in the context, which outlives the op, and are read only when the lengths match.
        unsafe {
            let s = mlirIdentifierStr(mlirOperationGetName(self.raw));
            s.length == name.len() && std::slice::from_raw_parts(s.data as *const u8, s.length) == name.as_bytes()
        }
    }
    pub fn ctx(self) -> Ctx<'a> {
        // SAFETY: the op is live for `'a`; mlirOperationGetContext only reads it.
        Ctx::wrap(unsafe { mlirOperationGetContext(self.raw) })
    }
    pub fn loc(self) -> Loc<'a> {
        // SAFETY: the op is live for `'a`; mlirOperationGetLocation only reads it.
        Loc::wrap(unsafe { mlirOperationGetLocation(self.raw) })
    }
    /// Moves the op to `loc` (a location of the same context, as the shared lifetime says).
    pub fn set_loc(self, loc: Loc<'a>) {
        // SAFETY: the op is live for `'a`, and `loc` is a location uniqued in its context.
        unsafe { mlirOperationSetLocation(self.raw, loc.to_raw()) }
    }
    pub fn num_operands(self) -> usize {
        // SAFETY: the op is live for `'a`; mlirOperationGetNumOperands only reads it.
        unsafe { mlirOperationGetNumOperands(self.raw) as usize }
    }
    /// Operand `i`, or None past the last.
    pub fn get_operand(self, i: usize) -> Option<Val<'a>> {
        (i < self.num_operands()).then(|| self.operand(i))
    }
    /// Operand `i`; panics past the last (a bug in the caller: see [`Op::get_operand`]).
    pub fn operand(self, i: usize) -> Val<'a> {
        check(i, self.num_operands(), "operand", self);
        // SAFETY: the op is live for `'a` and `i` is below its operand count (checked above).
        Val::wrap(unsafe { mlirOperationGetOperand(self.raw, i as isize) })
    }
    pub fn operands(self) -> Vec<Val<'a>> {
        (0..self.num_operands()).map(|i| self.operand(i)).collect()
    }
    pub fn set_operand(self, i: usize, v: Val<'a>) {
        check(i, self.num_operands(), "operand", self);
        // SAFETY: the op and `v` are live for `'a`, and `i` is below the operand count (checked above).
        unsafe { mlirOperationSetOperand(self.raw, i as isize, v.raw) }
    }
    pub fn num_results(self) -> usize {
        // SAFETY: the op is live for `'a`; mlirOperationGetNumResults only reads it.
        unsafe { mlirOperationGetNumResults(self.raw) as usize }
    }
    /// Result `i`, or None past the last.
    pub fn get_result(self, i: usize) -> Option<Val<'a>> {
        (i < self.num_results()).then(|| self.result(i))
    }
    /// Result `i`; panics past the last (see [`Op::get_result`]).
    pub fn result(self, i: usize) -> Val<'a> {
        check(i, self.num_results(), "result", self);
        // SAFETY: the op is live for `'a` and `i` is below its result count (checked above).
        Val::wrap(unsafe { mlirOperationGetResult(self.raw, i as isize) })
    }
    pub fn results(self) -> Vec<Val<'a>> {
        (0..self.num_results()).map(|i| self.result(i)).collect()
    }
    /// An attribute, inherent (properties) or discardable.
    pub fn attr(self, name: &str) -> Option<Attr<'a>> {
        // SAFETY: the op is live for `'a`; the string ref points into `name`, alive for the call. A missing
        // attribute comes back null (checked below).
        let a = Attr::wrap(unsafe { mlirOperationGetAttributeByName(self.raw, sref(name)) });
        (!a.is_null()).then_some(a)
    }
    pub fn set_attr(self, name: &str, a: Attr<'a>) {
        // SAFETY: the op and `a` are live for `'a`; the string ref points into `name`, alive for the call
        // (MLIR copies it into an identifier).
        unsafe { mlirOperationSetAttributeByName(self.raw, sref(name), a.raw) }
    }
    pub fn remove_attr(self, name: &str) {
        // SAFETY: the op is live for `'a`; the string ref points into `name`, alive for the call. Removing an
        // attribute the op does not have does nothing.
        unsafe {
            mlirOperationRemoveAttributeByName(self.raw, sref(name));
        }
    }
    /// All discardable attributes, in order.
    pub fn attrs(self) -> Vec<(String, Attr<'a>)> {
        // SAFETY: the op is live for `'a` and each `i` is below mlirOperationGetNumAttributes; the names are
        // identifiers uniqued in the context, which from_sref copies.
        unsafe {
            (0..mlirOperationGetNumAttributes(self.raw))
                .map(|i| {
                    let na = mlirOperationGetAttribute(self.raw, i);
                    (from_sref(mlirIdentifierStr(na.name)), Attr::wrap(na.attribute))
                })
                .collect()
        }
    }
    pub fn int_attr(self, name: &str) -> Option<i64> {
        self.attr(name).and_then(Attr::int)
    }
    pub fn str_attr(self, name: &str) -> Option<String> {
        self.attr(name).and_then(Attr::str)
    }
    pub fn num_regions(self) -> usize {
        // SAFETY: the op is live for `'a`; mlirOperationGetNumRegions only reads it.
        unsafe { mlirOperationGetNumRegions(self.raw) as usize }
    }
    /// Region `i`, or None past the last.
    pub fn get_region(self, i: usize) -> Option<Reg<'a>> {
        (i < self.num_regions()).then(|| self.region(i))
    }
    /// Region `i`; panics past the last (see [`Op::get_region`]).
    pub fn region(self, i: usize) -> Reg<'a> {
        check(i, self.num_regions(), "region", self);
        // SAFETY: the op is live for `'a` and `i` is below its region count (checked above).
        Reg::wrap(unsafe { mlirOperationGetRegion(self.raw, i as isize) })
    }
    pub fn block(self) -> Option<Blk<'a>> {
        // SAFETY: the op is live for `'a`; mlirOperationGetBlock only reads it (null for an op in no block,
        // checked below).
        let b = Blk::wrap(unsafe { mlirOperationGetBlock(self.raw) });
        (!b.is_null()).then_some(b)
    }
    pub fn parent(self) -> Option<Op<'a>> {
        // SAFETY: the op is live for `'a`; mlirOperationGetParentOperation only reads it (null at the top,
        // checked below).
        let p = Op::wrap(unsafe { mlirOperationGetParentOperation(self.raw) });
        (!p.is_null()).then_some(p)
    }
    /// The closest enclosing op named `name`.
    pub fn ancestor(self, name: &str) -> Option<Op<'a>> {
        let mut cur = self.parent();
        while let Some(p) = cur {
            if p.is(name) {
                return Some(p);
            }
            cur = p.parent();
        }
        None
    }
    pub fn next(self) -> Option<Op<'a>> {
        // SAFETY: the op is live for `'a`; mlirOperationGetNextInBlock only reads it (null when no op
        // follows, checked below).
        let n = Op::wrap(unsafe { mlirOperationGetNextInBlock(self.raw) });
        (!n.is_null()).then_some(n)
    }
    /// Every op nested in this one (this one included), in pre-order.
    pub fn walk(self) -> Vec<Op<'a>> {
        let mut out = Vec::new();
        self.walk_into(&mut out);
        out
    }
    fn walk_into(self, out: &mut Vec<Op<'a>>) {
        out.push(self);
        for r in 0..self.num_regions() {
            for b in self.region(r).blocks() {
                for o in b.ops() {
                    o.walk_into(out);
                }
            }
        }
    }
    /// Every nested op named `name`, in pre-order.
    pub fn find_all(self, name: &str) -> Vec<Op<'a>> {
        self.walk().into_iter().filter(|o| o.is(name)).collect()
    }
    pub fn move_before(self, other: Op<'a>) {
        assert!(
            self.block().is_some() && other.block().is_some(),
            "phobos bug: moving '{}' before '{}': both must be in a block",
            self.name(),
            other.name()
        );
        // An op moved into itself or its own region would make a cycle of ownership.
        let mut at = Some(other);
        while let Some(o) = at {
            assert!(o != self, "phobos bug: moving '{}' before '{}', which is inside it", self.name(), other.name());
            at = o.parent();
        }
        // SAFETY: both ops are live for `'a` and in a block (checked above), and `other` is not
        // inside `self` (checked): MLIR unlinks `self` from its block and links it before `other`.
        unsafe { mlirOperationMoveBefore(self.raw, other.raw) }
    }
    /// A detached copy of region `i` (its blocks and ops), for a new op to own.
    pub fn clone_region(self, i: usize) -> OwnedRegion<'a> {
        check(i, self.num_regions(), "region", self);
        // SAFETY: the clone is a detached op we destroy after taking its region's body into a
        // new detached region, which the returned value owns.
        unsafe {
            let copy = mlirOperationClone(self.raw);
            let region = mlirRegionCreate();
            mlirRegionTakeBody(region, mlirOperationGetRegion(copy, i as isize));
            mlirOperationDestroy(copy);
            OwnedRegion::adopt(Reg::wrap(region))
        }
    }
    /// A copy of the op (and everything inside it), in no block: insert it with
    /// [`Builder::insert`].
    pub fn clone_op(self) -> OwnedOp<'a> {
        // SAFETY: the clone is a new detached op; the returned value owns it.
        OwnedOp::new(Op::wrap(unsafe { mlirOperationClone(self.raw) }))
    }
    pub fn verify(self) -> bool {
        // SAFETY: the op is live for `'a`; mlirOperationVerify only reads it (failures go to the context's
        // diagnostic handler).
        unsafe { mlirOperationVerify(self.raw) }
    }
    /// The blocks a terminator branches to, in order.
    pub fn successors(self) -> Vec<Blk<'a>> {
        // SAFETY: the op is live for `'a` and each `i` is below mlirOperationGetNumSuccessors.
        unsafe { (0..mlirOperationGetNumSuccessors(self.raw)).map(|i| Blk::wrap(mlirOperationGetSuccessor(self.raw, i))).collect() }
    }
    /// The op printed with melior's printing flags.
    pub fn print_with_flags(self, flags: &melior::ir::operation::OperationPrintingFlags) -> String {
        // SAFETY: the op is live for `'a` and `flags` is borrowed for the call; the callback only appends to
        // the String behind `d`, which `print_with` keeps alive for the call.
        print_with(|cb, d| unsafe { mlirOperationPrintWithFlags(self.raw, flags.to_raw(), cb, d) })
    }
    /// The op printed in generic form, on one line when it has no regions.
    pub fn to_generic_string(self) -> String {
        // SAFETY: the op is live for `'a`; `flags` is created here, used only by the print, and destroyed once
        // after it; the callback only appends to the String behind `d`.
        unsafe {
            let flags = mlirOpPrintingFlagsCreate();
            mlirOpPrintingFlagsPrintGenericOpForm(flags);
            let s = print_with(|cb, d| mlirOperationPrintWithFlags(self.raw, flags, cb, d));
            mlirOpPrintingFlagsDestroy(flags);
            s
        }
    }
}

impl std::fmt::Display for Op<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // SAFETY: the op is live for `'a`; the callback only appends to the String behind `d`, which
        // `print_with` keeps alive for the call.
        f.write_str(&print_with(|cb, d| unsafe { mlirOperationPrint(self.raw, cb, d) }))
    }
}

impl<'a> Val<'a> {
    pub fn ty(self) -> Ty<'a> {
        // SAFETY: the value is live for `'a`; mlirValueGetType only reads it.
        Ty::wrap(unsafe { mlirValueGetType(self.raw) })
    }
    /// The op that defines this value, None for a block argument.
    pub fn def(self) -> Option<Op<'a>> {
        // SAFETY: the value is live for `'a`; mlirOpResultGetOwner runs only when mlirValueIsAOpResult says
        // it is an op result.
        unsafe { mlirValueIsAOpResult(self.raw).then(|| Op::wrap(mlirOpResultGetOwner(self.raw))) }
    }
    pub fn is_block_arg(self) -> bool {
        // SAFETY: the value is live for `'a`; mlirValueIsABlockArgument only reads it.
        unsafe { mlirValueIsABlockArgument(self.raw) }
    }
    /// For a block argument: its block and position.
    pub fn block_arg(self) -> Option<(Blk<'a>, usize)> {
        // SAFETY: the value is live for `'a`; the block-argument getters run only when `is_block_arg` says
        // it is one.
        unsafe {
            self.is_block_arg().then(|| (Blk::wrap(mlirBlockArgumentGetOwner(self.raw)), mlirBlockArgumentGetArgNumber(self.raw) as usize))
        }
    }
    /// `%3`: how the value prints as an operand inside `scope` (its function, say).
    pub fn operand_name(self, scope: Op<'a>) -> String {
        // SAFETY: `scope` and the value are live for `'a`; the flags and the asm state are created here, used
        // only by the print, and destroyed once after it; the callback only appends to the String
        // behind `d`.
        unsafe {
            let flags = mlirOpPrintingFlagsCreate();
            let state = mlirAsmStateCreateForOperation(scope.raw, flags);
            let s = print_with(|cb, d| mlirValuePrintAsOperand(self.raw, state, cb, d));
            mlirAsmStateDestroy(state);
            mlirOpPrintingFlagsDestroy(flags);
            s
        }
    }
    pub fn replace_all_uses_with(self, with: Val<'a>) {
        // SAFETY: both values are live for `'a`; MLIR moves every use of `self` to `with`.
        unsafe { mlirValueReplaceAllUsesOfWith(self.raw, with.raw) }
    }
    /// The ops that use this value (one entry per use).
    pub fn users(self) -> Vec<Op<'a>> {
        let mut out = Vec::new();
        // SAFETY: the value is live for `'a`; each use is checked for null before its owner and next use are
        // read, and nothing changes the use list during the walk.
        unsafe {
            let mut u = mlirValueGetFirstUse(self.raw);
            while !mlirOpOperandIsNull(u) {
                out.push(Op::wrap(mlirOpOperandGetOwner(u)));
                u = mlirOpOperandGetNextUse(u);
            }
        }
        out
    }
    /// The integer of a value defined by `arith.constant`, if it is one.
    pub fn const_int(self) -> Option<i64> {
        let d = self.def()?;
        if !d.is("arith.constant") {
            return None;
        }
        d.attr("value")?.int()
    }
    pub fn location(self) -> Loc<'a> {
        // SAFETY: the value is live for `'a`; mlirValueGetLocation only reads it.
        Loc::wrap(unsafe { mlirValueGetLocation(self.raw) })
    }
}

impl std::fmt::Display for Val<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // SAFETY: the value is live for `'a`; the callback only appends to the String behind `d`, which
        // `print_with` keeps alive for the call.
        f.write_str(&print_with(|cb, d| unsafe { mlirValuePrint(self.raw, cb, d) }))
    }
}

impl<'a> Blk<'a> {
    pub fn ops(self) -> BlockOps<'a> {
        // SAFETY: the block is live for `'a`; mlirBlockGetFirstOperation only reads it (null for an empty
        // block, which ends the iterator).
        BlockOps(Op::wrap(unsafe { mlirBlockGetFirstOperation(self.raw) }))
    }
    pub fn first_op(self) -> Option<Op<'a>> {
        // SAFETY: the block is live for `'a`; mlirBlockGetFirstOperation only reads it (null when empty,
        // checked below).
        let o = Op::wrap(unsafe { mlirBlockGetFirstOperation(self.raw) });
        (!o.is_null()).then_some(o)
    }
    pub fn terminator(self) -> Option<Op<'a>> {
        // SAFETY: the block is live for `'a`; mlirBlockGetTerminator only reads it, and returns null when the
        // block is empty or its last op is no terminator (checked below).
        let o = Op::wrap(unsafe { mlirBlockGetTerminator(self.raw) });
        (!o.is_null()).then_some(o)
    }
    pub fn num_args(self) -> usize {
        // SAFETY: the block is live for `'a`; mlirBlockGetNumArguments only reads it.
        unsafe { mlirBlockGetNumArguments(self.raw) as usize }
    }
    /// Argument `i`, or None past the last.
    pub fn get_arg(self, i: usize) -> Option<Val<'a>> {
        (i < self.num_args()).then(|| self.arg(i))
    }
    /// Argument `i`; panics past the last (see [`Blk::get_arg`]).
    pub fn arg(self, i: usize) -> Val<'a> {
        let n = self.num_args();
        assert!(i < n, "phobos bug: block argument {i} of a block with {n}");
        // SAFETY: the block is live for `'a` and `i` is below its argument count (asserted above).
        Val::wrap(unsafe { mlirBlockGetArgument(self.raw, i as isize) })
    }
    pub fn args(self) -> Vec<Val<'a>> {
        (0..self.num_args()).map(|i| self.arg(i)).collect()
    }
    pub fn add_arg(self, ty: Ty<'a>, loc: Loc<'a>) -> Val<'a> {
        // SAFETY: the block, `ty` and `loc` are live for `'a`; MLIR appends a new argument to the block.
        Val::wrap(unsafe { mlirBlockAddArgument(self.raw, ty.raw, loc.raw) })
    }
    pub fn parent_op(self) -> Option<Op<'a>> {
        // SAFETY: the block is live for `'a`; mlirBlockGetParentOperation only reads it (null when it has
        // none, checked below).
        let o = Op::wrap(unsafe { mlirBlockGetParentOperation(self.raw) });
        (!o.is_null()).then_some(o)
    }
    pub fn next(self) -> Option<Blk<'a>> {
        // SAFETY: the block is live for `'a`; mlirBlockGetNextInRegion only reads it (null at the region's
        // end, checked below).
        let b = Blk::wrap(unsafe { mlirBlockGetNextInRegion(self.raw) });
        (!b.is_null()).then_some(b)
    }
}

/// Iterator over the ops of a block. The next op is read before yielding, so the yielded op may
/// be erased or moved.
pub struct BlockOps<'a>(Op<'a>);
impl<'a> Iterator for BlockOps<'a> {
    type Item = Op<'a>;
    fn next(&mut self) -> Option<Op<'a>> {
        if self.0.is_null() {
            return None;
        }
        let cur = self.0;
        // SAFETY: `cur` is not null (checked above) and is live for `'a`; the call only reads it.
        self.0 = Op::wrap(unsafe { mlirOperationGetNextInBlock(cur.raw) });
        Some(cur)
    }
}

impl<'a> Reg<'a> {
    pub fn blocks(self) -> Vec<Blk<'a>> {
        let mut out = Vec::new();
        // SAFETY: the region is live for `'a`; mlirRegionGetFirstBlock only reads it (null when empty).
        let mut b = Blk::wrap(unsafe { mlirRegionGetFirstBlock(self.raw) });
        while !b.is_null() {
            out.push(b);
            // SAFETY: `b` is a live block of the region (not null: the loop checks); the call only reads it.
            b = Blk::wrap(unsafe { mlirBlockGetNextInRegion(b.raw) });
        }
        out
    }
    pub fn first_block(self) -> Option<Blk<'a>> {
        // SAFETY: the region is live for `'a`; mlirRegionGetFirstBlock only reads it (null when empty,
        // checked below).
        let b = Blk::wrap(unsafe { mlirRegionGetFirstBlock(self.raw) });
        (!b.is_null()).then_some(b)
    }
}

/// Panics (a bug in the caller, never undefined behaviour) when `i` is not below `n`.
fn check(i: usize, n: usize, what: &str, op: Op) {
    assert!(i < n, "phobos bug: {what} {i} of '{}', which has {n}", op.name());
}
