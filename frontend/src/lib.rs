//! The Phobos kernel language (docs/language.md): lexer, parser, type checker and the generator of L1
//! MLIR text. Pure Rust with no MLIR link, so it is cheap to test and fuzz; the driver parses the
//! text it produces into MLIR.
//!
//! ```text
//! source --lex/parse--> ast::File --mlirgen (type check + SSA)--> L1 MLIR text + ABI entries
//! ```
//! The language is described in docs/language.md.

pub mod ast;
pub mod lexer;
pub mod mlirgen;
pub mod parser;
pub mod span;
pub mod types;

pub use mlirgen::{strided_name, AbiParam, Entry, Options, Output};
pub use span::{Diag, Source, Span};

/// Parses and type-checks `src`, and generates L1 MLIR for its kernels.
pub fn compile(src: &Source, opts: &Options) -> Result<Output, Vec<Diag>> {
    let file = parser::parse(&src.text).map_err(|d| vec![d])?;
    mlirgen::generate(&file, src, opts)
}

/// Parses `src` (for `--emit=ast`).
pub fn parse(src: &Source) -> Result<ast::File, Diag> {
    parser::parse(&src.text)
}
