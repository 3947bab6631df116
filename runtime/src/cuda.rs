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
use std::{ffi::c_void, sync::Arc};

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
    /// Bytes of dynamic shared memory each launch reserves.
    pub dynamic_shared: u32,
}

impl Loaded {
    /// CTAs of `threads` threads resident at once on one SM, by the driver's occupancy rule
    /// (registers, shared memory, threads).
    pub fn occupancy(&self, threads: u32) -> Result<u32, CudaError> {
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
    /// `sm_90` for compute capability 9.0.
    pub chip: String,
    /// The device's name, e.g. `NVIDIA H200`.
    pub name: String,
}

/// The number in `sm_90` / `sm_90a`.
fn chip_number(chip: &str) -> Option<u32> {
    chip.trim_start_matches("sm_").trim_end_matches('a').parse().ok()
}

impl Gpu {
    /// Opens device 0.
    pub fn open() -> Result<Gpu, CudaError> {
        if device_count()? == 0 {
            return Err(CudaError::NoDevice);
        }
        let ctx = std::panic::catch_unwind(|| CudaContext::new(0))
            .map_err(|_| CudaError::Init("the driver panicked while creating a context".into()))?
            .map_err(|e| CudaError::Init(e.to_string()))?;
        let (major, minor) = ctx.compute_capability().map_err(|e| CudaError::Init(e.to_string()))?;
        let name = ctx.name().unwrap_or_else(|_| "CUDA device".into());
        // Plain launches and copies: no per-slice event tracking, so timings are the kernel's.
        // SAFETY: Phobos uses one stream per context.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        Ok(Gpu { ctx, stream, chip: format!("sm_{major}{minor}"), name })
    }

    /// The same GPU with a new stream of its own, for asynchronous launches.
    pub fn with_new_stream(&self) -> Result<Gpu, CudaError> {
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

    /// `bytes` zeroed bytes on the GPU (at least one, so that an empty buffer has an address).
    pub fn alloc(&self, bytes: usize) -> Result<CudaSlice<u8>, CudaError> {
        self.stream.alloc_zeros(bytes.max(1)).map_err(|e| classify(e, &format!("allocating {bytes} bytes")))
    }

    /// Copies `host` into the first bytes of `dst`, then waits.
    pub fn write(&self, host: &[u8], dst: &mut CudaSlice<u8>) -> Result<(), CudaError> {
        if !host.is_empty() {
            self.ctx.synchronize().map_err(|e| classify(e, "waiting for the GPU"))?;
            self.stream.memcpy_htod(host, dst).map_err(|e| classify(e, "copying to the GPU"))?;
        }
        self.stream.synchronize().map_err(|e| classify(e, "copying to the GPU"))
    }

    /// Copies the first `host.len()` bytes of `src` into `host`, after every stream's work.
    pub fn read(&self, src: &CudaSlice<u8>, host: &mut [u8]) -> Result<(), CudaError> {
        self.ctx.synchronize().map_err(|e| classify(e, "waiting for the GPU"))?;
        if !host.is_empty() {
            let view = src.slice(..host.len());
            self.stream.memcpy_dtoh(&view, host).map_err(|e| classify(e, "copying from the GPU"))?;
        }
        self.stream.synchronize().map_err(|e| classify(e, "copying from the GPU"))
    }

    /// Launches on this GPU's stream without waiting: every buffer must already be on the GPU.
    pub fn launch_async(&self, k: &Loaded, grid: [u32; 3], block: [u32; 3], args: &[Arg], held: &Held) -> Result<(), CudaError> {
        self.launch(k, grid, block, args, held, &[], self.stream.cu_stream())
    }

    /// Enqueues a launch on another library's stream (no host buffers), without waiting.
    pub fn launch_on(
        &self,
        k: &Loaded,
        grid: [u32; 3],
        block: [u32; 3],
        args: &[Arg],
        held: &Held,
        stream: ForeignStream,
    ) -> Result<(), CudaError> {
        // The caller's thread may have another context current (or none).
        self.ctx.bind_to_thread().map_err(|e| classify(e, "binding the GPU's context"))?;
        // CUDA's handles: 0 and 1 the legacy default stream, 2 the per-thread one.
        let handle = if stream.handle() == 0 { 1 } else { stream.handle() };
        self.launch(k, grid, block, args, held, &[], handle as usize as sys::CUstream)
    }

    /// Checks that another library's buffer is memory of this GPU.
    fn check_foreign(&self, f: &ForeignBuffer) -> Result<(), CudaError> {
        let mut ordinal: i32 = -1;
        // SAFETY: the attribute is an `int`, written into `ordinal`; the driver checks the
        // address itself and reports an error for one it does not know.
        let r = unsafe {
            sys::cuPointerGetAttribute(
                &mut ordinal as *mut i32 as *mut c_void,
                sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                f.ptr(),
            )
        };
        if r != CUresult::CUDA_SUCCESS {
            return Err(CudaError::Launch(format!("address {:#x} is not GPU memory the CUDA driver knows ({r:?})", f.ptr())));
        }
        if ordinal as usize != self.ctx.ordinal() {
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
        let e = self.ctx.new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT)).map_err(|e| classify(e, "cuEventCreate"))?;
        e.record(&self.stream).map_err(|e| classify(e, "cuEventRecord"))?;
        Ok(e)
    }

    /// Waits for everything queued on this GPU's stream.
    pub fn synchronize(&self) -> Result<(), CudaError> {
        self.stream.synchronize().map_err(|e| classify(e, "the stream"))
    }

    /// The GPU's streaming multiprocessors (1 when the driver does not say).
    pub fn sms(&self) -> u32 {
        self.ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).map(|v| v.max(1) as u32).unwrap_or(1)
    }

