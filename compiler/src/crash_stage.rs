//! What the process is doing now, kept where a crash handler can read it: the CLI's handler
//! (`phobos-cli`'s `crash` module) prints it in the one line a crash inside MLIR or LLVM gives.
//! The compiler only records; it never installs a handler, prints or exits.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};

const CAP: usize = 512;

/// The text before and after the stage in the crash line, and the stage, each a fixed buffer
/// with its length: a signal handler may only read memory and call `write`. Every byte is an
/// atomic, so threads that set it while a handler reads it (Python compiling on two threads)
/// race on nothing: a reader may see a mix of two texts, never undefined behaviour. Writers
/// take turns.
pub struct Buf {
    bytes: [AtomicU8; CAP],
    len: AtomicUsize,
    writing: AtomicBool,
}

impl Buf {
    const fn new() -> Buf {
        Buf { bytes: [const { AtomicU8::new(0) }; CAP], len: AtomicUsize::new(0), writing: AtomicBool::new(false) }
    }
    pub fn set(&self, s: &str) {
        while self.writing.compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed).is_err() {
            std::hint::spin_loop();
        }
        let n = s.len().min(CAP);
        self.len.store(0, Ordering::SeqCst);
        for (b, v) in self.bytes.iter().zip(s.as_bytes()) {
            b.store(*v, Ordering::Relaxed);
        }
        self.len.store(n, Ordering::SeqCst);
        self.writing.store(false, Ordering::Release);
    }
    /// A copy of the text's bytes (no allocation: a signal handler calls it).
    fn snapshot(&self) -> ([u8; CAP], usize) {
        let n = self.len.load(Ordering::SeqCst).min(CAP);
        let mut out = [0u8; CAP];
        for (o, b) in out.iter_mut().zip(&self.bytes).take(n) {
            *o = b.load(Ordering::Relaxed);
        }
        (out, n)
    }
    pub fn write(&self, fd: i32) {
        let (bytes, n) = self.snapshot();
        // SAFETY: `write` is async-signal-safe; `bytes` holds `n` initialized bytes.
        unsafe { libc::write(fd, bytes.as_ptr() as *const libc::c_void, n) };
    }
}

/// The text before the stage in the crash line (`phobos: internal error: crashed `).
pub static HEAD: Buf = Buf::new();
/// The stage: `parsing kernel.mlir`, `running phobos-to-simt on kernel.phobos`.
pub static STAGE: Buf = Buf::new();

impl Buf {
    /// The text, for a panic hook (not a signal handler: it allocates).
    pub fn text(&self) -> String {
        let (bytes, n) = self.snapshot();
        String::from_utf8_lossy(&bytes[..n]).into_owned()
    }
}

/// Says what the process is doing now, for the crash line: `parsing kernel.mlir`,
/// `running phobos-to-simt on kernel.phobos`.
pub fn stage(what: &str) {
    STAGE.set(what);
}
