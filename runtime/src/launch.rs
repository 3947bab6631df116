//! Launching a [`Kernel`]: the argument rules every device shares, synchronous launches with
//! host or device buffers, asynchronous launches on a [`Stream`], and the kernel loaded once per
//! GPU.

use crate::cuda::{self, Gpu};
use crate::{device::StreamOn, Arg, Device, DeviceBuffer, Error, Kernel, LaunchOptions, LaunchReport, Stream};
use std::sync::{Arc, Mutex};

/// The kernel loaded into each GPU context it has run on (the driver JIT-compiles its PTX once
/// per context).
#[derive(Default)]
pub(crate) struct LoadedCache(Mutex<Vec<(usize, Arc<cuda::Loaded>)>>);

impl std::fmt::Debug for LoadedCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.lock().map(|v| v.len()).unwrap_or(0);
        write!(f, "LoadedCache({n} contexts)")
    }
}

/// The byte length of a buffer argument.
fn buffer_len(a: &Arg) -> Option<usize> {
    match a {
        Arg::Buffer(b) => Some(b.len()),
        Arg::Device(d) => Some(d.len()),
        Arg::Foreign(f) => Some(f.len()),
        _ => None,
    }
}

impl Kernel {
    /// Checks `args` against the parameters, with the same rules for every device, so that a
    /// launch that runs on the simulator means the same on a GPU: the count; a buffer for a
    /// buffer, holding whole elements; for a scalar, the argument of exactly its type (`I32` for
    /// `i32`, `I64` for `i64` and `index`, `F32`, `Bool` for `i1`, ...): no conversion, on any
    /// device.
    pub fn check_args(&self, args: &[Arg]) -> Result<(), Error> {
        if args.len() != self.params.len() {
            return Err(Error::Launch(format!("{} takes {} arguments, got {}", self.name, self.params.len(), args.len())));
        }
        for (i, (kind, a)) in self.args.iter().filter(|k| k.given()).zip(args.iter()).enumerate() {
            let given = a.scalar_name().unwrap_or("a buffer");
            match (kind, a) {
                (phobos_sim::ArgKind::Buffer { name, .. }, Arg::Foreign(f)) if f.is_read_only() && self.writes(i) == Some(true) => {
                    return Err(Error::Launch(format!(
                        "argument {i} ({name}) of {}: the kernel writes it, but its array is read-only",
                        self.name
                    )));
                }
                (phobos_sim::ArgKind::Buffer { name, elem, .. }, Arg::Buffer(_) | Arg::Device(_) | Arg::Foreign(_)) => {
                    let len = buffer_len(a).expect("a buffer");
                    if !len.is_multiple_of(elem.bytes()) {
                        return Err(Error::Launch(format!(
                            "argument {i} ({name}) of {}: a buffer of {} holds whole {}-byte elements, got {} bytes",
                            self.name,
                            elem.name(),
                            elem.bytes(),
                            len
                        )));
                    }
                }
                (phobos_sim::ArgKind::Buffer { name, elem, .. }, _) => {
                    return Err(Error::Launch(format!(
                        "argument {i} ({name}) of {} is a buffer of {}, got {given}",
                        self.name,
                        elem.name()
                    )));
                }
                (phobos_sim::ArgKind::TensorMap { .. }, _) => unreachable!("tensor maps are not given"),
                (phobos_sim::ArgKind::Scalar { name, ty, .. }, _) => {
                    let want = Arg::from_bits(*ty, 0).scalar_name().expect("a scalar");
                    if want != given {
                        return Err(Error::Launch(format!(
                            "argument {i} ({name}) of {} is {}: pass {want}, got {given}",
                            self.name,
                            ty.name()
                        )));
                    }
                }
            }
        }
        self.check_lengths(args)
    }

