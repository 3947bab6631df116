//! The CUDA backend: loads PTX with the driver's JIT, launches with the pinned ABI
//! (`docs/abi.md`), copies tensors in and out, and times kernels with CUDA events.
//!
//! `cudarc` loads `libcuda.so` lazily and panics when it is absent, so [`Gpu::open`] checks
//! [`driver_present`] first (and catches a panic anyway): no driver, no device, an unsupported
//! architecture, out of memory, a launch failure and a kernel fault are each a [`CudaError`].

use crate::{Arg, DeviceBuffer, ForeignBuffer, ForeignStream};
use cudarc::driver::{
    result::DriverError,
    safe::{CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr},
    sys::{self, CUdevice_attribute, CUfunction_attribute_enum, CUresult},
};
use std::{
    ffi::{c_void, CString},
    sync::{Arc, Mutex},
};

/// The error of a CUDA event's wait or timing.
pub fn event_error(e: DriverError, what: &str) -> CudaError {
    classify(e, what)
}

/// Why the CUDA backend cannot do what was asked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CudaError {
    #[error("no CUDA driver (libcuda.so) on this machine")]
    /// `libcuda.so` cannot be loaded.
    NoDriver,
    #[error("the CUDA driver reports no device")]
    /// The driver loaded but sees no GPU.
    NoDevice,
    #[error("the CUDA driver did not initialize: {0}")]
    /// `cuInit` or the context failed.
    Init(String),
    #[error("the kernel is compiled for {chip}, newer than this GPU ({device}); compile with --chip {device}")]
    /// PTX for a newer chip than the GPU.
    UnsupportedArch {
        /// The chip the PTX targets.
        chip: String,
        /// The GPU's chip.
        device: String,
    },
    #[error("out of GPU memory: {0}")]
    /// An allocation failed.
    OutOfMemory(String),
    #[error("the driver rejected the PTX: {0}")]
    /// `cuModuleLoadData` rejected the PTX.
    Load(String),
    #[error("the launch failed: {0}")]
    /// The launch itself failed (bad configuration, resources).
    Launch(String),
    #[error("the kernel faulted on the GPU: {0}")]
    /// The kernel faulted (illegal address, trap, timeout).
    Fault(String),
}

/// Whether `libcuda.so` can be loaded.
pub fn driver_present() -> bool {
    // SAFETY: only probes for the library with dlopen.
    unsafe { sys::is_culib_present() }
}

/// Whether a CUDA device can be used.
pub fn usable() -> bool {
    device_count().map(|n| n > 0).unwrap_or(false)
}

/// The number of CUDA devices, or why it is unknown.
pub fn device_count() -> Result<i32, CudaError> {
    if !driver_present() {
        return Err(CudaError::NoDriver);
    }
    cudarc::driver::result::init().map_err(|e| CudaError::Init(e.to_string()))?;
    cudarc::driver::result::device::get_count().map_err(|e| CudaError::Init(e.to_string()))
}

/// The CUDA error a driver error is, from the operation that gave it.
fn classify(e: DriverError, what: &str) -> CudaError {
    use CUresult::*;
    let msg = format!("{what}: {e}");
    match e.0 {
        CUDA_ERROR_OUT_OF_MEMORY => CudaError::OutOfMemory(msg),
        CUDA_ERROR_ILLEGAL_ADDRESS
        | CUDA_ERROR_MISALIGNED_ADDRESS
        | CUDA_ERROR_ILLEGAL_INSTRUCTION
        | CUDA_ERROR_HARDWARE_STACK_ERROR
        | CUDA_ERROR_INVALID_ADDRESS_SPACE
        | CUDA_ERROR_INVALID_PC
        | CUDA_ERROR_ASSERT
        | CUDA_ERROR_LAUNCH_FAILED
        | CUDA_ERROR_LAUNCH_TIMEOUT => CudaError::Fault(msg),
        CUDA_ERROR_INVALID_PTX | CUDA_ERROR_UNSUPPORTED_PTX_VERSION | CUDA_ERROR_NO_BINARY_FOR_GPU | CUDA_ERROR_INVALID_IMAGE => {
            CudaError::Load(msg)
        }
        _ => CudaError::Launch(msg),
    }
}

/// The device slices a launch's [`Arg::Device`] arguments stand for, locked for the launch.
pub type Held<'h> = [(&'h DeviceBuffer, &'h CudaSlice<u8>)];

