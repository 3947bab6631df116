//! The Phobos runtime: where compiled kernels run. [`Device`]s (the CPU SIMT simulator with its
//! sanitizer, a CUDA GPU through cudarc), [`DeviceBuffer`]s, [`Stream`]s and [`Event`]s; a
//! [`Kernel`] with one set of argument rules for every device; binding `.npy` arrays and `-D`
//! values to a kernel's signature ([`bind`]). It compiles nothing and prints nothing.

#![warn(missing_docs)]

pub mod bind;
pub mod cuda;
mod device;
mod error;
mod kernel;
mod launch;
pub mod npy;
pub mod npy_header;
pub mod scalar;
mod tensor_map;

/// The `f16` and `bf16` types of [`Arg::F16`] and [`Arg::BF16`].
pub use half;

pub use device::{Arg, Device, DeviceBuffer, Event, ForeignBuffer, ForeignStream, Stream};
pub use error::{Diagnostic, Diagnostics, Error, Fault, FaultKind, Severity, SrcLoc};
pub use kernel::{Kernel, LaunchOptions, LaunchReport, Param};

/// Reads an input file: a regular file only, since a device or a pipe (`/dev/zero`, a fifo)
/// would be read forever. Errors read `PATH: why`.
pub fn read_file(path: &std::path::Path) -> Result<Vec<u8>, String> {
    let p = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("{p}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{p}: not a regular file"));
    }
    std::fs::read(path).map_err(|e| format!("{p}: {e}"))
}
