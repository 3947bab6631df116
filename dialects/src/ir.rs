//! A thin, copyable view of MLIR IR over the C API.
//!
//! melior's safe types carry two lifetimes each, which makes pattern code that keeps values across
//! insertions hard to write. Phobos passes, verifiers and the simulator's translator work on these
//! `Copy` handles instead: each wraps one raw C-API handle.
//!
//! # Safety contract
//! A handle is valid while the IR it points into is alive and the entity has not been erased.
//! Every user in Phobos obtains handles inside a pass run or while it owns the module, and never
//! keeps them past either; that is the invariant the `unsafe` blocks below rely on.

use mlir_sys::*;
use std::ffi::c_void;

/// Converts a Rust string into a C-API string reference (borrowed, not NUL-terminated).
pub fn sref(s: &str) -> MlirStringRef {
    MlirStringRef { data: s.as_ptr() as *const _, length: s.len() }
}

/// Copies a C-API string reference into a Rust string.
pub fn from_sref(s: MlirStringRef) -> String {
    if s.data.is_null() || s.length == 0 {
        return String::new();
    }
    let bytes = unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

unsafe extern "C" fn append_to_string(s: MlirStringRef, data: *mut c_void) {
    let out = unsafe { &mut *(data as *mut String) };
    out.push_str(&from_sref(s));
}

/// Runs a C-API printer into a String.
pub fn print_with(f: impl FnOnce(MlirStringCallback, *mut c_void)) -> String {
    let mut out = String::new();
    f(Some(append_to_string), &mut out as *mut String as *mut c_void);
    out
}

macro_rules! handle {
    ($name:ident, $raw:ty) => {
        #[derive(Clone, Copy, Debug)]
        #[doc = concat!("A copyable `", stringify!($raw), "` handle (see the module's safety contract).")]
        pub struct $name(pub $raw);
        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                self.0.ptr == other.0.ptr
            }
        }
        impl Eq for $name {}
        impl std::hash::Hash for $name {
            fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
                (self.0.ptr as usize).hash(h)
            }
        }
        impl $name {
            /// True for the null handle.
            pub fn is_null(self) -> bool {
                self.0.ptr.is_null()
            }
        }
    };
}

handle!(Ctx, MlirContext);
handle!(Op, MlirOperation);
handle!(Val, MlirValue);
handle!(Ty, MlirType);
handle!(Attr, MlirAttribute);
handle!(Blk, MlirBlock);
handle!(Reg, MlirRegion);
handle!(Loc, MlirLocation);

// ----------------------------------------------------------------------------------------------
// Context, types and attributes

impl Ctx {
    /// The raw context of a melior context.
    pub fn of(ctx: &melior::Context) -> Ctx {
        Ctx(ctx.to_raw())
    }
    /// Parses a type, e.g. `"memref<32xf32, 3>"`; None when the text is not a type.
    pub fn ty(self, text: &str) -> Option<Ty> {
        let t = Ty(unsafe { mlirTypeParseGet(self.0, sref(text)) });
        (!t.is_null()).then_some(t)
    }
    /// Parses an attribute, e.g. `"32 : i32"`; None when the text is not an attribute.
    pub fn attr(self, text: &str) -> Option<Attr> {
        let a = Attr(unsafe { mlirAttributeParseGet(self.0, sref(text)) });
        (!a.is_null()).then_some(a)
    }
    /// A type that Phobos itself spells, so a parse failure is a bug in Phobos.
    pub fn t(self, text: &str) -> Ty {
        self.ty(text).unwrap_or_else(|| panic!("phobos bug: bad type text `{text}`"))
    }
    /// An attribute that Phobos itself spells.
    pub fn a(self, text: &str) -> Attr {
        self.attr(text).unwrap_or_else(|| panic!("phobos bug: bad attribute text `{text}`"))
    }
    pub fn i(self, width: u32) -> Ty {
        Ty(unsafe { mlirIntegerTypeGet(self.0, width) })
    }
    pub fn index(self) -> Ty {
        Ty(unsafe { mlirIndexTypeGet(self.0) })
    }
    pub fn int_attr(self, ty: Ty, v: i64) -> Attr {
        Attr(unsafe { mlirIntegerAttrGet(ty.0, v) })
    }
    pub fn str_attr(self, s: &str) -> Attr {
        Attr(unsafe { mlirStringAttrGet(self.0, sref(s)) })
    }
    pub fn unit_attr(self) -> Attr {
        Attr(unsafe { mlirUnitAttrGet(self.0) })
    }
    pub fn sym_attr(self, s: &str) -> Attr {
        Attr(unsafe { mlirFlatSymbolRefAttrGet(self.0, sref(s)) })
    }
    pub fn unknown_loc(self) -> Loc {
        Loc(unsafe { mlirLocationUnknownGet(self.0) })
    }
    pub fn file_loc(self, file: &str, line: u32, col: u32) -> Loc {
        Loc(unsafe { mlirLocationFileLineColGet(self.0, sref(file), line, col) })
    }
}