/// A kernel loaded into the GPU's context.
pub struct Loaded {
    function: CudaFunction,
    _module: Arc<CudaModule>,
    gpu: Gpu,
    /// Bytes of dynamic shared memory each launch reserves.
    pub dynamic_shared: u32,
    /// The TMA tensor maps each launch builds, after the given parameters.
    maps: Vec<crate::tensor_map::MapSpec>,
}

impl Loaded {
    /// CTAs of `threads` threads resident at once on one SM, by the driver's occupancy rule
    /// (registers, shared memory, threads).
    pub fn occupancy(&self, threads: u32) -> Result<u32, CudaError> {
        let _bound = self.gpu.bind()?;
        self.function
            .occupancy_max_active_blocks_per_multiprocessor(threads, self.dynamic_shared as usize, None)
            .map_err(|e| classify(e, "cuOccupancyMaxActiveBlocksPerMultiprocessor"))
    }
}

/// One GPU: its context and a stream (a clone shares both; [`Gpu::with_new_stream`] makes one
/// with a stream of its own).
#[derive(Clone)]
pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// 16 bytes of device memory, made at the first launch with an empty tensor at address 0:
    /// that tensor's address instead, since a masked read (`X[i] else v`) reads index 0 of it.
    scratch: Arc<std::sync::OnceLock<CudaSlice<u8>>>,
    /// The TMA tensor maps launches passed, in device memory, by their bytes: a launch on any
    /// stream may still read one, so they live as long as the GPU (128 bytes per distinct map).
    tensor_maps: Arc<std::sync::Mutex<std::collections::HashMap<[u64; 16], CudaSlice<u8>>>>,
    /// `sm_86` for compute capability 8.6; `sm_90a` for 9.0 (wgmma).
    pub chip: String,
    /// The device's name, e.g. `NVIDIA H200`.
    pub name: String,
}

/// The number in `sm_90` / `sm_90a`.
fn chip_number(chip: &str) -> Option<u32> {
    chip.trim_start_matches("sm_").trim_end_matches('a').parse().ok()
}

/// The primary context of each device this process opened, kept for the process's life: a
/// context costs 0.2-0.5 s to create, and dropping the last handle would destroy it.
static CONTEXTS: Mutex<Vec<(usize, Arc<CudaContext>)>> = Mutex::new(Vec::new());

/// The context current on the calling thread before a [`Gpu`] method bound its own; put back
/// when the method returns, so that a caller's current device (PyTorch's, say) is unchanged.
#[must_use]
struct Bound(Option<sys::CUcontext>);

impl Drop for Bound {
    fn drop(&mut self) {
        if let Some(previous) = self.0 {
            // SAFETY: `previous` was current on this thread when the method began (or null, for
            // none), and a context another library made current outlives its use on the thread.
            let _ = unsafe { cudarc::driver::result::ctx::set_current(previous) };
        }
    }
}

/// The ordinal of the GPU whose memory `ptr` is (unified addressing), or why it is not known.
pub fn device_of(ptr: u64) -> Result<usize, CudaError> {
    device_count()?;
    let query = || {
        let mut ordinal: i32 = -1;
        // SAFETY: the attribute is an `int`, written into `ordinal`; the driver checks the
        // address itself and reports an error for one it does not know.
        let r = unsafe {
            sys::cuPointerGetAttribute(
                &mut ordinal as *mut i32 as *mut c_void,
                sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                ptr,
            )
        };
        (r, ordinal)
    };
    let (mut r, mut ordinal) = query();
    if r == CUresult::CUDA_ERROR_INVALID_CONTEXT {
        // Some drivers answer only with a context current: bind device 0's for the query.
        let g = Gpu::open()?;
        let _bound = g.bind()?;
        (r, ordinal) = query();
    }
    if r != CUresult::CUDA_SUCCESS || ordinal < 0 {
        return Err(CudaError::Launch(format!("address {ptr:#x} is not GPU memory the CUDA driver knows ({r:?})")));
    }
    Ok(ordinal as usize)
}

impl Gpu {
    /// Opens device 0.
    pub fn open() -> Result<Gpu, CudaError> {
        Gpu::open_ordinal(0)
    }

