//! `phobos explain`: a kernel stepped through as the compiler built it, one source statement
//! at a time, as text or as a self-contained HTML page.
//!
//! The facts come from the compiler itself and from one simulator run of the whole grid:
//! - the shared-memory plan: `tile-plan-shared-memory`'s remarks (name, offset, bytes), and the
//!   static globals as the simulator lays them out;
//! - barriers kept (the `phobos.barrier` reason on each `gpu.barrier` left at the SIMT level, or
//!   `barrier()` in the source) and elided (`elide-barriers`' remarks);
//! - registers and shuffles from the entry's PTX (`ptxas -v` when it is at hand);
//! - each software-pipelined loop's stages (`tile-pipeline`'s remark) and, per iteration of
//!   warp 0, the stages its copies wrote and its reads used ([`timeline`]);
//! - each tensor-core product's fragments (lane and register of each element of C, A and B)
//!   and its swizzled tiles' banks ([`fragment`]);
//! - what the picked CTA did, from the simulator's trace: threads and warp 0's lanes per
//!   statement, the bytes every access touched and the 128-byte lines it fetched, the lanes each
//!   shuffle read, bank conflicts, tile elements masked at a tensor's edge.
//!
//! Tensors come from `--arg` as in `phobos run`; a tensor without one is generated (seeded
//! pseudo-random values: floats in [-1, 1), integers in [-8, 8), bools) with the shape its
//! dimensions take from `-D`, the other arrays, or an `@autotune` list's first value.

pub mod facts;
pub mod fragment;
mod html;
mod text;
pub mod timeline;

use facts::{Barrier, Explanation, SharedBuffer, Summary, Tensor};
/// Why an explain stopped (the same as `phobos run`'s).
pub use phobos_compiler::front_door::RunError;
use phobos_compiler::{front_door, session::Session};
use phobos_frontend::{ast, AbiParam, Source};
use phobos_ir::diag::Diagnostic;
use phobos_passes::tile::plan_shared_memory::PlanEntry;
use phobos_runtime::{
    bind::{self as launch, Signature},
    npy::{self, Array, Dtype},
    Device, LaunchOptions,
};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A `phobos explain` request.
#[derive(Clone, Debug)]
pub struct Request {
    pub file: PathBuf,
    /// The source's text, when it is not read from `file` (an embedder's; `file` names it).
    pub source: Option<String>,
    /// Tensors given in memory, as `--arg` gives them from files.
    pub arrays: Vec<(String, Array)>,
    pub kernel: Option<String>,
    pub grid: [u32; 3],
    pub args: Vec<(String, PathBuf)>,
    pub defines: BTreeMap<String, i64>,
    pub cta: [u32; 3],
    pub chip: String,
    /// The simulator's bounds and size, as for `phobos run`.
    pub sim: launch::SimBounds,
}

