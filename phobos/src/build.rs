//! Typed builders for the upstream ops a frontend needs next to the dialects' own
//! (`phobos_dialects::{lane, cta, tile, layout}::build`): thread and block ids, constants of a
//! [`Scalar`] type, arithmetic ([`arith`]) and comparisons ([`compare`]) picking the integer or
//! float op by type, [`select`], math functions ([`math`], [`is_nan`], [`is_inf`]), conversions
//! ([`convert`]), loads and stores, and `scf.for` / `scf.if` / `scf.while` with
//! closures for their bodies (each returns a `Result`, so `?` works inside), so a kernel needs
//! no op-name or type string. Each op takes the builder's location ([`KernelBuilder::builder_at`]).
//! Loads and stores check their operands and return an error instead of building bad IR.
//!
//! [`KernelBuilder::builder_at`]: super::KernelBuilder::builder_at

use super::{Diagnostics, Error};
use phobos_ir::{Builder, OwnedRegion, Ty, Val};

#[path = "build_math.rs"]
mod build_math;
pub use build_math::{convert, is_inf, is_nan, math, Math};

/// A dimension of the thread, block and grid ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Dim {
    /// `x`
    X,
    /// `y`
    Y,
    /// `z`
    Z,
}

impl Dim {
    fn attr(self) -> &'static str {
        match self {
            Dim::X => "#gpu<dim x>",
            Dim::Y => "#gpu<dim y>",
            Dim::Z => "#gpu<dim z>",
        }
    }
}

fn id<'a>(b: Builder<'a>, op: &str, d: Dim) -> Val<'a> {
    b.op_value(op, &[], b.ctx.index(), &[("dimension", b.ctx.known_attr(d.attr()))])
}

/// The thread's index in its block along `d` (`gpu.thread_id`), an `index`.
pub fn thread_id<'a>(b: Builder<'a>, d: Dim) -> Val<'a> {
    id(b, "gpu.thread_id", d)
}

/// The block's index in the grid along `d` (`gpu.block_id`).
pub fn block_id<'a>(b: Builder<'a>, d: Dim) -> Val<'a> {
    id(b, "gpu.block_id", d)
}

/// The block size along `d` (`gpu.block_dim`).
pub fn block_dim<'a>(b: Builder<'a>, d: Dim) -> Val<'a> {
    id(b, "gpu.block_dim", d)
}

/// The grid size along `d` (`gpu.grid_dim`).
pub fn grid_dim<'a>(b: Builder<'a>, d: Dim) -> Val<'a> {
    id(b, "gpu.grid_dim", d)
}

pub(super) fn misuse(what: String) -> Error {
    Error::Compile(Diagnostics::unlocated(what))
}

/// Checks that `mem` is a memref indexed by `idx` (one `index` per dimension).
fn check_access(what: &str, mem: Val, idx: &[Val]) -> Result<(), Error> {
    let t = mem.ty();
    if !t.is_memref() {
        return Err(misuse(format!("{what}: the memory operand is {t}, not a memref")));
    }
    if idx.len() != t.shape().len() {
        return Err(misuse(format!("{what}: {t} takes {} indices, got {}", t.shape().len(), idx.len())));
    }
    if let Some(i) = idx.iter().position(|v| !v.ty().is_index()) {
        return Err(misuse(format!("{what}: index {i} is {}, not index", idx[i].ty())));
    }
    Ok(())
}

/// `memref.load mem[idx]`: an element of a buffer parameter (1-D: its linear index) or a shared
/// buffer.
pub fn load<'a>(b: Builder<'a>, mem: Val<'a>, idx: &[Val<'a>]) -> Result<Val<'a>, Error> {
    check_access("load", mem, idx)?;
    let mut ops = vec![mem];
    ops.extend_from_slice(idx);
    Ok(b.op_value("memref.load", &ops, mem.ty().element(), &[]))
}

