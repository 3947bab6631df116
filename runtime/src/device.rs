//! Devices, and what lives on them across launches: buffers, streams and events, the same on the
//! simulator and on a CUDA GPU.
//!
//! On the simulator a launch runs to completion when it is enqueued (its fault, if any, is the
//! enqueue's error), an event is complete when recorded, and elapsed times are host wall-clock.

use crate::cuda::{self, Gpu};
use crate::Error;
use cudarc::driver::safe::{CudaEvent, CudaSlice};
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

/// A launch argument: a buffer's bytes (copied in, and back after the launch), a buffer that
/// lives on the device, or a scalar of exactly the parameter's type (see
/// [`Kernel::check_args`](crate::Kernel::check_args)).
#[derive(Debug)]
#[non_exhaustive]
pub enum Arg<'a> {
    /// A buffer's bytes, little-endian elements; the launch writes the kernel's results back.
    Buffer(&'a mut [u8]),
    /// A buffer on the launch's device; it stays there (read it with [`DeviceBuffer::read`]).
    Device(&'a DeviceBuffer),
    /// An `i32` parameter.
    I32(i32),
    /// An `i64` or `index` parameter.
    I64(i64),
    /// An `f32` parameter.
    F32(f32),
    /// An `f64` parameter.
    F64(f64),
    /// An `i8` parameter.
    I8(i8),
    /// An `i16` parameter.
    I16(i16),
    /// An `f16` parameter.
    F16(half::f16),
    /// A `bf16` parameter.
    BF16(half::bf16),
    /// A `bool` (`i1`) parameter.
    Bool(bool),
    /// Another library's memory on the launch's GPU (a PyTorch or CuPy tensor), passed by its
    /// address with no copy: a GPU launch only ([`ForeignBuffer::new`] says what it promises).
    Foreign(ForeignBuffer),
}

impl Arg<'_> {
    /// A scalar's name as the launch's messages spell it (`Arg::F32`); None for a buffer.
    pub fn scalar_name(&self) -> Option<&'static str> {
        Some(match self {
            Arg::I8(_) => "Arg::I8",
            Arg::I16(_) => "Arg::I16",
            Arg::I32(_) => "Arg::I32",
            Arg::I64(_) => "Arg::I64",
            Arg::F16(_) => "Arg::F16",
            Arg::BF16(_) => "Arg::BF16",
            Arg::F32(_) => "Arg::F32",
            Arg::F64(_) => "Arg::F64",
            Arg::Bool(_) => "Arg::Bool",
            Arg::Buffer(_) | Arg::Device(_) | Arg::Foreign(_) => return None,
        })
    }

    /// A scalar's bits, zero-extended to 64 (as a kernel parameter slot holds them, little
    /// endian: a narrower parameter is read from the low bytes); None for a buffer.
    pub fn scalar_bits(&self) -> Option<u64> {
        Some(match self {
            Arg::I8(v) => *v as u8 as u64,
            Arg::I16(v) => *v as u16 as u64,
            Arg::I32(v) => *v as u32 as u64,
            Arg::I64(v) => *v as u64,
            Arg::F16(v) => v.to_bits() as u64,
            Arg::BF16(v) => v.to_bits() as u64,
            Arg::F32(v) => v.to_bits() as u64,
            Arg::F64(v) => v.to_bits(),
            Arg::Bool(v) => *v as u64,
            Arg::Buffer(_) | Arg::Device(_) | Arg::Foreign(_) => return None,
        })
    }

    /// The scalar argument a parameter of simulator type `ty` takes, from raw bits (the low
    /// bytes of `bits`).
    pub(crate) fn from_bits(ty: phobos_sim::Prim, bits: u64) -> Arg<'static> {
        match ty {
            phobos_sim::Prim::I1 => Arg::Bool(bits & 1 != 0),
            phobos_sim::Prim::I8 => Arg::I8(bits as u8 as i8),
            phobos_sim::Prim::I16 => Arg::I16(bits as u16 as i16),
            phobos_sim::Prim::I32 => Arg::I32(bits as u32 as i32),
            phobos_sim::Prim::I64 => Arg::I64(bits as i64),
            phobos_sim::Prim::F16 => Arg::F16(half::f16::from_bits(bits as u16)),
            phobos_sim::Prim::BF16 => Arg::BF16(half::bf16::from_bits(bits as u16)),
            phobos_sim::Prim::F32 => Arg::F32(f32::from_bits(bits as u32)),
            phobos_sim::Prim::F64 => Arg::F64(f64::from_bits(bits)),
        }
    }
}

/// A CUDA stream another library made (`cudaStream_t`, `torch.cuda.Stream.cuda_stream`): a
/// launch given it ([`LaunchOptions::stream`](crate::LaunchOptions::stream)) is enqueued there,
/// ordered after that library's work, and does not wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForeignStream(u64);

