//! Staged compilation in memory: the module's text at each stage, the IR after every pass, the
//! PTX and (when `ptxas` is found) the cubin of each `gpu.module`, returned as values.

use super::{Compiler, Diagnostics, Error, Kernel, Options, OwnedModule};
use phobos_compiler::compile::{self, CompileOptions};

/// A stage a compile can stop at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Stage {
    /// The Phobos dialects over upstream gpu/arith/scf/memref: what a frontend hands in.
    L1,
    /// Upstream gpu/arith/scf/memref/vector/nvvm only: what the simulator executes.
    Simt,
    /// The LLVM dialect inside each gpu.module, with the NVVM target attached.
    Llvm,
    /// PTX, one module per gpu.module.
    Ptx,
    /// PTX assembled by `ptxas` into a cubin per gpu.module (an error when no `ptxas` is found).
    Cubin,
}

impl Stage {
    /// `l1`, `simt`, `llvm`, `ptx`, `cubin`: the names `phobos compile --emit` and IR dumps use.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Cubin => "cubin",
            s => s.lowering().name(),
        }
    }
    fn of(s: compile::Stage) -> Stage {
        match s {
            compile::Stage::L1 => Stage::L1,
            compile::Stage::Simt => Stage::Simt,
            compile::Stage::Llvm => Stage::Llvm,
            compile::Stage::Ptx => Stage::Ptx,
        }
    }
    fn lowering(self) -> compile::Stage {
        match self {
            Stage::L1 => compile::Stage::L1,
            Stage::Simt => compile::Stage::Simt,
            Stage::Llvm => compile::Stage::Llvm,
            Stage::Ptx | Stage::Cubin => compile::Stage::Ptx,
        }
    }
}

/// The IR after one pass: its flag, the [`Stage`] its output is in, and the module's text.
pub type PassIr = compile::PassIr<Stage>;

/// What a staged compile returns, all in memory. Its `Debug` is a summary (each text's stage
/// and size), not the IR.
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct Staged {
    /// The module's text at the input (`L1`) and at the end of each stage reached, in order.
    pub stages: Vec<(Stage, String)>,
    /// The IR after every pass, in run order (empty unless asked for).
    pub passes: Vec<PassIr>,
    /// The PTX of each gpu.module (`(symbol, text)`), when the PTX stage was reached.
    pub ptx: Vec<(String, String)>,
    /// The cubin of each gpu.module (`(symbol, bytes)`), when the cubin stage was asked for.
    pub cubins: Vec<(String, Vec<u8>)>,
}

impl std::fmt::Debug for Staged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sizes = |v: &[(String, String)]| v.iter().map(|(n, t)| format!("{n}: {} bytes", t.len())).collect::<Vec<_>>();
        f.debug_struct("Staged")
            .field("stages", &self.stages.iter().map(|(s, t)| format!("{}: {} bytes", s.name(), t.len())).collect::<Vec<_>>())
            .field("passes", &self.passes.len())
            .field("ptx", &sizes(&self.ptx))
            .field("cubins", &self.cubins.iter().map(|(n, b)| format!("{n}: {} bytes", b.len())).collect::<Vec<_>>())
            .finish()
    }
}

impl Staged {
    /// The module's text at `stage` (the PTX of the only gpu.module for `Stage::Ptx`), if reached.
    pub fn text(&self, stage: Stage) -> Option<&str> {
        if stage == Stage::Ptx && self.ptx.len() == 1 {
            return Some(&self.ptx[0].1);
        }
        self.stages.iter().find(|(s, _)| *s == stage).map(|(_, t)| t.as_str())
    }
}

/// Kernels, and the IR of the compile that made their PTX.
#[non_exhaustive]
pub struct Compiled {
    /// The kernels, as [`Compiler::compile_module`] returns them.
    pub kernels: Vec<Kernel>,
    /// Every stage's text and the IR after every pass, up to the PTX.
    pub ir: Staged,
    /// The warnings and remarks of this compile (the shared-memory plan, barriers elided, ...),
    /// each once, in the order they were reported.
    pub diagnostics: Vec<super::Diagnostic>,
    /// Where the compile's time went, in the order each part ended: each Phobos pass by its
    /// flag (`convert-lane-to-gpu`), then its stage (`simt`, `llvm`, `ptx`) in all, upstream
    /// passes included; as `phobos compile --time-passes` reports them.
    pub timings: Vec<(String, std::time::Duration)>,
}

/// The kernels and the IR's size (stages and passes counted, not printed).
impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("kernels", &self.kernels)
            .field("stages", &self.ir.stages.iter().map(|(s, t)| (s.name(), t.len())).collect::<Vec<_>>())
            .field("passes", &self.ir.passes.len())
            .field("diagnostics", &self.diagnostics.len())
            .finish()
    }
}