/// The scalar element kinds Phobos moves between lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    Int(u32),
    F16,
    BF16,
    F32,
    F64,
    Index,
}

impl Scalar {
    pub fn bits(self) -> u32 {
        match self {
            Scalar::Int(w) => w,
            Scalar::F16 | Scalar::BF16 => 16,
            Scalar::F32 => 32,
            Scalar::F64 | Scalar::Index => 64,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::BF16 | Scalar::F32 | Scalar::F64)
    }
}

impl Ty {
    pub fn is_integer(self) -> bool {
        unsafe { mlirTypeIsAInteger(self.0) }
    }
    pub fn int_width(self) -> Option<u32> {
        self.is_integer().then(|| unsafe { mlirIntegerTypeGetWidth(self.0) })
    }
    pub fn is_index(self) -> bool {
        unsafe { mlirTypeIsAIndex(self.0) }
    }
    pub fn is_f32(self) -> bool {
        unsafe { mlirTypeIsAF32(self.0) }
    }
    pub fn is_float(self) -> bool {
        unsafe { mlirTypeIsAFloat(self.0) }
    }
    /// The scalar kind, or None for vectors, memrefs and other non-scalar types.
    pub fn scalar(self) -> Option<Scalar> {
        unsafe {
            if mlirTypeIsAInteger(self.0) {
                Some(Scalar::Int(mlirIntegerTypeGetWidth(self.0)))
            } else if mlirTypeIsAIndex(self.0) {
                Some(Scalar::Index)
            } else if mlirTypeIsAF16(self.0) {
                Some(Scalar::F16)
            } else if mlirTypeIsABF16(self.0) {
                Some(Scalar::BF16)
            } else if mlirTypeIsAF32(self.0) {
                Some(Scalar::F32)
            } else if mlirTypeIsAF64(self.0) {
                Some(Scalar::F64)
            } else {
                None
            }
        }
    }
    pub fn is_vector(self) -> bool {
        unsafe { mlirTypeIsAVector(self.0) }
    }
    pub fn is_memref(self) -> bool {
        unsafe { mlirTypeIsAMemRef(self.0) }
    }
    /// Element type of a shaped type (vector, memref).
    pub fn element(self) -> Ty {
        Ty(unsafe { mlirShapedTypeGetElementType(self.0) })
    }
    /// Static shape of a shaped type; dynamic dimensions are None.
    pub fn shape(self) -> Vec<Option<i64>> {
        unsafe {
            let rank = mlirShapedTypeGetRank(self.0);
            (0..rank)
                .map(
                    |i| {
                        if mlirShapedTypeIsDynamicDim(self.0, i as isize) {
                            None
                        } else {
                            Some(mlirShapedTypeGetDimSize(self.0, i as isize))
                        }
                    },
                )
                .collect()
        }
    }
    /// The memory space of a memref as its integer (workgroup = 3), 0 when absent.
    pub fn memory_space(self) -> u32 {
        let a = Attr(unsafe { mlirMemRefTypeGetMemorySpace(self.0) });
        if a.is_null() {
            return 0;
        }
        if let Some(v) = a.int() {
            return v as u32;
        }
        let s = a.to_string();
        if s.contains("workgroup") {
            3
        } else if s.contains("private") {
            5
        } else {
            1
        }
    }
    pub fn ctx(self) -> Ctx {
        Ctx(unsafe { mlirTypeGetContext(self.0) })
    }
}