impl ForeignStream {
    /// The stream with this handle; `1` and `2` are CUDA's legacy and per-thread default
    /// streams (`__cuda_array_interface__`'s numbering), `0` the legacy default too.
    ///
    /// # Safety
    /// `handle` is a live stream of the primary context of the GPU a launch taking it runs on,
    /// and stays alive until that launch has finished.
    pub unsafe fn new(handle: u64) -> ForeignStream {
        ForeignStream(handle)
    }
    /// The stream's handle.
    pub fn handle(&self) -> u64 {
        self.0
    }
}

/// Device memory Phobos does not own: an address on a CUDA GPU and its length in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForeignBuffer {
    ptr: u64,
    len: usize,
    read_only: bool,
    /// Bytes from `ptr` to the view's first element (what the kernel gets).
    first: usize,
}

impl ForeignBuffer {
    /// `len` bytes at the device address `ptr`.
    ///
    /// # Safety
    /// `ptr` is the address of `len` bytes of device memory in the primary context of the GPU a
    /// launch taking it runs on, and stays allocated, and written by nothing else, until that
    /// launch has finished on its stream. A launch checks what the driver can tell (that the
    /// address is that GPU's memory, its alignment), not the length.
    pub unsafe fn new(ptr: u64, len: usize) -> ForeignBuffer {
        ForeignBuffer { ptr, len, read_only: false, first: 0 }
    }
    /// The same memory, seen by a strided view whose first element lies `bytes` into it (a view
    /// with a negative stride starts inside its memory): the kernel gets that address.
    pub fn with_first(self, bytes: usize) -> ForeignBuffer {
        ForeignBuffer { first: bytes, ..self }
    }
    /// Bytes from the memory's start to the view's first element (0 unless [`Self::with_first`]).
    pub fn first(&self) -> usize {
        self.first
    }
    /// The address of the view's first element: the kernel's parameter.
    pub fn address(&self) -> u64 {
        self.ptr + self.first as u64
    }
    /// The same memory, marked read-only (`__cuda_array_interface__`'s flag): a launch of a
    /// kernel that writes its parameter is refused before it runs.
    pub fn read_only(self) -> ForeignBuffer {
        ForeignBuffer { read_only: true, ..self }
    }
    /// Whether it was marked read-only.
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }
    /// The device address.
    pub fn ptr(&self) -> u64 {
        self.ptr
    }
    /// The length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether it holds no byte.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Where kernels run.
#[non_exhaustive]
pub enum Device {
    /// The CPU SIMT simulator (with its sanitizer).
    Simulator,
    /// A CUDA GPU, through cudarc.
    Cuda(Gpu),
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Device({})", self.name())
    }
}

impl Device {
    /// A GPU when one is usable, else the simulator.
    pub fn best() -> Device {
        Gpu::open().map(Device::Cuda).unwrap_or(Device::Simulator)
    }
    /// The first CUDA GPU, or why there is none. Each GPU's context is made once per process
    /// and kept: later calls are cheap.
    pub fn cuda() -> Result<Device, Error> {
        Ok(Device::Cuda(Gpu::open()?))
    }
    /// CUDA GPU `ordinal` (as `cuda:1` counts them), or why there is none.
    pub fn cuda_ordinal(ordinal: usize) -> Result<Device, Error> {
        Ok(Device::Cuda(Gpu::open_ordinal(ordinal)?))
    }
    /// The CUDA GPU whose memory the device address `ptr` is (another library's tensor on
    /// `cuda:1` runs on GPU 1), or why it is none.
    pub fn cuda_of_address(ptr: u64) -> Result<Device, Error> {
        Device::cuda_ordinal(cuda::device_of(ptr)?)
    }
    /// `simulator`, or the GPU's name and chip: `NVIDIA H200 (sm_90)`.
    pub fn name(&self) -> String {
        match self {
            Device::Simulator => "simulator".into(),
            Device::Cuda(g) => format!("{} ({})", g.name, g.chip),
        }
    }
    /// `bytes` zeroed bytes on this device.
    pub fn alloc(&self, bytes: usize) -> Result<DeviceBuffer, Error> {
        let mem = match self {
            Device::Simulator => Mem::Sim(RwLock::new((0..bytes).map(|_| AtomicU8::new(0)).collect())),
            Device::Cuda(g) => Mem::Cuda { gpu: g.clone(), slice: ManuallyDrop::new(RwLock::new(g.alloc(bytes)?)) },
        };
        Ok(DeviceBuffer { len: bytes, mem })
    }
    /// A buffer on this device holding a copy of `bytes`.
    pub fn upload(&self, bytes: &[u8]) -> Result<DeviceBuffer, Error> {
        let b = self.alloc(bytes.len())?;
        b.write(bytes)?;
        Ok(b)
    }
    /// A stream of this device, for [`Kernel::launch_async`](crate::Kernel::launch_async).
    pub fn stream(&self) -> Result<Stream, Error> {
        Ok(match self {
            Device::Simulator => Stream(StreamOn::Sim),
            Device::Cuda(g) => Stream(StreamOn::Cuda(g.with_new_stream()?)),
        })
    }
}

