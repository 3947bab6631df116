//! A compiled kernel as the runtime holds it: its PTX, the simulator's program, its block and
//! shared memory, and its parameters. Made by the compiler ([`Kernel::translate`] from the SIMT
//! IR); independent of the compiler afterwards.

use crate::{error::Diagnostics, launch::LoadedCache, Error};

/// A kernel parameter, in launch order.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum Param {
    /// A global-memory buffer of elements of `elem` (`f32`, `i32`, ...).
    Buffer {
        /// The tensor's name (`phobos.tensor`, or `argN`).
        name: String,
        /// The element type.
        elem: String,
    },
    /// A scalar of type `ty`.
    Scalar {
        /// The parameter's name (`phobos.scalar`, `phobos.dim`, or `argN`).
        name: String,
        /// `i1` (a bool), `i8`, `i16`, `i32`, `i64` (also for `index`), `f16`, `bf16`, `f32`
        /// or `f64`.
        ty: String,
    },
}

impl Param {
    /// The parameter's name.
    pub fn name(&self) -> &str {
        match self {
            Param::Buffer { name, .. } | Param::Scalar { name, .. } => name,
        }
    }
}

/// A compiled kernel, independent of the compiler that made it. It serializes whole (the PTX
/// and the simulator's program): a program cache stores it.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct Kernel {
    /// The entry's name (the `gpu.func`'s symbol).
    pub name: String,
    /// The symbol of the gpu.module that holds it.
    pub gpu_module: String,
    /// The PTX of the gpu.module that holds the kernel (the entry is `.entry <name>`): one PTX
    /// module per gpu.module, as `ptxas` and the CUDA driver take it. Empty when it was compiled
    /// for the simulator only (a GPU launch is then an error).
    pub ptx: String,
    /// The chip it was compiled for, e.g. `sm_90`.
    pub chip: String,
    /// The block size (`known_block_size`), which every launch uses.
    pub block: [u32; 3],
    /// Bytes of dynamic shared memory a launch reserves (the shared-memory plan's).
    pub dynamic_shared: u32,
    /// The parameters, in launch order.
    pub params: Vec<Param>,
    /// The parameters as every device checks them.
    pub(crate) args: Vec<phobos_sim::ArgKind>,
    /// The simulator's program, or why the simulator cannot run the kernel: a GPU compile does
    /// not depend on the simulator; a launch there reports it (located).
    pub(crate) sim: Result<phobos_sim::Kernel, phobos_sim::Unsupported>,
    /// Modules loaded on GPUs: per process, never stored.
    #[serde(skip)]
    pub(crate) loaded: LoadedCache,
}

/// A few lines: the name, chip, block, shared memory, parameters and the PTX's size (not the
/// PTX, nor the simulator's program).
impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel")
            .field("name", &self.name)
            .field("gpu_module", &self.gpu_module)
            .field("chip", &self.chip)
            .field("block", &self.block)
            .field("dynamic_shared", &self.dynamic_shared)
            .field("params", &self.params)
            .field("ptx_bytes", &self.ptx.len())
            .finish_non_exhaustive()
    }
}

impl Kernel {
    /// The kernel `name` of the SIMT-level `gpu_module` (an op of the compiler's module),
    /// translated for the simulator, with `ptx` (empty when there is none) compiled for `chip`.
    /// The simulator's translation is kept for the first launch there: an op the simulator
    /// lacks fails that launch, not the compile.
    pub fn translate(gpu_module: phobos_ir::Op, name: &str, chip: &str, ptx: String) -> Result<Kernel, Error> {
        let sig = phobos_sim::signature(gpu_module, name).map_err(unsupported)?;
        let block = sig.block.ok_or_else(|| {
            Error::Compile(Diagnostics::unlocated(format!("{name} has no known_block_size; a launch needs the block size")))
        })?;
        let params = sig
            .args
            .iter()
            .filter_map(|a| match a {
                phobos_sim::ArgKind::Buffer { name, elem, .. } => Some(Param::Buffer { name: name.clone(), elem: elem.name().into() }),
                phobos_sim::ArgKind::Scalar { name, ty, .. } => Some(Param::Scalar { name: name.clone(), ty: ty.name().into() }),
                // The launcher builds a tensor map: the caller passes nothing for it.
                phobos_sim::ArgKind::TensorMap { .. } => None,
            })
            .collect();
        Ok(Kernel {
            name: name.to_string(),
            gpu_module: gpu_module.str_attr("sym_name").unwrap_or_default(),
            ptx,
            chip: chip.to_string(),
            block,
            dynamic_shared: sig.dynamic_shared,
            params,
            args: sig.args,
            sim: phobos_sim::translate(gpu_module, name),
            loaded: Default::default(),
        })
    }

