//! `lower-fast-math`: f32 math functions marked `afn` (the language's `@fast_math` and
//! `--fast-math`; `all=true` takes every f32 function, for `--fast-math` on MLIR input and the
//! API's `Options::fast_math`) become the hardware's approximations, at the SIMT level so the
//! simulator runs them too: `exp2` is `ex2.approx.ftz.f32`, `exp(x)` is `ex2(x * log2 e)`,
//! `log2` is `lg2.approx.ftz.f32`, `log(x)` is `lg2(x) * ln 2`, `rsqrt`, `sin` and `cos` their
//! `.approx.ftz` forms, and `tanh` is `tanh.approx.f32` on sm_75 and later (inline PTX: LLVM 22
//! has no intrinsic for it). Others stay accurate (libdevice). The simulator computes each
//! accurately with `.ftz`'s flushing; the GPU's error is the PTX ISA's (docs/math.md).

use crate::{external::PassCx, registry::PassInfo};
use phobos_ir::{Builder, Op, Val};

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    let all = cx.options.flag("all");
    let chip = cx.options.get("chip").unwrap_or("sm_90");
    // sm_75 and later: the chip number after "sm_" (sm_90a is 90).
    let sm: u32 = chip.trim_start_matches("sm_").chars().take_while(char::is_ascii_digit).collect::<String>().parse().unwrap_or(0);
    let tanh = sm >= 75;
    let ops: Vec<Op<'a>> = module
        .walk()
        .into_iter()
        .filter(|o| o.name().starts_with("math.") && o.num_results() == 1 && o.result(0).ty().is_f32())
        .filter(|o| all || o.attr("fastmath").is_some_and(|a| a.to_string().contains("afn")))
        .collect();
    for op in ops {
        if let Some(v) = approximate(op, tanh) {
            cx.replace(op, &[v]);
        }
    }
    Ok(())
}

/// `intrinsic(x)` on f32.
fn call<'a>(b: Builder<'a>, intrinsic: &str, x: Val<'a>) -> Val<'a> {
    let ctx = b.ctx;
    b.op_value(
        "llvm.call_intrinsic",
        &[x],
        x.ty(),
        &[
            ("intrin", ctx.str_attr(intrinsic)),
            ("op_bundle_sizes", ctx.known_attr("array<i32>")),
            ("operandSegmentSizes", ctx.known_attr("array<i32: 1, 0>")),
            ("fastmathFlags", ctx.known_attr("#llvm.fastmath<none>")),
        ],
    )
}

/// The approximation of `op`, built before it; None when the function has none here.
fn approximate<'a>(op: Op<'a>, tanh: bool) -> Option<Val<'a>> {
    let b = Builder::before(op);
    let x = op.operand(0);
    let f32t = x.ty();
    let scaled = |k: f64| b.bin("arith.mulf", x, b.const_float(f32t, k));
    Some(match op.name().as_str() {
        "math.exp2" => call(b, "llvm.nvvm.ex2.approx.ftz.f", x),
        "math.exp" => call(b, "llvm.nvvm.ex2.approx.ftz.f", scaled(std::f64::consts::LOG2_E)),
        "math.log2" => call(b, "llvm.nvvm.lg2.approx.ftz.f", x),
        "math.log" => b.bin("arith.mulf", call(b, "llvm.nvvm.lg2.approx.ftz.f", x), b.const_float(f32t, std::f64::consts::LN_2)),
        "math.rsqrt" => call(b, "llvm.nvvm.rsqrt.approx.ftz.f", x),
        "math.sin" => call(b, "llvm.nvvm.sin.approx.ftz.f", x),
        "math.cos" => call(b, "llvm.nvvm.cos.approx.ftz.f", x),
        "math.tanh" if tanh => {
            let ctx = b.ctx;
            b.op_value(
                "llvm.inline_asm",
                &[x],
                f32t,
                &[
                    ("asm_string", ctx.str_attr("tanh.approx.f32 $0, $1;")),
                    ("constraints", ctx.str_attr("=f,f")),
                    ("tail_call_kind", ctx.known_attr("#llvm.tailcallkind<none>")),
                ],
            )
        }
        _ => return None,
    })
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "lower-fast-math",
    name: "LowerFastMath",
    summary: "f32 math ops marked afn (or all, with all=true) to the hardware's approximations (ex2.approx, ...)",
    description: "Rewrites f32 math.exp2/exp/log2/log/rsqrt/sin/cos (and tanh on sm_75+) marked with the afn \
    fastmath flag into the approximate NVVM instructions (ex2.approx.ftz.f32, lg2.approx.ftz.f32, rsqrt.approx.ftz.f32, \
    sin/cos.approx.ftz.f32, tanh.approx.f32); all=true takes every f32 math op.",
    anchor: "",
    options: &[
        crate::registry::OptInfo { name: "chip", help: "the target chip (tanh.approx needs sm_75)", default: "sm_90" },
        crate::registry::OptInfo { name: "all", help: "approximate every f32 math function, marked or not", default: "false" },
    ],
    run,
};
