//! The pattern driver (`phobos_passes::patterns::apply`) from outside a pass: ops a pattern
//! creates are lowered too, a pattern that fails leaves the IR as it was, and patterns that
//! never converge are an error.

use phobos_compiler::session::Session;
use phobos_dialects::lane;
use phobos_ir::{diag::Diagnostic, Builder, Diagnostics, Op, Val};
use phobos_passes::{
    external::PassCx,
    patterns::{self, Illegal, Pattern},
    registry::Options,
};

const MODULE: &str = r#"gpu.module @m {
  gpu.func @k(%x: f32, %y: memref<4xi32>) kernel {
    %c0 = arith.constant 0 : index
    %a = "lane.argmin"(%x) {width = 8 : i32} : (f32) -> i32
    memref.store %a, %y[%c0] : memref<4xi32>
    gpu.return
  }
}
"#;

/// Runs `patterns` on the module's gpu.module; returns the result, the module's text after,
/// and the diagnostics.
fn run(ps: &[Pattern]) -> (Result<(), ()>, String, String, Vec<Diagnostic>) {
    let session = Session::new(false).expect("a session");
    let m = session.parse(MODULE, "patterns.mlir").expect("the module parses");
    let before = m.op().to_string();
    let diags = Diagnostics::new();
    let opts = Options::default();
    let result = {
        let gm = m.op().find_all("gpu.module")[0];
        // SAFETY: no handle into the module is used after `cx` (and its rewriter) is dropped
        // at the end of this block but the module's own.
        let cx = unsafe { PassCx::new(diags.clone(), &opts, gm) };
        patterns::apply(gm, &cx, "test-patterns", ps, Illegal::named(&["lane"], &[]))
    };
    (result, before, m.op().to_string(), diags.take())
}

fn builds_then_fails<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let b = Builder::before(op);
    let one = b.i32(1);
    let two = b.bin("arith.addi", one, one);
    lane::build::argmax(b, b.cast("arith.sitofp", two, b.ctx.known_type("f32")), 8);
    Err(Diagnostic::op_error(op, "this pattern fails after building four ops"))
}

fn argmin_to_argmax<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    Ok(vec![lane::build::argmax(Builder::before(op), op.operand(0), lane::width(op))])
}

fn argmax_to_zero<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    Ok(vec![Builder::before(op).i32(0)])
}

fn argmin_to_argmin<'a>(op: Op<'a>, _cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    Ok(vec![lane::build::argmin(Builder::before(op), op.operand(0), lane::width(op))])
}

#[test]
fn a_failing_pattern_leaves_the_ir_unchanged() {
    let (result, before, after, diags) = run(&[Pattern::new("lane.argmin", builds_then_fails)]);
    assert!(result.is_err());
    assert_eq!(after, before, "the ops the failed pattern built are still there");
    assert!(diags.iter().any(|d| d.message.contains("fails after building")), "{diags:?}");
}

#[test]
fn ops_a_pattern_creates_are_lowered_too() {
    let (result, _, after, diags) = run(&[Pattern::new("lane.argmin", argmin_to_argmax), Pattern::new("lane.argmax", argmax_to_zero)]);
    assert!(result.is_ok(), "{diags:?}\n{after}");
    assert!(!after.contains("lane."), "{after}");
    assert!(after.contains("arith.constant 0 : i32"), "{after}");
}

#[test]
fn patterns_that_never_converge_are_an_error() {
    let (result, _, _, diags) = run(&[Pattern::new("lane.argmin", argmin_to_argmin)]);
    assert!(result.is_err());
    assert!(diags.iter().any(|d| d.message.contains("keep creating ops they lower")), "{diags:?}");
}

#[test]
fn ir_accessors_check_their_index() {
    let session = Session::new(false).expect("a session");
    let m = session.parse(MODULE, "patterns.mlir").expect("the module parses");
    let argmin = m.op().find_all("lane.argmin")[0];
    assert!(argmin.get_operand(0).is_some() && argmin.get_operand(1).is_none());
    assert!(argmin.get_result(1).is_none() && argmin.get_region(0).is_none());
    let entry = m.op().find_all("gpu.func")[0].region(0).first_block().expect("a body");
    assert!(entry.get_arg(1).is_some() && entry.get_arg(2).is_none());
    let past = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| argmin.operand(3)));
    assert!(past.is_err(), "operand 3 of an op with one must panic, not read past the list");
}
