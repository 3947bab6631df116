//! The syntax tree of a `.phobos` file.

use crate::span::Span;
use serde::Serialize;

/// A whole file.
#[derive(Clone, Debug, Serialize)]
pub struct File {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, Serialize)]
pub enum Item {
    Fn(FnDef),
    Kernel(Kernel),
}

/// `fn name(a, b) = expr`: an expression function, inlined where it is called.
#[derive(Clone, Debug, Serialize)]
pub struct FnDef {
    pub name: Ident,
    pub params: Vec<Ident>,
    pub body: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// `@name(args)` before a kernel.
#[derive(Clone, Debug, Serialize)]
pub enum Attr {
    /// `@launch(threads)`
    Launch { threads: Expr, span: Span },
    /// `@aligned(K = 128, ...)`: each dimension is a multiple of its value (checked at launch).
    Aligned { dims: Vec<(Ident, Expr)>, span: Span },
    /// `@autotune(K in [256, 512], ...)`: one specialization per listed value.
    Autotune { dims: Vec<(Ident, Vec<Expr>)>, span: Span },
    /// `@fast_math`: approximate math functions (the hardware's `ex2.approx`, ...).
    FastMath { span: Span },
    /// `@tf32`: `dot` of f32 tiles runs on tensor cores, its inputs rounded to tf32.
    Tf32 { span: Span },
    /// `@pipeline(stages = S)`: the kernel's loops that copy tiles load S - 1 iterations ahead
    /// (`@pipeline` or `stages = auto`: the name `auto`, S chosen by the compiler).
    Pipeline { stages: Expr, span: Span },
}

#[derive(Clone, Debug, Serialize)]
pub struct Kernel {
    pub name: Ident,
    pub attrs: Vec<Attr>,
    pub params: Vec<Param>,
    pub body: Block,
    pub span: Span,
}

/// `W: tensor<f32>[N, K]`, `A: tensor<f32>[1, 128]`, or a scalar passed by value: `eps: f32`.
#[derive(Clone, Debug, Serialize)]
pub struct Param {
    pub name: Ident,
    /// The element type of a tensor, or the type of a scalar.
    pub elem: TypeName,
    /// A tensor's dimensions (at least one); empty for a scalar.
    pub dims: Vec<DimSpec>,
    /// A scalar parameter (`eps: f32`): one value for the whole grid, not a tensor.
    pub scalar: bool,
    pub span: Span,
}

/// A tensor dimension: a name bound at launch (or fixed by @autotune / -D), or a literal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum DimSpec {
    Name(Ident),
    Const(i64, Span),
}

impl DimSpec {
    /// The name a dimension is known by: its name, or its value as text.
    pub fn name(&self) -> String {
        match self {
            DimSpec::Name(i) => i.name.clone(),
            DimSpec::Const(v, _) => v.to_string(),
        }
    }
    pub fn span(&self) -> Span {
        match self {
            DimSpec::Name(i) => i.span,
            DimSpec::Const(_, s) => *s,
        }
    }
}