    /// A kernel from PTX an embedder compiled itself, with its entry's signature: it launches on
    /// a GPU with the same argument checks as any kernel (lengths are not checked: `params` has
    /// no dimensions); the simulator cannot run it (it has no program for it).
    pub fn from_ptx(
        name: &str,
        ptx: String,
        chip: &str,
        block: [u32; 3],
        dynamic_shared: u32,
        params: Vec<Param>,
    ) -> Result<Kernel, Error> {
        let prim = |t: &str| {
            [
                phobos_sim::Prim::I1,
                phobos_sim::Prim::I8,
                phobos_sim::Prim::I16,
                phobos_sim::Prim::I32,
                phobos_sim::Prim::I64,
                phobos_sim::Prim::F16,
            ]
            .into_iter()
            .chain([phobos_sim::Prim::BF16, phobos_sim::Prim::F32, phobos_sim::Prim::F64])
            .find(|p| p.name() == t)
            .ok_or_else(|| Error::Launch(format!("{name}: '{t}' is not a parameter type (i1, i8, i16, i32, i64, f16, bf16, f32, f64)")))
        };
        let args = params
            .iter()
            .map(|p| match p {
                // PTX from elsewhere: the ABI's tensors are 16-byte aligned (docs/abi.md).
                Param::Buffer { name, elem } => {
                    Ok(phobos_sim::ArgKind::Buffer { name: name.clone(), elem: prim(elem)?, dims: Vec::new(), align: 16 })
                }
                Param::Scalar { name, ty } => {
                    Ok(phobos_sim::ArgKind::Scalar { name: name.clone(), ty: prim(if ty == "index" { "i64" } else { ty })?, dim: true })
                }
            })
            .collect::<Result<_, Error>>()?;
        let no_program =
            phobos_sim::Unsupported { message: format!("{name} was made from PTX: the simulator has no program for it"), loc: None };
        Ok(Kernel {
            name: name.to_string(),
            gpu_module: String::new(),
            ptx,
            chip: chip.to_string(),
            block,
            dynamic_shared,
            params,
            args,
            sim: Err(no_program),
            loaded: Default::default(),
        })
    }

    /// Whether the kernel may write parameter `i` (a store or an atomic through it); `None`
    /// when unknown (a kernel made from PTX).
    pub fn writes(&self, i: usize) -> Option<bool> {
        self.sim.as_ref().ok().and_then(|k| k.written_args().get(i).copied())
    }

    /// The simulator's program (its instructions and argument kinds, for tools that read a
    /// trace against it), or why the simulator cannot run the kernel.
    pub fn sim(&self) -> Result<&phobos_sim::Kernel, Error> {
        self.sim.as_ref().map_err(|u| unsupported(u.clone()))
    }
}

/// What the simulator cannot translate, as a located compile error.
fn unsupported(u: phobos_sim::Unsupported) -> Error {
    let rendered = u.to_string();
    Error::Compile(Diagnostics::new(vec![crate::Diagnostic::new(crate::Severity::Error, u.loc, u.message)], rendered))
}

/// How a launch runs, past its grid and arguments.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct LaunchOptions {
    /// The simulator's options (bounds, SMs, the shared-memory limit); `None`: the defaults,
    /// with the shared-memory limit of the kernel's chip.
    pub sim: Option<phobos_sim::Options>,
    /// On the simulator, record what this CTA does ([`LaunchReport::trace`]).
    pub trace: Option<[u32; 3]>,
    /// On a GPU, `(warm-up, reps)`: after the launch, time `reps` more with CUDA events
    /// ([`LaunchReport::kernel_ms`]); host buffers hold the first launch's results.
    pub timing: Option<(usize, usize)>,
    /// The caller drops its host buffers when the launch faults, so the simulator keeps no copy
    /// to restore them from (by default a faulting launch leaves host bytes as they were).
    pub discard_on_fault: bool,
    /// On a GPU, enqueue on this stream of another library and return without waiting (every
    /// buffer then lives on the device: [`Arg::Device`](crate::Arg::Device) or
    /// [`Arg::Foreign`](crate::Arg::Foreign)); a fault surfaces at that stream's next
    /// synchronization. Ignored on the simulator.
    pub stream: Option<crate::ForeignStream>,
    /// The kernel's CTAs wait for each other (a persistent kernel), so all must be resident at
    /// once: a grid larger than the device holds is refused before it runs, and on a GPU that
    /// supports it the launch is cooperative (`cuLaunchCooperativeKernel`).
    pub cooperative: bool,
}

/// Each option set by a method returning the options (the struct is `#[non_exhaustive]`: a new
/// option breaks no embedder): `LaunchOptions::default().with_cooperative(true)`.
impl LaunchOptions {
    /// [`LaunchOptions::sim`].
    pub fn with_sim(mut self, sim: phobos_sim::Options) -> Self {
        self.sim = Some(sim);
        self
    }
    /// [`LaunchOptions::trace`].
    pub fn with_trace(mut self, cta: [u32; 3]) -> Self {
        self.trace = Some(cta);
        self
    }
    /// [`LaunchOptions::timing`].
    pub fn with_timing(mut self, warmup: usize, reps: usize) -> Self {
        self.timing = Some((warmup, reps));
        self
    }
    /// [`LaunchOptions::discard_on_fault`].
    pub fn with_discard_on_fault(mut self, discard: bool) -> Self {
        self.discard_on_fault = discard;
        self
    }
    /// [`LaunchOptions::stream`].
    pub fn with_stream(mut self, stream: crate::ForeignStream) -> Self {
        self.stream = Some(stream);
        self
    }
    /// [`LaunchOptions::cooperative`].
    pub fn with_cooperative(mut self, cooperative: bool) -> Self {
        self.cooperative = cooperative;
        self
    }
}

/// What a launch measured.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct LaunchReport {
    /// Wall time of the launch in ms (on a GPU: including the copies).
    pub ms: f64,
    /// The simulator's thread-instruction count (0 on a GPU).
    pub thread_instructions: u64,
    /// The simulator's counts (`None` on a GPU).
    pub stats: Option<phobos_sim::Stats>,
    /// The record of the CTA [`LaunchOptions::trace`] asked for.
    pub trace: Option<phobos_sim::trace::Trace>,
    /// Kernel times by CUDA events, with [`LaunchOptions::timing`].
    pub kernel_ms: Vec<f32>,
}
