//! What the process is doing now, kept where a crash handler can read it: the CLI's handler
//! (`phobos-cli`'s `crash` module) prints it in the one line a crash inside MLIR or LLVM gives.
//! The compiler only records; it never installs a handler, prints or exits.

use std::sync::atomic::{AtomicUsize, Ordering};

const CAP: usize = 512;

/// The text before and after the stage in the crash line, and the stage, each a fixed buffer
/// with its length: a signal handler may only read memory and call `write`.
pub struct Buf {
    bytes: std::cell::UnsafeCell<[u8; CAP]>,
    len: AtomicUsize,
}

// SAFETY: written only by `set` (the driver's main thread, before and between stages), read
// only by the handler; a torn read prints a garbled line, never anything worse.
unsafe impl Sync for Buf {}

impl Buf {
    const fn new() -> Buf {
        Buf { bytes: std::cell::UnsafeCell::new([0; CAP]), len: AtomicUsize::new(0) }
    }
    pub fn set(&self, s: &str) {
        let n = s.len().min(CAP);
        self.len.store(0, Ordering::SeqCst);
        // SAFETY: see `unsafe impl Sync`.
        unsafe { std::ptr::copy_nonoverlapping(s.as_ptr(), self.bytes.get() as *mut u8, n) };
        self.len.store(n, Ordering::SeqCst);
    }
    pub fn write(&self, fd: i32) {
        let n = self.len.load(Ordering::SeqCst);
        // SAFETY: `write` is async-signal-safe; the buffer lives for the whole process.
        unsafe { libc::write(fd, self.bytes.get() as *const libc::c_void, n) };
    }
}

/// The text before the stage in the crash line (`phobos: internal error: crashed `).
pub static HEAD: Buf = Buf::new();
/// The stage: `parsing kernel.mlir`, `running phobos-to-simt on kernel.phobos`.
pub static STAGE: Buf = Buf::new();

impl Buf {
    /// The text, for a panic hook (not a signal handler: it allocates).
    pub fn text(&self) -> String {
        let n = self.len.load(Ordering::SeqCst);
        // SAFETY: see `unsafe impl Sync`; the buffer lives for the whole process.
        String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(self.bytes.get() as *const u8, n) }).into_owned()
    }
}

/// Says what the process is doing now, for the crash line: `parsing kernel.mlir`,
/// `running phobos-to-simt on kernel.phobos`.
pub fn stage(what: &str) {
    STAGE.set(what);
}