/// Compiles, runs and explains `req`.
pub fn explain(req: &Request) -> Result<Explanation, RunError> {
    let filename = req.file.display().to_string();
    if !filename.ends_with(".phobos") {
        return Err(RunError::Usage(format!("{filename}: phobos explain steps through a .phobos source")));
    }
    let text = match &req.source {
        Some(t) => t.clone(),
        None => phobos_compiler::read_source(&req.file).map_err(RunError::Usage)?,
    };
    let src = Source::new(filename.clone(), text.clone());
    let file = match phobos_frontend::parse(&src) {
        Ok(f) => f,
        Err(d) => return Err(RunError::Compile { diagnostics: d.render(&src), failure: None }),
    };
    let kernels: Vec<&ast::Kernel> = file.items.iter().filter_map(|i| if let ast::Item::Kernel(k) = i { Some(k) } else { None }).collect();
    let names: Vec<&str> = kernels.iter().map(|k| k.name.name.as_str()).collect();
    let kernel = match &req.kernel {
        Some(n) => kernels
            .iter()
            .find(|k| &k.name.name == n)
            .ok_or_else(|| RunError::Usage(format!("no kernel named '{n}' (the file has: {})", names.join(", "))))?,
        None if kernels.len() == 1 => &kernels[0],
        None if kernels.is_empty() => return Err(RunError::Usage(format!("{filename}: the file has no kernel"))),
        None => return Err(RunError::Usage(format!("the file has several kernels; pick one with --kernel ({})", names.join(", ")))),
    };
    if req.cta.iter().zip(req.grid).any(|(c, g)| *c >= g) {
        return Err(RunError::Usage(format!("--cta {:?} is outside the grid {:?}", req.cta, req.grid)));
    }
    let params: Vec<AbiParam> = kernel
        .params
        .iter()
        .map(|p| match p.scalar {
            true => AbiParam::Scalar { name: p.name.name.clone(), ty: p.elem.name.clone() },
            false => {
                AbiParam::Tensor { name: p.name.name.clone(), elem: p.elem.name.clone(), dims: p.dims.iter().map(|d| d.name()).collect() }
            }
        })
        .collect();
    let mut arrays = launch::read_arrays(&kernel.name.name, &params, &req.args).map_err(RunError::Usage)?;
    for (name, a) in &req.arrays {
        if arrays.insert(name.clone(), (a.clone(), PathBuf::from(format!("argument '{name}'")))).is_some() {
            return Err(RunError::Usage(format!("tensor {name} is given twice")));
        }
    }
    // One specialization: an autotuned dimension takes -D, an array's shape, or its first value.
    let mut fixed = BTreeMap::new();
    for a in &kernel.attrs {
        if let ast::Attr::Autotune { dims, .. } = a {
            for (d, _) in dims {
                let from_array = dim_from_arrays(kernel, &d.name, &arrays);
                let v = match (req.defines.get(&d.name), from_array) {
                    (Some(v), _) => Some(*v),
                    (None, Some((v, path))) => {
                        if !autotune_values(a, &d.name).contains(&v) {
                            return Err(RunError::Usage(format!(
                                "{} = {v} from {} is not one of the values @autotune lists for {}: {}",
                                d.name,
                                path.display(),
                                d.name,
                                autotune_values(a, &d.name).iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
                            )));
                        }
                        Some(v)
                    }
                    (None, None) => autotune_values(a, &d.name).first().copied(),
                };
                if let Some(v) = v {
                    fixed.insert(d.name.clone(), v);
                }
            }
        }
    }
    let session = Session::new(true).map_err(|e| RunError::Usage(e.to_string()))?;
    let opts = phobos_frontend::Options {
        defines: fixed.clone(),
        kernel: Some(kernel.name.name.clone()),
        no_fma: false,
        fast_math: false,
        strided: false,
    };
    let front_door::Loaded { module, sig, remarks, warnings } =
        front_door::load_text(&session, &filename, &text, Some(&kernel.name.name), &req.chip, &opts)?;
    let mut defines = req.defines.clone();
    for (k, v) in fixed {
        defines.entry(k).or_insert(v);
    }
    generate_missing(&sig, &mut arrays, &defines)?;
    let sim_opts = launch::sim_options(&req.chip, &req.sim).map_err(RunError::Usage)?;
    let opts = LaunchOptions::default().with_sim(sim_opts).with_trace(req.cta);
    let run = front_door::execute(&session, &module, &sig, &arrays, &defines, req.grid, &Device::Simulator, &req.chip, &opts, &[])?;
    let trace = run.report.trace.as_ref().expect("a traced run has a trace");
    let sim = run.kernel.sim()?;
    let entry = run.kernel.name.clone();
    let tensors: Vec<Tensor> = run
        .outputs
        .iter()
        .map(|(name, a)| Tensor {
            name: name.clone(),
            dtype: a.dtype.numpy().into(),
            shape: a.shape.clone(),
            elem_bytes: a.dtype.bytes() as u64,
        })
        .collect();
    // Tensors are the kernel's first buffer arguments, in order: index them by argument.
    let by_arg = tensors_by_arg(sim, &tensors);
    let plan: Vec<SharedBuffer> = remarks
        .iter()
        .filter_map(|d| {
            PlanEntry::parse(&d.message).map(|p| SharedBuffer {
                name: p.name,
                offset: p.offset,
                bytes: p.bytes,
                is_static: false,
                what: format!("{} of {}", p.shape, p.elem),
                shape: p.shape.split('x').filter_map(|d| d.parse().ok()).collect(),
                line: line_in(d, &filename),
            })
        })
        .collect();
    let shared = facts::shared_of(sim, plan);
    let barriers = barriers_of(&module, &entry, &remarks, &filename)?;
    let (mut steps, spans) = facts::steps_of(&kernel.body, &src);
    let owner = facts::step_of_insts(sim, &src, &spans);
    facts::fill_steps(&mut steps, &owner, sim, trace, &by_arg, &shared);
    let pipelines = timeline::pipelines(&remarks, &filename, &shared, &steps, &owner, trace);
    let threads = run.kernel.block.iter().product::<u32>();
    let fragments = fragment::fragments(&remarks, &filename, threads);
    for s in &mut steps {
        s.readout = facts::readout(s, threads);
    }
    let ptx = front_door::simt_to_ptx(&session, &module, &entry, &req.chip)?;
    // The entry's own body: from its `.entry` to the next one.
    let body = ptx.find(&format!(".entry {entry}(")).map(|i| &ptx[i..]).unwrap_or(&ptx);
    let body = body[1..].find(".entry ").map(|j| &body[..j + 1]).unwrap_or(body);
    let stats =
        phobos_compiler::stats::collect(module.op(), phobos_compiler::compile::Stage::Ptx, &ptx, &req.chip, sim.dynamic_shared as u64);
    let stat = |k: &str| stats.iter().find(|(n, _)| n == k).and_then(|(_, v)| v.parse::<u64>().ok());
    let (bytes_moved, bytes_needed, bank_conflicts, masked) = facts::totals(sim, trace);
    let summary = Summary {
        shuffles: body.matches("shfl.sync").count() as u64,
        shuffles_run: trace
            .insts
            .iter()
            .zip(&sim.insts)
            .filter(|(_, i)| matches!(i, phobos_sim::program::Inst::Shfl { .. } | phobos_sim::program::Inst::GpuShfl { .. }))
            .map(|(t, _)| t.warp0_execs)
            .sum(),
        barriers_kept: barriers.iter().filter(|b| b.kept).count() as u64,
        barriers_elided: barriers.iter().filter(|b| !b.kept).count() as u64,
        shared_bytes: shared.static_bytes + shared.dynamic_bytes,
        registers: stat("registers"),
        bytes_moved,
        bytes_needed,
        bank_conflicts,
        ctas: run.report.stats.map(|s| s.ctas).unwrap_or(0),
        masked,
    };
    Ok(Explanation {
        file: filename,
        kernel: kernel.name.name.clone(),
        entry: entry.clone(),
        chip: req.chip.clone(),
        grid: req.grid,
        block: run.kernel.block,
        cta: req.cta,
        threads,
        source: text.lines().map(str::to_string).collect(),
        tensors,
        shared,
        barriers,
        steps,
        pipelines,
        fragments,
        summary,
        warnings,
    })
}

