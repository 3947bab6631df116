//! A `.phobos` source compiled whole, for frontends that bind arrays by name and shape as
//! `phobos run` does: every kernel with all its entries (`@autotune` specializations), each
//! compiled once to PTX and to the simulator's program, with the kernel's [`Signature`].
//! [`Program::run`] binds named arrays and dimensions to a kernel, picks the entry their values
//! select, and launches it: the same binding rules and messages as `phobos run`.

use super::{Compiler, Diagnostic, Error, Kernel, LaunchOptions, LaunchReport, Options, Staged};
use phobos_compiler::front_door;
pub use phobos_frontend::{AbiParam, Entry};
pub use phobos_runtime::bind::{check_contiguous, sim_options, Signature, SimBounds};
pub use phobos_runtime::npy::{Array, Dtype};
use std::{collections::BTreeMap, path::PathBuf};

/// Every kernel of a source, compiled; independent of the [`Compiler`] that made it.
#[derive(Debug)]
pub struct Program {
    /// Every entry, compiled: a kernel, or one specialization of an `@autotune` kernel.
    pub kernels: Vec<Kernel>,
    /// Each kernel's signature, in source order.
    pub signatures: Vec<Signature>,
    /// The entries as `phobos compile --manifest` lists them (with their dynamic shared memory).
    pub entries: Vec<Entry>,
    /// Every stage's text and the IR after every pass.
    pub ir: Staged,
    /// The compile's warnings and remarks (the shared-memory plan, barriers elided, ...).
    pub diagnostics: Vec<Diagnostic>,
    /// The autotuner's choices so far ([`Program::run_tuned`]).
    pub(crate) tuned: crate::autotune::Tuned,
}

/// What [`Program::run`] launched, and what came back.
#[derive(Debug)]
#[non_exhaustive]
pub struct Ran {
    /// The entry the bound values picked.
    pub entry: String,
    /// Every tensor after the launch, in parameter order.
    pub outputs: Vec<(String, Array)>,
    /// Every dimension's bound value.
    pub dims: BTreeMap<String, i64>,
    /// The launch's time and counts.
    pub report: LaunchReport,
    /// The values of the `@autotune` meta-parameters of the entry that ran (the autotuner's
    /// choice; empty for a kernel without them).
    pub meta: BTreeMap<String, i64>,
}

impl Compiler {
    /// Compiles every kernel of a `.phobos` source (`filename` names it in diagnostics) with
    /// its entries, keeping each stage's text and the IR after every pass; `opts.defines` fix
    /// dimensions at compile time, as `phobos compile -D` does.
    pub fn compile_program(&self, source: &str, filename: &str, opts: &Options) -> Result<Program, Error> {
        if !phobos_source::is_language_file(filename) {
            return Err(Error::Launch(format!("{filename}: a program is compiled from a .phobos source")));
        }
        let (l1, module) = self.parse_phobos(source, filename, opts)?;
        let entries = l1.entries.unwrap_or_default();
        let (kernels, lowered) = self.compile(&module, opts, Some((filename, source)), true)?;
        let diagnostics = self.session.diags.take();
        let mut ir = crate::stages::staged_of(lowered, true);
        ir.ptx = crate::program_cache::ptx_of(&kernels);
        let mut names: Vec<&str> = Vec::new();
        for e in &entries {
            if !names.contains(&e.kernel.as_str()) {
                names.push(&e.kernel);
            }
        }
        let signatures = names.iter().map(|k| front_door::signature(&entries, k)).collect();
        let entries = entries
            .iter()
            .map(|e| Entry {
                dynamic_shared_bytes: kernels.iter().find(|k| k.name == e.name).map_or(0, |k| k.dynamic_shared as u64),
                ..e.clone()
            })
            .collect();
        Ok(Program { kernels, signatures, entries, ir, diagnostics, tuned: Default::default() })
    }
}