    /// Opens device `ordinal` (its primary context, shared with the CUDA runtime's, so PyTorch's
    /// and CuPy's memory on it is this context's memory), on the legacy default stream.
    pub fn open_ordinal(ordinal: usize) -> Result<Gpu, CudaError> {
        let count = device_count()?;
        if count == 0 {
            return Err(CudaError::NoDevice);
        }
        if ordinal >= count as usize {
            return Err(CudaError::Init(format!("no GPU {ordinal}: the driver reports {count}")));
        }
        // Creating a context makes it current: the caller's comes back when this returns.
        let previous = cudarc::driver::result::ctx::get_current().map_err(|e| CudaError::Init(e.to_string()))?;
        let _restore = Bound(Some(previous.unwrap_or(std::ptr::null_mut())));
        let ctx = {
            let mut contexts = CONTEXTS.lock().unwrap_or_else(|e| e.into_inner());
            match contexts.iter().find(|(o, _)| *o == ordinal) {
                Some((_, c)) => c.clone(),
                None => {
                    let ctx = std::panic::catch_unwind(|| CudaContext::new(ordinal))
                        .map_err(|_| CudaError::Init("the driver panicked while creating a context".into()))?
                        .map_err(|e| CudaError::Init(e.to_string()))?;
                    // Plain launches and copies: no per-slice event tracking, so timings are the
                    // kernel's; the runtime orders its streams itself (synchronizing the context
                    // where work of two streams meets: see `Gpu::run`, `alloc` and buffer drops).
                    // SAFETY: no cudarc slice of this context exists yet.
                    unsafe { ctx.disable_event_tracking() };
                    contexts.push((ordinal, ctx.clone()));
                    ctx
                }
            }
        };
        let (major, minor) = ctx.compute_capability().map_err(|e| CudaError::Init(e.to_string()))?;
        let name = ctx.name().unwrap_or_else(|_| "CUDA device".into());
        let stream = ctx.default_stream();
        // 9.0 (H100, H200) compiles for sm_90a, its arch-specific features (wgmma) on: that PTX
        // runs on 9.0 devices only, and this is one.
        let arch = if (major, minor) == (9, 0) { "a" } else { "" };
        Ok(Gpu {
            ctx,
            stream,
            scratch: Default::default(),
            tensor_maps: Default::default(),
            chip: format!("sm_{major}{minor}{arch}"),
            name,
        })
    }

    /// The device's ordinal.
    pub fn ordinal(&self) -> usize {
        self.ctx.ordinal()
    }

    /// Makes this GPU's context current on the calling thread until the guard drops, which puts
    /// the caller's back. Every method that calls the driver begins with it: a worker thread
    /// launching a kernel loaded elsewhere has no context, or another GPU's.
    fn bind(&self) -> Result<Bound, CudaError> {
        let previous = cudarc::driver::result::ctx::get_current().map_err(|e| classify(e, "cuCtxGetCurrent"))?;
        self.ctx.bind_to_thread().map_err(|e| classify(e, "binding the GPU's context"))?;
        let mine = self.ctx.cu_ctx();
        Ok(Bound(match previous {
            Some(p) if p == mine => None,
            Some(p) => Some(p),
            None => Some(std::ptr::null_mut()),
        }))
    }

    /// The same GPU with a new stream of its own, for asynchronous launches.
    pub fn with_new_stream(&self) -> Result<Gpu, CudaError> {
        let _bound = self.bind()?;
        let stream = self.ctx.new_stream().map_err(|e| classify(e, "cuStreamCreate"))?;
        Ok(Gpu { stream, ..self.clone() })
    }

    /// A key telling GPUs apart: equal for every `Gpu` of one CUDA context.
    pub fn key(&self) -> usize {
        self.ctx.cu_ctx() as usize
    }

    /// Whether `slice` was allocated in this GPU's context.
    pub fn owns(&self, slice: &CudaSlice<u8>) -> bool {
        slice.context().cu_ctx() == self.ctx.cu_ctx()
    }

    /// `bytes` zeroed bytes on the GPU (at least one, so that an empty buffer has an address),
    /// zeroed before it returns: a launch on another stream may use it at once.
    pub fn alloc(&self, bytes: usize) -> Result<CudaSlice<u8>, CudaError> {
        let _bound = self.bind()?;
        let what = || format!("allocating {bytes} bytes");
        let slice = self.stream.alloc_zeros(bytes.max(1)).map_err(|e| classify(e, &what()))?;
        self.stream.synchronize().map_err(|e| classify(e, &what()))?;
        Ok(slice)
    }