/// `memref.store v, mem[idx]`; `v` must have the element type.
pub fn store<'a>(b: Builder<'a>, v: Val<'a>, mem: Val<'a>, idx: &[Val<'a>]) -> Result<(), Error> {
    check_access("store", mem, idx)?;
    if v.ty() != mem.ty().element() {
        return Err(misuse(format!("store: the value is {}, the memref holds {}", v.ty(), mem.ty().element())));
    }
    let mut ops = vec![v, mem];
    ops.extend_from_slice(idx);
    b.op("memref.store", &ops, &[], &[]);
    Ok(())
}

/// `scf.for %i = lb to ub step step iter_args(init)`: `body(builder, i, carried)` builds one
/// iteration and returns the values carried to the next (as many, of the same types, as
/// `init`); returns the values after the last iteration.
pub fn for_loop<'a>(
    b: Builder<'a>,
    lb: Val<'a>,
    ub: Val<'a>,
    step: Val<'a>,
    init: &[Val<'a>],
    body: impl FnOnce(Builder<'a>, Val<'a>, &[Val<'a>]) -> Result<Vec<Val<'a>>, Error>,
) -> Result<Vec<Val<'a>>, Error> {
    if [lb, ub, step].iter().any(|v| v.ty() != lb.ty()) {
        return Err(misuse(format!("for_loop: bounds and step must have one type, got {}, {}, {}", lb.ty(), ub.ty(), step.ty())));
    }
    let tys: Vec<Ty<'a>> = init.iter().map(|v| v.ty()).collect();
    let mut arg_tys = vec![lb.ty()];
    arg_tys.extend(tys.iter().copied());
    let r = OwnedRegion::new();
    let blk = r.add_block(&arg_tys, b.loc);
    let inner = Builder::at_end(blk, b.loc);
    let args = blk.args();
    let yielded = body(inner, args[0], &args[1..])?;
    let got: Vec<Ty<'a>> = yielded.iter().map(|v| v.ty()).collect();
    if got != tys {
        return Err(misuse(format!("for_loop: the body carries {} values, the loop {}", got.len(), tys.len())));
    }
    inner.op("scf.yield", &yielded, &[], &[]);
    let mut ops = vec![lb, ub, step];
    ops.extend_from_slice(init);
    Ok(b.op_with_regions("scf.for", &ops, &tys, &[], vec![r]).results())
}

/// `scf.if cond { then }` (no results).
pub fn if_then<'a>(b: Builder<'a>, cond: Val<'a>, then: impl FnOnce(Builder<'a>) -> Result<(), Error>) -> Result<(), Error> {
    if cond.ty().int_width() != Some(1) {
        return Err(misuse(format!("if_then: the condition is {}, not i1", cond.ty())));
    }
    let (t, _) = region(b, &[], "scf.yield", |ib, _| then(ib).map(|()| vec![]))?;
    b.op_with_regions("scf.if", &[cond], &[], &[], vec![t, OwnedRegion::new()]);
    Ok(())
}

/// One block with arguments of `tys`, its body built by `body`, ended by `terminator` of the
/// values the body returns.
fn region<'a>(
    b: Builder<'a>,
    tys: &[Ty<'a>],
    terminator: &str,
    body: impl FnOnce(Builder<'a>, &[Val<'a>]) -> Result<Vec<Val<'a>>, Error>,
) -> Result<(OwnedRegion<'a>, Vec<Ty<'a>>), Error> {
    let r = OwnedRegion::new();
    let blk = r.add_block(tys, b.loc);
    let inner = Builder::at_end(blk, b.loc);
    let vals = body(inner, &blk.args())?;
    inner.op(terminator, &vals, &[], &[]);
    Ok((r, vals.iter().map(|v| v.ty()).collect()))
}

/// `scf.if cond { then } else { otherwise }` with results: each closure builds its branch and
/// returns the branch's values (as many, of the same types, in both); returns the `if`'s.
pub fn if_else<'a>(
    b: Builder<'a>,
    cond: Val<'a>,
    then: impl FnOnce(Builder<'a>) -> Result<Vec<Val<'a>>, Error>,
    otherwise: impl FnOnce(Builder<'a>) -> Result<Vec<Val<'a>>, Error>,
) -> Result<Vec<Val<'a>>, Error> {
    if cond.ty().int_width() != Some(1) {
        return Err(misuse(format!("if_else: the condition is {}, not i1", cond.ty())));
    }
    let (t, then_tys) = region(b, &[], "scf.yield", |ib, _| then(ib))?;
    let (e, else_tys) = region(b, &[], "scf.yield", |ib, _| otherwise(ib))?;
    if then_tys != else_tys {
        return Err(misuse(format!(
            "if_else: the branches give different values: ({}) and ({})",
            then_tys.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", "),
            else_tys.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ")
        )));
    }
    Ok(b.op_with_regions("scf.if", &[cond], &then_tys, &[], vec![t, e]).results())
}