impl std::fmt::Display for Ty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&print_with(|cb, d| unsafe { mlirTypePrint(self.0, cb, d) }))
    }
}

impl Attr {
    pub fn int(self) -> Option<i64> {
        unsafe { mlirAttributeIsAInteger(self.0).then(|| mlirIntegerAttrGetValueInt(self.0)) }
    }
    pub fn is_int(self) -> bool {
        unsafe { mlirAttributeIsAInteger(self.0) }
    }
    pub fn float(self) -> Option<f64> {
        unsafe { mlirAttributeIsAFloat(self.0).then(|| mlirFloatAttrGetValueDouble(self.0)) }
    }
    pub fn bool(self) -> Option<bool> {
        unsafe { mlirAttributeIsABool(self.0).then(|| mlirBoolAttrGetValue(self.0)) }
    }
    pub fn str(self) -> Option<String> {
        unsafe { mlirAttributeIsAString(self.0).then(|| from_sref(mlirStringAttrGetValue(self.0))) }
    }
    pub fn symbol(self) -> Option<String> {
        unsafe { mlirAttributeIsAFlatSymbolRef(self.0).then(|| from_sref(mlirFlatSymbolRefAttrGetValue(self.0))) }
    }
    /// Elements of a `array<i32: ...>` or `array<i64: ...>` attribute.
    pub fn dense_ints(self) -> Option<Vec<i64>> {
        unsafe {
            if mlirAttributeIsADenseI32Array(self.0) {
                let n = mlirDenseArrayGetNumElements(self.0);
                Some((0..n).map(|i| mlirDenseI32ArrayGetElement(self.0, i) as i64).collect())
            } else if mlirAttributeIsADenseI64Array(self.0) {
                let n = mlirDenseArrayGetNumElements(self.0);
                Some((0..n).map(|i| mlirDenseI64ArrayGetElement(self.0, i)).collect())
            } else {
                None
            }
        }
    }
    /// The type of a typed attribute (integer, float).
    pub fn ty(self) -> Ty {
        Ty(unsafe { mlirAttributeGetType(self.0) })
    }
    /// The type held by a TypeAttr.
    pub fn type_value(self) -> Option<Ty> {
        unsafe { mlirAttributeIsAType(self.0).then(|| Ty(mlirTypeAttrGetValue(self.0))) }
    }
    /// The entry `name` of a DictionaryAttr.
    pub fn dict_get(self, name: &str) -> Option<Attr> {
        unsafe {
            if !mlirAttributeIsADictionary(self.0) {
                return None;
            }
            let a = Attr(mlirDictionaryAttrGetElementByName(self.0, sref(name)));
            (!a.is_null()).then_some(a)
        }
    }
    /// Elements of an ArrayAttr.
    pub fn array(self) -> Option<Vec<Attr>> {
        unsafe {
            mlirAttributeIsAArray(self.0)
                .then(|| (0..mlirArrayAttrGetNumElements(self.0)).map(|i| Attr(mlirArrayAttrGetElement(self.0, i))).collect())
        }
    }
    /// Dense elements as integers (splat or not), e.g. the value of a vector `arith.constant`.
    pub fn dense_elements_i64(self) -> Option<Vec<i64>> {
        unsafe {
            if !mlirAttributeIsADenseElements(self.0) {
                return None;
            }
            let n = mlirElementsAttrGetNumElements(self.0);
            let splat = mlirDenseElementsAttrIsSplat(self.0);
            let mut out = Vec::with_capacity(n as usize);
            for i in 0..n {
                let e = if splat {
                    mlirDenseElementsAttrGetSplatValue(self.0)
                } else {
                    let mut idx = [i as u64];
                    mlirElementsAttrGetValue(self.0, 1, idx.as_mut_ptr())
                };
                let e = Attr(e);
                if let Some(v) = e.int() {
                    out.push(v)
                } else if let Some(f) = e.float() {
                    out.push(f.to_bits() as i64)
                } else {
                    return None;
                }
            }
            Some(out)
        }
    }
}