    /// Frees `slice` once every stream's work is done: a launch queued on another stream may
    /// still use it, and the free is queued on the stream it was allocated on.
    pub fn free(&self, slice: CudaSlice<u8>) {
        let Ok(_bound) = self.bind() else { return };
        let _ = self.ctx.synchronize();
        drop(slice);
    }

    /// Copies `host` into the first bytes of `dst`, after every stream's work, then waits.
    pub fn write(&self, host: &[u8], dst: &mut CudaSlice<u8>) -> Result<(), CudaError> {
        let _bound = self.bind()?;
        if !host.is_empty() {
            self.ctx.synchronize().map_err(|e| classify(e, "waiting for the GPU"))?;
            self.stream.memcpy_htod(host, dst).map_err(|e| classify(e, "copying to the GPU"))?;
        }
        self.stream.synchronize().map_err(|e| classify(e, "copying to the GPU"))
    }

    /// Copies the first `host.len()` bytes of `src` into `host`, after every stream's work.
    pub fn read(&self, src: &CudaSlice<u8>, host: &mut [u8]) -> Result<(), CudaError> {
        let _bound = self.bind()?;
        self.ctx.synchronize().map_err(|e| classify(e, "waiting for the GPU"))?;
        if !host.is_empty() {
            let view = src.slice(..host.len());
            self.stream.memcpy_dtoh(&view, host).map_err(|e| classify(e, "copying from the GPU"))?;
        }
        self.stream.synchronize().map_err(|e| classify(e, "copying from the GPU"))
    }

    /// Launches on this GPU's stream without waiting: every buffer must already be on the GPU.
    pub fn launch_async(&self, k: &Loaded, shape: Shape, args: &[Arg], held: &Held) -> Result<(), CudaError> {
        let _bound = self.bind()?;
        self.launch(k, shape, args, held, &[], self.stream.cu_stream())
    }

    /// Enqueues a launch on another library's stream (no host buffers), without waiting.
    pub fn launch_on(&self, k: &Loaded, shape: Shape, args: &[Arg], held: &Held, stream: ForeignStream) -> Result<(), CudaError> {
        let _bound = self.bind()?;
        // CUDA's handles: 0 and 1 the legacy default stream, 2 the per-thread one.
        let handle = if stream.handle() == 0 { 1 } else { stream.handle() };
        self.launch(k, shape, args, held, &[], handle as usize as sys::CUstream)
    }

    /// Checks that another library's buffer is memory of this GPU.
    fn check_foreign(&self, f: &ForeignBuffer) -> Result<(), CudaError> {
        let ordinal = device_of(f.ptr())?;
        if ordinal != self.ctx.ordinal() {
            return Err(CudaError::Launch(format!(
                "address {:#x} is memory of GPU {ordinal}, but the launch runs on GPU {}",
                f.ptr(),
                self.ctx.ordinal()
            )));
        }
        Ok(())
    }

