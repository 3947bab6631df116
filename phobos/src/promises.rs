//! What the API's docs promise that only the compiler can keep, as rustdoc `compile_fail` tests,
//! each pinned to its error code: the public enums are `#[non_exhaustive]`, so an embedder's
//! `match` needs a `_` arm and keeps compiling when a variant is added (`Exhaustive*`); the public
//! structs an embedder reads or configures are too, so a new field breaks no struct literal outside
//! Phobos: options are built with their `with_*` methods, diagnostics and locations with `new`
//! (`StructLiteral*`). Doctests compile against the already-built crate: no second build of
//! MLIR's bindings.

/// phobos::Device is #[non_exhaustive]: a match must have a `_` arm.
///
/// ```compile_fail,E0004
/// fn name(d: &phobos::Device) -> &'static str {
///     match d {
///         phobos::Device::Simulator => "sim",
///         phobos::Device::Cuda(_) => "gpu",
///     }
/// }
///
/// fn main() {
///     let _ = name;
/// }
/// ```
pub struct ExhaustiveDeviceMatch;

/// phobos::build::Dim is #[non_exhaustive]: a match must have a `_` arm.
///
/// ```compile_fail,E0004
/// fn index(d: phobos::build::Dim) -> usize {
///     match d {
///         phobos::build::Dim::X => 0,
///         phobos::build::Dim::Y => 1,
///         phobos::build::Dim::Z => 2,
///     }
/// }
///
/// fn main() {
///     let _ = index;
/// }
/// ```
pub struct ExhaustiveDimMatch;

/// phobos::Dtype is #[non_exhaustive]: a match must have a `_` arm.
///
/// ```compile_fail,E0004
/// fn code(d: phobos::Dtype) -> u32 {
///     match d {
///         phobos::Dtype::Bool => 0,
///         phobos::Dtype::I8 => 1,
///         phobos::Dtype::I16 => 2,
///         phobos::Dtype::I32 => 3,
///         phobos::Dtype::I64 => 4,
///         phobos::Dtype::U8 => 5,
///         phobos::Dtype::U16 => 6,
///         phobos::Dtype::U32 => 7,
///         phobos::Dtype::U64 => 8,
///         phobos::Dtype::F16 => 9,
///         phobos::Dtype::F32 => 10,
///         phobos::Dtype::F64 => 11,
///     }
/// }
///
/// fn main() {
///     let _ = code;
/// }
/// ```
pub struct ExhaustiveDtypeMatch;

/// phobos::Error is #[non_exhaustive]: a match must have a `_` arm.
///
/// ```compile_fail,E0004
/// fn code(e: &phobos::Error) -> i32 {
///     match e {
///         phobos::Error::Compile(_) => 1,
///         phobos::Error::Launch(_) => 1,
///         phobos::Error::Fault(_) => 2,
///         phobos::Error::Io(_) => 1,
///         phobos::Error::Cuda(_) => 1,
///     }
/// }
///
/// fn main() {
///     let _ = code;
/// }
/// ```
pub struct ExhaustiveErrorMatch;

/// phobos::Exchange is #[non_exhaustive]: a match must have a `_` arm.
///
/// ```compile_fail,E0004
/// fn name(e: phobos::Exchange) -> &'static str {
///     match e {
///         phobos::Exchange::Auto => "auto",
///         phobos::Exchange::Shuffle => "shuffle",
///         phobos::Exchange::Staging => "staging",
///     }
/// }
///
/// fn main() {
///     let _ = name;
/// }
/// ```
pub struct ExhaustiveExchangeMatch;

/// phobos::FaultKind is #[non_exhaustive]: a match must have a `_` arm.
///
/// ```compile_fail,E0004
/// fn serious(k: phobos::FaultKind) -> bool {
///     use phobos::FaultKind::*;
///     match k {
///         OutOfBounds | Misaligned | Race | GlobalRace | DivergentBarrier | DivergentShuffle => true,
///         Deadlock | DivisionByZero | Assertion | BadLaunch => false,
///     }
/// }
///
/// fn main() {
///     let _ = serious;
/// }
/// ```
pub struct ExhaustiveFaultKindMatch;

