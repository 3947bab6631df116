//! Contexts, types and attributes: building and reading them.

use crate::*;
use mlir_sys::*;

impl<'a> Ctx<'a> {
    /// The raw context of a melior context.
    pub fn of(ctx: &'a melior::Context) -> Ctx<'a> {
        Ctx::wrap(ctx.to_raw())
    }
    /// Parses a type, e.g. `"memref<32xf32, 3>"`; None when the text is not a type.
    pub fn ty(self, text: &str) -> Option<Ty<'a>> {
        // SAFETY: the context is live for `'a`; the string ref points into `text`, alive for the call. A
        // parse failure comes back null (checked below).
        let t = Ty::wrap(unsafe { mlirTypeParseGet(self.raw, sref(text)) });
        (!t.is_null()).then_some(t)
    }
    /// Parses an attribute, e.g. `"32 : i32"`; None when the text is not an attribute.
    pub fn attr(self, text: &str) -> Option<Attr<'a>> {
        // SAFETY: the context is live for `'a`; the string ref points into `text`, alive for the call. A
        // parse failure comes back null (checked below).
        let a = Attr::wrap(unsafe { mlirAttributeParseGet(self.raw, sref(text)) });
        (!a.is_null()).then_some(a)
    }
    /// A type that Phobos itself spells, so a parse failure is a bug in Phobos.
    pub fn known_type(self, text: &str) -> Ty<'a> {
        self.ty(text).unwrap_or_else(|| panic!("phobos bug: bad type text `{text}`"))
    }
    /// An attribute that Phobos itself spells.
    pub fn known_attr(self, text: &str) -> Attr<'a> {
        self.attr(text).unwrap_or_else(|| panic!("phobos bug: bad attribute text `{text}`"))
    }
    pub fn i(self, width: u32) -> Ty<'a> {
        // SAFETY: the context is live for `'a`; the integer type is uniqued in it.
        Ty::wrap(unsafe { mlirIntegerTypeGet(self.raw, width) })
    }
    pub fn index(self) -> Ty<'a> {
        // SAFETY: the context is live for `'a`; the index type is uniqued in it.
        Ty::wrap(unsafe { mlirIndexTypeGet(self.raw) })
    }
    pub fn int_attr(self, ty: Ty<'a>, v: i64) -> Attr<'a> {
        assert!(ty.is_integer() || ty.is_index(), "phobos bug: an integer attribute of type {ty}");
        // SAFETY: `ty` is live for `'a` and an integer or index type (checked above), which is what
        // mlirIntegerAttrGet casts it to.
        Attr::wrap(unsafe { mlirIntegerAttrGet(ty.raw, v) })
    }
    pub fn str_attr(self, s: &str) -> Attr<'a> {
        // SAFETY: the context is live for `'a`; the string ref points into `s`, alive for the call (MLIR
        // copies it).
        Attr::wrap(unsafe { mlirStringAttrGet(self.raw, sref(s)) })
    }
    pub fn unit_attr(self) -> Attr<'a> {
        // SAFETY: the context is live for `'a`; the unit attribute is uniqued in it.
        Attr::wrap(unsafe { mlirUnitAttrGet(self.raw) })
    }
    pub fn sym_attr(self, s: &str) -> Attr<'a> {
        // SAFETY: the context is live for `'a`; the string ref points into `s`, alive for the call (MLIR
        // copies it).
        Attr::wrap(unsafe { mlirFlatSymbolRefAttrGet(self.raw, sref(s)) })
    }
    /// A DictionaryAttr of `entries` (names unique).
    pub fn dict_attr(self, entries: &[(String, Attr<'a>)]) -> Attr<'a> {
        let named: Vec<MlirNamedAttribute> =
            // SAFETY: the context and `a` are live for `'a`; the string ref points into `n`, alive for the call
            // (the identifier copies it).
            entries.iter().map(|(n, a)| unsafe { mlirNamedAttributeGet(mlirIdentifierGet(self.raw, sref(n)), a.raw) }).collect();
        // SAFETY: `named` holds `named.len()` entries and is alive for the call; MLIR copies them into the
        // uniqued dictionary.
        Attr::wrap(unsafe { mlirDictionaryAttrGet(self.raw, named.len() as isize, named.as_ptr()) })
    }
    /// An ArrayAttr of `items`.
    pub fn array_attr(self, items: &[Attr<'a>]) -> Attr<'a> {
        let raw: Vec<MlirAttribute> = items.iter().map(|a| a.raw).collect();
        // SAFETY: `raw` holds `raw.len()` live attributes and is alive for the call; MLIR copies them into
        // the uniqued array.
        Attr::wrap(unsafe { mlirArrayAttrGet(self.raw, raw.len() as isize, raw.as_ptr()) })
    }
    pub fn unknown_loc(self) -> Loc<'a> {
        // SAFETY: the context is live for `'a`; the location is uniqued in it.
        Loc::wrap(unsafe { mlirLocationUnknownGet(self.raw) })
    }
    pub fn file_loc(self, file: &str, line: u32, col: u32) -> Loc<'a> {
        // SAFETY: the context is live for `'a`; the string ref points into `file`, alive for the call (MLIR
        // copies it).
        Loc::wrap(unsafe { mlirLocationFileLineColGet(self.raw, sref(file), line, col) })
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

impl<'a> Ty<'a> {
    pub fn is_integer(self) -> bool {
        // SAFETY: the type is live for `'a`; mlirTypeIsAInteger only reads it.
        unsafe { mlirTypeIsAInteger(self.raw) }
    }
    pub fn int_width(self) -> Option<u32> {
        // SAFETY: the type is live for `'a` and is an integer type (`is_integer`, checked first).
        self.is_integer().then(|| unsafe { mlirIntegerTypeGetWidth(self.raw) })
    }
    pub fn is_index(self) -> bool {
        // SAFETY: the type is live for `'a`; mlirTypeIsAIndex only reads it.
        unsafe { mlirTypeIsAIndex(self.raw) }
    }
    pub fn is_f32(self) -> bool {
        // SAFETY: the type is live for `'a`; mlirTypeIsAF32 only reads it.
        unsafe { mlirTypeIsAF32(self.raw) }
    }
    pub fn is_float(self) -> bool {
        // SAFETY: the type is live for `'a`; mlirTypeIsAFloat only reads it.
        unsafe { mlirTypeIsAFloat(self.raw) }
    }
    /// The scalar kind, or None for vectors, memrefs and other non-scalar types.
    pub fn scalar(self) -> Option<Scalar> {
        // SAFETY: the type is live for `'a`; mlirIntegerTypeGetWidth runs only after mlirTypeIsAInteger, and
        // the other calls only test the type's kind.
        unsafe {
            if mlirTypeIsAInteger(self.raw) {
                Some(Scalar::Int(mlirIntegerTypeGetWidth(self.raw)))
            } else if mlirTypeIsAIndex(self.raw) {
                Some(Scalar::Index)
            } else if mlirTypeIsAF16(self.raw) {
                Some(Scalar::F16)
            } else if mlirTypeIsABF16(self.raw) {
                Some(Scalar::BF16)
            } else if mlirTypeIsAF32(self.raw) {
                Some(Scalar::F32)
            } else if mlirTypeIsAF64(self.raw) {
                Some(Scalar::F64)
            } else {
                None
            }
        }
    }
    pub fn is_vector(self) -> bool {
        // SAFETY: the type is live for `'a`; mlirTypeIsAVector only reads it.
        unsafe { mlirTypeIsAVector(self.raw) }
    }
    /// True for an `!llvm.ptr` (of any address space).
    pub fn is_llvm_pointer(self) -> bool {
        // SAFETY: the type is live for `'a`; mlirTypeIsALLVMPointerType only reads it.
        unsafe { mlirTypeIsALLVMPointerType(self.raw) }
    }
    /// The field types of an `!llvm.struct<(...)>`; None for another type.
    pub fn struct_fields(self) -> Option<Vec<Ty<'a>>> {
        // SAFETY: the type is live for `'a`; the struct getters run only once the IsA check says
        // it is one, with indices below its field count.
        unsafe {
            if !mlirTypeIsALLVMStructType(self.raw) {
                return None;
            }
            let n = mlirLLVMStructTypeGetNumElementTypes(self.raw);
            Some((0..n).map(|i| Ty::wrap(mlirLLVMStructTypeGetElementType(self.raw, i))).collect())
        }
    }
    pub fn is_memref(self) -> bool {
        // SAFETY: the type is live for `'a`; mlirTypeIsAMemRef only reads it.
        unsafe { mlirTypeIsAMemRef(self.raw) }
    }
    /// Panics (a bug in the caller, never undefined behaviour) unless the type is shaped.
    fn check_shaped(self, what: &str) {
        // SAFETY: the type is live for `'a`; mlirTypeIsAShaped only reads it.
        assert!(unsafe { mlirTypeIsAShaped(self.raw) }, "phobos bug: the {what} of {self}, which is not a vector, memref or tensor");
    }
    /// Element type of a shaped type (vector, memref).
    pub fn element(self) -> Ty<'a> {
        self.check_shaped("element type");
        // SAFETY: the type is live for `'a` and shaped (checked above), which is what
        // mlirShapedTypeGetElementType casts it to.
        Ty::wrap(unsafe { mlirShapedTypeGetElementType(self.raw) })
    }
    /// Static shape of a shaped type; dynamic dimensions are None.
    pub fn shape(self) -> Vec<Option<i64>> {
        self.check_shaped("shape");
        // SAFETY: the type is live for `'a` and shaped (checked above), and each `i` is below its rank.
        unsafe {
            let rank = mlirShapedTypeGetRank(self.raw);
            (0..rank)
                .map(|i| {
                    if mlirShapedTypeIsDynamicDim(self.raw, i as isize) {
                        None
                    } else {
                        Some(mlirShapedTypeGetDimSize(self.raw, i as isize))
                    }
                })
                .collect()
        }
    }
    /// The memory space of a memref as its integer (workgroup = 3), 0 when absent or when this
    /// is not a memref (the C API reads a memref's fields unchecked).
    pub fn memory_space(self) -> u32 {
        if !self.is_memref() {
            return 0;
        }
        // SAFETY: the type is live for `'a` and is a memref (checked above), as
        // mlirMemRefTypeGetMemorySpace needs; no memory space comes back null (checked below).
        let a = Attr::wrap(unsafe { mlirMemRefTypeGetMemorySpace(self.raw) });
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
    pub fn ctx(self) -> Ctx<'a> {
        // SAFETY: the type is live for `'a`; mlirTypeGetContext only reads it.
        Ctx::wrap(unsafe { mlirTypeGetContext(self.raw) })
    }
}

impl std::fmt::Display for Ty<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // SAFETY: the type is live for `'a`; the callback only appends to the String behind `d`, which
        // `print_with` keeps alive for the call.
        f.write_str(&print_with(|cb, d| unsafe { mlirTypePrint(self.raw, cb, d) }))
    }
}