    /// An event recorded on this GPU's stream now.
    pub fn record(&self) -> Result<cudarc::driver::safe::CudaEvent, CudaError> {
        let _bound = self.bind()?;
        let e = self.ctx.new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT)).map_err(|e| classify(e, "cuEventCreate"))?;
        e.record(&self.stream).map_err(|e| classify(e, "cuEventRecord"))?;
        Ok(e)
    }

    /// Waits for everything queued on this GPU's stream.
    pub fn synchronize(&self) -> Result<(), CudaError> {
        let _bound = self.bind()?;
        self.stream.synchronize().map_err(|e| classify(e, "the stream"))
    }

    /// The GPU's streaming multiprocessors (1 when the driver does not say).
    pub fn sms(&self) -> u32 {
        self.ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).map(|v| v.max(1) as u32).unwrap_or(1)
    }

    /// Whether the GPU can launch a grid whose CTAs must all be resident at once
    /// (`cuLaunchCooperativeKernel`).
    pub fn cooperative(&self) -> bool {
        self.ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH).map(|v| v != 0).unwrap_or(false)
    }

    /// The GPU's memory bandwidth in bytes/s from its clock and bus width (the data sheet's peak).
    pub fn peak_bandwidth(&self) -> Option<f64> {
        let clock_khz = self.ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE).ok()? as f64;
        let bus_bits = self.ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH).ok()? as f64;
        Some(2.0 * clock_khz * 1e3 * bus_bits / 8.0)
    }

    /// Loads `entry` from `ptx` (compiled for `chip`), opting in to more than 48 KiB of shared
    /// memory when its static and dynamic shared memory together need it. A PTX the driver
    /// rejects comes back with the JIT's log.
    pub(crate) fn load(
        &self,
        ptx: &str,
        entry: &str,
        (chip, dynamic_shared): (&str, u32),
        maps: Vec<crate::tensor_map::MapSpec>,
    ) -> Result<Loaded, CudaError> {
        if let (Some(want), Some(have)) = (chip_number(chip), chip_number(&self.chip)) {
            if want > have {
                return Err(CudaError::UnsupportedArch { chip: chip.into(), device: self.chip.clone() });
            }
        }
        let _bound = self.bind()?;
        let module = match self.ctx.load_module(cudarc::nvrtc::Ptx::from_src(ptx)) {
            Ok(m) => m,
            Err(e) => {
                let log = jit_log(ptx);
                let err = classify(e, "cuModuleLoadData");
                return Err(if log.is_empty() { err } else { CudaError::Load(format!("{err}\n{log}")) });
            }
        };
        let function = module.load_function(entry).map_err(|e| classify(e, &format!("cuModuleGetFunction({entry})")))?;
        let static_shared = function
            .get_attribute(CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
            .map_err(|e| classify(e, "cuFuncGetAttribute(SHARED_SIZE_BYTES)"))?;
        if let Some(bytes) = shared_opt_in(static_shared.max(0) as u32, dynamic_shared) {
            function
                .set_attribute(CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes as i32)
                .map_err(|e| classify(e, &format!("{static_shared} bytes of static and {dynamic_shared} of dynamic shared memory")))?;
        }
        Ok(Loaded { function, _module: module, gpu: self.clone(), dynamic_shared, maps })
    }

    /// Copies the buffers in, launches once, waits, and copies every buffer back. Ordered after
    /// every stream's work (a launch on a [`Gpu::with_new_stream`] stream may share a buffer).
    pub fn run(&self, k: &Loaded, shape: Shape, args: &mut [Arg], held: &Held) -> Result<(), CudaError> {
        let _bound = self.bind()?;
        self.ctx.synchronize().map_err(|e| classify(e, "waiting for the GPU"))?;
        let device = self.upload(args)?;
        self.launch(k, shape, args, held, &device, self.stream.cu_stream())?;
        self.stream.synchronize().map_err(|e| classify(e, "the kernel"))?;
        let mut slices = device.iter();
        for a in args.iter_mut() {
            if let Arg::Buffer(host) = a {
                let d = slices.next().expect("one slice per buffer");
                // An empty tensor has a one-byte slice (for an address) and nothing to copy.
                if !host.is_empty() {
                    self.stream.memcpy_dtoh(d, &mut **host).map_err(|e| classify(e, "copying a tensor back"))?;
                }
            }
        }
        self.stream.synchronize().map_err(|e| classify(e, "copying tensors back"))
    }

    /// Kernel times in milliseconds by CUDA events: `warmup` launches, then `reps` timed ones
    /// (the buffers stay on the device).
    pub fn time(&self, k: &Loaded, shape: Shape, args: &[Arg], held: &Held, warmup: usize, reps: usize) -> Result<Vec<f32>, CudaError> {
        let _bound = self.bind()?;
        self.ctx.synchronize().map_err(|e| classify(e, "waiting for the GPU"))?;
        let device = self.upload(args)?;
        for _ in 0..warmup {
            self.launch(k, shape, args, held, &device, self.stream.cu_stream())?;
        }
        self.timed(reps, || self.launch(k, shape, args, held, &device, self.stream.cu_stream()))
    }

    /// Device-to-device copy times of `bytes` bytes in milliseconds: the speed of light for a
    /// kernel that moves as many bytes (it reads and writes each byte once).
    pub fn copy_time(&self, bytes: usize, reps: usize) -> Result<Vec<f32>, CudaError> {
        let _bound = self.bind()?;
        let src: CudaSlice<u8> = self.stream.alloc_zeros(bytes.max(1)).map_err(|e| classify(e, "allocating"))?;
        let mut dst: CudaSlice<u8> = self.stream.alloc_zeros(bytes.max(1)).map_err(|e| classify(e, "allocating"))?;
        self.stream.memcpy_dtod(&src, &mut dst).map_err(|e| classify(e, "cuMemcpyDtoD"))?;
        self.timed(reps, || self.stream.memcpy_dtod(&src, &mut dst).map_err(|e| classify(e, "cuMemcpyDtoD")))
    }

    fn timed(&self, reps: usize, mut f: impl FnMut() -> Result<(), CudaError>) -> Result<Vec<f32>, CudaError> {
        let flags = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        let mut out = Vec::with_capacity(reps);
        for _ in 0..reps {
            let start = self.ctx.new_event(flags).map_err(|e| classify(e, "cuEventCreate"))?;
            let stop = self.ctx.new_event(flags).map_err(|e| classify(e, "cuEventCreate"))?;
            start.record(&self.stream).map_err(|e| classify(e, "cuEventRecord"))?;
            f()?;
            stop.record(&self.stream).map_err(|e| classify(e, "cuEventRecord"))?;
            stop.synchronize().map_err(|e| classify(e, "the kernel"))?;
            out.push(start.elapsed_ms(&stop).map_err(|e| classify(e, "cuEventElapsedTime"))?);
        }
        Ok(out)
    }

    fn upload(&self, args: &[Arg]) -> Result<Vec<CudaSlice<u8>>, CudaError> {
        let mut device = Vec::new();
        for a in args {
            if let Arg::Buffer(host) = a {
                // At least one byte, so an empty tensor still has an address (nothing copied).
                let d = if host.is_empty() { self.stream.alloc_zeros(1) } else { self.stream.clone_htod(&**host) };
                device.push(d.map_err(|e| classify(e, &format!("copying {} bytes to the GPU", host.len())))?);
            }
        }
        Ok(device)
    }

    /// Launches with `args`: host buffers are the `uploaded` slices in order, device buffers the
    /// `held` slices. The caller has bound the context.
    fn launch(
        &self,
        k: &Loaded,
        shape: Shape,
        args: &[Arg],
        held: &Held,
        uploaded: &[CudaSlice<u8>],
        stream: sys::CUstream,
    ) -> Result<(), CudaError> {
        // Each parameter's value lives in `values`; the driver reads them through `params`.
        let mut values: Vec<u64> = Vec::with_capacity(args.len());
        let mut slices = uploaded.iter();
        let mut guards = Vec::new();
        for a in args {
            values.push(match a {
                Arg::Buffer(_) => {
                    let (ptr, guard) = slices.next().expect("one slice per buffer").device_ptr(&self.stream);
                    guards.push(guard);
                    ptr
                }
                Arg::Device(d) => {
                    let slice = held.iter().find(|(b, _)| std::ptr::eq(*b, *d)).map(|(_, s)| *s);
                    let (ptr, guard) =
                        slice.ok_or_else(|| CudaError::Launch("a device buffer the launch did not lock".into()))?.device_ptr(&self.stream);
                    guards.push(guard);
                    ptr
                }
                // An empty tensor's address may be 0 (PyTorch's); a masked read reads index 0
                // (and drops it), so it gets an address that is memory.
                Arg::Foreign(f) if f.is_empty() && f.ptr() != 0 => f.address(),
                Arg::Foreign(f) if f.is_empty() && self.scratch.get().is_some() => {
                    self.scratch.get().expect("made").device_ptr(&self.stream).0
                }
                Arg::Foreign(f) if f.is_empty() => {
                    let made = self.stream.alloc_zeros::<u8>(16).map_err(|e| classify(e, "cuMemAlloc"))?;
                    // The launch may be on another stream: the memory exists before it is used.
                    self.stream.synchronize().map_err(|e| classify(e, "cuStreamSynchronize"))?;
                    self.scratch.get_or_init(|| made).device_ptr(&self.stream).0
                }
                Arg::Foreign(f) => {
                    self.check_foreign(f)?;
                    f.address()
                }
                // A parameter narrower than 64 bits is read from the low bytes of its slot.
                scalar => scalar.scalar_bits().expect("a scalar"),
            });
        }
        // The tensor maps, after every given parameter (docs/abi.md).
        for spec in &k.maps {
            let empty = || -> Result<u64, String> {
                if self.scratch.get().is_none() {
                    let made = self.stream.alloc_zeros::<u8>(16).map_err(|e| e.to_string())?;
                    self.stream.synchronize().map_err(|e| e.to_string())?;
                    let _ = self.scratch.set(made);
                }
                Ok(self.scratch.get().expect("made").device_ptr(&self.stream).0)
            };
            let map = crate::tensor_map::encode(spec, &values, empty).map_err(CudaError::Launch)?;
            let mut maps = self.tensor_maps.lock().unwrap_or_else(|e| e.into_inner());
            if let std::collections::hash_map::Entry::Vacant(slot) = maps.entry(map) {
                let bytes: Vec<u8> = map.iter().flat_map(|w| w.to_le_bytes()).collect();
                let d = self.stream.clone_htod(&bytes).map_err(|e| classify(e, "copying a tensor map to the GPU"))?;
                // The launch may be on another stream: the map is there before it runs.
                self.stream.synchronize().map_err(|e| classify(e, "cuStreamSynchronize"))?;
                slot.insert(d);
            }
            values.push(maps[&map].device_ptr(&self.stream).0);
        }
        // 32-bit parameters are read from the low 4 bytes of their slot (little endian).
        let mut params: Vec<*mut c_void> = values.iter_mut().map(|v| v as *mut u64 as *mut c_void).collect();
        let (grid, block) = (shape.grid, shape.block);
        let cooperative = shape.cooperative && self.cooperative();
        // SAFETY: `params` points at one live value per kernel parameter, in the ABI's order and
        // widths, and every pointer parameter is a live device allocation of this context.
        let launched = unsafe {
            let f = k.function.cu_function();
            let (g, b) = ((grid[0], grid[1], grid[2]), (block[0], block[1], block[2]));
            if cooperative {
                cudarc::driver::result::launch_cooperative_kernel(f, g, b, k.dynamic_shared, stream, &mut params)
            } else {
                cudarc::driver::result::launch_kernel(f, g, b, k.dynamic_shared, stream, &mut params)
            }
        };
        launched.map_err(|e| match e.0 {
            CUresult::CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE => CudaError::Launch(format!(
                "a grid of {} CTAs whose CTAs wait for each other does not fit the GPU at once (cuLaunchCooperativeKernel: {e})",
                grid.iter().map(|g| *g as u64).product::<u64>()
            )),
            _ => classify(e, if cooperative { "cuLaunchCooperativeKernel" } else { "cuLaunchKernel" }),
        })?;
        drop(guards);
        Ok(())
    }
}