/// phobos::dialects::lane::Kind is #[non_exhaustive]: a match must have a `_` arm.
///
/// ```compile_fail,E0004
/// fn is_logic(k: phobos::dialects::lane::Kind) -> bool {
///     use phobos::dialects::lane::Kind;
///     match k {
///         Kind::Sum | Kind::Max | Kind::Min => false,
///         Kind::Any | Kind::All => true,
///     }
/// }
///
/// fn main() {
///     let _ = is_logic;
/// }
/// ```
pub struct ExhaustiveLaneKindMatch;

/// phobos::Severity is #[non_exhaustive]: a match must have a `_` arm.
///
/// ```compile_fail,E0004
/// fn rank(s: phobos::Severity) -> i32 {
///     match s {
///         phobos::Severity::Error => 3,
///         phobos::Severity::Warning => 2,
///         phobos::Severity::Note => 1,
///         phobos::Severity::Remark => 0,
///     }
/// }
///
/// fn main() {
///     let _ = rank;
/// }
/// ```
pub struct ExhaustiveSeverityMatch;

/// phobos::Compiled is #[non_exhaustive] (made by the compiler only): a new field breaks no embedder, so no struct literal outside Phobos compiles.
///
/// ```compile_fail,E0639
/// fn main() {
///     let _ = phobos::Compiled { kernels: Vec::new(), ir: phobos::Staged::default(), diagnostics: Vec::new(), timings: Vec::new() };
/// }
/// ```
pub struct StructLiteralCompiled;

/// phobos::Diagnostic is #[non_exhaustive] (made with Diagnostic::new): a new field breaks no embedder, so no struct literal outside Phobos compiles.
///
/// ```compile_fail,E0639
/// fn main() {
///     let _ = phobos::Diagnostic { severity: phobos::Severity::Error, loc: None, message: String::new(), notes: Vec::new() };
/// }
/// ```
pub struct StructLiteralDiagnostic;

/// phobos::Fault is #[non_exhaustive] (made by the simulator only): a new field breaks no embedder, so no struct literal outside Phobos compiles.
///
/// ```compile_fail,E0639
/// fn main() {
///     let _ = phobos::Fault {
///         kind: phobos::FaultKind::Race,
///         message: String::new(),
///         kernel: String::new(),
///         cta: [0; 3],
///         thread: None,
///         op: String::new(),
///         loc: None,
///     };
/// }
/// ```
pub struct StructLiteralFault;

/// phobos::LaunchOptions is #[non_exhaustive] (built with its methods: LaunchOptions::default().with_cooperative(true)): a new field breaks no embedder, so no struct literal outside Phobos compiles.
///
/// ```compile_fail,E0639
/// fn main() {
///     let _ = phobos::LaunchOptions { cooperative: true, ..Default::default() };
/// }
/// ```
pub struct StructLiteralLaunchOptions;

/// phobos::Options is #[non_exhaustive] (built with its methods: Options::default().with_chip("sm_80")): a new field breaks no embedder, so no struct literal outside Phobos compiles.
///
/// ```compile_fail,E0639
/// fn main() {
///     let _ = phobos::Options { chip: "sm_80".into(), ..Default::default() };
/// }
/// ```
pub struct StructLiteralOptions;

/// phobos::SrcLoc is #[non_exhaustive] (made with SrcLoc::new): a new field breaks no embedder, so no struct literal outside Phobos compiles.
///
/// ```compile_fail,E0639
/// fn main() {
///     let _ = phobos::SrcLoc { file: String::new(), line: 1, col: 1 };
/// }
/// ```
pub struct StructLiteralSrcLoc;

/// phobos::Staged is #[non_exhaustive] (made by the compiler only): a new field breaks no embedder, so no struct literal outside Phobos compiles.
///
/// ```compile_fail,E0639
/// fn main() {
///     let _ = phobos::Staged { stages: Vec::new(), ..Default::default() };
/// }
/// ```
pub struct StructLiteralStaged;