/// Bytes on a device that live across launches: pass them as [`Arg::Device`], read them back
/// when wanted. `Send + Sync`; a launch locks each buffer it uses for its duration: shared when
/// its kernel only reads the buffer (launches sharing an input overlap), exclusive otherwise.
pub struct DeviceBuffer {
    len: usize,
    mem: Mem,
}

/// A launch takes a buffer's lock shared when its kernel only reads the buffer, exclusive when it
/// writes it: launches that share an input run at the same time.
enum Mem {
    /// The simulator's bytes, as it reads and writes them (atomic bytes: CTAs on several
    /// threads, and launches that only read, share them).
    Sim(RwLock<Vec<AtomicU8>>),
    /// Freed by [`Gpu::free`] when the buffer drops: after every stream's work, with the
    /// context bound.
    Cuda { gpu: Gpu, slice: ManuallyDrop<RwLock<CudaSlice<u8>>> },
}

/// A buffer locked for a launch: shared (the kernel only reads it) or exclusive.
pub(crate) enum Locked<'a, T> {
    Shared(RwLockReadGuard<'a, T>),
    Exclusive(RwLockWriteGuard<'a, T>),
}

impl<T> std::ops::Deref for Locked<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        match self {
            Locked::Shared(g) => g,
            Locked::Exclusive(g) => g,
        }
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        if let Mem::Cuda { gpu, slice } = &mut self.mem {
            // SAFETY: `slice` is taken once, here, and the buffer is not used after its drop.
            let slice = unsafe { ManuallyDrop::take(slice) };
            gpu.free(slice.into_inner().unwrap_or_else(|e| e.into_inner()));
        }
    }
}

impl std::fmt::Debug for DeviceBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let on = match &self.mem {
            Mem::Sim(_) => "simulator".to_string(),
            Mem::Cuda { gpu, .. } => gpu.name.clone(),
        };
        write!(f, "DeviceBuffer({} bytes on {on})", self.len)
    }
}

fn read<T>(m: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    m.read().unwrap_or_else(|e| e.into_inner())
}

fn write<T>(m: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    m.write().unwrap_or_else(|e| e.into_inner())
}

fn locked<T>(m: &RwLock<T>, exclusive: bool) -> Locked<'_, T> {
    if exclusive {
        Locked::Exclusive(write(m))
    } else {
        Locked::Shared(read(m))
    }
}

