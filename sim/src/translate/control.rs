//! Translating Control flow: `scf.if`, `scf.for`, `scf.while` (with their yields), `cf.assert`, and `func.call`
//! inlined.

use super::*;

impl<'a> Tr<'a> {
    pub(super) fn control_op(&mut self, op: Op<'a>, name: &str) -> R<()> {
        match name {
            "cf.assert" => {
                let cond = self.slot(op.operand(0))?;
                let msg = op.str_attr("msg").unwrap_or_default();
                let bounds = op.attr("phobos.bounds").is_some();
                let loc = self.loc(op);
                self.insts.push(Inst::Assert { cond, msg, bounds, loc });
            }
            "scf.if" => self.scf_if(op)?,
            "scf.for" => self.scf_for(op)?,
            "scf.while" => self.scf_while(op)?,
            "scf.yield" | "scf.condition" => {} // handled by their parent
            "func.call" => self.call(op)?,
            "func.return" => {
                let vals = self.operands(op)?;
                let dsts = self.ret_slots.last().cloned().unwrap_or_default();
                self.insts.push(Inst::Move { pairs: dsts.into_iter().zip(vals).collect() });
            }
            other => return unsupported(op, format!("the simulator does not support `{other}`")),
        }
        Ok(())
    }

    /// Pairs (destination, yielded value) for the terminator of `blk`.
    pub(super) fn yields(&mut self, blk: Blk<'a>, dsts: &[Slot]) -> R<Vec<(Slot, Slot)>> {
        let Some(t) = blk.terminator() else { return Ok(vec![]) };
        let vals = self.operands(t)?;
        Ok(dsts.iter().copied().zip(vals).collect())
    }

    pub(super) fn scf_if(&mut self, op: Op<'a>) -> R<()> {
        let cond = self.use_(op.operand(0))?;
        let results: Vec<Slot> = (0..op.num_results()).map(|i| self.result(op, i)).collect::<R<_>>()?;
        let begin = self.insts.len();
        let masked = op.attr("phobos.masked").is_some();
        self.insts.push(Inst::IfBegin { cond, else_pc: 0, masked });
        if let Some(b) = op.region(0).first_block() {
            self.block(b)?;
            let pairs = self.yields(b, &results)?;
            if !pairs.is_empty() {
                self.insts.push(Inst::Move { pairs });
            }
        }
        let else_at = self.insts.len();
        self.insts.push(Inst::Else { end_pc: 0 });
        if let Some(b) = op.region(1).first_block() {
            self.block(b)?;
            let pairs = self.yields(b, &results)?;
            if !pairs.is_empty() {
                self.insts.push(Inst::Move { pairs });
            }
        }
        let end = self.insts.len();
        self.insts.push(Inst::IfEnd);
        self.insts[begin] = Inst::IfBegin { cond, else_pc: (else_at + 1) as u32, masked };
        self.insts[else_at] = Inst::Else { end_pc: end as u32 };
        Ok(())
    }

    pub(super) fn scf_for(&mut self, op: Op<'a>) -> R<()> {
        let s = self.operands(op)?;
        let (lb, ub, step) = (s[0], s[1], s[2]);
        let ty = self.opd_prim(op, 0)?;
        let body = op.region(0).first_block().expect("scf.for has a body");
        let iv = self.slot(body.arg(0))?;
        let iter_args: Vec<Slot> = (1..body.num_args()).map(|i| self.slot(body.arg(i))).collect::<R<_>>()?;
        let results: Vec<Slot> = (0..op.num_results()).map(|i| self.result(op, i)).collect::<R<_>>()?;
        self.insts.push(Inst::ForInit { iv, lb, iters: iter_args.iter().copied().zip(s[3..].iter().copied()).collect() });
        let head = self.insts.len();
        self.insts.push(Inst::ForHead { iv, ub, ty, exit_pc: 0 });
        self.block(body)?;
        let pairs = self.yields(body, &iter_args)?;
        let loc = self.loc(op);
        self.insts.push(Inst::ForLatch { iv, step, ty, head_pc: head as u32, iters: pairs, loc });
        let exit = self.insts.len();
        self.insts.push(Inst::ForEnd { results: results.into_iter().zip(iter_args).collect() });
        self.insts[head] = Inst::ForHead { iv, ub, ty, exit_pc: exit as u32 };
        Ok(())
    }

