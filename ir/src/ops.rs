//! Operations, values, blocks and regions: reading the IR and moving it around. Erasing goes
//! through [`crate::Rewriter`].

use crate::*;
use mlir_sys::*;

impl<'a> Op<'a> {
    pub fn name(self) -> String {
        unsafe { from_sref(mlirIdentifierStr(mlirOperationGetName(self.raw))) }
    }
    /// True when the op's name is `name`; avoids allocating for the common check.
    pub fn is(self, name: &str) -> bool {
        unsafe {
            let s = mlirIdentifierStr(mlirOperationGetName(self.raw));
            s.length == name.len() && std::slice::from_raw_parts(s.data as *const u8, s.length) == name.as_bytes()
        }
    }
    pub fn ctx(self) -> Ctx<'a> {
        Ctx::wrap(unsafe { mlirOperationGetContext(self.raw) })
    }
    pub fn loc(self) -> Loc<'a> {
        Loc::wrap(unsafe { mlirOperationGetLocation(self.raw) })
    }
    pub fn num_operands(self) -> usize {
        unsafe { mlirOperationGetNumOperands(self.raw) as usize }
    }
    pub fn operand(self, i: usize) -> Val<'a> {
        check(i, self.num_operands(), "operand", self);
        Val::wrap(unsafe { mlirOperationGetOperand(self.raw, i as isize) })
    }
    pub fn operands(self) -> Vec<Val<'a>> {
        (0..self.num_operands()).map(|i| self.operand(i)).collect()
    }
    pub fn set_operand(self, i: usize, v: Val<'a>) {
        check(i, self.num_operands(), "operand", self);
        unsafe { mlirOperationSetOperand(self.raw, i as isize, v.raw) }
    }
    pub fn num_results(self) -> usize {
        unsafe { mlirOperationGetNumResults(self.raw) as usize }
    }
    pub fn result(self, i: usize) -> Val<'a> {
        check(i, self.num_results(), "result", self);
        Val::wrap(unsafe { mlirOperationGetResult(self.raw, i as isize) })
    }
    pub fn results(self) -> Vec<Val<'a>> {
        (0..self.num_results()).map(|i| self.result(i)).collect()
    }
    /// An attribute, inherent (properties) or discardable.
    pub fn attr(self, name: &str) -> Option<Attr<'a>> {
        let a = Attr::wrap(unsafe { mlirOperationGetAttributeByName(self.raw, sref(name)) });
        (!a.is_null()).then_some(a)
    }
    pub fn set_attr(self, name: &str, a: Attr<'a>) {
        unsafe { mlirOperationSetAttributeByName(self.raw, sref(name), a.raw) }
    }
    pub fn remove_attr(self, name: &str) {
        unsafe {
            mlirOperationRemoveAttributeByName(self.raw, sref(name));
        }
    }
    /// All discardable attributes, in order.
    pub fn attrs(self) -> Vec<(String, Attr<'a>)> {
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
        unsafe { mlirOperationGetNumRegions(self.raw) as usize }
    }
    pub fn region(self, i: usize) -> Reg<'a> {
        check(i, self.num_regions(), "region", self);
        Reg::wrap(unsafe { mlirOperationGetRegion(self.raw, i as isize) })
    }
    pub fn block(self) -> Option<Blk<'a>> {
        let b = Blk::wrap(unsafe { mlirOperationGetBlock(self.raw) });
        (!b.is_null()).then_some(b)
    }
    pub fn parent(self) -> Option<Op<'a>> {
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
        unsafe { mlirOperationVerify(self.raw) }
    }
    /// The blocks a terminator branches to, in order.
    pub fn successors(self) -> Vec<Blk<'a>> {
        unsafe { (0..mlirOperationGetNumSuccessors(self.raw)).map(|i| Blk::wrap(mlirOperationGetSuccessor(self.raw, i))).collect() }
    }
    /// The op printed with melior's printing flags.
    pub fn print_with_flags(self, flags: &melior::ir::operation::OperationPrintingFlags) -> String {
        print_with(|cb, d| unsafe { mlirOperationPrintWithFlags(self.raw, flags.to_raw(), cb, d) })
    }
    /// The op printed in generic form, on one line when it has no regions.
    pub fn to_generic_string(self) -> String {
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
        f.write_str(&print_with(|cb, d| unsafe { mlirOperationPrint(self.raw, cb, d) }))
    }
}