impl DeviceBuffer {
    /// Its length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether it holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// A copy of its bytes, once every launch queued before has finished.
    pub fn read(&self) -> Result<Vec<u8>, Error> {
        let mut out = vec![0; self.len];
        self.read_into(&mut out)?;
        Ok(out)
    }
    /// Copies its bytes into `host`, which must be exactly as long.
    pub fn read_into(&self, host: &mut [u8]) -> Result<(), Error> {
        self.same_len(host.len(), "read into")?;
        match &self.mem {
            Mem::Sim(v) => {
                for (h, b) in host.iter_mut().zip(read(v).iter()) {
                    *h = b.load(Relaxed);
                }
            }
            Mem::Cuda { gpu, slice } => gpu.read(&read(slice), host)?,
        }
        Ok(())
    }
    /// Replaces its bytes with `bytes`, which must be exactly as long.
    pub fn write(&self, bytes: &[u8]) -> Result<(), Error> {
        self.same_len(bytes.len(), "write")?;
        match &self.mem {
            Mem::Sim(v) => {
                for (b, h) in write(v).iter_mut().zip(bytes) {
                    *b.get_mut() = *h;
                }
            }
            Mem::Cuda { gpu, slice } => gpu.write(bytes, &mut write(slice))?,
        }
        Ok(())
    }
    fn same_len(&self, n: usize, what: &str) -> Result<(), Error> {
        if n != self.len {
            return Err(Error::Launch(format!("cannot {what} a device buffer of {} bytes from/to {n} bytes", self.len)));
        }
        Ok(())
    }
    /// A buffer over memory an embedder allocated with cudarc on `device` (its length is the
    /// slice's); an error when the slice belongs to another device.
    pub fn from_cuda(device: &Device, slice: CudaSlice<u8>) -> Result<DeviceBuffer, Error> {
        match device {
            Device::Cuda(g) if g.owns(&slice) => {
                Ok(DeviceBuffer { len: slice.len(), mem: Mem::Cuda { gpu: g.clone(), slice: ManuallyDrop::new(RwLock::new(slice)) } })
            }
            _ => Err(Error::Launch(format!("the cudarc slice belongs to another device than {}", device.name()))),
        }
    }
    /// Runs `f` on the cudarc slice behind a GPU buffer (for an embedder's own cudarc calls);
    /// `None` on the simulator.
    pub fn with_cuda_slice<R>(&self, f: impl FnOnce(&mut CudaSlice<u8>) -> R) -> Option<R> {
        match &self.mem {
            Mem::Sim(_) => None,
            Mem::Cuda { slice, .. } => Some(f(&mut write(slice))),
        }
    }
    /// Whether it lives on `device` (on the simulator, or in the GPU's context).
    pub(crate) fn on(&self, device: &Device) -> bool {
        match (&self.mem, device) {
            (Mem::Sim(_), Device::Simulator) => true,
            (Mem::Cuda { gpu, .. }, Device::Cuda(g)) => gpu.key() == g.key(),
            _ => false,
        }
    }
    /// The simulator's bytes, locked for a launch: shared when the kernel only reads them.
    pub(crate) fn sim_bytes(&self, exclusive: bool) -> Option<Locked<'_, Vec<AtomicU8>>> {
        match &self.mem {
            Mem::Sim(v) => Some(locked(v, exclusive)),
            Mem::Cuda { .. } => None,
        }
    }
    /// The GPU slice, locked for a launch: shared when the kernel only reads it.
    pub(crate) fn cuda_slice(&self, exclusive: bool) -> Option<Locked<'_, CudaSlice<u8>>> {
        match &self.mem {
            Mem::Sim(_) => None,
            Mem::Cuda { slice, .. } => Some(locked(slice, exclusive)),
        }
    }
}

/// A queue of launches on one device: launches on one stream run in order; on a GPU, launches
/// on different streams may overlap. On the simulator each launch runs when it is enqueued.
#[derive(Clone)]
pub struct Stream(pub(crate) StreamOn);

#[derive(Clone)]
pub(crate) enum StreamOn {
    Sim,
    Cuda(Gpu),
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Stream({})", self.device().name())
    }
}

impl Stream {
    /// An event marking everything enqueued so far.
    pub fn record(&self) -> Result<Event, Error> {
        Ok(match &self.0 {
            StreamOn::Sim => Event(EventOn::Sim(std::time::Instant::now())),
            StreamOn::Cuda(g) => Event(EventOn::Cuda(g.record()?)),
        })
    }
    /// Waits until everything enqueued has run.
    pub fn synchronize(&self) -> Result<(), Error> {
        match &self.0 {
            StreamOn::Sim => Ok(()),
            StreamOn::Cuda(g) => Ok(g.synchronize()?),
        }
    }
    /// The device it belongs to (the same GPU context; its default stream).
    pub fn device(&self) -> Device {
        match &self.0 {
            StreamOn::Sim => Device::Simulator,
            StreamOn::Cuda(g) => Device::Cuda(g.clone()),
        }
    }
}

/// A point in a stream, to wait for or to time from.
pub struct Event(EventOn);

enum EventOn {
    Sim(std::time::Instant),
    Cuda(CudaEvent),
}

impl std::fmt::Debug for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0 {
            EventOn::Sim(_) => "Event(simulator)",
            EventOn::Cuda(_) => "Event(gpu)",
        })
    }
}

impl Event {
    /// Waits until the work before it has run.
    pub fn synchronize(&self) -> Result<(), Error> {
        match &self.0 {
            EventOn::Sim(_) => Ok(()),
            EventOn::Cuda(e) => e.synchronize().map_err(|e| Error::Cuda(cuda::event_error(e, "cuEventSynchronize"))),
        }
    }
    /// Milliseconds from this event to `end` (recorded later), once `end` has happened.
    pub fn elapsed_ms(&self, end: &Event) -> Result<f32, Error> {
        match (&self.0, &end.0) {
            (EventOn::Sim(a), EventOn::Sim(b)) => Ok(b.saturating_duration_since(*a).as_secs_f32() * 1e3),
            (EventOn::Cuda(a), EventOn::Cuda(b)) => {
                b.synchronize().map_err(|e| Error::Cuda(cuda::event_error(e, "cuEventSynchronize")))?;
                a.elapsed_ms(b).map_err(|e| Error::Cuda(cuda::event_error(e, "cuEventElapsedTime")))
            }
            _ => Err(Error::Launch("the two events belong to different devices".into())),
        }
    }
}
