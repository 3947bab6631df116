//! Row reductions of a fragment: `rowmax(acc)`, `rowmin(acc)`, `rowsum(acc)` give a fragment of
//! the same shape and warp grid whose element (i, j) is the reduction of row i of `acc` (a
//! softmax over the rows of a product, attention's running maximum and sum). Lane `4g + q`
//! holds rows `g` and `g + 8` of each 16 x 8 atom: a row's elements in a thread (two per atom
//! along N) fold in registers, then the quad's four lanes by a `lane.reduce` of width 4. A row
//! must lie in one warp: the fragment's warp grid is `WM x 1` (`in "mma_c(M, N, T, WM, 1)"`).

use super::*;

impl Gen<'_> {
    /// `rowmax`/`rowmin`/`rowsum` of a fragment.
    pub(super) fn fragment_rows(&mut self, f: &str, args: &[Expr], span: Span) -> Result<Value> {
        if args.len() != 1 {
            return Err(Diag::error(span, format!("{f} takes 1 argument (a fragment), got {}", args.len())));
        }
        let (decl, t, v) = self.fragment_of(&args[0], &format!("{f} reduces the rows of"))?;
        if t.warps_n != 1 {
            return Err(self.rows_split(&format!("{f} needs each row in one warp"), args[0].span, &t).note(decl, "declared here"));
        }
        let elem = v.ty.elem;
        let (s, float) = (elem.mlir(), elem.is_float());
        let (kind, op) = match (f, float) {
            ("rowmax", true) => ("max", "arith.maximumf"),
            ("rowmax", false) => ("max", "arith.maxsi"),
            ("rowmin", true) => ("min", "arith.minimumf"),
            ("rowmin", false) => ("min", "arith.minsi"),
            (_, true) => ("sum", "arith.addf"),
            (_, false) => ("sum", "arith.addi"),
        };
        let vty = v.ty.mlir();
        let one = Ty::scalar(elem);
        let mut out = v.clone();
        // Item 4 (am + atoms_m an) + 2 h + p is row 16 am + 8 h + g, column 8 an + 2q + p.
        for am in 0..t.atoms_m() {
            for h in 0..2 {
                let items: Vec<i64> =
                    (0..t.atoms_n()).flat_map(|an| (0..2).map(move |p| 4 * (am + t.atoms_m() * an) + 2 * h + p)).collect();
                let mut acc: Option<V> = None;
                for e in &items {
                    let x = self.emit(format!("vector.extract {}[{e}] : {s} from {vty}", v.s), one, span);
                    acc = Some(match acc {
                        None => x,
                        Some(a) => self.emit(format!("{op} {}, {} : {s}", a.s, x.s), one, span),
                    });
                }
                let a = acc.expect("a fragment's row has elements");
                let r = self.emit(format!("\"lane.reduce\"({}) {{kind = \"{kind}\", width = 4 : i32}} : ({s}) -> {s}", a.s), one, span);
                for e in &items {
                    out = self.emit(format!("vector.insert {}, {}[{e}] : {s} into {vty}", r.s, out.s), v.ty, span);
                }
            }
        }
        if let Some(l) = self.declared_layouts.get(&decl).cloned() {
            self.array_layouts.insert(out.s.clone(), super::exchange::ArrayLayout { declared: false, origin: span, ..l });
        }
        Ok(Value::Array(out))
    }

    /// A fragment whose rows are split over warps (warp grid `WM x WN`, `WN > 1`) where each
    /// row must lie in one warp: `what`, and the declaration that fixes it.
    pub(super) fn rows_split(&self, what: &str, span: Span, t: &phobos_layout::mma::MmaTiling) -> Diag {
        Diag::error(
            span,
            format!(
                "{what}: the fragment's warp grid is {} x {}; declare it in \"mma_c({}, {}, {}, {}, 1)\"",
                t.warps_m,
                t.warps_n,
                t.m,
                t.n,
                self.launch,
                t.warps_m * t.warps_n
            ),
        )
    }
}