impl Compiler {
    /// Lowers a copy of `module` (left as it was) to `to`, returning the text at every stage on
    /// the way and, with `every_pass`, the IR after every pass; `Stage::Cubin` also assembles
    /// each gpu.module's PTX with `ptxas` (an error naming what is missing when none is found).
    /// `opts.dump_dir`, when set, is written from the same IR.
    pub fn lower(&self, module: &OwnedModule, to: Stage, every_pass: bool, opts: &Options) -> Result<Staged, Error> {
        self.check_context(module)?;
        self.session.diags.take();
        let copy = module.clone_module();
        let copts = CompileOptions { keep_stages: true, keep_passes: every_pass, ..self.compile_options(opts)? };
        // As compile_staged: a failure keeps the IR that ran (the error's `ir()`).
        let (lowered, result) = compile::lower_keeping(&self.session, &copy, compile::Stage::L1, to.lowering(), &copts);
        if let Err(e) = result {
            return Err(self.failed_with_ir(e, None, &lowered));
        }
        let mut staged = staged_of(lowered, every_pass);
        if to >= Stage::Ptx {
            staged.ptx = phobos_compiler::ptx::extract(copy.op());
        }
        if to == Stage::Cubin {
            staged.cubins =
                staged.ptx.iter().map(|(name, ptx)| Ok((name.clone(), assemble(ptx, &opts.chip)?))).collect::<Result<_, Error>>()?;
        }
        Ok(staged)
    }

    /// Compiles `module` as [`Compiler::compile_module`] does, and returns with the kernels the
    /// text of every stage and the IR after every pass of the compile that made their PTX.
    pub fn compile_staged(&self, module: &OwnedModule, opts: &Options) -> Result<Compiled, Error> {
        self.session.diags.take();
        let (kernels, lowered) = self.compile(module, opts, None, true)?;
        // One lowering (L1 to SIMT, then on to PTX): each remark once.
        let diagnostics = self.session.diags.take();
        let timings = lowered.timings.clone();
        let mut ir = staged_of(lowered, true);
        ir.ptx = kernels.iter().fold(Vec::new(), |mut v: Vec<(String, String)>, k| {
            if !v.iter().any(|(m, _)| *m == k.gpu_module) {
                v.push((k.gpu_module.clone(), k.ptx.clone()));
            }
            v
        });
        Ok(Compiled { kernels, ir, diagnostics, timings })
    }
}

pub(crate) fn staged_of(lowered: compile::Lowered, every_pass: bool) -> Staged {
    Staged {
        stages: lowered.stages.into_iter().map(|(s, t)| (Stage::of(s), t)).collect(),
        passes: if every_pass {
            lowered.passes.into_iter().map(|p| PassIr { pass: p.pass, stage: Stage::of(p.stage), ir: p.ir }).collect()
        } else {
            Vec::new()
        },
        ..Default::default()
    }
}

/// `ptxas -arch=CHIP` on `ptx`: the cubin's bytes, or its error output.
fn assemble(ptx: &str, chip: &str) -> Result<Vec<u8>, Error> {
    let unlocated = |m: String| Error::Compile(Diagnostics::unlocated(m));
    let ptxas = phobos_compiler::stats::find_ptxas()
        .ok_or_else(|| unlocated("no ptxas found (on $PATH or in .tools/ from third_party/install.sh): a cubin needs one".into()))?;
    let dir = std::env::temp_dir().join(format!("phobos-cubin-{}-{}", std::process::id(), next()));
    std::fs::create_dir_all(&dir).map_err(|e| unlocated(format!("{}: {e}", dir.display())))?;
    let (src, out) = (dir.join("k.ptx"), dir.join("k.cubin"));
    let result = std::fs::write(&src, ptx)
        .map_err(|e| format!("{}: {e}", src.display()))
        .and_then(|_| {
            std::process::Command::new(&ptxas)
                .arg(format!("-arch={chip}"))
                .arg(&src)
                .arg("-o")
                .arg(&out)
                .output()
                .map_err(|e| format!("{}: {e}", ptxas.display()))
        })
        .and_then(|o| if o.status.success() { Ok(()) } else { Err(format!("ptxas: {}", String::from_utf8_lossy(&o.stderr).trim())) })
        .and_then(|_| std::fs::read(&out).map_err(|e| format!("{}: {e}", out.display())));
    let _ = std::fs::remove_dir_all(&dir);
    result.map_err(unlocated)
}

fn next() -> usize {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
