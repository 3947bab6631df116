//! A warp's instruction loop: control flow (if, for, while, barriers, return) here, the other
//! instructions dispatched to `lane`, `memory` and `cross_lane`.

use super::*;

impl Ctx<'_> {
    /// Runs one warp for up to `budget` instructions.
    pub(super) fn step(&mut self, cta: &mut Cta, wi: usize, budget: u64) -> Result<(), Fault> {
        let k = self.k;
        let insts = &k.insts;
        let mut w = std::mem::replace(&mut cta.warps[wi], Warp::placeholder());
        w.progress.stalled = false;
        let result = self.step_inner(cta, &mut w, insts, budget);
        cta.warps[wi] = w;
        // This slice's instructions join the launch's count.
        let ran = self.stats.warp_insts - self.flushed;
        self.launch_insts.fetch_add(ran, std::sync::atomic::Ordering::Relaxed);
        self.flushed = self.stats.warp_insts;
        result
    }

    /// Whether the launch ran more warp instructions than its bound, all threads together.
    pub(super) fn past_launch_bound(&self) -> bool {
        self.over_bound || self.launch_insts.load(std::sync::atomic::Ordering::Relaxed) > self.opts.max_launch_insts
    }

    /// The fault of a launch past its bound, named the same whatever the thread count: at the
    /// first warp of `cta` (the lowest-numbered CTA still running) that has not returned, in
    /// the loop it spins in.
    pub(super) fn runaway(&self, cta: &Cta) -> Fault {
        let insts = &self.k.insts;
        let w = cta.warps.iter().find(|w| w.status != Status::Done).unwrap_or(&cta.warps[0]);
        let others = cta.warps.iter().find_map(|o| o.progress.last_loop);
        let pc = w.pc.min(insts.len().saturating_sub(1));
        let loc = w
            .progress
            .last_loop
            .or(others)
            .or_else(|| (0..=pc).rev().find_map(|p| insts.get(p).and_then(inst_loc)))
            .or_else(|| insts[pc..].iter().find_map(inst_loc));
        let message = format!(
            "the launch ran {} warp instructions in all without finishing: a spin loop that never ends, or a kernel larger than the bound (--max-launch-instructions raises it)",
            self.opts.max_launch_insts
        );
        self.fault(FaultKind::Deadlock, cta, Some((w, w.live.trailing_zeros().min(31) as usize)), loc, message)
    }

    pub(super) fn step_inner(&mut self, cta: &mut Cta, w: &mut Warp, insts: &[Inst], budget: u64) -> Result<(), Fault> {
        if self.opts.cancel.as_ref().is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
            let loc = (0..=w.pc.min(insts.len().saturating_sub(1))).rev().find_map(|p| insts.get(p).and_then(inst_loc));
            return Err(self.fault(FaultKind::Interrupted, cta, Some((w, 0)), loc, "the launch was interrupted".into()));
        }
        let mut left = budget;
        // The CTA is the same for the whole slice: one check for the trace, not one per step.
        let traced = self.traced(cta);
        // The launch's bound, as this slice may reach it: what the launch has left, counting
        // this context's instructions not yet added.
        let ran = self.launch_insts.load(std::sync::atomic::Ordering::Relaxed) + (self.stats.warp_insts - self.flushed);
        let launch_limit = self.stats.warp_insts + self.opts.max_launch_insts.saturating_sub(ran);
        while left > 0 {
            if w.pc >= insts.len() {
                w.status = Status::Done;
                return Ok(());
            }
            if self.stats.warp_insts >= launch_limit {
                // The scheduler reports it, for the lowest CTA still running.
                self.over_bound = true;
                return Ok(());
            }
            left -= 1;
            w.insts += 1;
            self.stats.warp_insts += 1;
            self.stats.thread_insts += w.mask.count_ones() as u64;
            if w.insts > self.opts.max_warp_insts {
                // The loop this warp spins in, else where it is.
                let loc = w
                    .progress
                    .last_loop
                    .or_else(|| (0..=w.pc).rev().find_map(|p| inst_loc(&insts[p])))
                    .or_else(|| insts[w.pc..].iter().find_map(inst_loc));
                let place = if w.progress.last_loop.is_some() { "in this loop " } else { "" };
                let message = format!(
                    "warp {} ran {} instructions {place}without finishing: a spin loop that never ends, or a wait on a CTA that is not resident (--max-warp-instructions raises the bound)",
                    w.index, self.opts.max_warp_insts
                );
                return Err(self.fault(FaultKind::Deadlock, cta, Some((w, w.mask.trailing_zeros().min(31) as usize)), loc, message));
            }
            let mask = w.mask;
            if traced {
                if let Some(t) = self.trace.as_mut() {
                    t.exec(w.pc, w.index, mask);
                }
            }
            match &insts[w.pc] {
                i @ (Inst::Load { .. } | Inst::MaskedLoad { .. } | Inst::Store { .. } | Inst::Atomic { .. } | Inst::Cas { .. }) => {
                    self.exec_memory(cta, w, i)?
                }
                i @ (Inst::Shfl { .. } | Inst::GpuShfl { .. } | Inst::Vote { .. }) => self.exec_cross_lane(cta, w, i)?,
                i @ Inst::Mma { .. } => self.exec_mma(cta, w, i)?,
                i @ Inst::LdMatrix { .. } => self.exec_ldmatrix(cta, w, i)?,
                i @ (Inst::CpAsync { .. } | Inst::CpAsyncCommit | Inst::CpAsyncWait { .. }) => self.exec_async(cta, w, i)?,
                i @ (Inst::MbarInit { .. }
                | Inst::MbarInval { .. }
                | Inst::MbarArrive { .. }
                | Inst::MbarWait { .. }
                | Inst::TmaLoad { .. }) => {
                    if !self.exec_tma(cta, w, i)? {
                        // Blocked at a wait: the scheduler resumes it when the phase completes.
                        return Ok(());
                    }
                }
                i @ (Inst::Wgmma { .. } | Inst::WgmmaFence { .. } | Inst::WgmmaCommit { .. } | Inst::WgmmaWait { .. }) => {
                    self.exec_wgmma(cta, w, i)?
                }
                i @ Inst::ExtractSlice { src, .. } if cta.wgmma.any() => {
                    self.wgmma_read(cta, w, *src)?;
                    self.exec_lane(cta, w, i)?
                }
                Inst::Barrier { loc } => {
                    if mask != w.live {
                        let missing = w.live & !mask;
                        return Err(self.fault(
                            FaultKind::DivergentBarrier,
                            cta,
                            Some((w, mask.trailing_zeros().min(31) as usize)),
                            Some(*loc),
                            format!(
                                "reached by lanes {} of warp {} but not by lanes {}: a barrier needs every thread of the CTA",
                                lane_list(mask),
                                w.index,
                                lane_list(missing)
                            ),
                        ));
                    }
                    w.status = Status::Barrier(w.pc);
                    w.pc += 1;
                    return Ok(());
                }
                Inst::IfBegin { cond, else_pc, masked } => {
                    let mut c = 0u32;
                    for l in lanes(mask) {
                        if w.regs[at(*cond, 0, l)] & 1 != 0 {
                            c |= 1 << l;
                        }
                    }
                    if *masked {
                        if let Some(t) = self.tracing(cta) {
                            t.masked(w.pc, (mask & !c).count_ones() as u64);
                        }
                    }
                    w.frames.push(Frame::If { saved: mask, else_mask: mask & !c });
                    w.mask = mask & c;
                    if w.mask == 0 {
                        w.mask = mask & !c;
                        w.pc = *else_pc as usize;
                        continue;
                    }
                }
                Inst::Else { end_pc } => {
                    let Some(Frame::If { else_mask, .. }) = w.frames.last().copied() else { unreachable!("else without if") };
                    w.mask = else_mask;
                    if else_mask == 0 {
                        w.pc = *end_pc as usize;
                        continue;
                    }
                }
                Inst::IfEnd => {
                    let Some(Frame::If { saved, .. }) = w.frames.pop() else { unreachable!("if end without if") };
                    w.mask = saved;
                }
                Inst::ForInit { iv, lb, iters } => {
                    copy_pairs(&mut w.regs, &[(*iv, *lb)], mask);
                    copy_pairs(&mut w.regs, iters, mask);
                    w.frames.push(Frame::Loop { saved: mask });
                }
                Inst::ForHead { iv, ub, ty, exit_pc } => {
                    let mut m = 0u32;
                    for l in lanes(mask) {
                        if sext(w.regs[at(*iv, 0, l)], ty.bits()) < sext(w.regs[at(*ub, 0, l)], ty.bits()) {
                            m |= 1 << l;
                        }
                    }
                    w.mask = m;
                    if m == 0 {
                        w.pc = *exit_pc as usize;
                        continue;
                    }
                }
                Inst::ForLatch { iv, step, ty, head_pc, iters, loc } => {
                    // Yields first read the old iteration values: copy through a scratch, unless
                    // no value carried is the source of another (then each copies in place).
                    let overlaps = |a: Slot, b: Slot| a.off < b.off + b.len && b.off < a.off + a.len;
                    let direct =
                        iters.iter().enumerate().all(|(i, (d, _))| iters.iter().enumerate().all(|(j, (_, s))| i == j || !overlaps(*d, *s)));
                    if direct {
                        copy_pairs(&mut w.regs, iters, mask);
                    }
                    let mut tmp: Vec<u64> = Vec::new();
                    for (_, s) in iters.iter().filter(|_| !direct) {
                        for e in 0..s.len {
                            for l in 0..32 {
                                tmp.push(w.regs[at(*s, e, l)]);
                            }
                        }
                    }
                    let mut i = 0;
                    for (d, _) in iters.iter().filter(|_| !direct) {
                        for e in 0..d.len {
                            for l in 0..32 {
                                if mask >> l & 1 != 0 {
                                    w.regs[at(*d, e, l)] = tmp[i];
                                }
                                i += 1;
                            }
                        }
                    }
                    for l in lanes(mask) {
                        let s = w.regs[at(*step, 0, l)];
                        if sext(s, ty.bits()) <= 0 {
                            return Err(self.fault(
                                FaultKind::Deadlock,
                                cta,
                                Some((w, l)),
                                Some(*loc),
                                format!("the loop's step is {}: a for loop needs a positive step, or it never ends", sext(s, ty.bits())),
                            ));
                        }
                        let v = w.regs[at(*iv, 0, l)].wrapping_add(s) & ty.mask();
                        w.regs[at(*iv, 0, l)] = v;
                    }
                    let carried = std::iter::once(*iv).chain(iters.iter().map(|(d, _)| *d));
                    self.check_progress(cta, w, carried, *loc)?;
                    w.pc = *head_pc as usize;
                    continue;
                }
                Inst::ForEnd { results } => {
                    let Some(Frame::Loop { saved }) = w.frames.pop() else { unreachable!("for end without for") };
                    w.mask = saved;
                    copy_pairs(&mut w.regs, results, saved);
                }
                Inst::WhileInit { args } => {
                    copy_pairs(&mut w.regs, args, mask);
                    w.frames.push(Frame::Loop { saved: mask });
                }
                Inst::WhileCond { cond, exit_pc, results, after } => {
                    let mut c = 0u32;
                    for l in lanes(mask) {
                        if w.regs[at(*cond, 0, l)] & 1 != 0 {
                            c |= 1 << l;
                        }
                    }
                    let exiting = mask & !c;
                    copy_pairs(&mut w.regs, results, exiting);
                    let cont = mask & c;
                    copy_pairs(&mut w.regs, after, cont);
                    w.mask = cont;
                    if cont == 0 {
                        w.pc = *exit_pc as usize;
                        continue;
                    }
                }
                Inst::WhileLatch { head_pc, args, loc } => {
                    // Yields read the previous iteration's values: copy through a scratch.
                    let snapshot: Vec<(Slot, Vec<u64>)> = args
                        .iter()
                        .map(|(_, s)| {
                            (*s, (0..s.len).flat_map(|e| (0..32).map(move |l| (e, l))).map(|(e, l)| w.regs[at(*s, e, l)]).collect())
                        })
                        .collect();
                    for ((d, _), (_, vals)) in args.iter().zip(snapshot) {
                        for e in 0..d.len {
                            for l in lanes(mask) {
                                w.regs[at(*d, e, l)] = vals[(e * 32) as usize + l];
                            }
                        }
                    }
                    self.check_progress(cta, w, args.iter().map(|(d, _)| *d), *loc)?;
                    w.pc = *head_pc as usize;
                    continue;
                }
                Inst::WhileEnd => {
                    let Some(Frame::Loop { saved }) = w.frames.pop() else { unreachable!("while end without while") };
                    w.mask = saved;
                }
                Inst::Return => {
                    if !cta.wgmma.issued.is_empty() {
                        self.wgmma_retire(cta, w)?;
                    }
                    w.status = Status::Done;
                    return Ok(());
                }
                i => self.exec_lane(cta, w, i)?,
            }
            w.pc += 1;
        }
        Ok(())
    }
}
