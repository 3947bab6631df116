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
        let t = Ty::wrap(unsafe { mlirTypeParseGet(self.raw, sref(text)) });
        (!t.is_null()).then_some(t)
    }
    /// Parses an attribute, e.g. `"32 : i32"`; None when the text is not an attribute.
    pub fn attr(self, text: &str) -> Option<Attr<'a>> {
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
        Ty::wrap(unsafe { mlirIntegerTypeGet(self.raw, width) })
    }
    pub fn index(self) -> Ty<'a> {
        Ty::wrap(unsafe { mlirIndexTypeGet(self.raw) })
    }
    pub fn int_attr(self, ty: Ty<'a>, v: i64) -> Attr<'a> {
        Attr::wrap(unsafe { mlirIntegerAttrGet(ty.raw, v) })
    }
    pub fn str_attr(self, s: &str) -> Attr<'a> {
        Attr::wrap(unsafe { mlirStringAttrGet(self.raw, sref(s)) })
    }
    pub fn unit_attr(self) -> Attr<'a> {
        Attr::wrap(unsafe { mlirUnitAttrGet(self.raw) })
    }
    pub fn sym_attr(self, s: &str) -> Attr<'a> {
        Attr::wrap(unsafe { mlirFlatSymbolRefAttrGet(self.raw, sref(s)) })
    }
    /// A DictionaryAttr of `entries` (names unique).
    pub fn dict_attr(self, entries: &[(String, Attr<'a>)]) -> Attr<'a> {
        let named: Vec<MlirNamedAttribute> =
            entries.iter().map(|(n, a)| unsafe { mlirNamedAttributeGet(mlirIdentifierGet(self.raw, sref(n)), a.raw) }).collect();
        Attr::wrap(unsafe { mlirDictionaryAttrGet(self.raw, named.len() as isize, named.as_ptr()) })
    }
    /// An ArrayAttr of `items`.
    pub fn array_attr(self, items: &[Attr<'a>]) -> Attr<'a> {
        let raw: Vec<MlirAttribute> = items.iter().map(|a| a.raw).collect();
        Attr::wrap(unsafe { mlirArrayAttrGet(self.raw, raw.len() as isize, raw.as_ptr()) })
    }
    pub fn unknown_loc(self) -> Loc<'a> {
        Loc::wrap(unsafe { mlirLocationUnknownGet(self.raw) })
    }
    pub fn file_loc(self, file: &str, line: u32, col: u32) -> Loc<'a> {
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
        unsafe { mlirTypeIsAInteger(self.raw) }
    }
    pub fn int_width(self) -> Option<u32> {
        self.is_integer().then(|| unsafe { mlirIntegerTypeGetWidth(self.raw) })
    }
    pub fn is_index(self) -> bool {
        unsafe { mlirTypeIsAIndex(self.raw) }
    }
    pub fn is_f32(self) -> bool {
        unsafe { mlirTypeIsAF32(self.raw) }
    }
    pub fn is_float(self) -> bool {
        unsafe { mlirTypeIsAFloat(self.raw) }
    }
    /// The scalar kind, or None for vectors, memrefs and other non-scalar types.
    pub fn scalar(self) -> Option<Scalar> {
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
        unsafe { mlirTypeIsAVector(self.raw) }
    }
    pub fn is_memref(self) -> bool {
        unsafe { mlirTypeIsAMemRef(self.raw) }
    }
    /// Element type of a shaped type (vector, memref).
    pub fn element(self) -> Ty<'a> {
        Ty::wrap(unsafe { mlirShapedTypeGetElementType(self.raw) })
    }
    /// Static shape of a shaped type; dynamic dimensions are None.
    pub fn shape(self) -> Vec<Option<i64>> {
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
        Ctx::wrap(unsafe { mlirTypeGetContext(self.raw) })
    }
}

impl std::fmt::Display for Ty<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&print_with(|cb, d| unsafe { mlirTypePrint(self.raw, cb, d) }))
    }
}

impl<'a> Attr<'a> {
    pub fn int(self) -> Option<i64> {
        unsafe { mlirAttributeIsAInteger(self.raw).then(|| mlirIntegerAttrGetValueInt(self.raw)) }
    }
    pub fn is_int(self) -> bool {
        unsafe { mlirAttributeIsAInteger(self.raw) }
    }
    pub fn float(self) -> Option<f64> {
        unsafe { mlirAttributeIsAFloat(self.raw).then(|| mlirFloatAttrGetValueDouble(self.raw)) }
    }
    pub fn bool(self) -> Option<bool> {
        unsafe { mlirAttributeIsABool(self.raw).then(|| mlirBoolAttrGetValue(self.raw)) }
    }
    pub fn str(self) -> Option<String> {
        unsafe { mlirAttributeIsAString(self.raw).then(|| from_sref(mlirStringAttrGetValue(self.raw))) }
    }
    pub fn symbol(self) -> Option<String> {
        unsafe { mlirAttributeIsAFlatSymbolRef(self.raw).then(|| from_sref(mlirFlatSymbolRefAttrGetValue(self.raw))) }
    }
    /// Elements of a `array<i32: ...>` or `array<i64: ...>` attribute.
    pub fn dense_ints(self) -> Option<Vec<i64>> {
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
        Ty::wrap(unsafe { mlirAttributeGetType(self.raw) })
    }
    /// The type held by a TypeAttr.
    pub fn type_value(self) -> Option<Ty<'a>> {
        unsafe { mlirAttributeIsAType(self.raw).then(|| Ty::wrap(mlirTypeAttrGetValue(self.raw))) }
    }
    /// The elements of a dense elements attribute (splat or not), e.g. a vector constant.
    pub fn dense_elements(self) -> Option<Vec<Attr<'a>>> {
        unsafe {
            if !mlirAttributeIsADenseElements(self.raw) {
                return None;
            }
            let count = mlirElementsAttrGetNumElements(self.raw) as usize;
            if mlirDenseElementsAttrIsSplat(self.raw) {
                return Some(vec![Attr::wrap(mlirDenseElementsAttrGetSplatValue(self.raw)); count]);
            }
            Some(
                (0..count)
                    .map(|i| {
                        let mut idx = [i as u64];
                        Attr::wrap(mlirElementsAttrGetValue(self.raw, 1, idx.as_mut_ptr()))
                    })
                    .collect(),
            )
        }
    }
    /// The payload of a `#gpu.object` (the PTX text of `gpu-module-to-binary{format=isa}`).
    pub fn gpu_object_text(self) -> String {
        unsafe { from_sref(mlirGPUObjectAttrGetObject(self.raw)) }
    }
    /// The entry `name` of a DictionaryAttr.
    pub fn dict_get(self, name: &str) -> Option<Attr<'a>> {
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
        unsafe {
            mlirAttributeIsAArray(self.raw)
                .then(|| (0..mlirArrayAttrGetNumElements(self.raw)).map(|i| Attr::wrap(mlirArrayAttrGetElement(self.raw, i))).collect())
        }
    }
    /// Dense elements as integers (splat or not), e.g. the value of a vector `arith.constant`.
    pub fn dense_elements_i64(self) -> Option<Vec<i64>> {
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
        f.write_str(&print_with(|cb, d| unsafe { mlirAttributePrint(self.raw, cb, d) }))
    }
}