impl std::fmt::Display for Attr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&print_with(|cb, d| unsafe { mlirAttributePrint(self.0, cb, d) }))
    }
}

// ----------------------------------------------------------------------------------------------
// Operations, values, blocks and regions

impl Op {
    pub fn name(self) -> String {
        unsafe { from_sref(mlirIdentifierStr(mlirOperationGetName(self.0))) }
    }
    /// True when the op's name is `name`; avoids allocating for the common check.
    pub fn is(self, name: &str) -> bool {
        unsafe {
            let s = mlirIdentifierStr(mlirOperationGetName(self.0));
            s.length == name.len() && std::slice::from_raw_parts(s.data as *const u8, s.length) == name.as_bytes()
        }
    }
    pub fn ctx(self) -> Ctx {
        Ctx(unsafe { mlirOperationGetContext(self.0) })
    }
    pub fn loc(self) -> Loc {
        Loc(unsafe { mlirOperationGetLocation(self.0) })
    }
    pub fn num_operands(self) -> usize {
        unsafe { mlirOperationGetNumOperands(self.0) as usize }
    }
    pub fn operand(self, i: usize) -> Val {
        Val(unsafe { mlirOperationGetOperand(self.0, i as isize) })
    }
    pub fn operands(self) -> Vec<Val> {
        (0..self.num_operands()).map(|i| self.operand(i)).collect()
    }
    pub fn set_operand(self, i: usize, v: Val) {
        unsafe { mlirOperationSetOperand(self.0, i as isize, v.0) }
    }
    pub fn num_results(self) -> usize {
        unsafe { mlirOperationGetNumResults(self.0) as usize }
    }
    pub fn result(self, i: usize) -> Val {
        Val(unsafe { mlirOperationGetResult(self.0, i as isize) })
    }
    pub fn results(self) -> Vec<Val> {
        (0..self.num_results()).map(|i| self.result(i)).collect()
    }
    /// An attribute, inherent (properties) or discardable.
    pub fn attr(self, name: &str) -> Option<Attr> {
        let a = Attr(unsafe { mlirOperationGetAttributeByName(self.0, sref(name)) });
        (!a.is_null()).then_some(a)
    }
    pub fn set_attr(self, name: &str, a: Attr) {
        unsafe { mlirOperationSetAttributeByName(self.0, sref(name), a.0) }
    }
    pub fn remove_attr(self, name: &str) {
        unsafe {
            mlirOperationRemoveAttributeByName(self.0, sref(name));
        }
    }
    /// All discardable attributes, in order.
    pub fn attrs(self) -> Vec<(String, Attr)> {
        unsafe {
            (0..mlirOperationGetNumAttributes(self.0))
                .map(|i| {
                    let na = mlirOperationGetAttribute(self.0, i);
                    (from_sref(mlirIdentifierStr(na.name)), Attr(na.attribute))
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
        unsafe { mlirOperationGetNumRegions(self.0) as usize }
    }
    pub fn region(self, i: usize) -> Reg {
        Reg(unsafe { mlirOperationGetRegion(self.0, i as isize) })
    }
    pub fn block(self) -> Option<Blk> {
        let b = Blk(unsafe { mlirOperationGetBlock(self.0) });
        (!b.is_null()).then_some(b)
    }
    pub fn parent(self) -> Option<Op> {
        let p = Op(unsafe { mlirOperationGetParentOperation(self.0) });
        (!p.is_null()).then_some(p)
    }
    /// The closest enclosing op named `name`.
    pub fn ancestor(self, name: &str) -> Option<Op> {
        let mut cur = self.parent();
        while let Some(p) = cur {
            if p.is(name) {
                return Some(p);
            }
            cur = p.parent();
        }
        None
    }
    pub fn next(self) -> Option<Op> {
        let n = Op(unsafe { mlirOperationGetNextInBlock(self.0) });
        (!n.is_null()).then_some(n)
    }
    /// Every op nested in this one (this one included), in pre-order.
    pub fn walk(self) -> Vec<Op> {
        let mut out = Vec::new();
        self.walk_into(&mut out);
        out
    }
    fn walk_into(self, out: &mut Vec<Op>) {
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
    pub fn find_all(self, name: &str) -> Vec<Op> {
        self.walk().into_iter().filter(|o| o.is(name)).collect()
    }
    pub fn erase(self) {
        unsafe { mlirOperationDestroy(self.0) }
    }
    pub fn move_before(self, other: Op) {
        unsafe { mlirOperationMoveBefore(self.0, other.0) }
    }
    pub fn clone_op(self) -> Op {
        Op(unsafe { mlirOperationClone(self.0) })
    }
    pub fn verify(self) -> bool {
        unsafe { mlirOperationVerify(self.0) }
    }
    /// Replaces every result's uses with `vals` and erases the op.
    pub fn replace_with(self, vals: &[Val]) {
        assert_eq!(vals.len(), self.num_results(), "phobos bug: result count mismatch");
        for (i, v) in vals.iter().enumerate() {
            self.result(i).replace_all_uses_with(*v);
        }
        self.erase();
    }
    /// The op printed in generic form, on one line when it has no regions.
    pub fn to_generic_string(self) -> String {
        unsafe {
            let flags = mlirOpPrintingFlagsCreate();
            mlirOpPrintingFlagsPrintGenericOpForm(flags);
            let s = print_with(|cb, d| mlirOperationPrintWithFlags(self.0, flags, cb, d));
            mlirOpPrintingFlagsDestroy(flags);
            s
        }
    }
}

impl std::fmt::Display for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&print_with(|cb, d| unsafe { mlirOperationPrint(self.0, cb, d) }))
    }
}

impl Val {
    pub fn ty(self) -> Ty {
        Ty(unsafe { mlirValueGetType(self.0) })
    }
    /// The op that defines this value, None for a block argument.
    pub fn def(self) -> Option<Op> {
        unsafe { mlirValueIsAOpResult(self.0).then(|| Op(mlirOpResultGetOwner(self.0))) }
    }
    pub fn result_number(self) -> usize {
        unsafe { mlirOpResultGetResultNumber(self.0) as usize }
    }
    pub fn is_block_arg(self) -> bool {
        unsafe { mlirValueIsABlockArgument(self.0) }
    }
    /// For a block argument: its block and position.
    pub fn block_arg(self) -> Option<(Blk, usize)> {
        unsafe { self.is_block_arg().then(|| (Blk(mlirBlockArgumentGetOwner(self.0)), mlirBlockArgumentGetArgNumber(self.0) as usize)) }
    }
    pub fn replace_all_uses_with(self, with: Val) {
        unsafe { mlirValueReplaceAllUsesOfWith(self.0, with.0) }
    }
    /// The ops that use this value (one entry per use).
    pub fn users(self) -> Vec<Op> {
        let mut out = Vec::new();
        unsafe {
            let mut u = mlirValueGetFirstUse(self.0);
            while !mlirOpOperandIsNull(u) {
                out.push(Op(mlirOpOperandGetOwner(u)));
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
    pub fn location(self) -> Loc {
        Loc(unsafe { mlirValueGetLocation(self.0) })
    }
}

impl std::fmt::Display for Val {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&print_with(|cb, d| unsafe { mlirValuePrint(self.0, cb, d) }))
    }
}

impl Blk {
    pub fn ops(self) -> BlockOps {
        BlockOps(Op(unsafe { mlirBlockGetFirstOperation(self.0) }))
    }
    pub fn first_op(self) -> Option<Op> {
        let o = Op(unsafe { mlirBlockGetFirstOperation(self.0) });
        (!o.is_null()).then_some(o)
    }
    pub fn terminator(self) -> Option<Op> {
        let o = Op(unsafe { mlirBlockGetTerminator(self.0) });
        (!o.is_null()).then_some(o)
    }
    pub fn num_args(self) -> usize {
        unsafe { mlirBlockGetNumArguments(self.0) as usize }
    }
    pub fn arg(self, i: usize) -> Val {
        Val(unsafe { mlirBlockGetArgument(self.0, i as isize) })
    }
    pub fn args(self) -> Vec<Val> {
        (0..self.num_args()).map(|i| self.arg(i)).collect()
    }
    pub fn add_arg(self, ty: Ty, loc: Loc) -> Val {
        Val(unsafe { mlirBlockAddArgument(self.0, ty.0, loc.0) })
    }
    pub fn parent_op(self) -> Option<Op> {
        let o = Op(unsafe { mlirBlockGetParentOperation(self.0) });
        (!o.is_null()).then_some(o)
    }
    pub fn next(self) -> Option<Blk> {
        let b = Blk(unsafe { mlirBlockGetNextInRegion(self.0) });
        (!b.is_null()).then_some(b)
    }
    /// A new detached block with arguments of these types.
    pub fn create(args: &[Ty], loc: Loc) -> Blk {
        let tys: Vec<MlirType> = args.iter().map(|t| t.0).collect();
        let locs: Vec<MlirLocation> = args.iter().map(|_| loc.0).collect();
        Blk(unsafe { mlirBlockCreate(tys.len() as isize, tys.as_ptr(), locs.as_ptr()) })
    }
}

/// Iterator over the ops of a block. The next op is read before yielding, so the yielded op may
/// be erased or moved.
pub struct BlockOps(Op);
impl Iterator for BlockOps {
    type Item = Op;
    fn next(&mut self) -> Option<Op> {
        if self.0.is_null() {
            return None;
        }
        let cur = self.0;
        self.0 = Op(unsafe { mlirOperationGetNextInBlock(cur.0) });
        Some(cur)
    }
}

impl Reg {
    pub fn blocks(self) -> Vec<Blk> {
        let mut out = Vec::new();
        let mut b = Blk(unsafe { mlirRegionGetFirstBlock(self.0) });
        while !b.is_null() {
            out.push(b);
            b = Blk(unsafe { mlirBlockGetNextInRegion(b.0) });
        }
        out
    }
    pub fn first_block(self) -> Option<Blk> {
        let b = Blk(unsafe { mlirRegionGetFirstBlock(self.0) });
        (!b.is_null()).then_some(b)
    }
    pub fn append_block(self, b: Blk) {
        unsafe { mlirRegionAppendOwnedBlock(self.0, b.0) }
    }
    pub fn create() -> Reg {
        Reg(unsafe { mlirRegionCreate() })
    }
}

// ----------------------------------------------------------------------------------------------
// Building

/// Where new ops go: before an op, or at the end of a block.
#[derive(Clone, Copy, Debug)]
pub enum At {
    Before(Op),
    End(Blk),
}

/// Builds ops at an insertion point with one location.
#[derive(Clone, Copy, Debug)]
pub struct Builder {
    pub ctx: Ctx,
    pub loc: Loc,
    pub at: At,
}

impl Builder {
    /// A builder that inserts before `op`, with `op`'s location.
    pub fn before(op: Op) -> Builder {
        Builder { ctx: op.ctx(), loc: op.loc(), at: At::Before(op) }
    }
    /// A builder that appends to `blk`.
    pub fn at_end(blk: Blk, loc: Loc) -> Builder {
        let ctx = Ctx(unsafe { mlirLocationGetContext(loc.0) });
        Builder { ctx, loc, at: At::End(blk) }
    }
    pub fn with_loc(self, loc: Loc) -> Builder {
        Builder { loc, ..self }
    }

