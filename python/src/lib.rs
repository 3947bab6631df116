//! `phobos._phobos`: the native half of the `phobos` Python package, over the phobos API.
//!
//! It takes and returns plain values (strings, ints, bytes, lists); `phobos/__init__.py` turns
//! NumPy arrays into them and back, and this module's one exception, `NativeError(kind, json)`,
//! into `phobos.CompileError`, `phobos.Fault` or `phobos.LaunchError`. Compiles and launches
//! run with the GIL released.

use phobos::{Array, Device, Dtype, Error, LaunchOptions};
use pyo3::{exceptions::PyException, prelude::*, types::PyBytes};
use std::collections::BTreeMap;

pyo3::create_exception!(_phobos, NativeError, PyException, "An error of the native module: (kind, JSON details).");

/// The error as `NativeError(kind, details)`, `details` a JSON object of its fields.
fn raise(e: Error) -> PyErr {
    let (kind, details) = match &e {
        Error::Compile(d) => {
            let first = d.first_error().or(d.all().first());
            let mut v = located(first.and_then(|d| d.loc.as_ref()));
            v["message"] = first.map(|d| d.message.clone()).unwrap_or_else(|| d.to_string()).into();
            v["notes"] = first
                .map(|d| {
                    d.notes
                        .iter()
                        .map(|n| {
                            let mut o = located(n.loc.as_ref());
                            o["message"] = n.message.clone().into();
                            o
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
                .into();
            ("compile", v)
        }
        Error::Fault(f) => {
            let mut v = located(f.loc.as_ref());
            v["message"] = f.message.clone().into();
            v["kind"] = f.kind.name().into();
            v["kernel"] = f.kernel.clone().into();
            v["cta"] = f.cta.to_vec().into();
            v["thread"] = f.thread.map(|t| t.to_vec()).into();
            v["op"] = f.op.clone().into();
            ("fault", v)
        }
        Error::Cuda(phobos::CudaError::Fault(m)) => ("fault", serde_json::json!({ "message": m, "kind": "gpu fault" })),
        Error::Io(m) => ("io", serde_json::json!({ "message": m })),
        _ => ("launch", serde_json::json!({ "message": e.to_string() })),
    };
    let mut details = details;
    details["text"] = e.to_string().into();
    NativeError::new_err((kind, details.to_string()))
}

/// `{file, line, column}` of a location (nulls when there is none).
fn located(loc: Option<&phobos::SrcLoc>) -> serde_json::Value {
    match loc {
        Some(l) => serde_json::json!({ "file": l.file, "line": l.line, "column": l.col }),
        None => serde_json::json!({ "file": null, "line": null, "column": null }),
    }
}

fn launch_error(m: impl Into<String>) -> PyErr {
    raise(Error::Launch(m.into()))
}

/// A compiled `.phobos` source.
#[pyclass(frozen, module = "phobos._phobos")]
struct Program {
    inner: phobos::Program,
    chip: String,
    /// What compiled it, for the strided twins compiled when a strided GPU view first comes.
    source: (String, String, phobos::Options),
    strided: std::sync::OnceLock<phobos::Program>,
    /// The program compiled again for its IR, when `inner` came from the disk cache.
    full: std::sync::OnceLock<phobos::Program>,
}

/// Compiles `source` (named `filename` in diagnostics) for `chip`.
#[pyfunction]
#[pyo3(signature = (source, filename, chip, defines, fast_math, no_fma, exchange="auto", lineinfo=false))]
#[allow(clippy::too_many_arguments)]
fn compile(
    py: Python<'_>,
    source: String,
    filename: String,
    chip: String,
    defines: BTreeMap<String, i64>,
    fast_math: bool,
    no_fma: bool,
    exchange: &str,
    lineinfo: bool,
) -> PyResult<Program> {
    let exchange = phobos::Exchange::parse(exchange).map_err(pyo3::exceptions::PyValueError::new_err)?;
    let mut opts = phobos::Options::default()
        .with_chip(chip.clone())
        .with_fast_math(fast_math)
        .with_no_fma(no_fma)
        .with_exchange(exchange)
        .with_lineinfo(lineinfo);
    opts.defines = defines;
    // The disk cache serves a compile made before: no MLIR context, the IR compiled when asked.
    let inner = py.detach(|| phobos::Program::compile_cached(&source, &filename, &opts));
    Ok(Program {
        inner: inner.map_err(raise)?,
        chip,
        source: (source, filename, opts),
        strided: std::sync::OnceLock::new(),
        full: std::sync::OnceLock::new(),
    })
}

#[pymethods]
impl Program {
    /// The kernels' names, in source order.
    fn kernels(&self) -> Vec<String> {
        self.inner.kernel_names().into_iter().map(String::from).collect()
    }

    /// A kernel's parameters in launch order: `(kind, name, elem, dims)`, kind `tensor`,
    /// `scalar` (elem its type) or `dim` (elem and dims empty for a dim).
    fn params(&self, kernel: &str) -> PyResult<Vec<(String, String, String, Vec<String>)>> {
        let sig = self.inner.signature(kernel).ok_or_else(|| launch_error(format!("no kernel named '{kernel}'")))?;
        Ok(sig
            .params
            .iter()
            .map(|p| match p {
                phobos::program::AbiParam::Tensor { name, elem, dims } => ("tensor".into(), name.clone(), elem.clone(), dims.clone()),
                phobos::program::AbiParam::Dim { name } => ("dim".into(), name.clone(), String::new(), Vec::new()),
                phobos::program::AbiParam::Scalar { name, ty } => ("scalar".into(), name.clone(), ty.clone(), Vec::new()),
                phobos::program::AbiParam::Stride { tensor, dim } => {
                    ("stride".into(), tensor.clone(), String::new(), vec![dim.to_string()])
                }
                // Built at launch by the runtime; the package passes nothing for it.
                phobos::program::AbiParam::TensorMap { tensor, shape, .. } => {
                    ("tensor_map".into(), tensor.clone(), String::new(), shape.iter().map(|e| e.to_string()).collect())
                }
            })
            .collect())
    }

    /// The tensors `kernel` may write (in any of its entries), by name: a view of one of them
    /// must not overlap another argument, nor repeat elements.
    fn written(&self, kernel: &str) -> PyResult<Vec<String>> {
        let sig = self.inner.signature(kernel).ok_or_else(|| launch_error(format!("no kernel named '{kernel}'")))?;
        let mut out = Vec::new();
        for (entry, _) in &sig.entries {
            let Some(k) = self.inner.entry(entry) else { continue };
            for (i, p) in k.params.iter().enumerate() {
                if k.writes(i) != Some(false) && matches!(p, phobos::Param::Buffer { .. }) && !out.iter().any(|n| n == p.name()) {
                    out.push(p.name().to_string());
                }
            }
        }
        Ok(out)
    }

    /// The manifest: every entry, as `phobos compile --manifest` writes it (JSON).
    fn manifest(&self) -> String {
        serde_json::json!({ "entries": self.inner.entries }).to_string()
    }

    /// The PTX of every gpu.module, in order.
    fn ptx(&self) -> Vec<(String, String)> {
        self.inner.ir.ptx.clone()
    }

    /// The module's text at a stage (`l1`, `simt`, `llvm`; `ptx` is `ptx()`), or None.
    fn stage(&self, py: Python<'_>, name: &str) -> PyResult<Option<String>> {
        Ok(self.ir(py)?.stages.iter().find(|(s, _)| s.name() == name).map(|(_, t)| t.clone()))
    }

    /// The stages reached, in order.
    fn stages(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(self.ir(py)?.stages.iter().map(|(s, _)| s.name().to_string()).collect())
    }

    /// The IR after every pass: `(pass, stage, text)` in run order.
    fn passes(&self, py: Python<'_>) -> PyResult<Vec<(String, String, String)>> {
        Ok(self.ir(py)?.passes.iter().map(|p| (p.pass.clone(), p.stage.name().to_string(), p.ir.clone())).collect())
    }

    /// Whether the disk kernel cache served the compile (the IR is then compiled when asked).
    #[pyo3(name = "from_cache")]
    fn served_from_cache(&self) -> bool {
        self.inner.served_from_cache()
    }

    /// The compile's warnings and remarks, rendered.
    fn diagnostics(&self) -> Vec<String> {
        self.inner.diagnostics.iter().map(|d| d.render().trim_end().to_string()).collect()
    }

    /// The chip it was compiled for.
    #[getter]
    fn chip(&self) -> String {
        self.chip.clone()
    }

    /// Launches `kernel` on `device` (`sim`, `cuda` or `auto`) with host arrays given as
    /// `(name, dtype descr, shape, bytes)` and dimensions by name; returns the entry that ran,
    /// every tensor after the launch as `(name, bytes)`, the launch's counts, and the
    /// meta-parameters of the entry that ran. `grids`: the grid for each combination of the
    /// kernel's meta-parameters (a grid function's values), for the autotuner's search; `grid`
    /// otherwise.
    #[pyo3(signature = (kernel, arrays, scalars, dims, grid, device, sim, grids=Vec::new()))]
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn run<'py>(
        &self,
        py: Python<'py>,
        kernel: String,
        arrays: Vec<(String, String, Vec<u64>, Vec<u8>)>,
        scalars: Vec<(String, String)>,
        dims: BTreeMap<String, i64>,
        grid: (u32, u32, u32),
        device: &str,
        sim: BTreeMap<String, u64>,
        grids: Vec<(BTreeMap<String, i64>, (u32, u32, u32))>,
    ) -> PyResult<(String, Vec<(String, Bound<'py, PyBytes>)>, BTreeMap<String, f64>, BTreeMap<String, i64>)> {
        let mut named = self.scalars(&kernel, scalars)?;
        for (name, descr, shape, data) in arrays {
            let dtype = dtype_of(&name, &descr)?;
            named.push((name, Array { dtype, shape, data }));
        }
        let device = match device {
            "sim" => Device::Simulator,
            "cuda" => Device::cuda().map_err(raise)?,
            "auto" => Device::best(),
            d => return Err(launch_error(format!("device '{d}': expected sim, cuda or auto"))),
        };
        let mut sim_options = phobos::program::sim_options(&self.chip, &sim_bounds(&sim)?).map_err(launch_error)?;
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        sim_options.cancel = Some(cancel.clone());
        let opts = LaunchOptions::default().with_sim(sim_options);
        let grid = [grid.0, grid.1, grid.2];
        // A candidate's grid: the one given for its meta-parameters' values.
        let grid_of = |values: &BTreeMap<String, i64>| -> Result<[u32; 3], Error> {
            if grids.is_empty() {
                return Ok(grid);
            }
            grids
                .iter()
                .find(|(meta, _)| meta.iter().all(|(k, v)| values.get(k) == Some(v)))
                .map(|(_, g)| [g.0, g.1, g.2])
                .ok_or_else(|| Error::Launch(format!("the grid function gave no grid for {values:?}")))
        };
        let ran = interruptible(py, &cancel, || self.inner.run_tuned(&kernel, named, &dims, &grid_of, &device, &opts))?.map_err(raise)?;
        let outputs = ran.outputs.iter().map(|(n, a)| (n.clone(), PyBytes::new(py, &a.data))).collect();
        let mut report = BTreeMap::new();
        report.insert("ms".to_string(), ran.report.ms);
        if let Some(s) = &ran.report.stats {
            report.insert("ctas".into(), s.ctas as f64);
            report.insert("warp_instructions".into(), s.warp_insts as f64);
            report.insert("thread_instructions".into(), s.thread_insts as f64);
            report.insert("bank_conflicts".into(), s.bank_conflicts as f64);
            report.insert("mma".into(), s.mma as f64);
            report.insert("ldmatrix".into(), s.ldmatrix as f64);
            report.insert("wgmma".into(), s.wgmma as f64);
            report.insert("async_bytes".into(), s.async_bytes as f64);
        }
        Ok((ran.entry, outputs, report, ran.meta))
    }

    /// The `@autotune` meta-parameters of `kernel` and their values (names that are no
    /// dimension), for the grid function of each candidate.
    fn meta(&self, kernel: &str) -> PyResult<BTreeMap<String, Vec<i64>>> {
        let sig = self.inner.signature(kernel).ok_or_else(|| launch_error(format!("no kernel named '{kernel}'")))?;
        Ok(sig.meta.clone())
    }

    /// Launches `kernel` on the GPU with arrays of its memory given as `(name, dtype descr,
    /// shape, byte strides or None, address)`, as `__cuda_array_interface__` describes them, on
    /// `stream` (its handle) without waiting, or on Phobos's own stream, waiting.
    #[pyo3(signature = (kernel, arrays, scalars, dims, grid, stream))]
    fn run_cuda(
        &self,
        py: Python<'_>,
        kernel: String,
        arrays: Vec<(String, String, Vec<u64>, Option<Vec<i64>>, u64, bool)>,
        scalars: Vec<(String, String)>,
        dims: BTreeMap<String, i64>,
        grid: (u32, u32, u32),
        stream: Option<u64>,
    ) -> PyResult<(String, BTreeMap<String, f64>)> {
        let scalars = self.scalars(&kernel, scalars)?;
        let mut tensors = Vec::new();
        let mut views = false;
        for (name, descr, shape, strides, ptr, read_only) in arrays {
            let dtype = dtype_of(&name, &descr)?;
            shape
                .iter()
                .try_fold(dtype.bytes() as u64, |n, d| n.checked_mul(*d))
                .ok_or_else(|| launch_error(format!("argument '{name}': its shape overflows")))?;
            let row_major: Vec<i64> =
                (0..shape.len()).map(|d| shape[d + 1..].iter().product::<u64>() as i64 * dtype.bytes() as i64).collect();
            let strides = strides.unwrap_or(row_major);
            if phobos::program::check_contiguous(&name, dtype, &shape, &strides).is_err() {
                views = true;
            }
            let (lo, len) = phobos::program::view_span(&shape, &strides, dtype.bytes() as u64);
            // SAFETY: the address, shape and strides come from the array's
            // __cuda_array_interface__, which promises the device memory the view spans; the
            // caller keeps the array alive for the call, and the launch checks that the address
            // is memory of its GPU.
            let buf =
                unsafe { phobos::ForeignBuffer::new(ptr.wrapping_add_signed(lo), len as usize) }.with_first(lo.unsigned_abs() as usize);
            tensors.push((name, dtype, shape, Some(strides), if read_only { buf.read_only() } else { buf }));
        }
        // Views that are not row-major run a strided twin, compiled when the first one comes.
        let program = if views { self.strided_program(py)? } else { &self.inner };
        // SAFETY: the handle is the arrays' stream, as their interface gives it (alive while
        // they are in use).
        let stream = stream.map(|h| unsafe { phobos::ForeignStream::new(h) });
        let opts = match stream {
            Some(s) => LaunchOptions::default().with_stream(s),
            None => LaunchOptions::default(),
        };
        let grid = [grid.0, grid.1, grid.2];
        let ran = py.detach(|| program.run_foreign_views(&kernel, tensors, scalars, &dims, grid, None, &opts)).map_err(raise)?;
        Ok((ran.entry, BTreeMap::from([("ms".to_string(), ran.report.ms)])))
    }
}

impl Program {
    /// Every stage's IR: the program's own, or (served from the cache) compiled again, once.
    fn ir(&self, py: Python<'_>) -> PyResult<&phobos::Staged> {
        if !self.inner.served_from_cache() {
            return Ok(&self.inner.ir);
        }
        if let Some(p) = self.full.get() {
            return Ok(&p.ir);
        }
        let (source, filename, opts) = &self.source;
        let compiled = py.detach(|| phobos::Compiler::new()?.compile_program(source, filename, opts)).map_err(raise)?;
        Ok(&self.full.get_or_init(|| compiled).ir)
    }

    /// The program compiled again with strided twins (once; later calls reuse it).
    fn strided_program(&self, py: Python<'_>) -> PyResult<&phobos::Program> {
        if let Some(p) = self.strided.get() {
            return Ok(p);
        }
        let (source, filename, opts) = &self.source;
        let opts = opts.clone().with_strided(true);
        let compiled = py.detach(|| phobos::Compiler::new()?.compile_program(source, filename, &opts)).map_err(raise)?;
        Ok(self.strided.get_or_init(|| compiled))
    }

    /// Scalar arguments given as `(name, literal)` (Python's `repr` of an int or float, or
    /// `true`/`false`), each made a 0-d array of its parameter's type.
    fn scalars(&self, kernel: &str, given: Vec<(String, String)>) -> PyResult<Vec<(String, Array)>> {
        let sig = self.inner.signature(kernel).ok_or_else(|| launch_error(format!("no kernel named '{kernel}'")))?;
        given
            .into_iter()
            .map(|(name, text)| {
                let ty = sig
                    .params
                    .iter()
                    .find_map(|p| match p {
                        phobos::program::AbiParam::Scalar { name: n, ty } if *n == name => Some(ty.clone()),
                        _ => None,
                    })
                    .ok_or_else(|| launch_error(format!("{kernel} has no scalar parameter '{name}'")))?;
                let a = phobos::scalar::parse(&ty, &text).map_err(|e| launch_error(format!("argument '{name}' ({ty}): {e}")))?;
                Ok((name, a))
            })
            .collect()
    }
}

/// Runs `f` on another thread while this one (the main thread, for a Python caller) watches
/// for signals: Ctrl-C sets `cancel`, which stops a simulator launch at its warps' next time
/// slice, and raises `KeyboardInterrupt` once `f` has returned (nothing is written back).
fn interruptible<T: Send>(py: Python<'_>, cancel: &std::sync::atomic::AtomicBool, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    std::thread::scope(|s| {
        let worker = s.spawn(f);
        loop {
            if worker.is_finished() {
                return worker.join().map_err(|_| launch_error("the launch panicked".to_string()));
            }
            py.detach(|| std::thread::sleep(std::time::Duration::from_millis(20)));
            if let Err(interrupt) = py.check_signals() {
                cancel.store(true, std::sync::atomic::Ordering::Relaxed);
                let _ = py.detach(|| worker.join());
                return Err(interrupt);
            }
        }
    })
}

/// The simulator's bounds by `phobos run`'s flag names (a missing one: the default).
fn sim_bounds(sim: &BTreeMap<String, u64>) -> PyResult<phobos::program::SimBounds> {
    let known = ["max_warp_instructions", "max_launch_instructions", "max_sim_threads", "sim_sms", "sim_threads", "check_races"];
    if let Some(k) = sim.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(launch_error(format!("no simulator option '{k}' (the options are {})", known.join(", "))));
    }
    if let Some((k, _)) = sim.iter().find(|(k, v)| **v == 0 && *k != "check_races") {
        return Err(launch_error(format!("{k} = 0: a simulator bound is at least 1")));
    }
    let small = |k: &str| -> PyResult<Option<u32>> {
        sim.get(k)
            .map(|v| u32::try_from(*v).ok().filter(|v| *v <= 1024).ok_or_else(|| launch_error(format!("{k} = {v}: at most 1024"))))
            .transpose()
    };
    Ok(phobos::program::SimBounds {
        max_warp_insts: sim.get("max_warp_instructions").copied(),
        max_launch_insts: sim.get("max_launch_instructions").copied(),
        max_threads: sim.get("max_sim_threads").copied(),
        sms: small("sim_sms")?,
        threads: small("sim_threads")?.map(|t| t as usize),
        check_races: sim.get("check_races").is_some_and(|v| *v != 0),
    })
}

/// The usable GPU's chip (`sm_90`), or None.
#[pyfunction]
fn gpu_chip() -> Option<String> {
    match Device::cuda() {
        Ok(Device::Cuda(g)) => Some(g.chip.clone()),
        _ => None,
    }
}

/// The runtime's element type for a NumPy type string (`<f4`).
fn dtype_of(name: &str, descr: &str) -> PyResult<Dtype> {
    Dtype::from_descr(descr).map_err(|big| {
        launch_error(if big {
            format!("argument '{name}' is big-endian ({descr}); pass it as little-endian (arr.astype(arr.dtype.newbyteorder('<')))")
        } else {
            format!("argument '{name}' has dtype {descr}, which no Phobos tensor holds")
        })
    })
}

/// `phobos layout`'s answer for an expression: the lines it prints.
#[pyfunction]
#[pyo3(signature = (expr, table=false, coalesce=false, into=None, logical=None, draw=None))]
fn layout(expr: &str, table: bool, coalesce: bool, into: Option<&str>, logical: Option<Vec<i64>>, draw: Option<&str>) -> PyResult<String> {
    use phobos::layout::query::{answer, Format, Query};
    let into = match into {
        None => None,
        Some(s) => Some(
            phobos::layout::Space::parse(s)
                .ok_or_else(|| launch_error(format!("space '{s}': expected logical, thread-value or physical")))?,
        ),
    };
    let draw = match draw {
        None => None,
        Some("svg") => Some(Format::Svg),
        Some("text") => Some(Format::Text),
        Some(f) => return Err(launch_error(format!("draw format '{f}': expected svg or text"))),
    };
    if logical.as_ref().is_some_and(|l| l.iter().any(|v| *v <= 0)) {
        return Err(launch_error("logical: extents are positive"));
    }
    answer(expr, &Query { table, coalesce, into, logical, draw }).map_err(|m| raise(Error::Launch(m)))
}

/// `phobos explain`'s page (`html`) or text for `kernel` of `source`, run on the simulator
/// with the given arrays (others generated) and dimensions.
#[pyfunction]
#[pyo3(signature = (source, filename, kernel, arrays, dims, grid, cta, chip, html))]
fn explain(
    py: Python<'_>,
    source: String,
    filename: String,
    kernel: Option<String>,
    arrays: Vec<(String, String, Vec<u64>, Vec<u8>)>,
    dims: BTreeMap<String, i64>,
    grid: (u32, u32, u32),
    cta: (u32, u32, u32),
    chip: String,
    html: bool,
) -> PyResult<String> {
    let mut given = Vec::new();
    for (name, descr, shape, data) in arrays {
        let dtype = dtype_of(&name, &descr)?;
        given.push((name, Array { dtype, shape, data }));
    }
    let req = phobos_explain::Request {
        file: filename.into(),
        source: Some(source),
        arrays: given,
        kernel,
        grid: [grid.0, grid.1, grid.2],
        args: Vec::new(),
        defines: dims,
        cta: [cta.0, cta.1, cta.2],
        chip,
        sim: Default::default(),
    };
    let e = py.detach(|| phobos_explain::explain(&req)).map_err(|e| {
        use phobos_explain::RunError as R;
        let (kind, text) = match e {
            R::Fault(m) => ("fault", m),
            R::Compile { diagnostics, failure } => ("compile", diagnostics + &failure.unwrap_or_default()),
            R::Located(m) => ("compile", m),
            R::Usage(m) => ("launch", m),
        };
        NativeError::new_err((kind, serde_json::json!({ "message": text.trim_end(), "text": text.trim_end() }).to_string()))
    })?;
    Ok(if html { phobos_explain::render_html(&e) } else { phobos_explain::render_text(&e) })
}

/// The native module.
#[pymodule]
fn _phobos(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(compile, m)?)?;
    m.add_function(wrap_pyfunction!(layout, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(gpu_chip, m)?)?;
    m.add_class::<Program>()?;
    m.add("NativeError", m.py().get_type::<NativeError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
