//! Prefix scans: `scan<over ctx.lane[, width w][, exclusive v]>(x[, f])`, inclusive by default,
//! as `lane.scan` (sum, max, min) or `lane.scan_with` (a `fn` of two values, applied as
//! `f(earlier, later)`); `exclusive v` seeds the scan with `v`, as CUB's exclusive scans do:
//! lane 0 of each piece gets `v`, lane i `f(v, x0, ..., x(i-1))`. `over ctx.thread`: warp scans, the warps' totals through shared memory, and each
//! warp's prefix of the warps before it.

use super::*;

/// How a scan combines two values.
enum Combine<'f> {
    /// `sum`, `max` or `min`: `lane.scan`'s kind.
    Kind(&'static str),
    /// A `fn` of two values.
    Fn(&'f FnDef),
}

impl<'a> Gen<'a> {
    pub(super) fn scan(
        &mut self,
        op: &Ident,
        over: Option<&Config>,
        width: Option<i64>,
        modes: &[&Config],
        args: &[Expr],
        span: Span,
    ) -> Result<Value> {
        if let Some(m) = modes.iter().find(|m| m.key.name != "exclusive") {
            return Err(Diag::error(m.key.span, format!("'{}' configures shuffles; scan takes over, width and exclusive", m.key.name)));
        }
        let Some(over) = over else {
            return Err(Diag::error(op.span, "a scan needs over ctx.lane or over ctx.thread"));
        };
        let cta = match &over.value.kind {
            ExprKind::Ctx(p) if p == "lane" => false,
            ExprKind::Ctx(p) if p == "thread" => true,
            _ => return Err(Diag::error(over.value.span, "over takes ctx.lane or ctx.thread")),
        };
        if cta && width.is_some() {
            return Err(Diag::error(op.span, "a scan over ctx.thread spans the CTA: width is for scans over ctx.lane"));
        }
        if args.is_empty() || args.len() > 2 {
            return Err(Diag::error(span, format!("scan<...> takes a value and optionally a function, got {} arguments", args.len())));
        }
        let combine = match args.get(1).map(|a| (&a.kind, a.span)) {
            None => Combine::Kind("sum"),
            Some((ExprKind::Name(n), _)) if n == "max" => Combine::Kind("max"),
            Some((ExprKind::Name(n), _)) if n == "min" => Combine::Kind("min"),
            Some((ExprKind::Name(n), at)) => {
                let f = self.fns.get(n).copied().ok_or_else(|| Diag::error(at, format!("'{n}' is not a function (fn {n}(a, b) = ...)")))?;
                if f.params.len() != 2 {
                    return Err(Diag::error(
                        at,
                        format!("scan needs a function of two values; '{}' takes {}", f.name.name, f.params.len()),
                    )
                    .note(f.name.span, "defined here"));
                }
                Combine::Fn(f)
            }
            Some((_, at)) => return Err(Diag::error(at, "scan's second argument is max, min or the name of a fn of two values")),
        };
        let v = self.expr(&args[0])?;
        if let Value::Run(_) = v {
            return Err(Diag::error(args[0].span, "scan<over ...> scans one value per thread; sum a run within the thread first"));
        }
        let v = self.scalar(v, None, args[0].span)?;
        if v.ty.elem == Scalar::Bool && matches!(combine, Combine::Kind(_)) {
            return Err(Diag::error(args[0].span, "a scan of bools needs a function: scan<...>(x, f) with fn f(a, b) = ..."));
        }
        let exclusive = match modes.first() {
            Some(m) => {
                let e = self.expr(&m.value)?;
                Some(self.scalar(e, Some(v.ty.elem), m.value.span).map_err(|e| {
                    Diag::error(m.value.span, format!("exclusive's value is {} like the scanned value: {}", v.ty.elem.name(), e.message))
                })?)
            }
            None => None,
        };
        let w = if cta { 32 } else { width.unwrap_or(32) };
        let inclusive = self.lane_scan(&combine, &v, w, span)?;
        let warps = self.launch / 32;
        if !cta || warps == 1 {
            return Ok(Value::V(match exclusive {
                Some(e) => self.shift_up(&inclusive, &e, w, None, &combine, span)?,
                None => inclusive,
            }));
        }
        // The warps' totals (lane 31's inclusive prefix) in shared memory, scanned by every warp.
        let t = v.ty.mlir();
        let mty = format!("memref<{warps}x{}, #gpu.address_space<workgroup>>", v.ty.elem.mem());
        let n = self.next;
        let buf = self.emit(format!("\"tile.alloc\"() {{name = \"scan{n}\", shape = array<i64: {warps}>}} : () -> {mty}"), v.ty, span).s;
        let lane = self.ctx_value("lane", span)?;
        let warp = self.ctx_value("warp", span)?;
        let last = self.const_int(31, Ty::scalar(Scalar::I32), span);
        let is_last = self.emit(format!("arith.cmpi eq, {}, {} : i32", lane.s, last.s), Ty::scalar(Scalar::Bool), span);
        let warp_idx = self.index_of(&warp, span);
        let stored = self.mem_form(&inclusive, span);
        let (lines, ()) = self.region(|g| {
            g.emit_void(format!("memref.store {stored}, {buf}[{warp_idx}] : {mty}"), span);
            Ok(())
        })?;
        self.line(format!("scf.if {} {{", is_last.s));
        self.push_lines(lines);
        let loc = self.loc(span);
        self.line(format!("}} {loc}"));
        self.emit_void("gpu.barrier".into(), span);
        // Lanes past the last warp read the last total: their prefixes are not used.
        let top = self.const_int(warps - 1, Ty::scalar(Scalar::I32), span);
        let slot = self.emit(format!("arith.minsi {}, {} : i32", lane.s, top.s), Ty::scalar(Scalar::I32), span);
        let slot = self.index_of(&slot, span);
        let total = self.emit(
            format!("memref.load {buf}[{slot}] : {mty}"),
            Ty::scalar(if v.ty.elem == Scalar::Bool { Scalar::I8 } else { v.ty.elem }),
            span,
        );
        let total = self.value_form(total, v.ty.elem, span);
        self.emit_void("gpu.barrier".into(), span);
        let totals = self.lane_scan(&combine, &total, (warps as u64).next_power_of_two() as i64, span)?;
        // The warps before this one: lane warp - 1 of the totals' scan (warp 0 has none).
        let one = self.const_int(1, Ty::scalar(Scalar::I32), span);
        let before = self.emit(format!("arith.subi {}, {} : i32", warp.s, one.s), Ty::scalar(Scalar::I32), span);
        let zero = self.const_int(0, Ty::scalar(Scalar::I32), span);
        let before = self.emit(format!("arith.maxsi {}, {} : i32", before.s, zero.s), Ty::scalar(Scalar::I32), span);
        let prefix = self.emit(format!("\"lane.shuffle\"({}, {}) {{mode = \"from\"}} : ({t}, i32) -> {t}", totals.s, before.s), v.ty, span);
        let first_warp = self.emit(format!("arith.cmpi eq, {}, {} : i32", warp.s, zero.s), Ty::scalar(Scalar::Bool), span);
        Ok(Value::V(match exclusive {
            Some(e) => self.shift_up(&inclusive, &e, 32, Some((&prefix, &first_warp)), &combine, span)?,
            None => {
                let joined = self.apply(&combine, &prefix, &inclusive, span)?;
                self.emit(format!("arith.select {}, {}, {} : {t}", first_warp.s, inclusive.s, joined.s), v.ty, span)
            }
        }))
    }

    /// The inclusive scan of `v` within pieces of `w` lanes.
    fn lane_scan(&mut self, combine: &Combine, v: &V, w: i64, span: Span) -> Result<V> {
        let t = v.ty.mlir();
        Ok(match combine {
            Combine::Kind(kind) => {
                self.emit(format!("\"lane.scan\"({}) {{kind = \"{kind}\", width = {w} : i32}} : ({t}) -> {t}", v.s), v.ty, span)
            }
            Combine::Fn(f) => self.with_combine("lane.scan_with", v, f, &format!(" {{width = {w} : i32}}"), span)?,
        })
    }

    /// The exclusive scan seeded with `e` (as CUB's): lane 0 of a piece takes `e`, lane i
    /// `f(e, prefix of lanes 0..i)`; over the CTA (`cta`: the warps before this one's prefix, and
    /// whether this is the first warp) the seed is `f(e, that prefix)` past the first warp.
    fn shift_up(&mut self, inclusive: &V, e: &V, w: i64, cta: Option<(&V, &V)>, combine: &Combine, span: Span) -> Result<V> {
        let t = inclusive.ty.mlir();
        let one = self.const_int(1, Ty::scalar(Scalar::I32), span);
        let up = self.emit(
            format!("\"lane.shuffle\"({}, {}) {{mode = \"up\", width = {w} : i32}} : ({t}, i32) -> {t}", inclusive.s, one.s),
            inclusive.ty,
            span,
        );
        let lane = self.ctx_value("lane", span)?;
        let mask = self.const_int(w - 1, Ty::scalar(Scalar::I32), span);
        let place = self.emit(format!("arith.andi {}, {} : i32", lane.s, mask.s), Ty::scalar(Scalar::I32), span);
        let zero = self.const_int(0, Ty::scalar(Scalar::I32), span);
        let head = self.emit(format!("arith.cmpi eq, {}, {} : i32", place.s, zero.s), Ty::scalar(Scalar::Bool), span);
        // The seed: `e`, combined with the warps before this one over the CTA.
        let seed = match cta {
            None => e.clone(),
            Some((prefix, first_warp)) => {
                let joined = self.apply(combine, e, prefix, span)?;
                self.emit(format!("arith.select {}, {}, {} : {t}", first_warp.s, e.s, joined.s), inclusive.ty, span)
            }
        };
        let rest = self.apply(combine, &seed, &up, span)?;
        Ok(self.emit(format!("arith.select {}, {}, {} : {t}", head.s, seed.s, rest.s), inclusive.ty, span))
    }

    /// `combine(a, b)`, `a` the earlier value.
    fn apply(&mut self, combine: &Combine, a: &V, b: &V, span: Span) -> Result<V> {
        let t = a.ty.mlir();
        let float = a.ty.elem.is_float();
        Ok(match combine {
            Combine::Kind(kind) => {
                let op = match (*kind, float) {
                    ("sum", true) => "arith.addf",
                    ("sum", false) => "arith.addi",
                    ("max", true) => "arith.maximumf",
                    ("max", false) => "arith.maxsi",
                    ("min", true) => "arith.minimumf",
                    _ => "arith.minsi",
                };
                self.emit(format!("{op} {}, {} : {t}", a.s, b.s), a.ty, span)
            }
            Combine::Fn(f) => {
                let r = self.inline_values(f, vec![Value::V(a.clone()), Value::V(b.clone())], span)?;
                self.scalar(r, Some(a.ty.elem), span)?
            }
        })
    }

    fn ctx_value(&mut self, field: &str, span: Span) -> Result<V> {
        let v = self.ctx(field, span)?;
        self.scalar(v, Some(Scalar::I32), span)
    }

    /// A value as shared memory holds it (a bool is a byte).
    fn mem_form(&mut self, v: &V, span: Span) -> String {
        if v.ty.elem == Scalar::Bool {
            return self.emit(format!("arith.extui {} : i1 to i8", v.s), Ty::scalar(Scalar::I8), span).s;
        }
        v.s.clone()
    }

    fn value_form(&mut self, v: V, elem: Scalar, span: Span) -> V {
        if elem != Scalar::Bool {
            return v;
        }
        let z = self.const_int(0, Ty::scalar(Scalar::I8), span);
        self.emit(format!("arith.cmpi ne, {}, {} : i8", v.s, z.s), Ty::scalar(Scalar::Bool), span)
    }
}