impl Program {
    /// The kernels' names, in source order.
    pub fn kernel_names(&self) -> Vec<&str> {
        self.signatures.iter().map(|s| s.kernel.as_str()).collect()
    }

    /// The signature of the kernel `name`.
    pub fn signature(&self, name: &str) -> Option<&Signature> {
        self.signatures.iter().find(|s| s.kernel == name)
    }

    /// The compiled entry named `name` (a kernel, or `kernel__K256`).
    pub fn entry(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }

    /// The signature of `kernel`, when it has one and `grid` is a grid CUDA launches.
    pub(crate) fn launchable(&self, kernel: &str, grid: [u32; 3]) -> Result<&Signature, Error> {
        let sig = self
            .signature(kernel)
            .ok_or_else(|| Error::Launch(format!("no kernel named '{kernel}' (the program has: {})", self.kernel_names().join(", "))))?;
        // An extent of 0 launches nothing.
        phobos_sim::check_grid(grid.map(|g| g.max(1))).map_err(|e| Error::Launch(format!("grid: {e}")))?;
        Ok(sig)
    }

    /// Binds `arrays` (each named after a tensor parameter) and `dims` to the kernel `kernel`
    /// as `phobos run` does (dimensions from the arrays' shapes, checked against each other and
    /// `dims`; the `@autotune` entry their values pick), then launches it on `device` with a
    /// grid of `grid` CTAs. The tensors come back in parameter order.
    pub fn run(
        &self,
        kernel: &str,
        arrays: Vec<(String, Array)>,
        dims: &BTreeMap<String, i64>,
        grid: [u32; 3],
        device: &super::Device,
        opts: &LaunchOptions,
    ) -> Result<Ran, Error> {
        self.launchable(kernel, grid)?;
        self.run_tuned(kernel, arrays, dims, &|_| Ok(grid), device, opts)
    }

    /// [`Program::run`] on another library's GPU memory (PyTorch or CuPy tensors), with no
    /// copy: each tensor its element type, shape and [`ForeignBuffer`](crate::ForeignBuffer),
    /// whose length must be the shape's bytes; each scalar parameter a 0-d array of its type
    /// ([`crate::scalar::parse`] makes one from a literal); with `stream`, enqueued on that stream without
    /// waiting (see [`LaunchOptions::stream`]). `device`: `None` for the GPU whose memory the
    /// tensors are (PyTorch's `cuda:1` runs on GPU 1), after every check that needs no GPU.
    pub fn run_foreign(
        &self,
        kernel: &str,
        tensors: Vec<(String, Dtype, Vec<u64>, crate::ForeignBuffer)>,
        scalars: Vec<(String, Array)>,
        dims: &BTreeMap<String, i64>,
        grid: [u32; 3],
        device: Option<&super::Device>,
        opts: &LaunchOptions,
    ) -> Result<Ran, Error> {
        let views = tensors.into_iter().map(|(n, d, s, b)| (n, d, s, None, b)).collect();
        self.run_foreign_views(kernel, views, scalars, dims, grid, device, opts)
    }