/// The text form.
pub fn render_text(e: &Explanation) -> String {
    text::render(e)
}

/// The page.
pub fn render_html(e: &Explanation) -> String {
    html::render(e)
}

/// The source line of a diagnostic in `file` (0 elsewhere).
fn line_in(d: &Diagnostic, file: &str) -> u32 {
    d.loc.as_ref().filter(|l| l.file == file).map(|l| l.line).unwrap_or(0)
}

/// The tensors indexed by kernel argument (`None` for scalars).
fn tensors_by_arg(k: &phobos_sim::Kernel, tensors: &[Tensor]) -> Vec<Tensor> {
    let mut it = tensors.iter();
    k.args
        .iter()
        .map(|a| match a {
            phobos_sim::ArgKind::Buffer { .. } => it.next().cloned(),
            phobos_sim::ArgKind::Scalar { .. } | phobos_sim::ArgKind::TensorMap { .. } => None,
        })
        .map(|t| t.unwrap_or(Tensor { name: String::new(), dtype: String::new(), shape: vec![], elem_bytes: 1 }))
        .collect()
}

/// Barriers kept (left in the entry's SIMT IR) and elided (the remarks), by source line.
fn barriers_of(
    module: &phobos_compiler::session::OwnedModule,
    entry: &str,
    remarks: &[Diagnostic],
    file: &str,
) -> Result<Vec<Barrier>, RunError> {
    let gm = front_door::gpu_module_of(module, entry)?;
    let mut out = Vec::new();
    for f in gm.find_all("gpu.func").into_iter().filter(|f| f.str_attr("sym_name").as_deref() == Some(entry)) {
        for b in f.find_all("gpu.barrier") {
            let reason = if b.attr("phobos.user").is_some() {
                "the source asks for it: barrier()".to_string()
            } else {
                b.str_attr("phobos.barrier")
                    .map(|r| r.trim_start_matches("kept: ").to_string())
                    .unwrap_or_else(|| "orders shared-memory accesses before and after it".into())
            };
            let line = b.loc().src().filter(|l| l.file == file).map(|l| l.line).unwrap_or(0);
            out.push(Barrier { line, kept: true, reason });
        }
    }
    for d in remarks {
        if let Some(why) = d.message.strip_prefix("barrier elided: ") {
            out.push(Barrier { line: line_in(d, file), kept: false, reason: why.to_string() });
        }
    }
    out.sort_by_key(|b| (b.line, !b.kept));
    Ok(out)
}

