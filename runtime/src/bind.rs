//! Binding named arrays to a kernel, as `phobos run` and `phobos explain` do: tensors from
//! `.npy` arrays, dimensions from their shapes and `-D`, the entry of an `@autotune` kernel
//! picked by the bound values; then one launch through [`Kernel::launch_with`], the same as
//! the embedding API's.

use crate::{
    npy::{self, shape_text, Array, Dtype},
    Arg, Device, Error, Kernel, LaunchOptions, LaunchReport,
};
use phobos_frontend::AbiParam;
use std::{collections::BTreeMap, path::PathBuf};

/// The simulator's bounds and size as the command line gave them (None: the default).
#[derive(Clone, Debug, Default)]
pub struct SimBounds {
    /// Instructions per warp (a spin loop past it is a deadlock): `--max-warp-instructions`.
    pub max_warp_insts: Option<u64>,
    /// Warp instructions per launch, all warps together: `--max-launch-instructions`.
    pub max_launch_insts: Option<u64>,
    /// Threads per launch: `--max-sim-threads`.
    pub max_threads: Option<u64>,
    /// SMs of the simulated GPU: `--sim-sms`.
    pub sms: Option<u32>,
    /// CPU threads running independent CTAs: `--sim-threads`.
    pub threads: Option<usize>,
    /// Check every plain global access for races: `--check-races`.
    pub check_races: bool,
}

/// What a kernel takes, and what its compiled entries fix.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Signature {
    /// The kernel's name.
    pub kernel: String,
    /// Its parameters in source order: tensors and dimensions.
    pub params: Vec<AbiParam>,
    /// (entry name, dimensions it fixes)
    pub entries: Vec<(String, BTreeMap<String, i64>)>,
    /// `@aligned` promises: a dimension and the number it is a multiple of.
    pub aligned: BTreeMap<String, i64>,
    /// `@autotune` lists: a dimension and the values an entry is compiled for.
    pub autotune: BTreeMap<String, Vec<i64>>,
    /// `@autotune` lists of meta-parameters (names that are no dimension): a launch searches
    /// the entries that differ in them ([`candidates`]).
    #[serde(default)]
    pub meta: BTreeMap<String, Vec<i64>>,
}

/// Parses `X[,Y[,Z]]` (an extent of 0: a grid that launches nothing).
pub fn parse_grid(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("--grid {s}: expected X[,Y[,Z]]"));
    }
    let mut g = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        let v: u64 = p.parse().map_err(|_| format!("--grid {s}: '{p}' is not a non-negative integer"))?;
        let max = phobos_sim::MAX_GRID[i];
        if v > max {
            return Err(format!("--grid {s}: grid {} is {v}; CUDA allows 1 to {max}", ["x", "y", "z"][i]));
        }
        g[i] = v as u32;
    }
    // 0 launches nothing (the arrays are written back unchanged).
    phobos_sim::check_grid(g.map(|x| x.max(1))).map_err(|e| format!("--grid {s}: {e}"))?;
    Ok(g)
}

/// Parses `NAME=PATH`.
pub fn parse_arg(s: &str) -> Result<(String, PathBuf), String> {
    let (n, p) = s.split_once('=').ok_or_else(|| format!("--arg {s}: expected NAME=PATH.npy"))?;
    if n.is_empty() {
        return Err(format!("--arg {s}: the name is empty"));
    }
    Ok((n.to_string(), PathBuf::from(p)))
}

/// Binds tensors and dimensions; returns the arrays in parameter order and the dimension values.
pub fn bind(
    sig: &Signature,
    arrays: &BTreeMap<String, (Array, PathBuf)>,
    defines: &BTreeMap<String, i64>,
) -> Result<(Vec<Option<Array>>, BTreeMap<String, i64>), String> {
    let (out, dims) = bound_dims(sig, arrays, defines, true)?;
    for p in &sig.params {
        if let AbiParam::Dim { name } = p {
            if !dims.contains_key(name) {
                return Err(format!("dimension {name} is not bound: no --arg array has it; give -D {name}=VALUE"));
            }
        }
    }
    let values: BTreeMap<String, i64> = dims.into_iter().map(|(k, (v, _))| (k, v)).collect();
    for (k, a) in &sig.aligned {
        if let Some(v) = values.get(k) {
            if v % a != 0 {
                return Err(format!("@aligned({k} = {a}) promises {k} is a multiple of {a}, but {k} = {v}"));
            }
        }
    }
    for (k, v) in &values {
        if *v > i32::MAX as i64 || *v < 0 {
            return Err(format!("{k} = {v} is outside 0..2^31-1"));
        }
    }
    Ok((out, values))
}