    /// [`Program::run_foreign`] on strided views (`__cuda_array_interface__`'s `strides`, in
    /// bytes; `None`: row-major and contiguous). Each [`ForeignBuffer`](crate::ForeignBuffer)
    /// is the memory the view spans ([`view_span`]), with its first element marked
    /// ([`ForeignBuffer::with_first`](crate::ForeignBuffer::with_first)). Views that are all
    /// row-major launch the entry as [`Program::run_foreign`] does; otherwise its strided twin
    /// ([`Options::strided`](crate::Options::strided)) runs, with every view's element strides.
    /// A byte stride that is not whole elements, a written view with a zero stride, or one that
    /// shares memory with another view is refused before anything runs.
    #[allow(clippy::too_many_arguments)]
    pub fn run_foreign_views(
        &self,
        kernel: &str,
        tensors: Vec<(String, Dtype, Vec<u64>, Option<Vec<i64>>, crate::ForeignBuffer)>,
        scalars: Vec<(String, Array)>,
        dims: &BTreeMap<String, i64>,
        grid: [u32; 3],
        device: Option<&super::Device>,
        opts: &LaunchOptions,
    ) -> Result<Ran, Error> {
        let sig = self.launchable(kernel, grid)?;
        let first = tensors.iter().map(|t| t.4.ptr()).find(|p| *p != 0);
        // Element strides of the views that are not row-major and contiguous.
        let mut strided: BTreeMap<String, Vec<i64>> = BTreeMap::new();
        for (name, dtype, shape, strides, buf) in &tensors {
            let Some(strides) = strides else { continue };
            let eb = dtype.bytes() as i64;
            if strides.len() != shape.len() {
                return Err(Error::Launch(format!(
                    "argument '{name}': {} strides for a shape of {} dimensions",
                    strides.len(),
                    shape.len()
                )));
            }
            if let Some(s) = strides.iter().find(|s| *s % eb != 0) {
                return Err(Error::Launch(format!("argument '{name}': byte stride {s} is not a multiple of its {eb}-byte elements")));
            }
            if check_contiguous(name, *dtype, shape, strides).is_err() || buf.first() != 0 {
                strided.insert(name.clone(), strides.iter().map(|s| s / eb).collect());
            }
        }
        // Binding reads element types and shapes only: the arrays stand in with no bytes.
        let mut named = BTreeMap::new();
        let mut buffers = BTreeMap::new();
        for (name, dtype, shape, _, buf) in tensors {
            let bytes = shape.iter().try_fold(dtype.bytes() as u64, |n, d| n.checked_mul(*d));
            if !strided.contains_key(&name) && bytes != Some(buf.len() as u64) {
                return Err(Error::Launch(format!(
                    "argument '{name}': {} bytes for a shape of {:?} elements of {}",
                    buf.len(),
                    shape,
                    dtype.numpy()
                )));
            }
            let label = PathBuf::from(format!("argument '{name}'"));
            if named.insert(name.clone(), (Array { dtype, shape, data: Vec::new() }, label)).is_some() {
                return Err(Error::Launch(format!("argument '{name}' is given twice")));
            }
            buffers.insert(name, buf);
        }
        for (name, a) in scalars {
            let label = PathBuf::from(format!("argument '{name}'"));
            if named.insert(name.clone(), (a, label)).is_some() {
                return Err(Error::Launch(format!("argument '{name}' is given twice")));
            }
        }
        let (bound, mut values) = phobos_runtime::bind::bind(sig, &named, dims).map_err(Error::Launch)?;
        let scalars: BTreeMap<String, Array> = sig
            .params
            .iter()
            .zip(bound)
            .filter_map(|(p, a)| match (p, a) {
                (AbiParam::Scalar { name, .. }, Some(a)) => Some((name.clone(), a)),
                _ => None,
            })
            .collect();
        let mut entry = phobos_runtime::bind::select_entry(sig, &values).map_err(Error::Launch)?;
        let dims = values.clone();
        if let Some(view) = strided.keys().next() {
            let twin = phobos_frontend::strided_name(&entry);
            if self.entry(&twin).is_none() {
                return Err(Error::Launch(format!(
                    "argument '{view}' is a strided view, and {entry} has no strided entry (a kernel that copies tiles or \
                     stores words has none, nor does a program compiled without Options::with_strided): pass a contiguous copy"
                )));
            }
            // Every tensor's element strides: the view's, or row-major.
            for p in &sig.params {
                let AbiParam::Tensor { name, dims: tdims, .. } = p else { continue };
                let extents: Vec<i64> =
                    tdims.iter().map(|d| d.parse::<i64>().ok().or_else(|| values.get(d).copied()).unwrap_or(1)).collect();
                let row_major: Vec<i64> = (0..extents.len()).map(|d| extents[d + 1..].iter().product()).collect();
                for (d, s) in strided.get(name).unwrap_or(&row_major).iter().enumerate() {
                    values.insert(phobos_sim::stride_key(name, d as i64), *s);
                }
            }
            entry = twin;
        }
        let compiled = self.entry(&entry).ok_or_else(|| Error::Launch(format!("entry {entry} was not compiled")))?;
        check_views(compiled, sig, &buffers, &strided)?;
        let ordered = sig.params.iter().filter_map(|p| match p {
            AbiParam::Tensor { name, .. } => buffers.get(name).map(|b| crate::Arg::Foreign(*b)),
            AbiParam::Dim { .. } | AbiParam::Scalar { .. } | AbiParam::Stride { .. } | AbiParam::TensorMap { .. } => None,
        });
        let mut args = phobos_runtime::bind::arguments(compiled, &values, &scalars, ordered)?;
        // Every check that needs no device first: a machine without a GPU still says what is
        // wrong with the arrays.
        compiled.check_args(&args)?;
        let found;
        let device = match device {
            Some(d) => d,
            None => {
                found = match first {
                    Some(ptr) => super::Device::cuda_of_address(ptr)?,
                    None => super::Device::cuda()?,
                };
                &found
            }
        };
        let report = compiled.launch_with(device, grid, &mut args, opts)?;
        Ok(Ran { entry, outputs: Vec::new(), dims, report, meta: BTreeMap::new() })
    }
}

