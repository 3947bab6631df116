//! The autotuner's search: an `@autotune` kernel with meta-parameters (names that are no
//! dimension) has one entry per combination of their values for the same dimensions; a launch
//! runs each candidate once on copies of the arrays, keeps the best for those dimensions and
//! that device, and launches it. On the simulator the cost model is the launch's warp
//! instructions issued (deterministic: ties go to the first listed); on a GPU, the kernel's time
//! by CUDA events.

use super::{Error, LaunchOptions, Program, Ran};
use phobos_runtime::bind::{self, Bound};
use std::{collections::BTreeMap, path::PathBuf, sync::Mutex};

/// The choices made so far, by kernel, device and bound dimensions.
#[derive(Debug, Default)]
pub(crate) struct Tuned(Mutex<BTreeMap<String, String>>);

/// A grid for each candidate's values: its meta-parameters and every dimension, by name.
pub type GridFn<'a> = dyn Fn(&BTreeMap<String, i64>) -> Result<[u32; 3], Error> + 'a;

impl Program {
    /// [`Program::run`], with the grid a function of every dimension and meta-parameter (as
    /// Triton's `grid = lambda meta: ...`): for a kernel whose `@autotune` lists meta-parameters,
    /// the candidates are searched (once per kernel, device and dimensions; [`Ran::meta`] says
    /// which ran). A candidate that faults or is refused is passed over; when all are, the
    /// first one's error is returned.
    pub fn run_tuned(
        &self,
        kernel: &str,
        arrays: Vec<(String, phobos_runtime::npy::Array)>,
        dims: &BTreeMap<String, i64>,
        grid: &GridFn<'_>,
        device: &super::Device,
        opts: &LaunchOptions,
    ) -> Result<Ran, Error> {
        let sig = self
            .signature(kernel)
            .ok_or_else(|| Error::Launch(format!("no kernel named '{kernel}' (the program has: {})", self.kernel_names().join(", "))))?;
        let mut named = BTreeMap::new();
        for (name, a) in arrays {
            // The name stands where `phobos run` names the .npy file.
            let label = PathBuf::from(format!("argument '{name}'"));
            if named.insert(name.clone(), (a, label)).is_some() {
                return Err(Error::Launch(format!("argument '{name}' is given twice")));
            }
        }
        let mut bound = bind::prepare(sig, &named, dims).map_err(Error::Launch)?;
        let candidates = bind::candidates(sig, &bound.dims);
        let grid_of = |meta: &BTreeMap<String, i64>| -> Result<[u32; 3], Error> {
            let values = bound.dims.iter().chain(meta).map(|(k, v)| (k.clone(), *v)).collect();
            let g = grid(&values)?;
            self.launchable(kernel, g)?;
            Ok(g)
        };
        if candidates.len() > 1 {
            let key = format!("{kernel} {} {:?}", device.name(), bound.dims);
            let known = self.tuned.0.lock().map_err(|_| Error::Launch("the autotuner's record is poisoned".into()))?.get(&key).cloned();
            let chosen = match known {
                Some(c) => c,
                None => {
                    let best = self.search(&bound, &candidates, &grid_of, device, opts)?;
                    if let Ok(mut t) = self.tuned.0.lock() {
                        t.insert(key, best.clone());
                    }
                    best
                }
            };
            bound.entry = chosen;
        }
        let meta = candidates.iter().find(|(e, _)| *e == bound.entry).map(|(_, m)| m.clone()).unwrap_or_default();
        let g = grid_of(&meta)?;
        let entry = bound.entry.clone();
        let dims = bound.dims.clone();
        let compiled = self.entry(&entry).ok_or_else(|| Error::Launch(format!("entry {entry} was not compiled")))?;
        let (outputs, report) = bound.launch(compiled, device, g, opts)?;
        Ok(Ran { entry, outputs, dims, report, meta })
    }

    /// The best of `candidates`, each run once on copies of the arrays.
    fn search(
        &self,
        bound: &Bound,
        candidates: &[(String, BTreeMap<String, i64>)],
        grid_of: &dyn Fn(&BTreeMap<String, i64>) -> Result<[u32; 3], Error>,
        device: &super::Device,
        opts: &LaunchOptions,
    ) -> Result<String, Error> {
        let gpu = !matches!(device, super::Device::Simulator);
        let opts = if gpu { opts.clone().with_timing(1, 5) } else { opts.clone() };
        let mut best: Option<(f64, String)> = None;
        let mut first_error = None;
        for (entry, meta) in candidates {
            let run = || -> Result<f64, Error> {
                let compiled = self.entry(entry).ok_or_else(|| Error::Launch(format!("entry {entry} was not compiled")))?;
                let mut copy = bound.clone();
                copy.entry = entry.clone();
                let (_, report) = copy.launch(compiled, device, grid_of(meta)?, &opts)?;
                Ok(match (&report.stats, gpu) {
                    (Some(s), false) => s.warp_insts as f64,
                    _ => {
                        let mut t = report.kernel_ms.clone();
                        t.sort_by(f32::total_cmp);
                        t.get(t.len() / 2).map_or(report.ms, |m| *m as f64)
                    }
                })
            };
            match run() {
                Ok(cost) if best.as_ref().is_none_or(|(b, _)| cost < *b) => best = Some((cost, entry.clone())),
                Ok(_) => {}
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        match (best, first_error) {
            (Some((_, entry)), _) => Ok(entry),
            (None, Some(e)) => Err(e),
            (None, None) => Err(Error::Launch("the autotuner had no candidate".into())),
        }
    }
}
