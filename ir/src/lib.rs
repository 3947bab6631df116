//! The IR view every Phobos crate uses, and its diagnostic channel: the only crate that calls
//! MLIR's C API (`mlir_sys`) for IR (the glue files that set up contexts and pass managers are
//! listed in `docs/architecture.md`).
//!
//! # Safety
//! Handles ([`Op`], [`Val`], [`Ty`], [`Attr`], [`Blk`], [`Reg`], [`Loc`], [`Ctx`]) are `Copy`
//! wrappers of C-API handles, branded by a lifetime `'a` of the IR they point into: a handle
//! reached from an [`OwnedModule`] borrows it, [`Ctx::of`] borrows the melior context, and a pass
//! body's handles live only for the pass run. So no handle outlives its module or context.
//!
//! IR that no parent holds yet is owned, never a plain handle: [`OwnedOp`] (a clone) and
//! [`OwnedRegion`] (new, or a cloned region). Only they can be inserted
//! ([`Builder::insert`], [`Builder::op_with_regions`]), and inserting consumes them, so an op or
//! region never gets two parents. Index accessors (`operand`, `result`, `region`, `arg`) check
//! their index and panic on a bad one, as does building before an op that is in no block.
//!
//! Raw constructors are `unsafe` (`from_raw`), fields are private, and IR is destroyed only
//! through a [`Rewriter`], which defers destruction until no handle can remain and ignores a
//! second erase of the same op. Every `unsafe` block says why it is sound (`SAFETY:`, enforced
//! by clippy's `undocumented_unsafe_blocks`). `src/misuses.rs` holds each misuse that must not
//! compile, with its error code (rustdoc `compile_fail` tests).
//!
//! The brand is one lifetime, so the compiler cannot tell two modules or two contexts apart;
//! the misuses it cannot refuse are checked errors (panics, which a pass turns into an error at
//! its op), each under test in the CLI suite (`embedding.rs`): building an op with a value or
//! type of another context or another module; erasing an op that is in no block (an
//! [`OwnedOp`]'s lent handle); moving an op before an op inside it; and a value of an erased op
//! used again, which [`Rewriter::finish`] reports while keeping the op (no use after free).
//! MLIR's threads never run Phobos's passes on sibling gpu.modules at once (a module with
//! several is compiled on one thread), so a pass reaching its parent races with nothing. What
//! safe code can still do wrong is MLIR's business (ill-formed IR fails MLIR's verifier), not
//! memory safety.

mod build;
pub mod diag;
mod handles;
pub mod idioms;
mod loc;
// Doctests only: the misuses that must not compile.
#[cfg(doctest)]
mod misuses;
mod module;
mod ops;
mod owned;
mod rewrite;
mod types;

pub use build::{At, Builder};
pub use diag::{Diagnostic, Diagnostics, Severity};
pub use handles::{from_sref, print_with, sref, Attr, Blk, Ctx, Loc, Op, Reg, Ty, Val};
pub use loc::SrcLoc;
pub use module::OwnedModule;
pub use ops::{BlockOps, PrintExtras};
pub use owned::{OwnedOp, OwnedRegion};
pub use rewrite::Rewriter;
pub use types::Scalar;
