//! The CUDA backend's availability: a driver library that loads, and a device.
//!
//! `cudarc` loads `libcuda.so` lazily and panics when it is absent, so every entry point checks
//! [`driver_present`] first and turns absence into a message.

/// Whether `libcuda.so` can be loaded.
pub fn driver_present() -> bool {
    // SAFETY: only probes for the library with dlopen.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// Whether a CUDA device can be used.
pub fn usable() -> bool {
    driver_present() && device_count().unwrap_or(0) > 0
}

/// The number of CUDA devices, or why it is unknown.
pub fn device_count() -> Result<i32, String> {
    if !driver_present() {
        return Err("no CUDA driver (libcuda.so) on this machine".into());
    }
    cudarc::driver::result::init().map_err(|e| format!("the CUDA driver did not initialize: {e}"))?;
    cudarc::driver::result::device::get_count().map_err(|e| format!("the CUDA driver has no device: {e}"))
}

/// Why `--backend cuda` cannot run here.
pub fn unavailable_reason() -> String {
    match device_count() {
        Err(e) => format!("--backend cuda: {e}; use --backend sim or auto"),
        Ok(0) => "--backend cuda: the CUDA driver reports no device; use --backend sim or auto".into(),
        Ok(_) => "--backend cuda: the CUDA launcher is not built yet; use --backend sim".into(),
    }
}
