//! Redistributions of register arrays over the CTA:
//! `exchange<A, B>(v)`, `scatter<B>(v, ranks)`, `gather<A>(v, ranks)` as `cta.exchange`,
//! `cta.scatter` and `cta.gather`, whose layouts are resolved and checked here so that a bad
//! layout is an error at the call.

use super::*;
use phobos_layout::exchange;

/// The thread/value layout a register array holds its items in, when the compiler knows it:
/// made by an exchange or scatter, or declared with `var v: T[n] in L`. Layouts travel with the
/// array (through `let`, item writes, and vars declared with one), and an exchange or gather
/// from another layout is an error naming both.
#[derive(Clone, Debug)]
pub(super) struct ArrayLayout {
    /// As written: `striped`, `"(128,4):(4,1)"`.
    pub(super) shown: String,
    /// Its positions for `t + T·i` (so that two spellings of one layout agree).
    pub(super) values: Vec<i64>,
    /// Where it was made or declared.
    pub(super) origin: Span,
    /// Declared on a var (`in L`): every whole assignment keeps it.
    pub(super) declared: bool,
}

impl<'a> Gen<'a> {
    /// The layout `l` names for arrays of `items` items per thread, resolved and checked.
    pub(super) fn array_layout(&self, l: &LayoutRef, items: i64, origin: Span) -> Result<ArrayLayout> {
        let text = self.thread_value_layout(l, self.launch, items)?;
        let map = exchange::resolve(&text, self.launch, items).map_err(|e| Diag::error(l.span(), e))?;
        let shown = match l {
            LayoutRef::Named(id) => id.name.clone(),
            LayoutRef::Quoted(s, _) => format!("\"{s}\""),
        };
        Ok(ArrayLayout { shown, values: map.values(), origin, declared: false })
    }

    /// The layout the array `e` (evaluated to `v`) is known to hold its items in.
    fn known_layout(&self, e: &Expr, v: &V) -> Option<ArrayLayout> {
        if let ExprKind::Name(n) = &e.kind {
            if let Some(Bind::Val { decl, .. }) = self.lookup(n) {
                if let Some(d) = self.declared_layouts.get(decl) {
                    return Some(d.clone());
                }
            }
        }
        self.array_layouts.get(&v.s).cloned()
    }

    pub(super) fn exchange_expr(&mut self, op: &Ident, layouts: &[LayoutRef], args: &[Expr], span: Span) -> Result<Value> {
        let name = op.name.as_str();
        let (want_layouts, want_args) = if name == "exchange" { (2, 1) } else { (1, 2) };
        let usage = match name {
            "exchange" => "exchange<A, B>(v)",
            "scatter" => "scatter<B>(v, ranks)",
            _ => "gather<A>(v, ranks)",
        };
        if layouts.len() != want_layouts {
            let at = layouts.get(want_layouts).map(|l| l.span()).unwrap_or(op.span);
            return Err(Diag::error(
                at,
                format!("{name} takes {want_layouts} layout{}: {usage}", if want_layouts == 1 { "" } else { "s" }),
            ));
        }
        if args.len() != want_args {
            return Err(Diag::error(span, format!("{name} takes {want_args} argument{}: {usage}", if want_args == 1 { "" } else { "s" })));
        }
        let v = self.array_arg(&args[0], name)?;
        let n = v.ty.lanes.expect("an array") as i64;
        let threads = self.launch;
        let mut texts = Vec::new();
        for l in layouts {
            texts.push(self.thread_value_layout(l, threads, n)?);
        }
        // The source layout an exchange or gather reads under must be the one the array is in.
        if name != "scatter" {
            let from = self.array_layout(&layouts[0], n, layouts[0].span())?;
            if let Some(k) = self.known_layout(&args[0], &v).filter(|k| k.values != from.values) {
                let what = match &args[0].kind {
                    ExprKind::Name(x) => format!("'{x}'"),
                    _ => "the array".to_string(),
                };
                let made = if k.declared { "declared here" } else { "made here" };
                return Err(Diag::error(
                    layouts[0].span(),
                    format!("{name} reads {what} in layout {}, but {what} holds its items in layout {}", from.shown, k.shown),
                )
                .note(k.origin, format!("{} {made}", k.shown)));
            }
        }
        let t = v.ty.mlir();
        let out = match name {
            "exchange" => self.emit(
                format!("\"cta.exchange\"({}) {{from = \"{}\", to = \"{}\"}} : ({t}) -> {t}", v.s, escape(&texts[0]), escape(&texts[1])),
                v.ty,
                span,
            ),
            _ => {
                let ranks = self.array_arg(&args[1], name)?;
                if ranks.ty != Ty::vector(Scalar::I32, n as u32) {
                    return Err(Diag::error(
                        args[1].span,
                        format!(
                            "{name}'s ranks are an i32 array of {n} items, like the values; got {}[{}]",
                            ranks.ty.elem.name(),
                            ranks.ty.lanes.unwrap_or(1)
                        ),
                    ));
                }
                let key = if name == "scatter" { "to" } else { "from" };
                self.emit(
                    format!(
                        "\"cta.{name}\"({}, {}) {{{key} = \"{}\"}} : ({t}, {}) -> {t}",
                        v.s,
                        ranks.s,
                        escape(&texts[0]),
                        ranks.ty.mlir()
                    ),
                    v.ty,
                    span,
                )
            }
        };
        // The result's layout travels with it: an exchange's or scatter's target.
        if name != "gather" {
            let to = layouts.last().expect("checked above");
            let l = self.array_layout(to, n, span)?;
            self.array_layouts.insert(out.s.clone(), l);
        }
        Ok(Value::Array(out))
    }

    /// A register array argument of `what`.
    fn array_arg(&mut self, e: &Expr, what: &str) -> Result<V> {
        match self.expr(e)? {
            Value::Array(v) => Ok(v),
            _ => Err(Diag::error(e.span, format!("{what} moves a register array (declared with var v: f32[n]); this is not one"))),
        }
    }

    /// The layout expression `l` stands for, checked as a thread/value layout.
    fn thread_value_layout(&self, l: &LayoutRef, threads: i64, items: i64) -> Result<String> {
        let text = match l {
            LayoutRef::Named(id) => exchange::named(&id.name, threads, items).ok_or_else(|| {
                Diag::error(id.span, format!("unknown layout '{}' (blocked, striped, warp_striped, or a quoted layout)", id.name))
            })?,
            LayoutRef::Quoted(s, _) => s.clone(),
        };
        exchange::resolve(&text, threads, items).map_err(|e| Diag::error(l.span(), e))?;
        Ok(text)
    }
}
