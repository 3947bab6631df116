//! Collectives and shuffles: `sum<over ctx.lane>(x)`, `shfl<xor m>(v)`, ... as `lane`/`cta` ops.

use super::*;

impl<'a> Gen<'a> {
    // ---------------------------------------------------------------------------------------
    // Collectives

    pub(super) fn collective(&mut self, op: &Ident, config: &[Config], args: &[Expr], span: Span) -> Result<Value> {
        let name = op.name.as_str();
        let mut over: Option<&Config> = None;
        let mut width: Option<&Config> = None;
        let mut modes: Vec<&Config> = Vec::new();
        for c in config {
            match c.key.name.as_str() {
                "over" => over = Some(c),
                "width" => width = Some(c),
                _ => modes.push(c),
            }
        }
        let width_val = match width {
            Some(w) => match self.expr(&w.value)? {
                // Checked here, before it is an i32 attribute (which 2^31 and 2^32 would wrap).
                Value::Int(v) if !(1..=32).contains(&v) || (v & (v - 1)) != 0 => {
                    return Err(Diag::error(w.value.span, format!("width must be a power of two from 1 to 32, got {v}")));
                }
                Value::Int(v) => Some(v),
                _ => {
                    return Err(Diag::error(w.value.span, "width must fold to a compile-time constant (a power of two dividing ctx.lanes)"))
                }
            },
            None => None,
        };
        let width_attr = width_val.map(|w| format!(", width = {w} : i32")).unwrap_or_default();
        if name == "scan" {
            return self.scan(op, over, width_val, &modes, args, span);
        }
        if let Some(m) = modes.iter().find(|m| m.key.name == "exclusive") {
            return Err(Diag::error(m.key.span, format!("'exclusive' configures scans; {name} takes over and width")));
        }
        if name == "shfl" {
            if let Some(o) = over {
                return Err(Diag::error(o.key.span, "a shuffle takes no over: it always moves values among the lanes of a warp"));
            }
            if modes.len() != 1 {
                let at = modes.get(1).map(|m| m.key.span).unwrap_or(op.span);
                return Err(Diag::error(at, "a shuffle takes exactly one of from, xor, down and up"));
            }
            if args.len() != 1 {
                return Err(Diag::error(span, format!("shfl takes one value, got {}", args.len())));
            }
            let m = modes[0];
            let v = self.expr(&args[0])?;
            let v = self.scalar(v, None, args[0].span)?;
            let o = self.expr(&m.value)?;
            let o = self
                .scalar(o, Some(Scalar::I32), m.value.span)
                .map_err(|e| Diag::error(m.value.span, format!("a shuffle's {} is an i32: {}", m.key.name, e.message)))?;
            let attrs = format!("{{mode = \"{}\"{width_attr}}}", m.key.name);
            return Ok(Value::V(self.emit(
                format!("\"lane.shuffle\"({}, {}) {attrs} : ({}, i32) -> {}", v.s, o.s, v.ty.mlir(), v.ty.mlir()),
                v.ty,
                span,
            )));
        }
        if let Some(m) = modes.first() {
            return Err(Diag::error(m.key.span, format!("'{}' configures shuffles; {name} takes over and width", m.key.name)));
        }
        let Some(over) = over else {
            return Err(Diag::error(op.span, "a collective needs over ctx.lane or over ctx.thread"));
        };
        let dialect = match &over.value.kind {
            ExprKind::Ctx(p) if p == "lane" => "lane",
            ExprKind::Ctx(p) if p == "thread" => "cta",
            _ => return Err(Diag::error(over.value.span, "over takes ctx.lane or ctx.thread")),
        };
        let want_args = if name == "reduce" { 2 } else { 1 };
        if args.len() != want_args {
            return Err(Diag::error(
                span,
                format!("{name}<...> takes {want_args} argument{}, got {}", if want_args == 1 { "" } else { "s" }, args.len()),
            ));
        }
        let v = self.expr(&args[0])?;
        if let Value::Run(_) = v {
            return Err(Diag::error(
                args[0].span,
                format!("{name}<over ...> folds one value per thread; sum a run within the thread first with sum(...)"),
            ));
        }
        let v = self.scalar(v, None, args[0].span)?;
        let t = v.ty.mlir();
        let out = match name {
            "sum" | "max" | "min" | "any" | "all" => {
                self.emit(format!("\"{dialect}.reduce\"({}) {{kind = \"{name}\"{width_attr}}} : ({t}) -> {t}", v.s), v.ty, span)
            }
            "argmin" if dialect == "cta" => {
                return Err(Diag::error(
                    op.span,
                    "argmin folds the lanes of a warp: argmin<over ctx.lane>(...); over ctx.thread there is argmax",
                ));
            }
            "argmax" | "argmin" if v.ty.elem == Scalar::Bool => {
                return Err(Diag::error(
                    args[0].span,
                    format!(
                        "{name} picks the lane holding the {} number, and a bool is a condition: convert it with i32(...)",
                        if name == "argmax" { "largest" } else { "smallest" }
                    ),
                ));
            }
            "argmax" | "argmin" => {
                let attrs = if width_attr.is_empty() { String::new() } else { format!(" {{{}}}", &width_attr[2..]) };
                self.emit(format!("\"{dialect}.{name}\"({}){attrs} : ({t}) -> i32", v.s), Ty::scalar(Scalar::I32), span)
            }
            "reduce" => {
                let f = match &args[1].kind {
                    ExprKind::Name(n) => self
                        .fns
                        .get(n)
                        .copied()
                        .ok_or_else(|| Diag::error(args[1].span, format!("'{n}' is not a function (fn {n}(a, b) = ...)")))?,
                    _ => return Err(Diag::error(args[1].span, "reduce's second argument names a function: fn f(a, b) = ...")),
                };
                if f.params.len() != 2 {
                    return Err(Diag::error(
                        args[1].span,
                        format!("reduce needs a function of two values; '{}' takes {}", f.name.name, f.params.len()),
                    )
                    .note(f.name.span, "defined here"));
                }
                let attrs = if width_attr.is_empty() { String::new() } else { format!(" {{{}}}", &width_attr[2..]) };
                self.with_combine(&format!("{dialect}.reduce_with"), &v, f, &attrs, span)?
            }
            _ => unreachable!("the parser only accepts collective names here"),
        };
        Ok(Value::V(out))
    }

    /// `"name"(v) ({combine region}) attrs`: the region `f` inlined on its block's two arguments.
    pub(super) fn with_combine(&mut self, name: &str, v: &V, f: &FnDef, attrs: &str, span: Span) -> Result<V> {
        let t = v.ty.mlir();
        let (a, b) = (self.fresh(), self.fresh());
        let ty = v.ty;
        let (lines, res) = self.region(|g| {
            let r = g.inline_values(f, vec![Value::V(V { s: a.clone(), ty }), Value::V(V { s: b.clone(), ty })], span)?;
            g.scalar(r, Some(ty.elem), f.body.span)
        })?;
        let r = self.fresh();
        let loc = self.loc(span);
        let pad = " ".repeat(self.indent + 2);
        self.line(format!("{r} = \"{name}\"({}) ({{", v.s));
        self.bufs.last_mut().expect("buf").push(format!("{}^bb0({a}: {t}, {b}: {t}):", " ".repeat(self.indent)));
        self.push_lines(lines);
        self.bufs.last_mut().expect("buf").push(format!("{pad}gpu.yield {} : {t}", res.s));
        self.line(format!("}}){attrs} : ({t}) -> {t} {loc}"));
        Ok(V { s: r, ty })
    }
}
