//! The math functions Phobos knows, written once: each one's name in the language (if the
//! language has it), its op in MLIR's `math` dialect, how many operands it takes, and its value
//! in f64 (musl's libm, through the `libm` crate, within 1 ULP of the exact value). The frontend
//! spells and folds the language's built-ins from [`FUNCTIONS`], the embedding API's
//! `build::Math` emits their ops, and the simulator runs `math.*` ops with [`MathFn::apply`]
//! (rounded once to the type: docs/math.md). `fma`, `abs`, `isnan`, `isinf` and `select` are
//! built-ins of another kind (integer or boolean forms, or not `math` ops), handled where they
//! are spelled.

/// A math function of MLIR's `math` dialect that Phobos computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum MathFn {
    Exp,
    Exp2,
    Log,
    Log2,
    Log10,
    Log1p,
    Expm1,
    Sqrt,
    Rsqrt,
    Cbrt,
    Sin,
    Cos,
    Tan,
    Tanh,
    Sinh,
    Cosh,
    Asin,
    Acos,
    Atan,
    Asinh,
    Acosh,
    Atanh,
    Erf,
    Erfc,
    Floor,
    Ceil,
    Round,
    RoundEven,
    Trunc,
    Atan2,
    Pow,
    CopySign,
}

/// Every function: (function, its name in the language if it has one, its `math` op, operands).
pub const FUNCTIONS: &[(MathFn, Option<&str>, &str, usize)] = &[
    (MathFn::Exp, Some("exp"), "math.exp", 1),
    (MathFn::Exp2, Some("exp2"), "math.exp2", 1),
    (MathFn::Log, Some("log"), "math.log", 1),
    (MathFn::Log2, Some("log2"), "math.log2", 1),
    (MathFn::Log10, Some("log10"), "math.log10", 1),
    (MathFn::Log1p, Some("log1p"), "math.log1p", 1),
    (MathFn::Expm1, Some("expm1"), "math.expm1", 1),
    (MathFn::Sqrt, Some("sqrt"), "math.sqrt", 1),
    (MathFn::Rsqrt, Some("rsqrt"), "math.rsqrt", 1),
    (MathFn::Cbrt, Some("cbrt"), "math.cbrt", 1),
    (MathFn::Sin, Some("sin"), "math.sin", 1),
    (MathFn::Cos, Some("cos"), "math.cos", 1),
    (MathFn::Tan, Some("tan"), "math.tan", 1),
    (MathFn::Tanh, Some("tanh"), "math.tanh", 1),
    (MathFn::Sinh, Some("sinh"), "math.sinh", 1),
    (MathFn::Cosh, Some("cosh"), "math.cosh", 1),
    (MathFn::Asin, Some("asin"), "math.asin", 1),
    (MathFn::Acos, Some("acos"), "math.acos", 1),
    (MathFn::Atan, Some("atan"), "math.atan", 1),
    (MathFn::Asinh, None, "math.asinh", 1),
    (MathFn::Acosh, None, "math.acosh", 1),
    (MathFn::Atanh, None, "math.atanh", 1),
    (MathFn::Erf, Some("erf"), "math.erf", 1),
    (MathFn::Erfc, Some("erfc"), "math.erfc", 1),
    (MathFn::Floor, Some("floor"), "math.floor", 1),
    (MathFn::Ceil, Some("ceil"), "math.ceil", 1),
    (MathFn::Round, Some("round"), "math.round", 1),
    (MathFn::RoundEven, None, "math.roundeven", 1),
    (MathFn::Trunc, Some("trunc"), "math.trunc", 1),
    (MathFn::Atan2, Some("atan2"), "math.atan2", 2),
    (MathFn::Pow, Some("pow"), "math.powf", 2),
    (MathFn::CopySign, Some("copysign"), "math.copysign", 2),
];

impl MathFn {
    fn entry(self) -> &'static (MathFn, Option<&'static str>, &'static str, usize) {
        FUNCTIONS.iter().find(|e| e.0 == self).expect("every function has its row")
    }
    /// The function of a `math` op (`math.powf` is `Pow`).
    pub fn of_op(op: &str) -> Option<MathFn> {
        FUNCTIONS.iter().find(|e| e.2 == op).map(|e| e.0)
    }
    /// The function the language calls `name`.
    pub fn of_name(name: &str) -> Option<MathFn> {
        FUNCTIONS.iter().find(|e| e.1 == Some(name)).map(|e| e.0)
    }
    /// Its name in the language, if the language has it.
    pub fn name(self) -> Option<&'static str> {
        self.entry().1
    }
    /// Its op in MLIR's `math` dialect.
    pub fn op(self) -> &'static str {
        self.entry().2
    }
    /// How many operands it takes (1 or 2).
    pub fn arity(self) -> usize {
        self.entry().3
    }
    /// `f(x, y)` in f64 (`y` is ignored by functions of one operand).
    pub fn apply(self, x: f64, y: f64) -> f64 {
        use MathFn::*;
        match self {
            Exp => libm::exp(x),
            Exp2 => libm::exp2(x),
            Log => libm::log(x),
            Log2 => libm::log2(x),
            Log10 => libm::log10(x),
            Log1p => libm::log1p(x),
            Expm1 => libm::expm1(x),
            Sqrt => libm::sqrt(x),
            Rsqrt => 1.0 / libm::sqrt(x),
            Cbrt => libm::cbrt(x),
            Sin => libm::sin(x),
            Cos => libm::cos(x),
            Tan => libm::tan(x),
            Tanh => libm::tanh(x),
            Sinh => libm::sinh(x),
            Cosh => libm::cosh(x),
            Asin => libm::asin(x),
            Acos => libm::acos(x),
            Atan => libm::atan(x),
            Asinh => libm::asinh(x),
            Acosh => libm::acosh(x),
            Atanh => libm::atanh(x),
            Erf => libm::erf(x),
            Erfc => libm::erfc(x),
            Floor => x.floor(),
            Ceil => x.ceil(),
            Round => x.round(),
            RoundEven => x.round_ties_even(),
            Trunc => x.trunc(),
            Atan2 => libm::atan2(x, y),
            Pow => libm::pow(x, y),
            CopySign => x.copysign(y),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One row per function, names and ops each once, and the lookups agree with the rows.
    #[test]
    fn the_table_is_one_to_one() {
        for (i, (f, name, op, n)) in FUNCTIONS.iter().enumerate() {
            assert!(FUNCTIONS[..i].iter().all(|e| e.0 != *f && (name.is_none() || e.1 != *name) && e.2 != *op), "{f:?} twice");
            assert_eq!((MathFn::of_op(op), f.op(), f.arity(), f.name()), (Some(*f), *op, *n, *name));
            assert!(op.starts_with("math.") && (1..=2).contains(n));
            if let Some(name) = name {
                assert_eq!(MathFn::of_name(name), Some(*f));
            }
        }
        assert_eq!(MathFn::of_op("math.fma"), None);
        assert_eq!(MathFn::of_name("asinh"), None);
    }

    #[test]
    fn values() {
        assert_eq!(MathFn::Pow.apply(2.0, 10.0), 1024.0);
        assert_eq!(MathFn::Rsqrt.apply(4.0, 0.0), 0.5);
        assert_eq!(MathFn::RoundEven.apply(2.5, 0.0), 2.0);
        assert_eq!(MathFn::Round.apply(2.5, 0.0), 3.0);
        assert_eq!(MathFn::CopySign.apply(3.0, -0.0), -3.0);
    }
}