/// A written strided view may neither repeat elements (a zero stride) nor share memory with
/// another view: which value would land is undefined.
fn check_views(
    compiled: &Kernel,
    sig: &Signature,
    buffers: &BTreeMap<String, crate::ForeignBuffer>,
    strided: &BTreeMap<String, Vec<i64>>,
) -> Result<(), Error> {
    let tensors: Vec<&String> =
        sig.params.iter().filter_map(|p| if let AbiParam::Tensor { name, .. } = p { Some(name) } else { None }).collect();
    for (i, name) in tensors.iter().enumerate() {
        let Some(buf) = buffers.get(*name) else { continue };
        let arg = compiled.params.iter().position(|p| matches!(p, crate::Param::Buffer { name: n, .. } if n == *name));
        if arg.and_then(|a| compiled.writes(a)) != Some(true) {
            continue;
        }
        if strided.get(*name).is_some_and(|s| s.contains(&0)) {
            return Err(Error::Launch(format!("argument '{name}': the kernel writes it, but its view repeats elements (a zero stride)")));
        }
        for (j, other) in tensors.iter().enumerate() {
            let Some(o) = buffers.get(*other) else { continue };
            let apart = buf.ptr() + buf.len() as u64 <= o.ptr() || o.ptr() + o.len() as u64 <= buf.ptr();
            if i != j && !buf.is_empty() && !o.is_empty() && !apart && (strided.contains_key(*name) || strided.contains_key(*other)) {
                return Err(Error::Launch(format!(
                    "argument '{name}': the kernel writes it, but its memory overlaps argument '{other}'s: which value would land is undefined"
                )));
            }
        }
    }
    Ok(())
}

/// The memory a strided view spans, from its first element's byte offset `lo` (0 or below, for
/// negative strides) to `lo + len`: the [`ForeignBuffer`](crate::ForeignBuffer) to give
/// [`Program::run_foreign_views`] starts at the view's address plus `lo`, with its first element
/// `-lo` bytes in. An empty view spans nothing.
pub fn view_span(shape: &[u64], byte_strides: &[i64], itemsize: u64) -> (i64, u64) {
    if shape.contains(&0) {
        return (0, 0);
    }
    let (mut lo, mut hi) = (0i128, 0i128);
    for (n, s) in shape.iter().zip(byte_strides) {
        let reach = (*n as i128 - 1) * *s as i128;
        if reach < 0 {
            lo += reach
        } else {
            hi += reach
        }
    }
    (lo.clamp(i64::MIN as i128, 0) as i64, (hi - lo + itemsize as i128).clamp(0, u64::MAX as i128) as u64)
}