impl<'a> Attr<'a> {
    pub fn int(self) -> Option<i64> {
        // SAFETY: the attribute is live for `'a`; its value is read only after mlirAttributeIsAInteger.
        unsafe { mlirAttributeIsAInteger(self.raw).then(|| mlirIntegerAttrGetValueInt(self.raw)) }
    }
    pub fn is_int(self) -> bool {
        // SAFETY: the attribute is live for `'a`; mlirAttributeIsAInteger only reads it.
        unsafe { mlirAttributeIsAInteger(self.raw) }
    }
    pub fn float(self) -> Option<f64> {
        // SAFETY: the attribute is live for `'a`; its value is read only after mlirAttributeIsAFloat.
        unsafe { mlirAttributeIsAFloat(self.raw).then(|| mlirFloatAttrGetValueDouble(self.raw)) }
    }
    pub fn bool(self) -> Option<bool> {
        // SAFETY: the attribute is live for `'a`; its value is read only after mlirAttributeIsABool.
        unsafe { mlirAttributeIsABool(self.raw).then(|| mlirBoolAttrGetValue(self.raw)) }
    }
    pub fn str(self) -> Option<String> {
        // SAFETY: the attribute is live for `'a`; its value is read only after mlirAttributeIsAString, and
        // from_sref copies the bytes, which the context holds.
        unsafe { mlirAttributeIsAString(self.raw).then(|| from_sref(mlirStringAttrGetValue(self.raw))) }
    }
    pub fn symbol(self) -> Option<String> {
        // SAFETY: the attribute is live for `'a`; its value is read only after
        // mlirAttributeIsAFlatSymbolRef, and from_sref copies the bytes, which the context holds.
        unsafe { mlirAttributeIsAFlatSymbolRef(self.raw).then(|| from_sref(mlirFlatSymbolRefAttrGetValue(self.raw))) }
    }
    /// Elements of a `array<i32: ...>` or `array<i64: ...>` attribute.
    pub fn dense_ints(self) -> Option<Vec<i64>> {
        // SAFETY: the attribute is live for `'a`; each element getter runs only after the matching IsA check,
        // with `i` below mlirDenseArrayGetNumElements.
        unsafe {
            if mlirAttributeIsADenseI32Array(self.raw) {
                let n = mlirDenseArrayGetNumElements(self.raw);
                Some((0..n).map(|i| mlirDenseI32ArrayGetElement(self.raw, i) as i64).collect())
            } else if mlirAttributeIsADenseI64Array(self.raw) {
                let n = mlirDenseArrayGetNumElements(self.raw);
                Some((0..n).map(|i| mlirDenseI64ArrayGetElement(self.raw, i)).collect())
            } else {
                None
            }
        }
    }
    /// The type of a typed attribute (integer, float).
    pub fn ty(self) -> Ty<'a> {
        // SAFETY: the attribute is live for `'a`; mlirAttributeGetType only reads it (NoneType for an untyped
        // attribute).
        Ty::wrap(unsafe { mlirAttributeGetType(self.raw) })
    }
    /// The type held by a TypeAttr.
    pub fn type_value(self) -> Option<Ty<'a>> {
        // SAFETY: the attribute is live for `'a`; its value is read only after mlirAttributeIsAType.
        unsafe { mlirAttributeIsAType(self.raw).then(|| Ty::wrap(mlirTypeAttrGetValue(self.raw))) }
    }
    /// The elements of a dense elements attribute (splat or not), e.g. a vector constant.
    pub fn dense_elements(self) -> Option<Vec<Attr<'a>>> {
        // SAFETY: the attribute is live for `'a` and is dense elements (checked first), so the count,
        // splat and type getters are sound; its type is shaped (a dense elements attribute's is), and
        // each element is read with a full index of the type's rank, each coordinate below its
        // extent (the row-major decomposition of a position below the count).
        unsafe {
            if !mlirAttributeIsADenseElements(self.raw) {
                return None;
            }
            let count = mlirElementsAttrGetNumElements(self.raw) as usize;
            if mlirDenseElementsAttrIsSplat(self.raw) {
                return Some(vec![Attr::wrap(mlirDenseElementsAttrGetSplatValue(self.raw)); count]);
            }
            let ty = mlirAttributeGetType(self.raw);
            let extents: Vec<u64> = (0..mlirShapedTypeGetRank(ty)).map(|d| mlirShapedTypeGetDimSize(ty, d as isize) as u64).collect();
            Some(
                (0..count as u64)
                    .map(|pos| {
                        let mut idx = vec![0u64; extents.len()];
                        let mut rest = pos;
                        for (d, e) in extents.iter().enumerate().rev() {
                            idx[d] = rest % e.max(&1);
                            rest /= e.max(&1);
                        }
                        Attr::wrap(mlirElementsAttrGetValue(self.raw, idx.len() as isize, idx.as_mut_ptr()))
                    })
                    .collect(),
            )
        }
    }
    /// The payload of a `#gpu.object` (the PTX text of `gpu-module-to-binary{format=isa}`).
    pub fn gpu_object_text(self) -> String {
        // SAFETY: the attribute is live for `'a`; the payload is read only from a `#gpu.object`
        // (checked first); the string ref MLIR returns points into the attribute, alive for `'a`.
        unsafe {
            assert!(mlirAttributeIsAGPUObjectAttr(self.raw), "phobos bug: {self} is not a #gpu.object");
            from_sref(mlirGPUObjectAttrGetObject(self.raw))
        }
    }
    /// The entry `name` of a DictionaryAttr.
    pub fn dict_get(self, name: &str) -> Option<Attr<'a>> {
        // SAFETY: the attribute is live for `'a`; the entry is looked up only after
        // mlirAttributeIsADictionary, the string ref points into `name`, alive for the call, and a
        // missing entry comes back null (checked below).
        unsafe {
            if !mlirAttributeIsADictionary(self.raw) {
                return None;
            }
            let a = Attr::wrap(mlirDictionaryAttrGetElementByName(self.raw, sref(name)));
            (!a.is_null()).then_some(a)
        }
    }
    /// The entries of a DictionaryAttr, in order (empty for any other attribute).
    pub fn dict_entries(self) -> Vec<(String, Attr<'a>)> {
        // SAFETY: the attribute is live for `'a`; entries are read only after mlirAttributeIsADictionary,
        // each `i` below mlirDictionaryAttrGetNumElements; from_sref copies the names.
        unsafe {
            if !mlirAttributeIsADictionary(self.raw) {
                return Vec::new();
            }
            (0..mlirDictionaryAttrGetNumElements(self.raw))
                .map(|i| {
                    let n = mlirDictionaryAttrGetElement(self.raw, i);
                    (from_sref(mlirIdentifierStr(n.name)), Attr::wrap(n.attribute))
                })
                .collect()
        }
    }
    /// Elements of an ArrayAttr.
    pub fn array(self) -> Option<Vec<Attr<'a>>> {
        // SAFETY: the attribute is live for `'a`; elements are read only after mlirAttributeIsAArray, each
        // `i` below mlirArrayAttrGetNumElements.
        unsafe {
            mlirAttributeIsAArray(self.raw)
                .then(|| (0..mlirArrayAttrGetNumElements(self.raw)).map(|i| Attr::wrap(mlirArrayAttrGetElement(self.raw, i))).collect())
        }
    }
    /// Dense elements as integers (splat or not), e.g. the value of a vector `arith.constant`.
    pub fn dense_elements_i64(self) -> Option<Vec<i64>> {
        // SAFETY: as in `dense_elements`: a live dense elements attribute (checked first), and a rank-1
        // index below the count, in bounds only for a 1-D attribute (not checked here).
        unsafe {
            if !mlirAttributeIsADenseElements(self.raw) {
                return None;
            }
            let n = mlirElementsAttrGetNumElements(self.raw);
            let splat = mlirDenseElementsAttrIsSplat(self.raw);
            let mut out = Vec::with_capacity(n as usize);
            for i in 0..n {
                let e = if splat {
                    mlirDenseElementsAttrGetSplatValue(self.raw)
                } else {
                    let mut idx = [i as u64];
                    mlirElementsAttrGetValue(self.raw, 1, idx.as_mut_ptr())
                };
                let e = Attr::wrap(e);
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

impl std::fmt::Display for Attr<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // SAFETY: the attribute is live for `'a`; the callback only appends to the String behind `d`, which
        // `print_with` keeps alive for the call.
        f.write_str(&print_with(|cb, d| unsafe { mlirAttributePrint(self.raw, cb, d) }))
    }
}