/// The dimensions `arrays` and `defines` bind, each with where its value came from, after
/// checking every array against its parameter (element type, rank, literal extents) and the
/// values against each other; also the arrays in parameter order. A tensor without an array is
/// an error when `all`, else left out (`phobos explain` generates it).
pub fn bound_dims(
    sig: &Signature,
    arrays: &BTreeMap<String, (Array, PathBuf)>,
    defines: &BTreeMap<String, i64>,
    all: bool,
) -> Result<(Vec<Option<Array>>, BTreeMap<String, (i64, String)>), String> {
    let tensor_names: Vec<&str> = sig
        .params
        .iter()
        .filter_map(|p| match p {
            AbiParam::Tensor { name, .. } | AbiParam::Scalar { name, .. } => Some(name.as_str()),
            AbiParam::Dim { .. } | AbiParam::Stride { .. } | AbiParam::TensorMap { .. } => None,
        })
        .collect();
    for name in arrays.keys() {
        if !tensor_names.contains(&name.as_str()) {
            let what = if sig.params.iter().any(|p| matches!(p, AbiParam::Scalar { .. })) { "tensor or scalar" } else { "tensor" };
            return Err(format!("{} has no {what} named '{name}' (it has {})", sig.kernel, tensor_names.join(", ")));
        }
    }
    let mut dims: BTreeMap<String, (i64, String)> = BTreeMap::new();
    let mut known_dims: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for p in &sig.params {
        match p {
            AbiParam::Tensor { name, elem, dims: tdims } => {
                let Some((a, path)) = arrays.get(name) else {
                    if !all {
                        known_dims.extend(tdims.iter().filter(|d| d.parse::<i64>().is_err()).cloned());
                        out.push(None);
                        continue;
                    }
                    return Err(format!("missing --arg {name}=FILE.npy ({} takes {})", sig.kernel, tensor_names.join(", ")));
                };
                let want =
                    Dtype::from_phobos(elem).ok_or_else(|| format!("tensor {name} has element type {elem}, which .npy cannot hold"))?;
                if a.dtype != want {
                    return Err(format!("{name} is tensor<{elem}>, but {} holds {}", path.display(), a.dtype.numpy()));
                }
                if !tdims.is_empty() && a.shape.len() != tdims.len() {
                    return Err(format!(
                        "{name} is tensor<{elem}>[{}] ({} dimension{}), but {} has shape {}",
                        tdims.join(", "),
                        tdims.len(),
                        if tdims.len() == 1 { "" } else { "s" },
                        path.display(),
                        shape_text(&a.shape)
                    ));
                }
                for (i, d) in tdims.iter().enumerate() {
                    let v = a.shape[i] as i64;
                    if let Ok(lit) = d.parse::<i64>() {
                        if lit != v {
                            return Err(format!(
                                "dimension {i} of {name} is {lit}, but {} has shape {}",
                                path.display(),
                                shape_text(&a.shape)
                            ));
                        }
                        continue;
                    }
                    known_dims.push(d.clone());
                    match dims.get(d) {
                        Some((old, from)) if *old != v => {
                            return Err(format!("{d} is {old} from {from} but {v} from {}", path.display()));
                        }
                        Some(_) => {}
                        None => {
                            dims.insert(d.clone(), (v, path.display().to_string()));
                        }
                    }
                }
                out.push(Some(a.clone()));
            }
            AbiParam::Dim { name } => {
                known_dims.push(name.clone());
                out.push(None);
            }
            // Bound from the views at launch, not from arrays (a signature lists none).
            AbiParam::Stride { .. } | AbiParam::TensorMap { .. } => out.push(None),
            AbiParam::Scalar { name, ty } => match arrays.get(name) {
                Some((a, path)) => {
                    out.push(Some(crate::scalar::from_array(ty, a).map_err(|e| format!("{name} ({}): {e}", path.display()))?))
                }
                None if all => return Err(format!("missing --arg {name}=VALUE ({} takes {name}: {ty})", sig.kernel)),
                None => out.push(None),
            },
        }
    }
    for (k, _) in &sig.entries.iter().flat_map(|(_, f)| f.iter()).collect::<Vec<_>>() {
        known_dims.push((*k).clone());
    }
    for (k, v) in defines {
        if !known_dims.contains(k) {
            return Err(format!("-D {k}={v}: {} has no dimension {k}", sig.kernel));
        }
        match dims.get(k) {
            Some((old, from)) if old != v => return Err(format!("-D {k}={v} conflicts with {k} = {old} from {from}")),
            _ => {
                dims.insert(k.clone(), (*v, "-D".into()));
            }
        }
    }
    Ok((out, dims))
}

