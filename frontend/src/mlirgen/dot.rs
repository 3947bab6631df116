//! Tensor-core products: `var acc: fragment<f32>[M, N]` (an M x N matrix in the registers of
//! the CTA, in the accumulator layout of the warp tiling the compiler picks), `acc = dot(As,
//! Bs, acc)` (`tile.dot`: `acc + As Bs` of two shared tiles; `dot(As, trans(Bs), acc)` with Bs
//! an N x K tile, `acc + As Bsᵀ`), and `for i, j in acc { ... }` (the parser's loop over the
//! items a thread holds, with their row and column).

use super::*;
use phobos_layout::mma::{MmaTiling, ATOM_M, ATOM_N};

/// The instruction's K for tiles of `elem`: m16n8k16 (f16, bf16), m16n8k8 (f32 as tf32),
/// m16n8k32 (i8).
fn instruction_k(elem: Scalar) -> i64 {
    match elem {
        Scalar::F32 => 8,
        Scalar::I8 => 32,
        _ => 16,
    }
}

/// A row or column value bound by `for i, j in acc`: which item of which fragment it belongs to.
#[derive(Clone, Debug)]
pub(super) struct FragmentCoord {
    /// The fragment's declaration.
    decl: Span,
    /// The loop's item variable (i32).
    item: V,
    row: bool,
}

impl<'a> Gen<'a> {
    /// `var acc: fragment<f32>[M, N]`.
    pub(super) fn fragment_stmt(
        &mut self,
        name: &Ident,
        elem: &TypeName,
        dims: &[Expr],
        fixed: Option<&LayoutRef>,
        span: Span,
    ) -> Result<()> {
        self.check_shadow(name)?;
        let scalar = match elem.name.as_str() {
            "f32" => Scalar::F32,
            "f16" => Scalar::F16,
            "i32" => Scalar::I32,
            // Not an accumulator: a product's A operand from registers (bf16 probabilities).
            "bf16" => Scalar::BF16,
            other => {
                return Err(Diag::error(
                    elem.span,
                    format!(
                        "a fragment accumulates in f32 (products of f16, bf16 or, with @tf32, f32 tiles), f16 (of f16 tiles) or i32 (of i8 tiles), or holds f16 or bf16 to be a product's first argument; got {other}"
                    ),
                ))
            }
        };
        if dims.len() != 2 {
            return Err(Diag::error(span, format!("a fragment is a matrix: fragment<f32>[M, N], got {} extents", dims.len())));
        }
        let mut ext = Vec::new();
        for d in dims {
            match self.expr(d)? {
                Value::Int(v) if v > 0 => ext.push(v),
                Value::Int(v) => return Err(Diag::error(d.span, format!("a fragment's extents must be positive, got {v}"))),
                _ => {
                    return Err(Diag::error(
                        d.span,
                        "a fragment's extents are compile-time constants (literals, @autotune meta-parameters or -D)",
                    ))
                }
            }
        }
        let tiling = match fixed {
            None => MmaTiling::choose(ext[0], ext[1], self.launch).map_err(|e| Diag::error(span, e))?,
            Some(l) => self.fixed_tiling(l, ext[0], ext[1])?,
        };
        let text = tiling.layout_text();
        let map = phobos_layout::exchange::resolve(&text, self.launch, tiling.items())
            .map_err(|e| Diag::error(span, format!("phobos bug: the fragment layout {e}")))?;
        let layout = super::exchange::ArrayLayout {
            // Two fragments of one shape may differ in their warp grids: the layout names it.
            shown: format!("\"mma_c({}, {}, {}, {}, {})\"", ext[0], ext[1], self.launch, tiling.warps_m, tiling.warps_n),
            values: map.values(),
            origin: name.span,
            declared: true,
        };
        let ty = Ty::vector(scalar, tiling.items() as u32);
        let zero = if scalar.is_float() { self.const_float(0.0, ty, span) } else { self.const_int(0, ty, span) };
        self.array_layouts.insert(zero.s.clone(), layout.clone());
        self.declared_layouts.insert(name.span, layout);
        self.fragments.insert(name.span, tiling);
        self.bind(&name.name, Bind::Val { v: zero, mutable: true, decl: name.span });
        Ok(())
    }