/// The value of dimension `dim` in the shape of a given array whose parameter names it, and
/// that array's file.
fn dim_from_arrays<'a>(k: &ast::Kernel, dim: &str, arrays: &'a BTreeMap<String, (Array, PathBuf)>) -> Option<(i64, &'a PathBuf)> {
    k.params.iter().find_map(|p| {
        let (a, path) = arrays.get(&p.name.name)?;
        let i = p.dims.iter().position(|d| matches!(d, ast::DimSpec::Name(n) if n.name == dim))?;
        a.shape.get(i).map(|v| (*v as i64, path))
    })
}

/// The values an `@autotune` lists for `dim`.
fn autotune_values(a: &ast::Attr, dim: &str) -> Vec<i64> {
    let ast::Attr::Autotune { dims, .. } = a else { return vec![] };
    let Some((_, vals)) = dims.iter().find(|(d, _)| d.name == dim) else { return vec![] };
    vals.iter().filter_map(|v| if let ast::ExprKind::Int(i) = v.kind { Some(i) } else { None }).collect()
}

/// Generates every tensor of `sig` that `arrays` lacks, with the shape its dimensions take, and
/// every scalar it lacks (1).
fn generate_missing(
    sig: &Signature,
    arrays: &mut BTreeMap<String, (Array, PathBuf)>,
    defines: &BTreeMap<String, i64>,
) -> Result<(), RunError> {
    // The arrays given, checked against their parameters and -D, as a launch checks them.
    let (_, dims) = launch::bound_dims(sig, arrays, defines, false).map_err(RunError::Usage)?;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for p in &sig.params {
        if let AbiParam::Scalar { name, ty } = p {
            // A scalar not given is 1 (true for a bool), as a tensor not given is random.
            if !arrays.contains_key(name) {
                let one = phobos_runtime::scalar::parse(ty, "1").map_err(RunError::Usage)?;
                arrays.insert(name.clone(), (one, PathBuf::from(format!("(generated {name})"))));
            }
        }
        let AbiParam::Tensor { name, elem, dims: ds } = p else { continue };
        if arrays.contains_key(name) {
            continue;
        }
        let mut shape = Vec::new();
        for d in ds {
            let v = match d.parse::<i64>() {
                Ok(v) => v,
                Err(_) => {
                    dims.get(d)
                        .ok_or_else(|| {
                            RunError::Usage(format!("tensor {name} needs dimension {d}: give -D {d}=VALUE or --arg {name}=FILE.npy"))
                        })?
                        .0
                }
            };
            if !(0..=1 << 26).contains(&v) {
                return Err(RunError::Usage(format!("{d} = {v}: a generated tensor's dimensions are 0 to 2^26")));
            }
            shape.push(v as u64);
        }
        let dtype = Dtype::from_phobos(elem).ok_or_else(|| RunError::Usage(format!("tensor {name} has element type {elem}")))?;
        let bytes = shape.iter().try_fold(dtype.bytes() as u64, |n, d| n.checked_mul(*d)).filter(|b| *b <= 1 << 30);
        if bytes.is_none() {
            return Err(RunError::Usage(format!(
                "tensor {name} of shape {} would take more than 1 GiB; give smaller -D values or an --arg array",
                npy::shape_text(&shape)
            )));
        }
        seed = seed.wrapping_add(0x632b_e59b_d9b4_e019);
        arrays.insert(name.clone(), (npy::random(dtype, shape, seed), PathBuf::from(format!("(generated {name})"))));
    }
    Ok(())
}
