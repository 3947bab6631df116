//! The types of Phobos values and how they are spelled in MLIR.

/// A scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Scalar {
    I8,
    I16,
    I32,
    I64,
    F16,
    /// bfloat16: f32's exponent, 8 bits of significand.
    BF16,
    F32,
    F64,
    Bool,
}

impl Scalar {
    /// Every scalar type of the language, in the order messages list them: the one list the
    /// parser ([`crate::parser::TYPES`]), the API's parameter types, the runtime's scalar
    /// arguments and the fuzzer read.
    pub const ALL: [Scalar; 9] =
        [Scalar::I8, Scalar::I16, Scalar::I32, Scalar::I64, Scalar::F16, Scalar::BF16, Scalar::F32, Scalar::F64, Scalar::Bool];
    /// Their names, in the same order.
    pub const NAMES: [&'static str; 9] = {
        let mut names = [""; 9];
        let mut i = 0;
        while i < 9 {
            names[i] = Scalar::ALL[i].name();
            i += 1;
        }
        names
    };
    pub fn parse(name: &str) -> Option<Scalar> {
        Scalar::ALL.into_iter().find(|s| s.name() == name)
    }
    /// The language's name: `f32`, `bool`.
    pub const fn name(self) -> &'static str {
        match self {
            Scalar::I8 => "i8",
            Scalar::I16 => "i16",
            Scalar::I32 => "i32",
            Scalar::I64 => "i64",
            Scalar::F16 => "f16",
            Scalar::BF16 => "bf16",
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
            Scalar::Bool => "bool",
        }
    }
    /// The MLIR type of a value: bool is `i1`.
    pub fn mlir(self) -> &'static str {
        match self {
            Scalar::Bool => "i1",
            s => s.name(),
        }
    }
    /// The MLIR element type in memory: bool is one byte.
    pub fn mem(self) -> &'static str {
        match self {
            Scalar::Bool => "i8",
            s => s.name(),
        }
    }
    pub fn bytes(self) -> u32 {
        match self {
            Scalar::I8 | Scalar::Bool => 1,
            Scalar::I16 | Scalar::F16 | Scalar::BF16 => 2,
            Scalar::I32 | Scalar::F32 => 4,
            Scalar::I64 | Scalar::F64 => 8,
        }
    }
    pub fn bits(self) -> u32 {
        if self == Scalar::Bool {
            1
        } else {
            self.bytes() * 8
        }
    }
    pub fn is_int(self) -> bool {
        matches!(self, Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64)
    }
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::BF16 | Scalar::F32 | Scalar::F64)
    }
    /// The range of an integer type.
    pub fn int_range(self) -> (i64, i64) {
        match self {
            Scalar::I8 => (i8::MIN as i64, i8::MAX as i64),
            Scalar::I16 => (i16::MIN as i64, i16::MAX as i64),
            Scalar::I32 => (i32::MIN as i64, i32::MAX as i64),
            _ => (i64::MIN, i64::MAX),
        }
    }
}

/// The type of a value in a kernel: a scalar, or a vector chunk of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ty {
    pub elem: Scalar,
    /// Some(n) for a vector of n elements (a chunk of a run).
    pub lanes: Option<u32>,
}

impl Ty {
    pub fn scalar(elem: Scalar) -> Ty {
        Ty { elem, lanes: None }
    }
    pub fn vector(elem: Scalar, n: u32) -> Ty {
        Ty { elem, lanes: Some(n) }
    }
    /// `f32`, `vector<4xf32>`.
    pub fn mlir(self) -> String {
        match self.lanes {
            None => self.elem.mlir().to_string(),
            Some(n) => format!("vector<{n}x{}>", self.elem.mlir()),
        }
    }
    /// The same shape with another element type.
    pub fn with_elem(self, elem: Scalar) -> Ty {
        Ty { elem, lanes: self.lanes }
    }
}