/// A launch's grid and block, and whether its CTAs wait for each other (a persistent kernel):
/// such a launch is cooperative where the GPU supports it, so that a grid too large to be
/// resident at once is an error instead of a hang.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// CTAs per dimension.
    pub grid: [u32; 3],
    /// Threads per CTA per dimension.
    pub block: [u32; 3],
    /// Every CTA must be resident at once.
    pub cooperative: bool,
}

/// The dynamic shared memory a kernel must opt in to, if any: a CTA may use 48 KiB of shared
/// memory, static and dynamic together, without opting in; past that the driver needs the
/// dynamic part's size as `MAX_DYNAMIC_SHARED_SIZE_BYTES`.
pub fn shared_opt_in(static_bytes: u32, dynamic_bytes: u32) -> Option<u32> {
    (static_bytes as u64 + dynamic_bytes as u64 > 48 * 1024).then_some(dynamic_bytes)
}

/// The JIT's error and information log for a PTX the driver rejected (loaded once more with
/// `cuModuleLoadDataEx` and log buffers), trimmed; empty when the driver wrote none.
fn jit_log(ptx: &str) -> String {
    const LOG: usize = 16 * 1024;
    let Ok(src) = CString::new(ptx) else { return String::new() };
    let (mut error, mut info) = (vec![0u8; LOG], vec![0u8; LOG]);
    use sys::CUjit_option::*;
    let mut options =
        [CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES];
    // Sizes travel as pointer-sized integers in the values array (the driver's convention).
    let mut values: [*mut c_void; 4] = [error.as_mut_ptr().cast(), LOG as *mut c_void, info.as_mut_ptr().cast(), LOG as *mut c_void];
    let mut module: sys::CUmodule = std::ptr::null_mut();
    // SAFETY: `src` is a NUL-terminated PTX text; each log buffer is LOG bytes, as its size
    // option says, and outlives the call; a module loaded after all is unloaded at once.
    unsafe {
        let r = sys::cuModuleLoadDataEx(&mut module, src.as_ptr().cast(), 4, options.as_mut_ptr(), values.as_mut_ptr());
        if r == CUresult::CUDA_SUCCESS && !module.is_null() {
            let _ = sys::cuModuleUnload(module);
        }
    }
    let text = |b: &[u8]| String::from_utf8_lossy(&b[..b.iter().position(|c| *c == 0).unwrap_or(b.len())]).trim().to_string();
    [text(&error), text(&info)].into_iter().filter(|t| !t.is_empty()).collect::<Vec<_>>().join("\n")
}