    /// Creates and inserts a generic op.
    pub fn op(self, name: &str, operands: &[Val], results: &[Ty], attrs: &[(&str, Attr)]) -> Op {
        self.op_with_regions(name, operands, results, attrs, &[])
    }

    /// Creates and inserts a generic op that owns `regions` (detached regions, moved in).
    pub fn op_with_regions(self, name: &str, operands: &[Val], results: &[Ty], attrs: &[(&str, Attr)], regions: &[Reg]) -> Op {
        unsafe {
            let mut st = mlirOperationStateGet(sref(name), self.loc.0);
            let ops: Vec<MlirValue> = operands.iter().map(|v| v.0).collect();
            mlirOperationStateAddOperands(&mut st, ops.len() as isize, ops.as_ptr());
            let tys: Vec<MlirType> = results.iter().map(|t| t.0).collect();
            mlirOperationStateAddResults(&mut st, tys.len() as isize, tys.as_ptr());
            let named: Vec<MlirNamedAttribute> =
                attrs.iter().map(|(n, a)| MlirNamedAttribute { name: mlirIdentifierGet(self.ctx.0, sref(n)), attribute: a.0 }).collect();
            mlirOperationStateAddAttributes(&mut st, named.len() as isize, named.as_ptr());
            let regs: Vec<MlirRegion> = regions.iter().map(|r| r.0).collect();
            mlirOperationStateAddOwnedRegions(&mut st, regs.len() as isize, regs.as_ptr());
            let op = Op(mlirOperationCreate(&mut st));
            assert!(!op.is_null(), "phobos bug: could not create `{name}`");
            self.insert(op);
            op
        }
    }