/// `scf.while` over the values `init`: `cond(builder, values)` returns whether to run the body
/// (an `i1`) and the values it passes on; `body(builder, passed)` returns the next `values` (as
/// many, of the types of `init`). Returns the values passed on when `cond` was false.
pub fn while_loop<'a>(
    b: Builder<'a>,
    init: &[Val<'a>],
    cond: impl FnOnce(Builder<'a>, &[Val<'a>]) -> Result<(Val<'a>, Vec<Val<'a>>), Error>,
    body: impl FnOnce(Builder<'a>, &[Val<'a>]) -> Result<Vec<Val<'a>>, Error>,
) -> Result<Vec<Val<'a>>, Error> {
    let tys: Vec<Ty<'a>> = init.iter().map(|v| v.ty()).collect();
    let (before, given) = region(b, &tys, "scf.condition", |ib, vals| {
        let (c, passed) = cond(ib, vals)?;
        Ok(std::iter::once(c).chain(passed).collect())
    })?;
    let (c_ty, passed_tys) = (given[0], given[1..].to_vec());
    if c_ty.int_width() != Some(1) {
        return Err(misuse(format!("while_loop: the condition is {c_ty}, not i1")));
    }
    let (after, next_tys) = region(b, &passed_tys, "scf.yield", body)?;
    if next_tys != tys {
        return Err(misuse(format!("while_loop: the body gives {} values, the loop carries {}", next_tys.len(), tys.len())));
    }
    Ok(b.op_with_regions("scf.while", init, &passed_tys, &[], vec![before, after]).results())
}

/// `func.call @callee(args)` of a device function added with
/// [`KernelBuilder::add_function`](super::KernelBuilder::add_function), whose results have
/// `results` types.
pub fn call<'a>(b: Builder<'a>, callee: &str, args: &[Val<'a>], results: &[Ty<'a>]) -> Result<Vec<Val<'a>>, Error> {
    if !callee.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || callee.is_empty() {
        return Err(misuse(format!("call: '{callee}' is not a function name")));
    }
    Ok(b.op("func.call", args, results, &[("callee", b.ctx.known_attr(&format!("@{callee}")))]).results())
}

/// A scalar type of values and buffers, without writing its MLIR spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scalar {
    /// `i1`, a condition.
    Bool,
    /// `i8`
    I8,
    /// `i16`
    I16,
    /// `i32`
    I32,
    /// `i64`
    I64,
    /// `index`: thread and block ids, subscripts, sizes.
    Index,
    /// `f16`
    F16,
    /// `bf16` (bfloat16)
    BF16,
    /// `f32`
    F32,
    /// `f64`
    F64,
}

impl Scalar {
    /// The MLIR spelling: `i1` for `Bool`, `f32`, `index`, ...
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "i1",
            Scalar::I8 => "i8",
            Scalar::I16 => "i16",
            Scalar::I32 => "i32",
            Scalar::I64 => "i64",
            Scalar::Index => "index",
            Scalar::F16 => "f16",
            Scalar::BF16 => "bf16",
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
        }
    }
    /// The MLIR type.
    pub fn ty<'a>(self, b: Builder<'a>) -> Ty<'a> {
        match self {
            Scalar::Bool => b.ctx.i(1),
            Scalar::I8 => b.ctx.i(8),
            Scalar::I16 => b.ctx.i(16),
            Scalar::I32 => b.ctx.i(32),
            Scalar::I64 => b.ctx.i(64),
            Scalar::Index => b.ctx.index(),
            Scalar::F16 => b.ctx.known_type("f16"),
            Scalar::BF16 => b.ctx.known_type("bf16"),
            Scalar::F32 => b.ctx.known_type("f32"),
            Scalar::F64 => b.ctx.known_type("f64"),
        }
    }
}