/// The entry whose fixed dimensions match the bound values.
pub fn select_entry(sig: &Signature, values: &BTreeMap<String, i64>) -> Result<String, String> {
    for (name, fixed) in &sig.entries {
        if fixed.iter().all(|(k, v)| values.get(k).is_none_or(|b| b == v)) {
            return Ok(name.clone());
        }
    }
    for (k, list) in &sig.autotune {
        if let Some(v) = values.get(k) {
            if !list.contains(v) {
                return Err(format!(
                    "{k} = {v} is not one of the values @autotune lists for {k}: {}",
                    list.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
                ));
            }
        }
    }
    Err(format!("no compiled entry of {} matches the bound dimensions", sig.kernel))
}

/// The entries a launch with the bound `values` chooses among, each with its meta-parameters:
/// the entry [`select_entry`] picks, and those compiled for the same dimensions with other
/// meta-parameter values (the candidates of a search), in the order listed.
pub fn candidates(sig: &Signature, values: &BTreeMap<String, i64>) -> Vec<(String, BTreeMap<String, i64>)> {
    let matches = |fixed: &BTreeMap<String, i64>| fixed.iter().all(|(k, v)| values.get(k).is_none_or(|b| b == v));
    let dims_of = |fixed: &BTreeMap<String, i64>| -> BTreeMap<String, i64> {
        fixed.iter().filter(|(k, _)| !sig.meta.contains_key(*k)).map(|(k, v)| (k.clone(), *v)).collect()
    };
    let Some((_, first)) = sig.entries.iter().find(|(_, f)| matches(f)) else { return Vec::new() };
    let dims = dims_of(first);
    sig.entries
        .iter()
        .filter(|(_, f)| matches(f) && dims_of(f) == dims)
        .map(|(n, f)| (n.clone(), f.iter().filter(|(k, _)| sig.meta.contains_key(*k)).map(|(k, v)| (k.clone(), *v)).collect()))
        .collect()
}

/// The simulator's options for `chip` (its shared-memory limit) and the bounds the command line
/// gave.
pub fn sim_options(chip: &str, b: &SimBounds) -> Result<phobos_sim::Options, String> {
    let d = phobos_sim::Options::default();
    Ok(phobos_sim::Options {
        shared_limit: phobos_passes::target::chip(chip)?.shared_optin as u32,
        max_warp_insts: b.max_warp_insts.unwrap_or(d.max_warp_insts),
        max_launch_insts: b.max_launch_insts.unwrap_or(d.max_launch_insts),
        max_threads: b.max_threads.unwrap_or(d.max_threads),
        sms: b.sms.unwrap_or(d.sms),
        host_threads: b.threads.unwrap_or(d.host_threads),
        check_plain_races: b.check_races,
        ..d
    })
}

