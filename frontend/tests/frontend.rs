//! The frontend's own tests: snapshots of the L1 MLIR of every example (which cover its parse;
//! `--emit ast` has a lit test), snapshots of rendered errors, and a bounded fuzz of the parser and type checker. Pure Rust:
//! this test binary does not link MLIR.

use phobos_frontend::{compile, Options, Source};
use proptest::prelude::*;

fn examples() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

#[test]
fn l1_of_every_example() {
    insta::glob!("../../examples", "*.phobos", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let src = Source::new(path.file_name().unwrap().to_string_lossy(), text);
        let out =
            compile(&src, &Options::default()).unwrap_or_else(|ds| panic!("{}", ds.iter().map(|d| d.render(&src)).collect::<String>()));
        insta::assert_snapshot!(out.mlir);
    });
}

#[test]
fn rendered_errors() {
    insta::glob!("inputs/errors", "*.phobos", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let src = Source::new(path.file_name().unwrap().to_string_lossy(), text);
        let rendered = match compile(&src, &Options::default()) {
            Ok(_) => panic!("{} compiles, but it is an error example", path.display()),
            Err(ds) => ds.iter().map(|d| d.render(&src)).collect::<String>(),
        };
        insta::assert_snapshot!(rendered);
    });
}

#[test]
fn examples_exist() {
    let n =
        std::fs::read_dir(examples()).unwrap().filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "phobos")).count();
    assert!(n >= 5, "the seed kernels are in examples/");
}

/// Tokens and fragments the fuzzer combines: every keyword, operator and shape of the grammar.
const PIECES: &[&str] = &[
    "while",
    "break",
    "var v: f32[4]",
    "v[",
    "exchange<",
    "gather<striped>(",
    "\"(64,2):(2,1)\"",
    "shared<i32>[",
    "atomic_max(",
    "store_release(",
    "funnel_shift_left(",
    "kernel",
    "fn",
    "@launch(",
    "@aligned(",
    "@autotune(",
    "let",
    "var",
    "if",
    "else",
    "for",
    "in",
    "range(",
    "sum",
    "max",
    "min",
    "any",
    "all",
    "argmax",
    "argmin",
    "reduce",
    "scan",
    "shfl",
    "<",
    ">",
    "over",
    "width",
    "exclusive",
    "from",
    "xor",
    "down",
    "up",
    "ctx.lane",
    "ctx.thread",
    "ctx.warp",
    "ctx.block.x",
    "tensor<f32>",
    "tensor<i8>",
    "[N, K]",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    ":+",
    ":",
    ",",
    "=",
    "+=",
    "*",
    "+",
    "-",
    "/",
    "%",
    "&&",
    "||",
    "==",
    "<=",
    "!",
    "~",
    "0",
    "1",
    "4",
    "128",
    "2.5",
    "x",
    "W",
    "N",
    "K",
    "i32(",
    "f32(",
    "\n",
    " ",
    "// c\n",
    "/*",
    "*/",
    "true",
    "@",
    "$",
    "0x",
    "99999999999999999999",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, max_shrink_iters: 200, .. ProptestConfig::default() })]

    /// Any sequence of pieces: the frontend answers with an output or diagnostics, never a panic.
    #[test]
    fn frontend_never_panics_on_token_soup(idx in proptest::collection::vec(0..PIECES.len(), 0..60)) {
        let text: String = idx.iter().map(|i| PIECES[*i]).collect::<Vec<_>>().join(" ");
        let src = Source::new("fuzz.phobos", text);
        let _ = compile(&src, &Options::default());
    }

    /// Arbitrary bytes (as text).
    #[test]
    fn frontend_never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let src = Source::new("fuzz.phobos", String::from_utf8_lossy(&bytes).into_owned());
        let _ = compile(&src, &Options::default());
    }

    /// The example kernels with one token replaced, deleted or duplicated: near-misses of valid code
    /// reach the type checker and code generator.
    #[test]
    fn frontend_never_panics_on_mutated_seeds(which in 0usize..5, at in 0usize..400, op in 0u8..3, piece in 0..PIECES.len()) {
        let files = ["lanes_matvec", "lane_max", "butterfly", "i8_matvec", "staged_matvec"];
        let text = std::fs::read_to_string(examples().join(format!("{}.phobos", files[which]))).unwrap();
        let words: Vec<&str> = text.split_inclusive(|c: char| c.is_whitespace() || "()[]{}<>,".contains(c)).collect();
        let i = at % words.len().max(1);
        let mut out: Vec<&str> = words.clone();
        match op {
            0 => out[i] = PIECES[piece],
            1 => { out.remove(i); }
            _ => out.insert(i, words[i]),
        }
        let src = Source::new("fuzz.phobos", out.concat());
        let _ = compile(&src, &Options::default());
    }
}

/// `Source::offset_of` inverts `line_col` at every character (multi-byte ones too), clamps a
/// column past its line's end to that end, and has no offset past the last line.
#[test]
fn offset_of_inverts_line_col() {
    let src = Source::new("t.phobos", "ab\n\u{e7}d\u{20ac}f\n\nx");
    for (off, _) in src.text.char_indices() {
        let (l, c) = src.line_col(off as u32);
        assert_eq!(src.offset_of(l, c), Some(off as u32), "offset {off} at {l}:{c}");
    }
    assert_eq!(src.offset_of(1, 99), Some(2));
    assert_eq!(src.offset_of(2, 99), Some(10));
    assert_eq!(src.offset_of(5, 1), None);
    assert_eq!(src.offset_of(0, 1), None);
}

/// An inlined `fn`'s ops are located at a call site: the `fn`'s body (where diagnostics point)
/// at the call (the statement that runs them), nested calls outermost last.
#[test]
fn inlined_fn_ops_have_call_site_locations() {
    let text =
        "fn g(a) = a * 2.0\nfn f(a) = g(a) + 1.0\n@launch(32)\nkernel k(X: tensor<f32>[32]) {\n  X[ctx.thread] = f(X[ctx.thread])\n}\n";
    let src = Source::new("c.phobos", text);
    let out = compile(&src, &Options::default()).unwrap_or_else(|ds| panic!("{}", ds[0].render(&src)));
    assert!(out.mlir.contains("loc(callsite(\"c.phobos\":2:11 at \"c.phobos\":5:19))"), "{}", out.mlir);
    assert!(out.mlir.contains("loc(callsite(\"c.phobos\":1:11 at callsite(\"c.phobos\":2:11 at \"c.phobos\":5:19)))"), "{}", out.mlir);
}