    /// Every buffer holds at least the elements its dimensions say (`W: f32[N, K]` needs N·K),
    /// the dimensions being constants or the values of the scalar arguments that bind them.
    fn check_lengths(&self, args: &[Arg]) -> Result<(), Error> {
        let mut dims: std::collections::HashMap<&str, i64> = std::collections::HashMap::new();
        for (kind, a) in self.args.iter().zip(args.iter()) {
            if let (phobos_sim::ArgKind::Scalar { name, .. }, Arg::I32(v)) = (kind, a) {
                dims.insert(name, *v as i64);
            }
            if let (phobos_sim::ArgKind::Scalar { name, .. }, Arg::I64(v)) = (kind, a) {
                dims.insert(name, *v);
            }
        }
        for (i, (kind, a)) in self.args.iter().zip(args.iter()).enumerate() {
            let (phobos_sim::ArgKind::Buffer { name, elem, dims: names, .. }, Some(len)) = (kind, buffer_len(a)) else { continue };
            if names.is_empty() {
                continue;
            }
            let mut values = Vec::new();
            for d in names {
                match d.parse::<i64>().ok().or_else(|| dims.get(d.as_str()).copied()) {
                    Some(v) if v < 0 => {
                        return Err(Error::Launch(format!("argument {i} ({name}) of {}: dimension {d} is {v}", self.name)));
                    }
                    Some(v) => values.push(v),
                    None => return Ok(()), // bound by nothing the launch passes: not checkable
                }
            }
            let have = (len / elem.bytes().max(1)) as i64;
            // A strided twin's view: the elements its strides reach must be in the buffer.
            let strides: Option<Vec<i64>> =
                (0..names.len()).map(|d| dims.get(phobos_sim::stride_key(name, d as i64).as_str()).copied()).collect();
            if let Some(strides) = strides {
                if values.contains(&0) {
                    continue;
                }
                let first = match a {
                    Arg::Foreign(f) => (f.first() / elem.bytes().max(1)) as i128,
                    _ => 0,
                };
                let reach = |keep: fn(i128) -> bool| -> i128 {
                    values.iter().zip(&strides).map(|(n, s)| (*n as i128 - 1) * *s as i128).filter(|x| keep(*x)).sum::<i128>()
                };
                let (lo, hi) = (first + reach(|x| x < 0), first + reach(|x| x > 0));
                if lo < 0 || hi >= have as i128 {
                    let st: Vec<String> = strides.iter().map(|s| s.to_string()).collect();
                    return Err(Error::Launch(format!(
                        "argument {i} ({name}) of {}: the view's element strides ({}) reach elements {lo} to {hi}, but the buffer holds {have}",
                        self.name,
                        st.join(", ")
                    )));
                }
                continue;
            }
            let need = values.iter().try_fold(1i64, |a, v| a.checked_mul(*v)).unwrap_or(i64::MAX);
            if have < need {
                let shown: Vec<String> =
                    names.iter().zip(&values).map(|(n, v)| if n.parse::<i64>().is_ok() { n.clone() } else { format!("{n}={v}") }).collect();
                return Err(Error::Launch(format!(
                    "argument {i} ({name}) of {}: {name} is {}[{}], {need} elements, but the buffer holds {have}",
                    self.name,
                    elem.name(),
                    shown.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// The alignment parameter `i`'s address needs (16 bytes but in a strided twin).
    fn align(&self, i: usize) -> u32 {
        match self.args.get(i) {
            Some(phobos_sim::ArgKind::Buffer { align, .. }) => (*align).max(1),
            _ => 1,
        }
    }

    /// Device buffers must live on the launch's device, and none may be passed twice (the
    /// simulator cannot alias two parameters, so no device may); an asynchronous launch takes
    /// no host bytes. The same rules on every device.
    fn check_placement(&self, device: &Device, args: &[Arg], asynchronous: bool) -> Result<(), Error> {
        for (i, a) in args.iter().enumerate() {
            let name = self.params.get(i).map(|p| p.name().to_string()).unwrap_or_default();
            match a {
                Arg::Buffer(_) if asynchronous => {
                    return Err(Error::Launch(format!(
                        "argument {i} ({name}) of {}: an asynchronous launch takes device buffers (Arg::Device), not host bytes",
                        self.name
                    )));
                }
                Arg::Foreign(f) if f.address() % self.align(i) as u64 != 0 => {
                    return Err(Error::Launch(format!(
                        "argument {i} ({name}) of {}: address {:#x} is not {}-byte aligned, as a Phobos tensor is",
                        self.name,
                        f.address(),
                        self.align(i)
                    )));
                }
                Arg::Foreign(_) if !matches!(device, Device::Cuda(_)) => {
                    return Err(Error::Launch(format!(
                        "argument {i} ({name}) of {}: GPU memory of another library runs on a GPU only, not on the {}",
                        self.name,
                        device.name()
                    )));
                }
                Arg::Device(d) if !d.on(device) => {
                    return Err(Error::Launch(format!(
                        "argument {i} ({name}) of {}: the buffer lives on another device than {}",
                        self.name,
                        device.name()
                    )));
                }
                Arg::Device(d) => {
                    if let Some(j) = args[..i].iter().position(|b| matches!(b, Arg::Device(e) if std::ptr::eq(*e, *d))) {
                        return Err(Error::Launch(format!(
                            "argument {i} ({name}) of {}: the same device buffer is argument {j} too; pass distinct buffers",
                            self.name
                        )));
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Runs the kernel on `device` with `args` in parameter order and waits; host buffers are
    /// copied in and written back, device buffers stay on the device.
    pub fn launch(&self, device: &Device, grid: [u32; 3], args: &mut [Arg]) -> Result<LaunchReport, Error> {
        self.launch_with(device, grid, args, &LaunchOptions::default())
    }

    /// [`Kernel::launch`] with the simulator's options, a trace of one CTA, or GPU timing.
    pub fn launch_with(&self, device: &Device, grid: [u32; 3], args: &mut [Arg], opts: &LaunchOptions) -> Result<LaunchReport, Error> {
        self.check_args(args)?;
        check_extents(grid)?;
        let on_stream = opts.stream.filter(|_| matches!(device, Device::Cuda(_)));
        self.check_placement(device, args, on_stream.is_some())?;
        if grid.contains(&0) {
            // A grid with no CTA launches nothing, as CUDA's does (after every check).
            let stats = matches!(device, Device::Simulator).then(phobos_sim::Stats::default);
            return Ok(LaunchReport { stats, ..Default::default() });
        }
        self.check_cooperative(device, grid, opts)?;
        let t0 = std::time::Instant::now();
        let co = opts.cooperative;
        let mut report = match (device, on_stream) {
            (Device::Simulator, _) => self.run_sim(grid, args, opts)?,
            (Device::Cuda(gpu), Some(stream)) => {
                self.run_cuda(gpu, grid, args, CudaRun::EnqueueOn(stream), co)?;
                LaunchReport::default()
            }
            (Device::Cuda(gpu), None) => {
                LaunchReport { kernel_ms: self.run_cuda(gpu, grid, args, CudaRun::Wait(opts.timing), co)?, ..Default::default() }
            }
        };
        report.ms = t0.elapsed().as_secs_f64() * 1e3;
        Ok(report)
    }

    /// Enqueues the kernel on `stream` without waiting (on the simulator it runs now); every
    /// buffer must be a [`DeviceBuffer`] of the stream's device. Wait with
    /// [`Stream::synchronize`] or an [`Event`](crate::Event); read results with
    /// [`DeviceBuffer::read`].
    pub fn launch_async(&self, stream: &Stream, grid: [u32; 3], args: &mut [Arg]) -> Result<(), Error> {
        self.launch_async_with(stream, grid, args, &LaunchOptions::default())
    }

    /// [`Kernel::launch_async`] with options: the simulator's, and
    /// [`LaunchOptions::cooperative`] (timing and a foreign stream do not apply).
    pub fn launch_async_with(&self, stream: &Stream, grid: [u32; 3], args: &mut [Arg], opts: &LaunchOptions) -> Result<(), Error> {
        self.check_args(args)?;
        check_extents(grid)?;
        let device = stream.device();
        self.check_placement(&device, args, true)?;
        if grid.contains(&0) {
            return Ok(());
        }
        self.check_cooperative(&device, grid, opts)?;
        match &stream.0 {
            StreamOn::Sim => self.run_sim(grid, args, opts).map(|_| ()),
            StreamOn::Cuda(gpu) => self.run_cuda(gpu, grid, args, CudaRun::Enqueue, opts.cooperative).map(|_| ()),
        }
    }

    /// A cooperative launch's CTAs must all be resident at once: refused before it runs when
    /// they cannot be (on a GPU without cooperative launches too, where the launch would hang).
    fn check_cooperative(&self, device: &Device, grid: [u32; 3], opts: &LaunchOptions) -> Result<(), Error> {
        if !opts.cooperative {
            return Ok(());
        }
        let ctas: u64 = grid.iter().map(|g| *g as u64).product();
        let resident = self.resident_ctas(device, opts.sim.as_ref())?;
        if ctas > resident {
            return Err(Error::Launch(format!(
                "{}: a cooperative launch of {ctas} CTAs, but {} holds {resident} of them at once (the CTAs wait for each other)",
                self.name,
                device.name()
            )));
        }
        Ok(())
    }

    /// Runs on the simulator, in place over the device buffers and the host bytes. A host
    /// buffer is restored from a copy after a fault (unless the caller discards it): it changes
    /// only with a clean run.
    fn run_sim(&self, grid: [u32; 3], args: &mut [Arg], opts: &LaunchOptions) -> Result<LaunchReport, Error> {
        let devices = distinct_devices(args);
        let held: Vec<_> = devices.iter().map(|d| d.sim_bytes(self.writes_buffer(args, d)).expect("placement checked")).collect();
        // The device buffers first, each once (an argument given twice is one buffer), then the
        // host buffers in argument order.
        let mut hosts = 0;
        let values: Vec<phobos_sim::ArgValue> = args
            .iter()
            .map(|a| match a {
                Arg::Buffer(_) => {
                    hosts += 1;
                    Ok(phobos_sim::ArgValue::Buffer(devices.len() + hosts - 1))
                }
                Arg::Device(d) => Ok(phobos_sim::ArgValue::Buffer(devices.iter().position(|x| std::ptr::eq(*x, *d)).expect("listed"))),
                Arg::Foreign(_) => Err(Error::Launch("GPU memory of another library runs on a GPU only".into())),
                Arg::F16(v) => Ok(phobos_sim::ArgValue::Float(v.to_f64())),
                Arg::BF16(v) => Ok(phobos_sim::ArgValue::Float(v.to_f64())),
                Arg::F32(v) => Ok(phobos_sim::ArgValue::Float(*v as f64)),
                Arg::F64(v) => Ok(phobos_sim::ArgValue::Float(*v)),
                scalar => Ok(phobos_sim::ArgValue::Int(scalar.scalar_bits().expect("a scalar") as i64)),
            })
            .collect::<Result<_, _>>()?;
        let program = self.sim()?;
        let launch = phobos_sim::Launch { grid, block: self.block, args: values, dynamic_shared: self.dynamic_shared };
        let sim_opts = opts.sim.clone().unwrap_or_else(|| phobos_sim::Options {
            shared_limit: phobos_passes::target::chip(&self.chip).map(|c| c.shared_optin).unwrap_or(phobos_passes::target::SHARED_DEFAULT)
                as u32,
            ..Default::default()
        });
        let mut host: Vec<&mut [u8]> = args.iter_mut().filter_map(|a| if let Arg::Buffer(b) = a { Some(&mut **b) } else { None }).collect();
        let backup: Vec<Vec<u8>> = if opts.discard_on_fault { Vec::new() } else { host.iter().map(|b| b.to_vec()).collect() };
        let result = {
            let mut bufs: Vec<&[std::sync::atomic::AtomicU8]> = held.iter().map(|g| g.as_slice()).collect();
            bufs.extend(host.iter_mut().map(|b| phobos_sim::atomic_bytes(b)));
            match opts.trace {
                Some(cta) => phobos_sim::run_traced(program, &launch, &bufs, &sim_opts, cta).map(|(s, t)| (s, Some(t))),
                None => phobos_sim::run(program, &launch, &bufs, &sim_opts).map(|s| (s, None)),
            }
        }
        .map_err(Error::from);
        if result.is_err() {
            for (b, saved) in host.iter_mut().zip(backup) {
                b.copy_from_slice(&saved);
            }
        }
        result.map(|(stats, trace)| LaunchReport {
            thread_instructions: stats.thread_insts,
            stats: Some(stats),
            trace,
            ..Default::default()
        })
    }

    /// Runs on a GPU as `how` says; returns the kernel times it asked for, if any.
    fn run_cuda(&self, gpu: &Gpu, grid: [u32; 3], args: &mut [Arg], how: CudaRun, cooperative: bool) -> Result<Vec<f32>, Error> {
        let loaded = self.loaded_for(gpu)?;
        let shape = cuda::Shape { grid, block: self.block, cooperative };
        let devices = distinct_devices(args);
        let guards: Vec<_> = devices.iter().map(|d| d.cuda_slice(self.writes_buffer(args, d)).expect("placement checked")).collect();
        let held: Vec<(&DeviceBuffer, &cudarc::driver::safe::CudaSlice<u8>)> =
            devices.iter().copied().zip(guards.iter().map(|g| &**g)).collect();
        match how {
            CudaRun::Enqueue => gpu.launch_async(&loaded, shape, args, &held)?,
            CudaRun::EnqueueOn(stream) => gpu.launch_on(&loaded, shape, args, &held, stream)?,
            CudaRun::Wait(timing) => {
                gpu.run(&loaded, shape, args, &held)?;
                if let Some((warmup, reps)) = timing {
                    return Ok(gpu.time(&loaded, shape, args, &held, warmup, reps)?);
                }
            }
        }
        Ok(Vec::new())
    }

    /// CTAs of this kernel resident at once on `device`, all SMs together: the driver's
    /// occupancy on a GPU; on the simulator, its own rule (threads and shared memory per SM)
    /// times `sim`'s SMs (default 8). A kernel whose CTAs wait for each other needs its
    /// waiting CTAs resident.
    pub fn resident_ctas(&self, device: &Device, sim: Option<&phobos_sim::Options>) -> Result<u64, Error> {
        let threads: u32 = self.block.iter().product();
        match device {
            Device::Simulator => {
                let shared = self.sim()?.shared_bytes + self.dynamic_shared;
                let sms = sim.map_or(phobos_sim::DEFAULT_SMS, |o| o.sms).max(1);
                Ok(sms as u64 * phobos_sim::ctas_per_sm(threads, shared) as u64)
            }
            Device::Cuda(gpu) => Ok(self.loaded_for(gpu)?.occupancy(threads)? as u64 * gpu.sms() as u64),
        }
    }

    /// The kernel loaded into `gpu`'s context, or why it cannot be: it has no PTX.
    fn loaded_for(&self, gpu: &Gpu) -> Result<Arc<cuda::Loaded>, Error> {
        if self.ptx.is_empty() {
            return Err(Error::Launch(format!(
                "{} was compiled for the simulator only; compile it with PTX to launch on a GPU",
                self.name
            )));
        }
        self.loaded_on(gpu)
    }

    /// The kernel loaded into `gpu`'s context: JIT-compiled from its PTX on first use there.
    fn loaded_on(&self, gpu: &Gpu) -> Result<Arc<cuda::Loaded>, Error> {
        let mut cache = self.loaded.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, l)) = cache.iter().find(|(k, _)| *k == gpu.key()) {
            return Ok(l.clone());
        }
        let maps = crate::tensor_map::specs(&self.args).map_err(Error::Launch)?;
        let l = Arc::new(gpu.load(&self.ptx, &self.name, (&self.chip, self.dynamic_shared), maps)?);
        cache.push((gpu.key(), l.clone()));
        Ok(l)
    }
}

impl Kernel {
    /// Whether the kernel may write `buffer` through any argument that passes it (unknown, for a
    /// kernel made from PTX, counts as writing): its lock is then exclusive for the launch.
    fn writes_buffer(&self, args: &[Arg], buffer: &DeviceBuffer) -> bool {
        args.iter().enumerate().any(|(i, a)| matches!(a, Arg::Device(d) if std::ptr::eq(*d, buffer)) && self.writes(i) != Some(false))
    }
}

/// How a GPU launch runs.
enum CudaRun {
    /// Copy host buffers in, launch on the GPU's stream, wait, copy them back; with `(warm-up,
    /// reps)`, time that many more launches.
    Wait(Option<(usize, usize)>),
    /// Enqueue on the GPU's stream (device buffers only).
    Enqueue,
    /// Enqueue on another library's stream (device memory only).
    EnqueueOn(crate::ForeignStream),
}

/// The device buffers among `args`, each once, in address order: a launch locks them in this
/// order (shared or exclusive), so two launches sharing buffers take them in the same order
/// whatever their arguments' order, and cannot deadlock; a buffer given twice is locked once.
fn distinct_devices<'b>(args: &[Arg<'b>]) -> Vec<&'b DeviceBuffer> {
    let mut devices: Vec<&DeviceBuffer> = args.iter().filter_map(|a| if let Arg::Device(d) = a { Some(*d) } else { None }).collect();
    devices.sort_by_key(|d| *d as *const DeviceBuffer as usize);
    devices.dedup_by(|a, b| std::ptr::eq(*a, *b));
    devices
}

/// A grid's extents within CUDA's limits; an extent of 0 (a grid that launches nothing) is
/// allowed.
fn check_extents(grid: [u32; 3]) -> Result<(), Error> {
    phobos_sim::check_grid(grid.map(|g| g.max(1))).map_err(Error::Launch)
}
