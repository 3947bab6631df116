//! The IR view every Phobos crate uses, and its diagnostic channel: the only crate that calls
//! MLIR's C API (`mlir_sys`) for IR (the glue files that set up contexts and pass managers are
//! listed in `docs/architecture.md`).
//!
//! # Safety
//! Handles ([`Op`], [`Val`], [`Ty`], [`Attr`], [`Blk`], [`Reg`], [`Loc`], [`Ctx`]) are `Copy`
//! wrappers of C-API handles, branded by a lifetime `'a` of the IR they point into: a handle
//! reached from an [`OwnedModule`] borrows it, and a pass body's handles live only for the pass
//! run. So no handle outlives its module:
//!
//! ```compile_fail,E0597
//! let ctx = melior::Context::new();
//! let op = {
//!     let m = phobos_ir::OwnedModule::parse(&ctx, "module {}", "x.mlir").unwrap();
//!     m.op()
//! };
//! println!("{}", op.name()); // error: `m` does not live long enough
//! ```
//!
//! Raw constructors are `unsafe` (`from_raw`), fields are private, and IR is destroyed only
//! through a [`Rewriter`], which defers destruction until no handle can remain and ignores a
//! second erase of the same op. What safe code can still do wrong is MLIR's business (ill-formed
//! IR fails MLIR's verifier), not memory safety.

mod build;
pub mod diag;
mod handles;
pub mod idioms;
mod loc;
mod module;
mod ops;
mod rewrite;
mod types;

pub use build::{At, Builder};
pub use diag::{Diagnostic, Diagnostics, Severity};
pub use handles::{from_sref, print_with, sref, Attr, Blk, Ctx, Loc, Op, Reg, Ty, Val};
pub use loc::SrcLoc;
pub use module::OwnedModule;
pub use ops::BlockOps;
pub use rewrite::Rewriter;
pub use types::Scalar;
