//! What a fault reports: its kind, the kernel, CTA, thread, op and source location.

use super::*;

/// What went wrong in a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FaultKind {
    OutOfBounds,
    Misaligned,
    /// Two threads of a CTA touch a shared byte with no barrier between them.
    Race,
    /// Two CTAs touch a global byte with no release/acquire pair ordering them.
    GlobalRace,
    DivergentBarrier,
    DivergentShuffle,
    Deadlock,
    DivisionByZero,
    Assertion,
    BadLaunch,
    /// The caller stopped the launch ([`Options::cancel`](crate::Options::cancel)): Ctrl-C.
    Interrupted,
}

impl FaultKind {
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::OutOfBounds => "out-of-bounds access",
            FaultKind::Misaligned => "misaligned access",
            FaultKind::Race => "shared-memory race",
            FaultKind::GlobalRace => "global-memory race",
            FaultKind::DivergentBarrier => "divergent barrier",
            FaultKind::DivergentShuffle => "divergent shuffle",
            FaultKind::Deadlock => "deadlock",
            FaultKind::DivisionByZero => "division by zero",
            FaultKind::Assertion => "assertion failed",
            FaultKind::BadLaunch => "bad launch",
            FaultKind::Interrupted => "interrupted",
        }
    }
}

/// A fault in a simulated kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Fault {
    pub kind: FaultKind,
    pub message: String,
    pub kernel: String,
    pub cta: [u32; 3],
    pub thread: Option<[u32; 3]>,
    pub op: String,
    pub loc: Option<SrcLoc>,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.loc {
            Some(l) => write!(f, "{l}: error: {}: {}", self.kind.name(), self.message)?,
            None => write!(f, "error: {}: {}", self.kind.name(), self.message)?,
        }
        write!(f, "\n  in kernel {}, CTA ({}, {}, {})", self.kernel, self.cta[0], self.cta[1], self.cta[2])?;
        if let Some(t) = self.thread {
            write!(f, ", thread ({}, {}, {})", t[0], t[1], t[2])?;
        }
        // The op, for IR written by hand; a .phobos author reads the source line instead.
        let source = self.loc.as_ref().is_some_and(|l| l.file.ends_with(".phobos"));
        if !self.op.is_empty() && !source {
            write!(f, ", at `{}`", self.op)?;
        }
        Ok(())
    }
}

pub(super) fn inst_loc(i: &Inst) -> Option<u32> {
    match i {
        Inst::Load { loc, .. }
        | Inst::MaskedLoad { loc, .. }
        | Inst::Store { loc, .. }
        | Inst::Atomic { loc, .. }
        | Inst::Cas { loc, .. }
        | Inst::Shfl { loc, .. }
        | Inst::GpuShfl { loc, .. }
        | Inst::Vote { loc, .. }
        | Inst::Mma { loc, .. }
        | Inst::LdMatrix { loc, .. }
        | Inst::CpAsync { loc, .. }
        | Inst::CpAsyncWait { loc, .. }
        | Inst::Wgmma { loc, .. }
        | Inst::WgmmaFence { loc }
        | Inst::WgmmaCommit { loc }
        | Inst::WgmmaWait { loc, .. }
        | Inst::Barrier { loc }
        | Inst::MbarInit { loc, .. }
        | Inst::MbarInval { loc, .. }
        | Inst::MbarArrive { loc, .. }
        | Inst::MbarWait { loc, .. }
        | Inst::TmaLoad { loc, .. }
        | Inst::Assert { loc, .. } => Some(*loc),
        _ => None,
    }
}

/// "0-3, 5" for a lane mask.
pub fn lane_list(m: u32) -> String {
    let mut parts = Vec::new();
    let mut l = 0;
    while l < 32 {
        if m >> l & 1 != 0 {
            let start = l;
            while l + 1 < 32 && m >> (l + 1) & 1 != 0 {
                l += 1;
            }
            parts.push(if start == l { start.to_string() } else { format!("{start}-{l}") });
        }
        l += 1;
    }
    parts.join(", ")
}

impl Ctx<'_> {
    pub(super) fn fault(&self, kind: FaultKind, cta: &Cta, warp: Option<(&Warp, usize)>, loc: Option<u32>, message: String) -> Fault {
        let thread = warp.map(|(w, lane)| self.thread_xyz(w.index * 32 + lane as u32));
        let (op, l) = match loc {
            Some(i) => self.k.locs[i as usize].clone(),
            None => (String::new(), None),
        };
        Fault { kind, message, kernel: self.k.name.clone(), cta: cta.id, thread, op, loc: l }
    }

    pub(super) fn divergent_shuffle(&self, cta: &Cta, w: &Warp, member: u32, loc: u32) -> Fault {
        let active = w.mask;
        let live_member = member & w.live;
        let msg = if active & !member != 0 {
            format!("lanes {} of warp {} execute it but are not in its member mask {:#010x}", lane_list(active & !member), w.index, member)
        } else {
            format!(
                "its member mask {:#010x} names lanes {} of warp {}, which do not execute it (control differs between lanes)",
                member,
                lane_list(live_member & !active),
                w.index
            )
        };
        self.fault(FaultKind::DivergentShuffle, cta, Some((w, active.trailing_zeros().min(31) as usize)), Some(loc), msg)
    }
}