/// The `--arg NAME=VALUE` values, read: a tensor's VALUE is a `.npy` file; a scalar's a
/// literal of its type ([`crate::scalar::parse`]) or, ending in `.npy`, a file holding one value
/// (a 0-d array). A name that is no tensor or scalar of `params`, or given twice, is an error.
pub fn read_arrays(kernel: &str, params: &[AbiParam], args: &[(String, PathBuf)]) -> Result<BTreeMap<String, (Array, PathBuf)>, String> {
    let mut arrays = BTreeMap::new();
    for (name, path) in args {
        if arrays.contains_key(name) {
            return Err(format!("--arg {name} is given twice"));
        }
        let names: Vec<&str> = params
            .iter()
            .filter_map(|p| match p {
                AbiParam::Tensor { name, .. } | AbiParam::Scalar { name, .. } => Some(name.as_str()),
                AbiParam::Dim { .. } | AbiParam::Stride { .. } | AbiParam::TensorMap { .. } => None,
            })
            .collect();
        if !names.contains(&name.as_str()) {
            let what = if params.iter().any(|p| matches!(p, AbiParam::Scalar { .. })) { "tensor or scalar" } else { "tensor" };
            return Err(format!("{kernel} has no {what} named '{name}' (it has {})", names.join(", ")));
        }
        let scalar = params.iter().find_map(|p| match p {
            AbiParam::Scalar { name: n, ty } if n == name => Some(ty.as_str()),
            _ => None,
        });
        let text = path.to_string_lossy();
        let value = match scalar {
            Some(ty) if !text.ends_with(".npy") => {
                crate::scalar::parse(ty, &text).map_err(|e| format!("--arg {name}={text}: {e} ({name} is {ty})"))?
            }
            _ => npy::read(path)?,
        };
        arrays.insert(name.clone(), (value, path.clone()));
    }
    Ok(arrays)
}

/// Named arrays bound to a kernel's signature: the entry to run, the tensors in parameter order
/// and the dimensions' values.
#[derive(Clone, Debug)]
pub struct Bound {
    /// The entry the bound values pick (an `@autotune` specialization, or the kernel).
    pub entry: String,
    /// Every tensor, in parameter order.
    pub tensors: Vec<(String, Array)>,
    /// Every dimension's value.
    pub dims: BTreeMap<String, i64>,
    /// Every scalar parameter's value, a 0-d array of its type.
    pub scalars: BTreeMap<String, Array>,
}

/// Binds `arrays` and `defines` to `sig` and picks the entry.
pub fn prepare(sig: &Signature, arrays: &BTreeMap<String, (Array, PathBuf)>, defines: &BTreeMap<String, i64>) -> Result<Bound, String> {
    let (bound, dims) = bind(sig, arrays, defines)?;
    let entry = select_entry(sig, &dims)?;
    let (mut tensors, mut scalars) = (Vec::new(), BTreeMap::new());
    for (p, a) in sig.params.iter().zip(bound) {
        match (p, a) {
            (AbiParam::Tensor { name, .. }, Some(arr)) => tensors.push((name.clone(), arr)),
            (AbiParam::Scalar { name, .. }, Some(arr)) => {
                scalars.insert(name.clone(), arr);
            }
            _ => {}
        }
    }
    Ok(Bound { entry, tensors, dims, scalars })
}

impl Bound {
    /// Makes the tensors named in `views` Fortran-order views for `twin`, the entry's strided
    /// twin: their bytes in Fortran order, and every tensor's element strides among the
    /// dimensions' values (row-major for the others). [`Bound::launch`] then runs `twin`, and
    /// [`Bound::from_fortran_views`] puts the bytes back in C order.
    pub fn into_fortran_views(&mut self, twin: &str, sig: &Signature, views: &[String]) {
        for p in &sig.params {
            let AbiParam::Tensor { name, .. } = p else { continue };
            let Some((_, a)) = self.tensors.iter_mut().find(|(n, _)| n == name) else { continue };
            let fortran = views.contains(name);
            let n = a.shape.len();
            let strides: Vec<i64> = (0..n)
                .map(|d| if fortran { a.shape[..d].iter().product::<u64>() } else { a.shape[d + 1..].iter().product::<u64>() } as i64)
                .collect();
            if fortran {
                a.data = crate::npy::reorder(&a.data, &a.shape, a.dtype.bytes(), true);
            }
            for (d, s) in strides.iter().enumerate() {
                self.dims.insert(phobos_sim::stride_key(name, d as i64), *s);
            }
        }
        self.entry = twin.to_string();
    }

