//! `vector-fuse-dp4a`: turns a sum of byte products into `dp4a`, one per four bytes.
//!
//! `vector.reduction <add>` of `arith.muli(ext(a), ext(b))`, with `a` and `b` vectors of N i8
//! (N a multiple of 4) and `ext` a sign or zero extension to i32, becomes N/4
//! `nvvm.dot.accumulate.4way` on four-byte slices, each adding into the next (the language's
//! `sum(i32(a) * i32(b))`). `sum(i32(a))` alone is a dp4a against ones. Whatever computed `a`
//! and `b` (an `&` with a mask, a shift) stays elementwise on the packed bytes, so a nibble
//! decode is still one dp4a per word.
//! Other reductions are left alone (LLVM sums them element by element).

use crate::external::PassCx;
use crate::registry::PassInfo;
use phobos_ir::{Builder, Op, Val};

/// (the i8 vector, signed) when `v` is `ext(x : vector<Nxi8>)` to i32, N a multiple of 4.
fn extended_bytes<'a>(v: Val<'a>) -> Option<(Val<'a>, bool)> {
    let d = v.def()?;
    let signed = if d.is("arith.extsi") {
        true
    } else if d.is("arith.extui") {
        false
    } else {
        return None;
    };
    let x = d.operand(0);
    let t = x.ty();
    if !t.is_vector() || t.element().int_width() != Some(8) || v.ty().element().int_width() != Some(32) {
        return None;
    }
    let n = t.shape().first().copied().flatten()?;
    (n % 4 == 0 && t.shape().len() == 1).then_some((x, signed))
}

fn dot_type<'a>(b: Builder<'a>, signed: bool) -> phobos_ir::Attr<'a> {
    b.ctx.known_attr(if signed { "#nvvm.dot_accumulate_type<signed>" } else { "#nvvm.dot_accumulate_type<unsigned>" })
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    for red in module.find_all("vector.reduction") {
        let kind = red.attr("kind").map(|a| a.to_string()).unwrap_or_default();
        if !kind.contains("add") || red.num_operands() != 1 || red.result(0).ty().int_width() != Some(32) {
            continue;
        }
        let v = red.operand(0);
        let (a, b_operand) = match v.def() {
            Some(m) if m.is("arith.muli") => match (extended_bytes(m.operand(0)), extended_bytes(m.operand(1))) {
                (Some(x), Some(y)) => (x, Some(y)),
                _ => continue,
            },
            _ => match extended_bytes(v) {
                Some(x) => (x, None),
                None => continue,
            },
        };
        let b = Builder::before(red);
        let n = a.0.ty().shape()[0].expect("static");
        let v4 = b.ctx.known_type("vector<4xi8>");
        let i32t = b.ctx.i(32);
        let words_ty = b.ctx.known_type(&format!("vector<{}xi32>", n / 4));
        // The bytes as packed 32-bit words (one register each), then word i as four bytes.
        let words = |x: Val<'a>| b.op_value("vector.bitcast", &[x], words_ty, &[]);
        let aw = words(a.0);
        let bw = b_operand.map(|(y, s)| (words(y), s));
        let ones = b.op_value("arith.constant", &[], v4, &[("value", b.ctx.known_attr("dense<1> : vector<4xi8>"))]);
        let mut acc = b.i32(0);
        for i in 0..n / 4 {
            let word = |w: Val<'a>| {
                let x = crate::emit::vector::extract(b, w, i);
                b.op_value("llvm.bitcast", &[x], v4, &[])
            };
            let xa = word(aw);
            let (yb, ysigned) = match bw {
                Some((y, s)) => (word(y), s),
                None => (ones, false),
            };
            acc = b.op_value(
                "nvvm.dot.accumulate.4way",
                &[xa, yb, acc],
                i32t,
                &[("a_type", dot_type(b, a.1)), ("b_type", dot_type(b, ysigned))],
            );
        }
        cx.replace(red, &[acc]);
    }
    Ok(())
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "vector-fuse-dp4a",
    name: "VectorFuseDp4a",
    summary: "sums of i8 products to one dp4a (nvvm.dot.accumulate.4way) per four bytes",
    description: "Rewrites vector.reduction <add> of products of sign/zero-extended i8 \
    vectors (or of one extended i8 vector) into one nvvm.dot.accumulate.4way (dp4a) per four bytes.",
    anchor: "gpu.module",
    options: &[],
    run,
};