/// A constant of type `s`: integers (and `Bool`, 0 or 1) take `v` truncated to an integer.
pub fn constant<'a>(b: Builder<'a>, s: Scalar, v: f64) -> Val<'a> {
    match s {
        Scalar::F16 | Scalar::BF16 | Scalar::F32 | Scalar::F64 => b.const_float(s.ty(b), v),
        Scalar::Index => b.index(v as i64),
        _ => b.const_int(s.ty(b), v as i64),
    }
}

/// Binary arithmetic, on integers (and `index`) or floats alike; division, remainder, max and
/// min of integers are signed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Arith {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// The larger (floats: NaN if either is, `arith.maximumf`).
    Max,
    /// The smaller (floats: NaN if either is).
    Min,
    /// Bitwise and (integers and conditions only).
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
}

/// `x op y` for two values of one scalar type: the integer op for integers and `index`, the
/// float op for floats; an error for mixed or vector types, or bit operations on floats.
pub fn arith<'a>(b: Builder<'a>, op: Arith, x: Val<'a>, y: Val<'a>) -> Result<Val<'a>, Error> {
    let t = x.ty();
    if t != y.ty() || t.scalar().is_none() {
        return Err(misuse(format!("{op:?}: the operands are {} and {}; both must be one scalar type", t, y.ty())));
    }
    let name = match (op, t.is_float()) {
        (Arith::Add, false) => "arith.addi",
        (Arith::Sub, false) => "arith.subi",
        (Arith::Mul, false) => "arith.muli",
        (Arith::Div, false) => "arith.divsi",
        (Arith::Rem, false) => "arith.remsi",
        (Arith::Max, false) => "arith.maxsi",
        (Arith::Min, false) => "arith.minsi",
        (Arith::And, false) => "arith.andi",
        (Arith::Or, false) => "arith.ori",
        (Arith::Xor, false) => "arith.xori",
        (Arith::Add, true) => "arith.addf",
        (Arith::Sub, true) => "arith.subf",
        (Arith::Mul, true) => "arith.mulf",
        (Arith::Div, true) => "arith.divf",
        (Arith::Rem, true) => "arith.remf",
        (Arith::Max, true) => "arith.maximumf",
        (Arith::Min, true) => "arith.minimumf",
        (Arith::And | Arith::Or | Arith::Xor, true) => return Err(misuse(format!("{op:?}: bit operations take integers, not {t}"))),
    };
    Ok(b.bin(name, x, y))
}

/// A comparison: signed for integers and `index`, ordered (false on NaN) for floats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Cmp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// `x cmp y`, an `i1`, for two values of one scalar type.
pub fn compare<'a>(b: Builder<'a>, cmp: Cmp, x: Val<'a>, y: Val<'a>) -> Result<Val<'a>, Error> {
    let t = x.ty();
    if t != y.ty() || t.scalar().is_none() {
        return Err(misuse(format!("{cmp:?}: the operands are {} and {}; both must be one scalar type", t, y.ty())));
    }
    let (int, float) = match cmp {
        Cmp::Eq => ("eq", "oeq"),
        Cmp::Ne => ("ne", "one"),
        Cmp::Lt => ("slt", "olt"),
        Cmp::Le => ("sle", "ole"),
        Cmp::Gt => ("sgt", "ogt"),
        Cmp::Ge => ("sge", "oge"),
    };
    Ok(if t.is_float() { b.cmpf(float, x, y) } else { b.cmpi(int, x, y) })
}

/// `cond ? x : y` for two values of one type and an `i1` condition.
pub fn select<'a>(b: Builder<'a>, cond: Val<'a>, x: Val<'a>, y: Val<'a>) -> Result<Val<'a>, Error> {
    if cond.ty() != b.ctx.i(1) || x.ty() != y.ty() {
        return Err(misuse(format!("select: the condition is {} (must be i1), the values {} and {}", cond.ty(), x.ty(), y.ty())));
    }
    Ok(b.select(cond, x, y))
}
