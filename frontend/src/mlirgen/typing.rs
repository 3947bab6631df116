//! Type checking of values: literals take the type they meet, scalars convert only where the
//! language says.

use super::*;

impl<'a> Gen<'a> {
    // ---------------------------------------------------------------------------------------
    // Values and types

    /// Makes a scalar SSA value of `val`, of type `want` when given (literals take it; typed
    /// values must have it).
    pub(super) fn scalar(&mut self, val: Value, want: Option<Scalar>, span: Span) -> Result<V> {
        match val {
            Value::V(v) => {
                if v.ty.lanes.is_some() {
                    return Err(Diag::error(span, "expected a scalar, found a run"));
                }
                if let Some(w) = want {
                    if v.ty.elem != w {
                        return Err(Diag::error(
                            span,
                            format!("expected {}, found {}; convert with {}(...)", w.name(), v.ty.elem.name(), w.name()),
                        ));
                    }
                }
                Ok(v)
            }
            Value::Int(i) => {
                let t = want.unwrap_or(Scalar::I32);
                self.literal_int(i, Ty::scalar(t), span)
            }
            Value::Float(f) => {
                let t = want.unwrap_or(Scalar::F32);
                if !t.is_float() {
                    return Err(Diag::error(span, format!("expected {}, found a float literal", t.name())));
                }
                Ok(self.const_float(f, Ty::scalar(t), span))
            }
            Value::Run(_) => Err(Diag::error(span, "expected a scalar, found a run; sum(...) it or read it with elem(...)")),
            Value::Array(_) => Err(Diag::error(span, "expected a scalar, found a register array; read one item with v[i]")),
        }
    }

    pub(super) fn literal_int(&mut self, i: i64, ty: Ty, span: Span) -> Result<V> {
        match ty.elem {
            Scalar::Bool => Err(Diag::error(span, "expected bool, found an integer literal; compare it (x != 0)")),
            s if s.is_float() => Ok(self.const_float(i as f64, ty, span)),
            s => {
                let (lo, hi) = s.int_range();
                if i < lo || i > hi {
                    return Err(Diag::error(span, format!("literal {i} does not fit in {}", s.name())));
                }
                Ok(self.const_int(i, ty, span))
            }
        }
    }

    /// A literal or scalar as a value of type `ty` (scalar or vector: scalars are broadcast).
    pub(super) fn as_ty(&mut self, val: Value, ty: Ty, span: Span) -> Result<V> {
        match val {
            Value::Int(i) => self.literal_int(i, ty, span),
            Value::Float(f) => {
                if !ty.elem.is_float() {
                    return Err(Diag::error(span, format!("expected {}, found a float literal", ty.elem.name())));
                }
                Ok(self.const_float(f, ty, span))
            }
            Value::V(v) => {
                if v.ty.elem != ty.elem {
                    return Err(Diag::error(
                        span,
                        format!("expected {}, found {}; convert with {}(...)", ty.elem.name(), v.ty.elem.name(), ty.elem.name()),
                    ));
                }
                if v.ty == ty {
                    return Ok(v);
                }
                Ok(self.emit(format!("vector.broadcast {} : {} to {}", v.s, v.ty.mlir(), ty.mlir()), ty, span))
            }
            Value::Run(_) => unreachable!("runs are split into chunks before"),
            Value::Array(_) => Err(Diag::error(span, "expected a scalar, found a register array; read one item with v[i]")),
        }
    }

    pub(super) fn type_of(val: &Value) -> Option<Scalar> {
        match val {
            Value::V(v) | Value::Array(v) => Some(v.ty.elem),
            Value::Run(r) => r.chunks.first().map(|c| c.ty.elem),
            _ => None,
        }
    }
}
