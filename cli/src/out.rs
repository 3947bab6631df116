//! Standard output and standard error as the commands write them: a write that fails (a full
//! disk, `> /dev/full`, a closed descriptor, `>&-`) is recorded instead of panicking, and the
//! process then exits 1 with a message where one can still be written (`phobos: error: writing
//! to standard output: ...`). A closed pipe (`| head`) still ends the process by SIGPIPE, quietly,
//! as it does for `cat`.
//!
//! Rust's `print!` panics on such an error, and treats a closed descriptor as success: both
//! would lose output silently or report a crash (exit 3) for a user's redirection.

use std::io::Write;
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The first write that failed: which stream and why.
static FAILED: Mutex<Option<String>> = Mutex::new(None);
/// Standard output and error were closed when the process started. Rust's runtime fills a
/// closed standard descriptor with /dev/null before `main` (so that no file takes its number),
/// which would hide it: [`note_closed`] looks first, from the ELF constructors, which run
/// before the runtime's start-up.
static CLOSED: [AtomicBool; 2] = [AtomicBool::new(false), AtomicBool::new(false)];

extern "C" fn note_closed() {
    for (i, fd) in [1, 2].into_iter().enumerate() {
        // SAFETY: fcntl(F_GETFD) only queries the descriptor.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
            CLOSED[i].store(true, Ordering::Relaxed);
        }
    }
}

/// Runs [`note_closed`] before the Rust runtime's start-up (glibc runs `.init_array` entries
/// before `main`).
#[used]
#[link_section = ".init_array"]
static NOTE_CLOSED: extern "C" fn() = note_closed;

/// Checks descriptors 1 and 2 again at start-up (a process started some other way than
/// through the ELF constructors): a closed one is noted and filled with /dev/null.
pub fn init() {
    // Keeps the constructor's object linked in.
    std::hint::black_box(&NOTE_CLOSED);
    for (i, fd) in [1, 2].into_iter().enumerate() {
        // SAFETY: fcntl(F_GETFD) only queries the descriptor.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
            CLOSED[i].store(true, Ordering::Relaxed);
            // SAFETY: opens /dev/null and moves it to `fd`, which is free.
            unsafe {
                let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY);
                if null >= 0 && null != fd {
                    libc::dup2(null, fd);
                    libc::close(null);
                }
            }
        }
    }
}

fn record(what: &str, why: String) {
    let mut f = FAILED.lock().unwrap_or_else(|e| e.into_inner());
    if f.is_none() {
        *f = Some(format!("writing to {what}: {why}"));
    }
}

/// Writes `text` to descriptor `fd` (1 or 2); false, and the failure recorded, when it fails.
fn write(fd: i32, text: &[u8]) -> bool {
    let what = if fd == 1 { "standard output" } else { "standard error" };
    if CLOSED[fd as usize - 1].load(Ordering::Relaxed) {
        record(what, "it is closed".into());
        return false;
    }
    if text.is_empty() {
        return true;
    }
    // SAFETY: the descriptor is the process's own standard stream; ManuallyDrop keeps it open.
    let mut f = ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) });
    match f.write_all(text) {
        Ok(()) => true,
        Err(e) => {
            // `Os { code: 28, .. }` reads as "No space left on device (os error 28)".
            let why = e.to_string();
            record(what, why.split(" (os error").next().unwrap_or(&why).to_string());
            false
        }
    }
}

/// Writes to standard output; false when it failed (recorded for the exit code).
pub fn stdout(text: &str) -> bool {
    write(1, text.as_bytes())
}

/// Writes bytes to standard output (an `.npy`); false when it failed (recorded).
pub fn stdout_bytes(bytes: &[u8]) -> bool {
    write(1, bytes)
}

/// What a command's outputs wait for before they are renamed into place: `Err` with the first
/// failed write to a standard stream, if any (its stats, remarks, or `-o -`).
pub fn written() -> Result<(), String> {
    failure().map_or(Ok(()), Err)
}

/// Writes to standard error; false when it failed (recorded for the exit code).
pub fn stderr(text: &str) -> bool {
    write(2, text.as_bytes())
}

/// The first write that failed, if any.
pub fn failure() -> Option<String> {
    FAILED.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The exit code once the command returned `code`: 1 when it succeeded but a write failed
/// (saying so on standard error, which may be the stream that failed); `code` otherwise.
pub fn finish(tool: &str, code: i32) -> i32 {
    match failure() {
        Some(why) if code == 0 => {
            stderr(&format!("{tool}: error: {why}\n"));
            1
        }
        _ => code,
    }
}

/// `print!` that records a failure instead of panicking.
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => {{ $crate::out::stdout(&format!($($t)*)); }};
}

/// `println!` that records a failure instead of panicking.
#[macro_export]
macro_rules! outln {
    () => {{ $crate::out::stdout("\n"); }};
    ($($t:tt)*) => {{ $crate::out::stdout(&format!("{}\n", format_args!($($t)*))); }};
}

/// `eprint!` that records a failure instead of panicking.
#[macro_export]
macro_rules! err {
    ($($t:tt)*) => {{ $crate::out::stderr(&format!($($t)*)); }};
}

/// `eprintln!` that records a failure instead of panicking.
#[macro_export]
macro_rules! errln {
    () => {{ $crate::out::stderr("\n"); }};
    ($($t:tt)*) => {{ $crate::out::stderr(&format!("{}\n", format_args!($($t)*))); }};
}