    /// The GPU's memory bandwidth in bytes/s from its clock and bus width (the data sheet's peak).
    pub fn peak_bandwidth(&self) -> Option<f64> {
        let clock_khz = self.ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE).ok()? as f64;
        let bus_bits = self.ctx.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH).ok()? as f64;
        Some(2.0 * clock_khz * 1e3 * bus_bits / 8.0)
    }

    /// Loads `entry` from `ptx` (compiled for `chip`); sets the dynamic shared memory limit when
    /// the kernel needs more than the default 48 KiB.
    pub fn load(&self, ptx: &str, entry: &str, chip: &str, dynamic_shared: u32) -> Result<Loaded, CudaError> {
        if let (Some(want), Some(have)) = (chip_number(chip), chip_number(&self.chip)) {
            if want > have {
                return Err(CudaError::UnsupportedArch { chip: chip.into(), device: self.chip.clone() });
            }
        }
        let module = self.ctx.load_module(cudarc::nvrtc::Ptx::from_src(ptx)).map_err(|e| classify(e, "cuModuleLoadData"))?;
        let function = module.load_function(entry).map_err(|e| classify(e, &format!("cuModuleGetFunction({entry})")))?;
        if dynamic_shared > 48 * 1024 {
            function
                .set_attribute(CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, dynamic_shared as i32)
                .map_err(|e| classify(e, &format!("{dynamic_shared} bytes of dynamic shared memory")))?;
        }
        Ok(Loaded { function, _module: module, dynamic_shared })
    }

    /// Copies the buffers in, launches once, waits, and copies every buffer back.
    pub fn run(&self, k: &Loaded, grid: [u32; 3], block: [u32; 3], args: &mut [Arg], held: &Held) -> Result<(), CudaError> {
        let device = self.upload(args)?;
        self.launch(k, grid, block, args, held, &device, self.stream.cu_stream())?;
        self.stream.synchronize().map_err(|e| classify(e, "the kernel"))?;
        let mut slices = device.iter();
        for a in args.iter_mut() {
            if let Arg::Buffer(host) = a {
                let d = slices.next().expect("one slice per buffer");
                self.stream.memcpy_dtoh(d, &mut **host).map_err(|e| classify(e, "copying a tensor back"))?;
            }
        }
        self.stream.synchronize().map_err(|e| classify(e, "copying tensors back"))
    }

    /// Kernel times in milliseconds by CUDA events: `warmup` launches, then `reps` timed ones
    /// (the buffers stay on the device).
    pub fn time(
        &self,
        k: &Loaded,
        grid: [u32; 3],
        block: [u32; 3],
        args: &[Arg],
        held: &Held,
        warmup: usize,
        reps: usize,
    ) -> Result<Vec<f32>, CudaError> {
        let device = self.upload(args)?;
        for _ in 0..warmup {
            self.launch(k, grid, block, args, held, &device, self.stream.cu_stream())?;
        }
        self.timed(reps, || self.launch(k, grid, block, args, held, &device, self.stream.cu_stream()))
    }

    /// Device-to-device copy times of `bytes` bytes in milliseconds: the speed of light for a
    /// kernel that moves as many bytes (it reads and writes each byte once).
    pub fn copy_time(&self, bytes: usize, reps: usize) -> Result<Vec<f32>, CudaError> {
        let src: CudaSlice<u8> = self.stream.alloc_zeros(bytes).map_err(|e| classify(e, "allocating"))?;
        let mut dst: CudaSlice<u8> = self.stream.alloc_zeros(bytes).map_err(|e| classify(e, "allocating"))?;
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
                // At least one byte, so an empty tensor still has an address.
                let d = if host.is_empty() { self.stream.alloc_zeros(1) } else { self.stream.clone_htod(&**host) };
                device.push(d.map_err(|e| classify(e, &format!("copying {} bytes to the GPU", host.len())))?);
            }
        }
        Ok(device)
    }

    /// Launches with `args`: host buffers are the `uploaded` slices in order, device buffers the
    /// `held` slices.
    fn launch(
        &self,
        k: &Loaded,
        grid: [u32; 3],
        block: [u32; 3],
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
                Arg::Foreign(f) => {
                    self.check_foreign(f)?;
                    f.ptr()
                }
                // 32-bit parameters are read from the low 4 bytes of their slot.
                Arg::I32(v) => *v as u32 as u64,
                Arg::I64(v) => *v as u64,
                Arg::F32(v) => v.to_bits() as u64,
                Arg::F64(v) => v.to_bits(),
            });
        }
        // 32-bit parameters are read from the low 4 bytes of their slot (little endian).
        let mut params: Vec<*mut c_void> = values.iter_mut().map(|v| v as *mut u64 as *mut c_void).collect();
        // SAFETY: `params` points at one live value per kernel parameter, in the ABI's order and
        // widths, and every pointer parameter is a live device allocation of this context.
        unsafe {
            cudarc::driver::result::launch_kernel(
                k.function.cu_function(),
                (grid[0], grid[1], grid[2]),
                (block[0], block[1], block[2]),
                k.dynamic_shared,
                stream,
                &mut params,
            )
        }
        .map_err(|e| classify(e, "cuLaunchKernel"))?;
        drop(guards);
        Ok(())
    }
}

/// Why `--backend cuda` cannot run here, when it cannot.
pub fn unavailable_reason() -> Option<String> {
    match device_count() {
        Err(e) => Some(e.to_string()),
        Ok(0) => Some(CudaError::NoDevice.to_string()),
        Ok(_) => None,
    }
}
