//! `while c { ... }` with `break`, as `scf.while`. The variables the body assigns are carried
//! through the loop; a `break` sets a hidden flag (a carried `bool`), the statements after it
//! run only when it is unset, and the condition is `!flag && c` (short-circuit: `c` is not
//! evaluated once the loop is broken).

use super::stmt::{break_flag, break_name, breaks};
use super::*;

impl<'a> Gen<'a> {
    pub(super) fn while_stmt(&mut self, cond: &Expr, body: &Block, id: u32, span: Span) -> Result<()> {
        let has_break = body.stmts.iter().any(|s| breaks(s, id));
        if has_break {
            let f = self.const_bool(false, span);
            self.bind(&break_name(id), Bind::Val { v: f, mutable: true, decl: span });
        }
        let names = Self::assigned_outside(body);
        let vars = self.carried(&names);
        let types: Vec<String> = vars.iter().map(|(_, v)| v.ty.mlir()).collect();
        let before: Vec<String> = vars.iter().map(|_| self.fresh()).collect();
        let after: Vec<String> = vars.iter().map(|_| self.fresh()).collect();
        // Step 1. The condition, over the values at the start of an iteration.
        let (cond_lines, c) = self.region(|g| {
            for ((n, v), s) in vars.iter().zip(&before) {
                g.rebind(n, V { s: s.clone(), ty: v.ty });
            }
            let full = if has_break {
                let not_broken = Expr { kind: ExprKind::Unary(UnOp::Not, Box::new(break_flag(id, cond.span))), span: cond.span };
                Expr { kind: ExprKind::Binary(BinOp::And, Box::new(not_broken), Box::new(cond.clone())), span: cond.span }
            } else {
                cond.clone()
            };
            let c = g.expr(&full)?;
            let c = g
                .scalar(c, Some(Scalar::Bool), cond.span)
                .map_err(|_| Diag::error(cond.span, "a while condition must be a bool (a comparison such as x < n)"))?;
            g.name_expr(&c.s, cond);
            Ok(c)
        })?;
        // Step 2. The body.
        self.whiles.push(id);
        let body_result = self.region(|g| {
            for ((n, v), s) in vars.iter().zip(&after) {
                g.rebind(n, V { s: s.clone(), ty: v.ty });
            }
            g.block(body)?;
            Ok(g.carried(&names))
        });
        self.whiles.pop();
        let (body_lines, vals) = body_result?;
        // Step 3. The scf.while.
        let loc = self.loc(span);
        let pad = " ".repeat(self.indent + 2);
        let args = |names: &[String]| names.join(", ");
        let ty_list = types.join(", ");
        let r = self.fresh();
        if vars.is_empty() {
            self.line("scf.while : () -> () {".into());
        } else {
            let inits: Vec<String> = vars.iter().zip(&before).map(|((_, v), s)| format!("{s} = {}", v.s)).collect();
            let header = if vars.len() == 1 { r.clone() } else { format!("{r}:{}", vars.len()) };
            self.line(format!("{header} = scf.while ({}) : ({ty_list}) -> ({ty_list}) {{", inits.join(", ")));
        }
        self.push_lines(cond_lines);
        let buf = self.bufs.last_mut().expect("buf");
        if vars.is_empty() {
            buf.push(format!("{pad}scf.condition({})", c.s));
        } else {
            buf.push(format!("{pad}scf.condition({}) {} : {ty_list}", c.s, args(&before)));
        }
        self.line("} do {".into());
        let block_args: Vec<String> = vars.iter().zip(&after).map(|((_, v), s)| format!("{s}: {}", v.ty.mlir())).collect();
        self.bufs.last_mut().expect("buf").push(format!("{}^bb0({}):", " ".repeat(self.indent), block_args.join(", ")));
        self.push_lines(body_lines);
        let yielded: Vec<&str> = vals.iter().map(|(_, v)| v.s.as_str()).collect();
        let buf = self.bufs.last_mut().expect("buf");
        if vars.is_empty() {
            buf.push(format!("{pad}scf.yield"));
        } else {
            buf.push(format!("{pad}scf.yield {} : {ty_list}", yielded.join(", ")));
        }
        self.line(format!("}} {loc}"));
        for ((n, v), s) in vars.iter().zip(Self::results(&r, vars.len())) {
            self.rebind(n, V { s, ty: v.ty });
        }
        Ok(())
    }
}