    /// The tensors of `views` after a launch of [`Bound::into_fortran_views`], back in C order.
    pub fn from_fortran_views(outputs: &mut [(String, Array)], views: &[String]) {
        for (_, a) in outputs.iter_mut().filter(|(n, _)| views.contains(n)) {
            a.data = crate::npy::reorder(&a.data, &a.shape, a.dtype.bytes(), false);
        }
    }

    /// Launches `kernel` (the entry, compiled) on `device` with the bound tensors and
    /// dimensions: each buffer parameter takes the next tensor, each scalar the value of the
    /// dimension it names, as its type (`i32`, `i64`, `f32`, `f64`). Returns every tensor after
    /// the run, in parameter order.
    pub fn launch(
        mut self,
        kernel: &Kernel,
        device: &Device,
        grid: [u32; 3],
        opts: &LaunchOptions,
    ) -> Result<(Vec<(String, Array)>, LaunchReport), Error> {
        let buffers = self.tensors.iter_mut().map(|(_, a)| Arg::Buffer(a.data.as_mut_slice()));
        let mut args = arguments(kernel, &self.dims, &self.scalars, buffers)?;
        // A fault drops the tensors: no copy of them is kept to restore.
        let opts = LaunchOptions { discard_on_fault: true, ..opts.clone() };
        let report = kernel.launch_with(device, grid, &mut args, &opts)?;
        drop(args);
        Ok((self.tensors, report))
    }
}

/// A launch's arguments in `kernel`'s parameter order: each buffer parameter takes the next of
/// `buffers` (the tensors in parameter order); a scalar parameter its value in `scalars` (a 0-d
/// array of its type), or else the value of the dimension it names, as its type (`i32`, `i64`,
/// `f32`, `f64`).
pub fn arguments<'a>(
    kernel: &Kernel,
    dims: &BTreeMap<String, i64>,
    scalars: &BTreeMap<String, Array>,
    buffers: impl Iterator<Item = Arg<'a>>,
) -> Result<Vec<Arg<'a>>, Error> {
    let mut buffers = buffers;
    let mut args = Vec::new();
    for (p, kind) in kernel.params.iter().zip(&kernel.args) {
        args.push(match p {
            crate::Param::Buffer { .. } => {
                buffers.next().ok_or_else(|| Error::Launch(format!("{} takes more tensors than the signature binds", kernel.name)))?
            }
            crate::Param::Scalar { name, .. } if scalars.contains_key(name) => {
                let (phobos_sim::ArgKind::Scalar { ty, .. }, a) = (kind, &scalars[name]) else {
                    return Err(Error::Launch(format!("{}: parameter {name} is not a scalar", kernel.name)));
                };
                let mut raw = [0u8; 8];
                let n = a.data.len().min(8);
                raw[..n].copy_from_slice(&a.data[..n]);
                Arg::from_bits(*ty, u64::from_le_bytes(raw))
            }
            crate::Param::Scalar { name, ty } => {
                let v = *dims.get(name).ok_or_else(|| Error::Launch(format!("{} takes {name}, which nothing binds", kernel.name)))?;
                match ty.as_str() {
                    "i32" => Arg::I32(v as i32),
                    "f32" => Arg::F32(v as f32),
                    "f64" => Arg::F64(v as f64),
                    _ => Arg::I64(v),
                }
            }
        });
    }
    Ok(args)
}

/// Checks that an array with these byte `strides` is row-major and contiguous, as a Phobos
/// tensor is (extents of 1 may have any stride, as NumPy and DLPack allow).
pub fn check_contiguous(name: &str, dtype: Dtype, shape: &[u64], strides: &[i64]) -> Result<(), String> {
    if strides.len() != shape.len() {
        return Err(format!("argument '{name}': {} strides for a shape of {} dimensions", strides.len(), shape.len()));
    }
    let mut want = dtype.bytes() as i64;
    for (extent, stride) in shape.iter().zip(strides).rev() {
        if *extent != 1 && *stride != want {
            let strides: Vec<String> = strides.iter().map(|s| s.to_string()).collect();
            return Err(format!(
                "argument '{name}' is not row-major and contiguous (shape {}, byte strides ({})); a Phobos tensor is: pass a contiguous copy",
                shape_text(shape),
                strides.join(", ")
            ));
        }
        want = want.saturating_mul(*extent as i64);
    }
    Ok(())
}
