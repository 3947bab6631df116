//! Atomics, ordered accesses and funnel shifts: `atomic_add(t[i], v)`, `atomic_max`,
//! `atomic_min`, `atomic_exch`, `atomic_cas(t[i], expected, desired)` (each returns the old
//! value), `load_acquire(t[i])`, `store_release(t[i], v)`, `fence()`, `barrier()` and
//! `funnel_shift_left/right(lo, hi, n)`. All at GPU scope, on tensors and shared buffers.
//! `barrier()` is a CTA barrier the source asks for (global accesses of the CTA before it, say,
//! ordered before one thread's release after it); `elide-barriers` keeps it
//! (`phobos.user`).
//!
//! Atomics are `memref.atomic_rmw` (`atomic_cas`: `memref.generic_atomic_rmw` comparing and
//! selecting, which LLVM turns into `atom.cas`); an acquire load is `memref.atomic_rmw ori 0`
//! and a release store `memref.store`, both marked `phobos.ordering` (the simulator runs them as
//! a load and a store, `lower-ordered-accesses` makes them `ld.acquire.gpu`/`st.release.gpu`); `fence()` is
//! `llvm.fence syncscope("device") acq_rel` (`fence.acq_rel.gpu`).

use super::*;

/// The built-ins this file generates (the parser reserves them).
pub use crate::parser::MEMORY_BUILTINS;

impl<'a> Gen<'a> {
    pub(super) fn memory_builtin(&mut self, n: &str, args: &[Expr], span: Span) -> Result<Option<Value>> {
        let want = match n {
            "fence" | "barrier" => 0,
            "load_acquire" => 1,
            "atomic_cas" | "funnel_shift_left" | "funnel_shift_right" => 3,
            _ => 2,
        };
        if args.len() != want {
            return Err(Diag::error(span, format!("{n} takes {want} argument{}, got {}", if want == 1 { "" } else { "s" }, args.len())));
        }
        match n {
            "fence" => {
                self.emit_void("llvm.fence syncscope(\"device\") acq_rel".into(), span);
                Ok(None)
            }
            "barrier" => {
                self.emit_void("gpu.barrier {phobos.barrier = \"kept: barrier() in the source\", phobos.user}".into(), span);
                Ok(None)
            }
            "funnel_shift_left" | "funnel_shift_right" => {
                let vs = self.i32_args(args, &format!("{n} takes i32 values"))?;
                // CUDA's __funnelshift_l(lo, hi, n) is LLVM's fshl(hi, lo, n): the high word of
                // (hi:lo) << (n mod 32); __funnelshift_r is the low word of (hi:lo) >> (n mod 32).
                let op = if n == "funnel_shift_left" { "llvm.intr.fshl" } else { "llvm.intr.fshr" };
                let v = self.emit(
                    format!("{op}({}, {}, {}) : (i32, i32, i32) -> i32", vs[1].s, vs[0].s, vs[2].s),
                    Ty::scalar(Scalar::I32),
                    span,
                );
                Ok(Some(Value::V(v)))
            }
            _ => self.memory_access(n, args, span),
        }
    }

    /// The element `e` (a point subscript of a tensor or shared buffer) designates.
    fn element(&mut self, n: &str, e: &Expr) -> Result<(String, String, Scalar, Vec<String>)> {
        let ExprKind::Subscript(t, idx) = &e.kind else {
            return Err(Diag::error(e.span, format!("{n}'s first argument is an element of a tensor or shared buffer: t[i, j]")));
        };
        self.point_address(t, idx, e.span)
    }

    fn memory_access(&mut self, n: &str, args: &[Expr], span: Span) -> Result<Option<Value>> {
        let (mem, mty, elem, idx) = self.element(n, &args[0])?;
        let at = format!("{mem}[{}]", idx.join(", "));
        let ty = Ty::scalar(elem);
        let t = elem.mlir();
        let operand = |g: &mut Self, k: usize| -> Result<V> {
            let v = g.expr(&args[k])?;
            g.scalar(v, Some(elem), args[k].span)
        };
        match n {
            "load_acquire" => {
                if !matches!(elem, Scalar::I32 | Scalar::I64) {
                    return Err(Diag::error(args[0].span, format!("load_acquire reads i32 or i64 elements (flags), not {}", elem.name())));
                }
                // An atomic read (`or 0`), so that no pass takes a spin loop on it for a loop
                // without effects and removes it; `lower-ordered-accesses` makes it a plain
                // `ld.acquire.gpu`, the simulator a load.
                let zero = self.const_int(0, ty, span);
                let v = self.emit(
                    format!("memref.atomic_rmw ori {}, {at} {{phobos.ordering = \"acquire\"}} : ({t}, {mty}) -> {t}", zero.s),
                    ty,
                    span,
                );
                Ok(Some(Value::V(v)))
            }
            "store_release" => {
                if elem == Scalar::Bool || elem.bytes() < 4 {
                    return Err(Diag::error(args[0].span, format!("store_release writes 4- or 8-byte elements, not {}", elem.name())));
                }
                let v = operand(self, 1)?;
                self.emit_void(format!("memref.store {}, {at} {{phobos.ordering = \"release\"}} : {mty}", v.s), span);
                Ok(None)
            }
            "atomic_cas" => {
                if !matches!(elem, Scalar::I32 | Scalar::I64) {
                    return Err(Diag::error(args[0].span, format!("atomic_cas works on i32 and i64 elements, not {}", elem.name())));
                }
                let expected = operand(self, 1)?;
                let desired = operand(self, 2)?;
                let (old, eq, new) = (self.fresh(), self.fresh(), self.fresh());
                let r = self.fresh();
                let loc = self.loc(span);
                let pad = " ".repeat(self.indent + 2);
                self.line(format!("{r} = memref.generic_atomic_rmw {at} : {mty} {{"));
                let buf = self.bufs.last_mut().expect("buf");
                buf.push(format!("{}^bb0({old}: {t}):", " ".repeat(self.indent)));
                buf.push(format!("{pad}{eq} = arith.cmpi eq, {old}, {} : {t} {loc}", expected.s));
                buf.push(format!("{pad}{new} = arith.select {eq}, {}, {old} : {t} {loc}", desired.s));
                buf.push(format!("{pad}memref.atomic_yield {new} : {t} {loc}"));
                self.line(format!("}} {loc}"));
                Ok(Some(Value::V(V { s: r, ty })))
            }
            _ => {
                let kind = match (n, elem) {
                    ("atomic_add", Scalar::I32 | Scalar::I64) => "addi",
                    ("atomic_add", Scalar::F32) => "addf",
                    ("atomic_max", Scalar::I32 | Scalar::I64) => "maxs",
                    ("atomic_min", Scalar::I32 | Scalar::I64) => "mins",
                    ("atomic_exch", Scalar::I32 | Scalar::I64) => "assign",
                    _ => {
                        let on = if n == "atomic_add" { "i32, i64 and f32" } else { "i32 and i64" };
                        return Err(Diag::error(args[0].span, format!("{n} works on {on} elements, not {}", elem.name())));
                    }
                };
                let v = operand(self, 1)?;
                let r = self.emit(format!("memref.atomic_rmw {kind} {}, {at} : ({t}, {mty}) -> {t}", v.s), ty, span);
                Ok(Some(Value::V(r)))
            }
        }
    }
}
