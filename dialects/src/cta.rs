//! The `cta` dialect: the Rust half of its verification.

use crate::lane;
use phobos_ir::{diag::Diagnostic, Op};

pub fn verify(op: Op) -> Result<(), Diagnostic> {
    if op.attr("width").is_some() {
        return Err(Diagnostic::op_error(op, "a CTA collective takes no width"));
    }
    match op.name().as_str() {
        "cta.reduce" => {
            let kind = op.str_attr("kind").unwrap_or_default();
            lane::verify_kind_type(op, &kind, op.operand(0).ty())
        }
        "cta.reduce_with" => lane::verify_combine(op),
        _ => Ok(()),
    }
}

/// Typed builders: the ops as a frontend creates them (verified like parsed ones).
pub mod build {
    use crate::lane::Kind;
    use phobos_ir::{Builder, Val};

    /// `cta.reduce` of `value` with `kind` over the whole CTA; every thread gets the result.
    pub fn reduce<'a>(b: Builder<'a>, kind: Kind, value: Val<'a>) -> Val<'a> {
        let ctx = b.ctx;
        let ty = value.ty();
        b.op_value("cta.reduce", &[value], ty, &[("kind", ctx.str_attr(kind.name()))])
    }
}