impl<'a> Val<'a> {
    pub fn ty(self) -> Ty<'a> {
        Ty::wrap(unsafe { mlirValueGetType(self.raw) })
    }
    /// The op that defines this value, None for a block argument.
    pub fn def(self) -> Option<Op<'a>> {
        unsafe { mlirValueIsAOpResult(self.raw).then(|| Op::wrap(mlirOpResultGetOwner(self.raw))) }
    }
    pub fn result_number(self) -> usize {
        unsafe { mlirOpResultGetResultNumber(self.raw) as usize }
    }
    pub fn is_block_arg(self) -> bool {
        unsafe { mlirValueIsABlockArgument(self.raw) }
    }
    /// For a block argument: its block and position.
    pub fn block_arg(self) -> Option<(Blk<'a>, usize)> {
        unsafe {
            self.is_block_arg().then(|| (Blk::wrap(mlirBlockArgumentGetOwner(self.raw)), mlirBlockArgumentGetArgNumber(self.raw) as usize))
        }
    }
    /// `%3`: how the value prints as an operand inside `scope` (its function, say).
    pub fn operand_name(self, scope: Op<'a>) -> String {
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
        unsafe { mlirValueReplaceAllUsesOfWith(self.raw, with.raw) }
    }
    /// The ops that use this value (one entry per use).
    pub fn users(self) -> Vec<Op<'a>> {
        let mut out = Vec::new();
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
        Loc::wrap(unsafe { mlirValueGetLocation(self.raw) })
    }
}

impl std::fmt::Display for Val<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&print_with(|cb, d| unsafe { mlirValuePrint(self.raw, cb, d) }))
    }
}

impl<'a> Blk<'a> {
    pub fn ops(self) -> BlockOps<'a> {
        BlockOps(Op::wrap(unsafe { mlirBlockGetFirstOperation(self.raw) }))
    }
    pub fn first_op(self) -> Option<Op<'a>> {
        let o = Op::wrap(unsafe { mlirBlockGetFirstOperation(self.raw) });
        (!o.is_null()).then_some(o)
    }
    pub fn terminator(self) -> Option<Op<'a>> {
        let o = Op::wrap(unsafe { mlirBlockGetTerminator(self.raw) });
        (!o.is_null()).then_some(o)
    }
    pub fn num_args(self) -> usize {
        unsafe { mlirBlockGetNumArguments(self.raw) as usize }
    }
    pub fn arg(self, i: usize) -> Val<'a> {
        let n = self.num_args();
        assert!(i < n, "phobos bug: block argument {i} of a block with {n}");
        Val::wrap(unsafe { mlirBlockGetArgument(self.raw, i as isize) })
    }
    pub fn args(self) -> Vec<Val<'a>> {
        (0..self.num_args()).map(|i| self.arg(i)).collect()
    }
    pub fn add_arg(self, ty: Ty<'a>, loc: Loc<'a>) -> Val<'a> {
        Val::wrap(unsafe { mlirBlockAddArgument(self.raw, ty.raw, loc.raw) })
    }
    pub fn parent_op(self) -> Option<Op<'a>> {
        let o = Op::wrap(unsafe { mlirBlockGetParentOperation(self.raw) });
        (!o.is_null()).then_some(o)
    }
    pub fn next(self) -> Option<Blk<'a>> {
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
        self.0 = Op::wrap(unsafe { mlirOperationGetNextInBlock(cur.raw) });
        Some(cur)
    }
}

impl<'a> Reg<'a> {
    pub fn blocks(self) -> Vec<Blk<'a>> {
        let mut out = Vec::new();
        let mut b = Blk::wrap(unsafe { mlirRegionGetFirstBlock(self.raw) });
        while !b.is_null() {
            out.push(b);
            b = Blk::wrap(unsafe { mlirBlockGetNextInRegion(b.raw) });
        }
        out
    }
    pub fn first_block(self) -> Option<Blk<'a>> {
        let b = Blk::wrap(unsafe { mlirRegionGetFirstBlock(self.raw) });
        (!b.is_null()).then_some(b)
    }
}

/// Panics (a bug in the caller, never undefined behaviour) when `i` is not below `n`.
fn check(i: usize, n: usize, what: &str, op: Op) {
    assert!(i < n, "phobos bug: {what} {i} of '{}', which has {n}", op.name());
}