/// Why `--backend cuda` cannot run here, when it cannot.
pub fn unavailable_reason() -> Option<String> {
    match device_count() {
        Err(e) => Some(e.to_string()),
        Ok(0) => Some(CudaError::NoDevice.to_string()),
        Ok(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_memory_opt_in_counts_static_and_dynamic_together() {
        // 48 KiB in all needs no opt-in, whichever part holds it.
        assert_eq!(shared_opt_in(0, 49_152), None);
        assert_eq!(shared_opt_in(49_152, 0), None);
        assert_eq!(shared_opt_in(16_384, 32_768), None);
        // One byte over: the dynamic part is opted in, even when it alone is small.
        assert_eq!(shared_opt_in(16_384, 32_769), Some(32_769));
        assert_eq!(shared_opt_in(40_000, 10_000), Some(10_000));
        assert_eq!(shared_opt_in(0, 49_153), Some(49_153));
        assert_eq!(shared_opt_in(u32::MAX, u32::MAX), Some(u32::MAX));
    }

    /// The bodies of the `fn`s in the `impl` blocks of `src` named by `header`, with their names.
    fn methods<'s>(src: &'s str, header: &str) -> Vec<(&'s str, &'s str)> {
        let start = src.find(header).unwrap_or_else(|| panic!("no {header}"));
        let body = &src[start..];
        let end = body.find("\n}\n").expect("the impl ends") + 1;
        let mut out = Vec::new();
        let body = &body[..end];
        for (i, _) in body.match_indices("\n    pub fn ").chain(body.match_indices("\n    fn ")) {
            let f = &body[i + 1..];
            let name = f.split('(').next().unwrap_or("").rsplit(' ').next().unwrap_or("");
            let open = f.find("{\n").expect("a body");
            let close = f.find("\n    }\n").expect("the body ends");
            out.push((name, &f[open + 2..close]));
        }
        out
    }

    /// Every method of `Gpu` and `Loaded` that calls the driver binds the GPU's context first: a
    /// worker thread (or one with another GPU's context current) otherwise fails with
    /// `CUDA_ERROR_INVALID_CONTEXT`. Those that do not bind say why below.
    #[test]
    fn every_driver_call_binds_the_context_first() {
        let src = include_str!("cuda.rs");
        // Device attributes and pointer queries need no context; `launch`, `upload` and
        // `timed` are called by methods that bound it; `bind` is the binding.
        let exempt = ["open", "open_ordinal", "ordinal", "bind", "key", "owns", "sms", "cooperative", "peak_bandwidth"];
        let inner = ["launch", "upload", "timed", "check_foreign"];
        let mut checked = 0;
        for (name, body) in methods(src, "impl Gpu {").into_iter().chain(methods(src, "impl Loaded {")) {
            let calls_driver = ["self.ctx.", "self.stream.", "self.function", "sys::", "result::"].iter().any(|p| body.contains(p));
            if exempt.contains(&name) || inner.contains(&name) || !calls_driver {
                continue;
            }
            let first = body.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with("if ")).unwrap_or("");
            let binds = first.starts_with("let _bound = self.bind()?;")
                || first.starts_with("let _bound = self.gpu.bind()?;")
                || first.starts_with("let Ok(_bound) = self.bind()");
            assert!(binds || body.contains("let _bound = self.bind()?;"), "Gpu::{name} calls the driver without binding first: {first}");
            checked += 1;
        }
        assert!(checked >= 12, "only {checked} methods checked: the parser above lost them");
        // The inner ones are called only from methods that bound.
        for (name, _) in methods(src, "impl Gpu {").into_iter().filter(|(n, _)| inner.contains(n)) {
            assert!(!src.contains(&format!("pub fn {name}(")), "{name} is public but does not bind");
        }
    }
}