    /// Inserts a detached op at the insertion point.
    pub fn insert(self, op: Op) {
        unsafe {
            match self.at {
                At::Before(b) => {
                    let blk = mlirOperationGetBlock(b.0);
                    mlirBlockInsertOwnedOperationBefore(blk, b.0, op.0)
                }
                At::End(blk) => mlirBlockAppendOwnedOperation(blk.0, op.0),
            }
        }
    }

    /// One-result op: returns the result.
    pub fn v(self, name: &str, operands: &[Val], result: Ty, attrs: &[(&str, Attr)]) -> Val {
        self.op(name, operands, &[result], attrs).result(0)
    }

    pub fn const_int(self, ty: Ty, v: i64) -> Val {
        self.v("arith.constant", &[], ty, &[("value", self.ctx.int_attr(ty, v))])
    }
    pub fn i32(self, v: i64) -> Val {
        self.const_int(self.ctx.i(32), v)
    }
    pub fn index(self, v: i64) -> Val {
        self.const_int(self.ctx.index(), v)
    }
    /// A float constant of type `ty` (f16/bf16/f32/f64). Infinities and NaN are written as bit
    /// patterns; finite values in decimal with a '.', as MLIR's lexer wants.
    pub fn const_float(self, ty: Ty, v: f64) -> Val {
        let text = if v.is_finite() {
            let mut s = format!("{v:e}");
            if !s.contains('.') {
                let e = s.find('e').unwrap_or(s.len());
                s.insert_str(e, ".0");
            }
            format!("{s} : {ty}")
        } else {
            let bits = match ty.scalar() {
                Some(Scalar::F16) => format!(
                    "0x{:04X}",
                    if v.is_nan() {
                        0x7E00u16
                    } else if v > 0.0 {
                        0x7C00
                    } else {
                        0xFC00
                    }
                ),
                Some(Scalar::BF16) => format!(
                    "0x{:04X}",
                    if v.is_nan() {
                        0x7FC0u16
                    } else if v > 0.0 {
                        0x7F80
                    } else {
                        0xFF80
                    }
                ),
                Some(Scalar::F64) => format!("0x{:016X}", v.to_bits()),
                _ => format!("0x{:08X}", (v as f32).to_bits()),
            };
            format!("{bits} : {ty}")
        };
        self.v("arith.constant", &[], ty, &[("value", self.ctx.a(&text))])
    }
    /// Binary arith op with the type of `a`.
    pub fn bin(self, name: &str, a: Val, b: Val) -> Val {
        self.v(name, &[a, b], a.ty(), &[])
    }
    pub fn cmpi(self, pred: &str, a: Val, b: Val) -> Val {
        let p = match pred {
            "eq" => 0,
            "ne" => 1,
            "slt" => 2,
            "sle" => 3,
            "sgt" => 4,
            "sge" => 5,
            "ult" => 6,
            "ule" => 7,
            "ugt" => 8,
            "uge" => 9,
            _ => panic!("phobos bug: cmpi predicate {pred}"),
        };
        let i64t = self.ctx.i(64);
        self.v("arith.cmpi", &[a, b], self.ctx.i(1), &[("predicate", self.ctx.int_attr(i64t, p))])
    }
    pub fn cmpf(self, pred: &str, a: Val, b: Val) -> Val {
        let p = match pred {
            "oeq" => 1,
            "ogt" => 2,
            "oge" => 3,
            "olt" => 4,
            "ole" => 5,
            "one" => 6,
            "ord" => 7,
            "ueq" => 8,
            "ugt" => 9,
            "uge" => 10,
            "ult" => 11,
            "ule" => 12,
            "une" => 13,
            "uno" => 14,
            _ => panic!("phobos bug: cmpf predicate {pred}"),
        };
        let i64t = self.ctx.i(64);
        self.v("arith.cmpf", &[a, b], self.ctx.i(1), &[("predicate", self.ctx.int_attr(i64t, p))])
    }
    pub fn select(self, c: Val, a: Val, b: Val) -> Val {
        self.v("arith.select", &[c, a, b], a.ty(), &[])
    }
    /// A cast op (`arith.extui`, `arith.bitcast`, ...) to `ty`.
    pub fn cast(self, name: &str, v: Val, ty: Ty) -> Val {
        self.v(name, &[v], ty, &[])
    }
}

// ----------------------------------------------------------------------------------------------
// Locations

/// A source position: file, line and column (1-based).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SrcLoc {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

impl std::fmt::Display for SrcLoc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

impl Loc {
    /// The first file:line:col inside this location, looking through names, fusions and call
    /// sites (the callee side), as a user would want it reported.
    pub fn src(self) -> Option<SrcLoc> {
        unsafe {
            let l = self.0;
            if mlirLocationIsAFileLineColRange(l) {
                return Some(SrcLoc {
                    file: from_sref(mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(l))),
                    line: mlirLocationFileLineColRangeGetStartLine(l) as u32,
                    col: mlirLocationFileLineColRangeGetStartColumn(l) as u32,
                });
            }
            if mlirLocationIsAName(l) {
                return Loc(mlirLocationNameGetChildLoc(l)).src();
            }
            if mlirLocationIsACallSite(l) {
                return Loc(mlirLocationCallSiteGetCallee(l)).src().or_else(|| Loc(mlirLocationCallSiteGetCaller(l)).src());
            }
            if mlirLocationIsAFused(l) {
                let n = mlirLocationFusedGetNumLocations(l);
                let mut locs = vec![MlirLocation { ptr: std::ptr::null() }; n as usize];
                mlirLocationFusedGetLocations(l, locs.as_mut_ptr());
                return locs.into_iter().find_map(|x| Loc(x).src());
            }
            None
        }
    }
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&print_with(|cb, d| unsafe { mlirLocationPrint(self.0, cb, d) }))
    }
}