    /// The warp tiling `in L` names: the one of `M x N` on the CTA's threads whose accumulator
    /// layout is `L`'s function (`mma_c(M, N, T, WM, WN)`, any spelling of it).
    fn fixed_tiling(&self, l: &LayoutRef, m: i64, n: i64) -> Result<MmaTiling> {
        let threads = self.launch;
        let items = (m * n) / threads.max(1);
        let text = match l {
            LayoutRef::Quoted(s, _) => self.with_constants(s),
            LayoutRef::Named(id) => {
                return Err(Diag::error(
                    id.span,
                    format!("a fragment's layout is a tensor-core tiling: in \"mma_c({m}, {n}, {threads}, WM, WN)\" (warps along M and N)"),
                ))
            }
        };
        let map = phobos_layout::exchange::resolve(&text, threads, items).map_err(|e| Diag::error(l.span(), e))?;
        let values = map.values();
        let warps = threads / 32;
        (1..=warps)
            .filter(|wm| warps % wm == 0)
            .filter_map(|wm| MmaTiling::with_warps(m, n, threads, wm, warps / wm).ok())
            .find(|t| phobos_layout::exchange::resolve(&t.layout_text(), threads, items).is_ok_and(|tm| tm.values() == values))
            .ok_or_else(|| {
                Diag::error(
                    l.span(),
                    format!("layout \"{text}\" is no tensor-core tiling of a {m} x {n} fragment on {threads} threads (mma_c({m}, {n}, {threads}, WM, WN))"),
                )
            })
    }

