//! `contract-fma`: decides float contraction once, for the simulator and the GPU alike.
//!
//! A float `a * b + c`, `c + a * b`, `c - a * b` or `a * b - c` whose multiply and add both
//! carry the `contract` fastmath flag (the language sets it on every float `*`, `+` and `-`
//! unless `--no-fma`; a frontend sets it where it allows contraction) becomes one `math.fma`
//! (one rounding; `fma.rn` in PTX), when the product has no other use. Then the pass removes
//! `contract` from every op, so LLVM never contracts on its own judgement: what the simulator
//! runs at the SIMT level is what the GPU computes. With `contract=false` it only removes the
//! flags (`--no-fma`, `Options::no_fma`, and the SIMT-to-LLVM pipeline, which must not change
//! what the simulator ran). Postcondition: no op carries `contract`.

use crate::{external::PassCx, registry::PassInfo};
use phobos_ir::{Builder, Op, Val};

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    if cx.options.get("contract") != Some("false") {
        let adds: Vec<Op<'a>> = module.walk().into_iter().filter(|o| (o.is("arith.addf") || o.is("arith.subf")) && contracts(*o)).collect();
        for add in adds {
            if let Some((fma, mul)) = fuse(add) {
                // Erasing the add drops its use of the product, which then goes too.
                cx.replace(add, &[fma]);
                cx.erase(mul);
            }
        }
    }
    for op in module.walk() {
        strip_contract(op);
    }
    Ok(())
}

/// Whether `op` carries the `contract` fastmath flag.
fn contracts(op: Op) -> bool {
    op.attr("fastmath").is_some_and(|a| flags(&a.to_string()).contains(&"contract".to_string()))
}

/// The flags of `#arith.fastmath<a,b>`.
fn flags(text: &str) -> Vec<String> {
    let inner = text.split_once('<').map(|(_, r)| r.trim_end_matches('>')).unwrap_or("");
    inner.split(',').map(|f| f.trim().to_string()).filter(|f| !f.is_empty() && f != "none").collect()
}

/// The product `v` is, when it may fuse into its one user: an `arith.mulf` with `contract` in
/// the same block, used once.
fn product<'a>(v: Val<'a>, user: Op<'a>) -> Option<(Val<'a>, Val<'a>, Op<'a>)> {
    let m = v.def()?;
    (m.is("arith.mulf") && contracts(m) && m.block() == user.block() && v.users().len() == 1).then(|| (m.operand(0), m.operand(1), m))
}

/// `add` as one `math.fma`, and the product it replaces; None when neither operand is a product
/// that may fuse.
fn fuse<'a>(add: Op<'a>) -> Option<(Val<'a>, Op<'a>)> {
    let sub = add.is("arith.subf");
    let (x, y) = (add.operand(0), add.operand(1));
    let b = Builder::before(add);
    let ty = add.result(0).ty();
    let (fma, mul) = if let Some((p, q, m)) = product(x, add) {
        // a * b + c, or a * b - c = fma(a, b, -c).
        let c = if sub { b.op_value("arith.negf", &[y], ty, &[]) } else { y };
        (b.op_value("math.fma", &[p, q, c], ty, &[]), m)
    } else if let Some((p, q, m)) = product(y, add) {
        // c + a * b, or c - a * b = fma(-a, b, c).
        let p = if sub { b.op_value("arith.negf", &[p], ty, &[]) } else { p };
        (b.op_value("math.fma", &[p, q, x], ty, &[]), m)
    } else {
        return None;
    };
    Some((fma, mul))
}

/// Removes `contract` from `op`'s fastmath flags (the others stay).
fn strip_contract(op: Op) {
    let Some(a) = op.attr("fastmath") else { return };
    let text = a.to_string();
    let fs = flags(&text);
    if !fs.iter().any(|f| f == "contract") {
        return;
    }
    let kept: Vec<String> = fs.into_iter().filter(|f| f != "contract").collect();
    let dialect = text.split('<').next().unwrap_or("#arith.fastmath");
    let new = format!("{dialect}<{}>", if kept.is_empty() { "none".to_string() } else { kept.join(",") });
    op.set_attr("fastmath", op.ctx().known_attr(&new));
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "contract-fma",
    name: "ContractFma",
    summary: "float a * b + c with `contract` flags to one math.fma; then no op keeps `contract`",
    description: "Rewrites arith.addf/subf of an arith.mulf (both with the contract fastmath flag, the \
    product used once, in one block) into math.fma (one rounding), then removes the contract flag from \
    every op so LLVM never contracts by itself. contract=false only removes the flags.",
    anchor: "",
    options: &[crate::registry::OptInfo {
        name: "contract",
        help: "fuse products into math.fma (false: only drop the flags)",
        default: "true",
    }],
    run,
};
