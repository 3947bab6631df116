//! Shuffles and votes: values moving between the lanes of a warp, with PTX semantics.

use super::*;

impl Ctx<'_> {
    /// Runs a shuffle or a vote for the active lanes.
    pub(super) fn exec_cross_lane(&mut self, cta: &mut Cta, w: &mut Warp, inst: &Inst) -> Result<(), Fault> {
        let mask = w.mask;
        match inst {
            Inst::Shfl { kind, dst, valid, v, b, c, mask: mreg, bits, loc } => {
                let first = mask.trailing_zeros().min(31) as usize;
                let member = w.regs[at(*mreg, 0, first)] as u32;
                let cval = w.regs[at(*c, 0, first)] as u32;
                self.shuffle(cta, w, *kind, member, cval, *dst, *valid, *v, *b, *bits, *loc)?;
            }
            Inst::GpuShfl { kind, dst, valid, v, b, width, bits, loc } => {
                let first = mask.trailing_zeros().min(31) as usize;
                let wd = (w.regs[at(*width, 0, first)] as u32).clamp(1, 32);
                let member = if wd >= 32 { u32::MAX } else { (1u32 << wd) - 1 };
                let cval = if *kind == ShflKind::Up { 32 - wd } else { wd - 1 };
                self.shuffle(cta, w, *kind, member, cval, *dst, Some(*valid), *v, *b, *bits, *loc)?;
            }
            Inst::Vote { kind, dst, mask: mreg, pred, loc } => {
                let first = mask.trailing_zeros().min(31) as usize;
                let member = w.regs[at(*mreg, 0, first)] as u32;
                if member & w.live != mask {
                    return Err(self.divergent_shuffle(cta, w, member, *loc));
                }
                let mut ballot = 0u32;
                for l in lanes(mask) {
                    if w.regs[at(*pred, 0, l)] & 1 != 0 {
                        ballot |= 1 << l;
                    }
                }
                let v = match kind {
                    0 => ballot as u64,
                    1 => (ballot != 0) as u64,
                    2 => (ballot == mask) as u64,
                    _ => (ballot == 0 || ballot == mask) as u64,
                };
                for l in lanes(mask) {
                    w.regs[at(*dst, 0, l)] = v;
                }
            }
            // The step loop dispatches the other instructions elsewhere.
            _ => {}
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn shuffle(
        &mut self,
        cta: &Cta,
        w: &mut Warp,
        kind: ShflKind,
        member: u32,
        c: u32,
        dst: Slot,
        valid: Option<Slot>,
        v: Slot,
        b: Slot,
        bits: u32,
        loc: u32,
    ) -> Result<(), Fault> {
        let mask = w.mask;
        if member & w.live != mask {
            return Err(self.divergent_shuffle(cta, w, member, loc));
        }
        let mut read = [-1i8; 32];
        let vm = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
        let mut out = [0u64; 32];
        let mut ok = [false; 32];
        for l in lanes(mask) {
            let bl = w.regs[at(b, 0, l)] as u32;
            let (src, pval) = ptx_shfl(kind, l as u32, bl, c);
            let src = src as usize;
            if pval && member >> src & 1 == 0 {
                return Err(self.fault(
                    FaultKind::DivergentShuffle,
                    cta,
                    Some((w, l)),
                    Some(loc),
                    format!("lane {l} reads lane {src}, which is not in the member mask {member:#010x}"),
                ));
            }
            out[l] = w.regs[at(v, 0, src)] & vm;
            ok[l] = pval;
            read[l] = if pval { src as i8 } else { l as i8 };
        }
        if w.index == 0 {
            if let Some(t) = self.tracing(cta) {
                t.shuffle(w.pc, read);
            }
        }
        for l in lanes(mask) {
            w.regs[at(dst, 0, l)] = out[l];
            if let Some(vs) = valid {
                w.regs[at(vs, 0, l)] = ok[l] as u64;
            }
        }
        Ok(())
    }
}