/// A scalar type name as written: i8, i16, i32, i64, f16, f32, f64, bool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TypeName {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub enum Stmt {
    /// `let x [: T] = e` (immutable) or `var x [: T] = e`.
    Let {
        mutable: bool,
        name: Ident,
        ty: Option<TypeName>,
        init: Expr,
        span: Span,
    },
    /// `x = e`, `x op= e`, `t[i, j] = e`, `t[i, j] op= e`. `op` is the operator of a compound
    /// assignment (`+` for `+=`).
    Assign {
        target: Expr,
        op: Option<BinOp>,
        value: Expr,
        span: Span,
    },
    /// `var v: f32[4]` (a register array: `n` items per thread, zero at the start) or
    /// `var buf: shared<f32>[8, 64]` (a buffer in shared memory, one per CTA).
    Buffer {
        name: Ident,
        elem: TypeName,
        shared: bool,
        dims: Vec<(i64, Span)>,
        /// `var v: f32[4] in blocked`: the register array's thread/value layout.
        layout: Option<LayoutRef>,
        span: Span,
    },
    /// `var acc: fragment<f32>[M, N]`: an M x N matrix held in the registers of the whole CTA,
    /// zero at the start, in the layout of the tensor-core tiling the compiler picks; `dot`
    /// accumulates into it and `for i, j in acc` visits the elements each thread holds.
    Fragment {
        name: Ident,
        elem: TypeName,
        dims: Vec<Expr>,
        /// `in "mma_c(M, N, T, WM, WN)"`: the warp tiling, fixed by the user.
        layout: Option<LayoutRef>,
        span: Span,
    },
    If {
        cond: Expr,
        then: Block,
        els: Option<Block>,
        span: Span,
    },
    /// `for i in range(start, stop[, step]) { ... }`, after `@pipeline(stages = S)` when the
    /// loop asks for its own pipeline depth (`pipeline`: S).
    For {
        var: Ident,
        start: Expr,
        stop: Expr,
        step: Option<Expr>,
        body: Block,
        pipeline: Option<Box<Expr>>,
        span: Span,
    },
    /// `while c { ... }`. `id` names the loop for the `break`s that end it (the byte offset of
    /// the `while`).
    While {
        cond: Expr,
        body: Block,
        id: u32,
        span: Span,
    },
    /// `break`: ends the `while` whose `id` it carries.
    Break {
        id: u32,
        span: Span,
    },
    /// An expression used as a statement (a call such as `store(...)`).
    Expr(Expr),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    BitOr,
    BitXor,
    BitAnd,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinOp {
    pub fn text(self) -> &'static str {
        use BinOp::*;
        match self {
            Or => "||",
            And => "&&",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            BitOr => "|",
            BitXor => "^",
            BitAnd => "&",
            Shl => "<<",
            Shr => ">>",
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum UnOp {
    Neg,
    Not,
    BitNot,
}

/// One subscript: a point `i`, a run `i :+ n`, or the whole dimension `:`.
#[derive(Clone, Debug, Serialize)]
pub enum Index {
    Point(Expr),
    Run { start: Expr, len: Expr },
    Full(Span),
}

/// A thread/value layout of an exchange: `blocked`, `striped`, `warp_striped`, or a quoted
/// layout in `phobos layout` notation.
#[derive(Clone, Debug, Serialize)]
pub enum LayoutRef {
    Named(Ident),
    Quoted(String, Span),
}

impl LayoutRef {
    pub fn span(&self) -> Span {
        match self {
            LayoutRef::Named(i) => i.span,
            LayoutRef::Quoted(_, s) => *s,
        }
    }
}

/// One `key value` entry inside a collective's angle brackets.
#[derive(Clone, Debug, Serialize)]
pub struct Config {
    pub key: Ident,
    pub value: Expr,
}

#[derive(Clone, Debug, Serialize)]
pub enum ExprKind {
    Int(i64),
    Float(f64),
    Bool(bool),
    Name(String),
    /// `ctx.lane`, `ctx.block.x`: the path after `ctx`.
    Ctx(String),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `f(args)`: a built-in, a cast (`f32(x)`) or a user `fn`.
    Call(Ident, Vec<Expr>),
    /// `op<config>(args)`: a collective or shuffle.
    Collective {
        op: Ident,
        config: Vec<Config>,
        args: Vec<Expr>,
    },
    /// `t[i, j :+ 4]`
    Subscript(Ident, Vec<Index>),
    /// `t[i, j] else v`: the read (a subscript), and `v` for each element outside the tensor.
    Masked {
        read: Box<Expr>,
        fill: Box<Expr>,
    },
    /// `exchange<blocked, striped>(v)`, `scatter<blocked>(v, ranks)`, `gather<striped>(v, ranks)`:
    /// a CTA-wide redistribution of register arrays between thread/value layouts.
    Exchange {
        op: Ident,
        layouts: Vec<LayoutRef>,
        args: Vec<Expr>,
    },
}

#[derive(Clone, Debug, Serialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}