    /// `text` with each name of a compile-time constant (a fixed dimension, an `@autotune`
    /// value) replaced by its value: `"mma_c(64, D, 128, 4, 1)"` in the entry where D is 128.
    fn with_constants(&self, text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
            out.push_str(&rest[..start]);
            let len = rest[start..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len() - start);
            let word = &rest[start..start + len];
            match self.lookup(word) {
                Some(Bind::Dim(Dim::Const(v)) | Bind::Lit(Value::Int(v))) => out.push_str(&v.to_string()),
                _ => out.push_str(word),
            }
            rest = &rest[start + len..];
        }
        out.push_str(rest);
        out
    }

    /// The fragment `e` names: its declaration and tiling.
    pub(super) fn fragment_of(&self, e: &Expr, what: &str) -> Result<(Span, MmaTiling, V)> {
        let not = |n: &str| Diag::error(e.span, format!("{what} a fragment (var acc: fragment<f32>[M, N]); '{n}' is not one"));
        let ExprKind::Name(n) = &e.kind else {
            return Err(Diag::error(e.span, format!("{what} a fragment by name (var acc: fragment<f32>[M, N])")));
        };
        match self.lookup(n) {
            Some(Bind::Val { v, decl, .. }) => match self.fragments.get(decl) {
                Some(t) => Ok((*decl, *t, v.clone())),
                None => Err(not(n)),
            },
            _ => Err(not(n)),
        }
    }

    /// A shared tile operand of `dot`.
    fn dot_tile(&self, e: &Expr, which: &str) -> Result<(String, TileB)> {
        let bad = || Diag::error(e.span, format!("dot's {which} is a shared tile (var As = A[i :+ 64, k :+ 32]) or shared buffer"));
        let ExprKind::Name(n) = &e.kind else { return Err(bad()) };
        match self.lookup(n) {
            Some(Bind::Tile(t)) => {
                if t.shape.len() != 2 {
                    return Err(Diag::error(e.span, format!("dot multiplies 2-D tiles; '{n}' has {} dimensions", t.shape.len())));
                }
                if !matches!(t.elem, Scalar::F16 | Scalar::BF16 | Scalar::F32 | Scalar::I8) {
                    return Err(Diag::error(
                        e.span,
                        format!("dot multiplies f16, bf16, f32 (as tf32) or i8 tiles on tensor cores; '{n}' holds {}", t.elem.name()),
                    ));
                }
                if t.elem == Scalar::F32 && !self.tf32 {
                    return Err(Diag::error(
                        e.span,
                        format!("'{n}' holds f32: tensor cores multiply it as tf32 (10 bits of mantissa, not f32's 23); put @tf32 on the kernel to ask for that"),
                    ));
                }
                Ok((n.clone(), t.clone()))
            }
            _ => Err(bad()),
        }
    }

    /// `dot(As, Bs, acc)`: `acc + As Bs` on tensor cores.
    pub(super) fn dot_call(&mut self, args: &[Expr], span: Span) -> Result<Value> {
        if args.len() != 3 {
            return Err(Diag::error(
                span,
                format!("dot takes 3 arguments, got {}: dot(As, Bs, acc) (shared tiles As and Bs, a fragment acc)", args.len()),
            ));
        }
        // The first argument: a shared tile, or a fragment<f16> or <bf16> in registers (an
        // earlier product's, as attention's probabilities are).
        let regs = match &args[0].kind {
            ExprKind::Name(n) => match self.lookup(n) {
                Some(Bind::Val { decl, .. }) if self.fragments.contains_key(decl) => Some(self.fragment_of(&args[0], "dot multiplies")?),
                _ => None,
            },
            _ => None,
        };
        let (an, a) = match &regs {
            Some((_, t, v)) => {
                let ExprKind::Name(n) = &args[0].kind else { unreachable!("a fragment is named") };
                if !matches!(v.ty.elem, Scalar::F16 | Scalar::BF16) {
                    return Err(Diag::error(
                        args[0].span,
                        format!(
                            "a fragment multiplied on tensor cores holds f16 or bf16 (convert with f16(...) or bf16(...)); '{n}' holds {}",
                            v.ty.elem.name()
                        ),
                    ));
                }
                if t.warps_n != 1 {
                    return Err(self.rows_split("a fragment multiplied on tensor cores needs each row in one warp", args[0].span, t));
                }
                let tile = TileB { elem: v.ty.elem, shape: vec![t.m, t.n], mem: v.s.clone(), mty: v.ty.mlir() };
                (n.clone(), tile)
            }
            None => self.dot_tile(&args[0], "first argument")?,
        };
        // `trans(Bs)`: Bs is N x K, multiplied transposed (a linear layer's weights, attention's K).
        let (second, transposed) = match &args[1].kind {
            ExprKind::Call(f, inner) if f.name == "trans" && !self.fns.contains_key("trans") => {
                if inner.len() != 1 {
                    return Err(Diag::error(args[1].span, format!("trans takes 1 argument (a shared tile), got {}", inner.len())));
                }
                (&inner[0], true)
            }
            _ => (&args[1], false),
        };
        let (bn, b) = self.dot_tile(second, "second argument")?;
        if a.elem != b.elem {
            return Err(Diag::error(
                span,
                format!("'{an}' holds {} and '{bn}' {}: both tiles must hold the same type", a.elem.name(), b.elem.name()),
            ));
        }
        let (m, k) = (a.shape[0], a.shape[1]);
        let (kb, n) = if transposed { (b.shape[1], b.shape[0]) } else { (b.shape[0], b.shape[1]) };
        if k != kb && transposed {
            return Err(Diag::error(
                span,
                format!("'{an}' is {m} x {k} and '{bn}' is {n} x {kb}: with trans, the first's columns must be the second's columns"),
            ));
        }
        if k != kb {
            return Err(Diag::error(
                span,
                format!("'{an}' is {m} x {k} and '{bn}' is {kb} x {n}: the first's columns must be the second's rows"),
            ));
        }
        let kinst = instruction_k(a.elem);
        if k % kinst != 0 {
            return Err(Diag::error(
                args[0].span,
                format!(
                    "dot's K ({k}, the columns of '{an}') must be a multiple of {kinst}, the tensor-core instruction's K for {}",
                    a.elem.name()
                ),
            ));
        }
        let (decl, t, acc) = self.fragment_of(&args[2], "dot accumulates into")?;
        if (t.m, t.n) != (m, n) {
            return Err(Diag::error(args[2].span, format!("'{an}' x '{bn}' is {m} x {n}, but the fragment is {} x {}", t.m, t.n))
                .note(decl, "declared here"));
        }
        let (ok, want) = match a.elem {
            Scalar::I8 => (acc.ty.elem == Scalar::I32, "fragment<i32>"),
            Scalar::F16 => (matches!(acc.ty.elem, Scalar::F32 | Scalar::F16), "fragment<f32> or fragment<f16>"),
            _ => (acc.ty.elem == Scalar::F32, "fragment<f32>"),
        };
        if !ok {
            return Err(Diag::error(
                args[2].span,
                format!("{} tiles accumulate in a {want}; this fragment holds {}", a.elem.name(), acc.ty.elem.name()),
            )
            .note(decl, "declared here"));
        }
        // A in registers: the product's warps along M are A's, and along N one.
        if let Some((adecl, at, _)) = &regs {
            if (t.warps_m, t.warps_n) != (at.warps_m, 1) {
                return Err(Diag::error(
                    args[2].span,
                    format!(
                        "'{an}' is in registers on a {} x 1 warp grid: the product's must be {} x 1 too, got {} x {}; declare it in \"mma_c({}, {}, {}, {}, 1)\"",
                        at.warps_m, at.warps_m, t.warps_m, t.warps_n, t.m, t.n, self.launch, at.warps_m
                    ),
                )
                .note(decl, "declared here")
                .note(*adecl, format!("'{an}' declared here")));
            }
        }
        let aty = acc.ty.mlir();
        let trans = match &regs {
            Some(_) if transposed => format!(", transpose_b, a_shape = array<i64: {m}, {k}>"),
            Some(_) => format!(", a_shape = array<i64: {m}, {k}>"),
            None if transposed => ", transpose_b".to_string(),
            None => String::new(),
        };
        let out = self.emit(
            format!(
                "\"tile.dot\"({}, {}, {}) {{warps = array<i64: {}, {}>{trans}}} : ({}, {}, {aty}) -> {aty}",
                a.mem, b.mem, acc.s, t.warps_m, t.warps_n, a.mty, b.mty
            ),
            acc.ty,
            span,
        );
        if let Some(l) = self.declared_layouts.get(&decl).cloned() {
            self.array_layouts.insert(out.s.clone(), super::exchange::ArrayLayout { declared: false, origin: span, ..l });
        }
        Ok(Value::Array(out))
    }

    /// The parser's `#items(acc)`, `#row(acc, item)` and `#col(acc, item)` of `for i, j in acc`.
    pub(super) fn fragment_builtin(&mut self, f: &str, args: &[Expr], span: Span) -> Result<Value> {
        let (decl, t, _) = self.fragment_of(&args[0], "for i, j in ... walks")?;
        if f == "#items" {
            return Ok(Value::Int(t.items()));
        }
        let item = match self.expr(&args[1])? {
            Value::V(v) => v,
            _ => unreachable!("the parser passes the loop's variable"),
        };
        // Thread t = 32 w + 4 g + q (warp w at (w % warps_m, w / warps_m)); item e is register
        // e % 4 of atom (e / 4 % atoms_m, e / 4 / atoms_m): phobos_layout::mma::MmaTiling::coords.
        let tid = self.ctx("thread", span)?;
        let Value::V(tid) = tid else { unreachable!("ctx.thread is a value") };
        let i32t = Ty::scalar(Scalar::I32);
        let c = |g: &mut Self, v: i64| g.const_int(v, i32t, span);
        let bin = |g: &mut Self, op: &str, x: &V, y: &V| g.emit(format!("{op} {}, {} : i32", x.s, y.s), i32t, span);
        let (c32, c4, c2) = (c(self, 32), c(self, 4), c(self, 2));
        let lane = bin(self, "arith.remui", &tid, &c32);
        let warp = bin(self, "arith.divui", &tid, &c32);
        let reg = bin(self, "arith.remui", &item, &c4);
        let atom = bin(self, "arith.divui", &item, &c4);
        let wms = c(self, t.warps_m);
        let ams = c(self, t.atoms_m());
        let v = if f == "#row" {
            // warp_m (w % warps_m) + 16 (atom % atoms_m) + 8 (reg / 2) + lane / 4
            let wm = bin(self, "arith.remui", &warp, &wms);
            let am = bin(self, "arith.remui", &atom, &ams);
            let half = bin(self, "arith.divui", &reg, &c2);
            let g = bin(self, "arith.divui", &lane, &c4);
            let wsz = c(self, t.warp_m());
            let (a16, c8) = (c(self, ATOM_M), c(self, 8));
            let x = bin(self, "arith.muli", &wm, &wsz);
            let y = bin(self, "arith.muli", &am, &a16);
            let z = bin(self, "arith.muli", &half, &c8);
            let s = bin(self, "arith.addi", &x, &y);
            let s = bin(self, "arith.addi", &s, &z);
            bin(self, "arith.addi", &s, &g)
        } else {
            // warp_n (w / warps_m) + 8 (atom / atoms_m) + 2 (lane % 4) + reg % 2
            let wn = bin(self, "arith.divui", &warp, &wms);
            let an = bin(self, "arith.divui", &atom, &ams);
            let q = bin(self, "arith.remui", &lane, &c4);
            let r = bin(self, "arith.remui", &reg, &c2);
            let wsz = c(self, t.warp_n());
            let a8 = c(self, ATOM_N);
            let x = bin(self, "arith.muli", &wn, &wsz);
            let y = bin(self, "arith.muli", &an, &a8);
            let z = bin(self, "arith.muli", &q, &c2);
            let s = bin(self, "arith.addi", &x, &y);
            let s = bin(self, "arith.addi", &s, &z);
            bin(self, "arith.addi", &s, &r)
        };
        self.fragment_coords.insert(v.s.clone(), FragmentCoord { decl, item, row: f == "#row" });
        Ok(Value::V(v))
    }

    /// `acc[i, j]` with the `i, j` of a `for i, j in acc`: the loop's item.
    pub(super) fn fragment_item(&mut self, name: &str, idx: &[Index], span: Span) -> Result<Option<ItemPosOf>> {
        let Some(Bind::Val { decl, .. }) = self.lookup(name) else { return Ok(None) };
        let decl = *decl;
        if !self.fragments.contains_key(&decl) {
            return Ok(None);
        }
        let usage = || {
            Diag::error(
                span,
                format!("a fragment's element is {name}[i, j] with the i, j of a `for i, j in {name}` loop (each thread holds its own elements)"),
            )
        };
        let [Index::Point(ie), Index::Point(je)] = idx else { return Err(usage()) };
        // `x[i, j % w]`: column j modulo w (a multiple of 8) of a narrower fragment `x`, its
        // row's values (a running maximum) read across a wider loop.
        let (je, modulo) = match &je.kind {
            ExprKind::Binary(BinOp::Rem, inner, w) => match self.expr(w)? {
                Value::Int(w) => (&**inner, Some((w, je.span))),
                _ => (je, None),
            },
            _ => (je, None),
        };
        let (Value::V(i), Value::V(j)) = (self.expr(ie)?, self.expr(je)?) else { return Err(usage()) };
        let (Some(r), Some(c)) = (self.fragment_coords.get(&i.s).cloned(), self.fragment_coords.get(&j.s).cloned()) else {
            return Err(usage());
        };
        if !r.row || c.row || r.decl != c.decl || r.item.s != c.item.s {
            return Err(usage());
        }
        let (Some(walked), Some(read)) = (self.fragments.get(&r.decl).copied(), self.fragments.get(&decl).copied()) else {
            return Err(usage());
        };
        let item = r.item.clone();
        if walked == read && modulo.is_none() {
            // The loop's own fragment, or one of the same shape and warp grid.
            return Ok(Some(self.index_of(&item, span)));
        }
        // Another width with the same rows: item 4 (am + atoms_m an) + reg is row 16 am + 8
        // (reg / 2) + g, column 8 an + 2q + reg % 2 in both (a warp holds whole rows), so
        // the item is the same where column j exists, and atom an mod w / 8 for column j % w.
        let same_rows = walked.m == read.m
            && walked.warps_m == read.warps_m
            && walked.warps_n == 1
            && read.warps_n == 1
            && walked.threads() == read.threads();
        let Some((w, wspan)) = modulo else {
            if same_rows && read.n >= walked.n {
                return Ok(Some(self.index_of(&item, span)));
            }
            return Err(usage().note(
                decl,
                format!(
                    "'{name}' is {} x {} on a {} x {} warp grid, the loop's fragment {} x {} on {} x {}: read a fragment of the same rows (warp grid WM x 1 for both) and at least as many columns, or column j % w of a narrower one",
                    read.m, read.n, read.warps_m, read.warps_n, walked.m, walked.n, walked.warps_m, walked.warps_n
                ),
            ));
        };
        if !same_rows {
            return Err(Diag::error(
                span,
                format!(
                    "{name}[i, j % {w}] reads a fragment of the loop's rows: both need the warp grid {} x 1 and {} rows; '{name}' is {} x {} on {} x {}",
                    walked.warps_m, walked.m, read.m, read.n, read.warps_m, read.warps_n
                ),
            )
            .note(decl, "declared here"));
        }
        if w <= 0 || w % 8 != 0 || w > read.n {
            return Err(Diag::error(
                wspan,
                format!(
                    "{name}[i, j % w] takes w a multiple of 8 (a tensor-core atom's columns) up to {name}'s {} columns, got {w}",
                    read.n
                ),
            ));
        }
        let per_col = 4 * walked.atoms_m();
        let i32t = Ty::scalar(Scalar::I32);
        let (pc, aw) = (self.const_int(per_col, i32t, span), self.const_int(w / 8, i32t, span));
        let bin = |g: &mut Self, op: &str, x: &V, y: &V| g.emit(format!("{op} {}, {} : i32", x.s, y.s), i32t, span);
        let within = bin(self, "arith.remui", &item, &pc);
        let an = bin(self, "arith.divui", &item, &pc);
        let an = bin(self, "arith.remui", &an, &aw);
        let at = bin(self, "arith.muli", &an, &pc);
        let e = bin(self, "arith.addi", &within, &at);
        Ok(Some(self.index_of(&e, span)))
    }
}

/// An item position as an index SSA name.
pub(super) type ItemPosOf = String;