    pub(super) fn scf_while(&mut self, op: Op<'a>) -> R<()> {
        let inits = self.operands(op)?;
        let before = op.region(0).first_block().expect("before region");
        let after = op.region(1).first_block().expect("after region");
        let bargs: Vec<Slot> = before.args().into_iter().map(|a| self.slot(a)).collect::<R<_>>()?;
        let aargs: Vec<Slot> = after.args().into_iter().map(|a| self.slot(a)).collect::<R<_>>()?;
        let results: Vec<Slot> = (0..op.num_results()).map(|i| self.result(op, i)).collect::<R<_>>()?;
        self.insts.push(Inst::WhileInit { args: bargs.iter().copied().zip(inits).collect() });
        let head = self.insts.len();
        self.block(before)?;
        let cond_op = before.terminator().expect("scf.condition");
        let cvals = self.operands(cond_op)?;
        let cond = cvals[0];
        let at = self.insts.len();
        self.insts.push(Inst::WhileCond { cond, exit_pc: 0, results: vec![], after: vec![] });
        self.block(after)?;
        let pairs = self.yields(after, &bargs)?;
        let loc = self.loc(op);
        self.insts.push(Inst::WhileLatch { head_pc: head as u32, args: pairs, loc });
        let exit = self.insts.len();
        self.insts.push(Inst::WhileEnd);
        self.insts[at] = Inst::WhileCond {
            cond,
            exit_pc: exit as u32,
            results: results.into_iter().zip(cvals[1..].iter().copied()).collect(),
            after: aargs.into_iter().zip(cvals[1..].iter().copied()).collect(),
        };
        Ok(())
    }

    /// Inlines the callee's body: its arguments are bound to the call's operand slots, and its
    /// `func.return` moves into the call's result slots.
    pub(super) fn call(&mut self, op: Op<'a>) -> R<()> {
        let callee = op.attr("callee").and_then(|a| a.symbol()).unwrap_or_default();
        if self.inline_stack.contains(&callee) {
            return unsupported(op, format!("recursive call to @{callee}"));
        }
        let body = self.module.region(0).first_block().expect("gpu.module body");
        let Some(f) = body.ops().find(|o| o.is("func.func") && o.str_attr("sym_name").as_deref() == Some(callee.as_str())) else {
            return unsupported(op, format!("call to @{callee}, which is not a func.func of the gpu.module"));
        };
        let blocks = f.region(0).blocks();
        if blocks.len() != 1 {
            return unsupported(op, format!("@{callee} has {} blocks; the simulator inlines single-block functions", blocks.len()));
        }
        let args = self.operands(op)?;
        let params = blocks[0].args();
        // Parameters get their own slots (a callee inlined twice must not share them).
        let mut pairs = Vec::new();
        for (p, a) in params.iter().zip(args) {
            self.slots.remove(p);
            let ps = self.slot(*p)?;
            pairs.push((ps, a));
        }
        self.insts.push(Inst::Move { pairs });
        for inner in f.walk().into_iter().skip(1) {
            for r in inner.results() {
                self.slots.remove(&r);
            }
            for ri in 0..inner.num_regions() {
                for b in inner.region(ri).blocks() {
                    for a in b.args() {
                        self.slots.remove(&a);
                    }
                }
            }
        }
        let results: Vec<Slot> = (0..op.num_results()).map(|i| self.result(op, i)).collect::<R<_>>()?;
        self.ret_slots.push(results);
        self.inline_stack.push(callee);
        let r = self.block(blocks[0]);
        self.inline_stack.pop();
        self.ret_slots.pop();
        r
    }
}
