//! What a crash inside MLIR or LLVM looks like to a user: one line naming the tool, the input
//! and the stage, a pointer to where to report it, and exit code 3. Phobos's own code reports
//! errors and never panics on input; upstream code can still abort (`LLVM ERROR: ...`), fault
//! on input it does not check, or overflow the stack on deep nesting (docs/debugging.md lists
//! the known cases). Without this, such a crash is a bare "Segmentation fault".

use phobos_compiler::crash_stage::{HEAD, STAGE};

/// The exit code of a crash inside MLIR/LLVM (documented in docs/debugging.md).
pub const CRASH_EXIT: i32 = 3;

/// Installs the handler for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT, on an alternate stack
/// so that a stack overflow is reported too. `tool` is the binary's name.
pub fn install(tool: &str) {
    HEAD.set(&format!("{tool}: internal error: crashed "));
    STAGE.set("starting up");
    install_panic_hook(tool);
    // A closed pipe on stdout or stderr ends the process quietly, as it does for cat or grep,
    // instead of a panic in a print.
    // SAFETY: resetting a signal's disposition to the default.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    // SAFETY: plain libc calls with valid arguments; the alternate stack is never unmapped (it
    // must outlive every signal).
    unsafe {
        LLVMInstallFatalErrorHandler(fatal);
        // Mapped, not allocated: its pages are touched only if a signal comes (a zeroed heap
        // block was 64 page faults in every process).
        let size = 256 * 1024;
        let stack =
            libc::mmap(std::ptr::null_mut(), size, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0);
        if stack != libc::MAP_FAILED {
            let ss = libc::stack_t { ss_sp: stack, ss_flags: 0, ss_size: size };
            libc::sigaltstack(&ss, std::ptr::null_mut());
        }
        for sig in [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE, libc::SIGABRT] {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = handler as *const () as usize;
            sa.sa_flags = libc::SA_ONSTACK | libc::SA_SIGINFO;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

extern "C" {
    /// LLVM's C API (llvm-c/ErrorHandling.h), linked in with MLIR: called instead of printing
    /// `LLVM ERROR: ...` and exiting when LLVM or MLIR meets a fatal error.
    fn LLVMInstallFatalErrorHandler(handler: extern "C" fn(*const libc::c_char));
}

extern "C" fn fatal(reason: *const libc::c_char) {
    // SAFETY: LLVM passes a NUL-terminated message.
    let reason = if reason.is_null() { String::new() } else { unsafe { std::ffi::CStr::from_ptr(reason) }.to_string_lossy().into_owned() };
    // SAFETY: write(2) is async-signal-safe, and `b` is a live slice of `b.len()` bytes.
    let out = |b: &[u8]| unsafe { libc::write(2, b.as_ptr() as *const libc::c_void, b.len()) };
    HEAD.write(2);
    out(b"(LLVM ERROR: ");
    out(reason.trim().as_bytes());
    out(b") while ");
    STAGE.write(2);
    out(b"; this is a bug in Phobos or in MLIR/LLVM: please report it with the input (known upstream crashes: docs/debugging.md)\n");
    // SAFETY: leaves at once, as LLVM's own handler would.
    unsafe { libc::_exit(CRASH_EXIT) };
}

/// Reports a panic (a bug in Phobos) as one line naming the tool, the place and the stage, and
/// exits with [`CRASH_EXIT`]; a pass's panic is caught before it gets here (the pass wrapper
/// reports it as an internal error at the op).
fn install_panic_hook(tool: &str) {
    let tool = tool.to_string();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        let stage = STAGE.text();
        crate::out::stderr(&format!(
            "{tool}: internal error: panicked{at} ({msg}) while {stage}; this is a bug in Phobos: please report it with the input\n"
        ));
        std::process::exit(CRASH_EXIT);
    }));
}

extern "C" fn handler(sig: libc::c_int, _: *mut libc::siginfo_t, _: *mut libc::c_void) {
    let name: &[u8] = match sig {
        libc::SIGSEGV => b"(segmentation fault, or a stack overflow on deep nesting)",
        libc::SIGBUS => b"(bus error)",
        libc::SIGILL => b"(illegal instruction)",
        libc::SIGFPE => b"(arithmetic exception)",
        _ => b"(abort)",
    };
    // SAFETY: write(2) is async-signal-safe, and `b` is a live slice of `b.len()` bytes.
    let out = |b: &[u8]| unsafe { libc::write(2, b.as_ptr() as *const libc::c_void, b.len()) };
    HEAD.write(2);
    out(name);
    out(b" while ");
    STAGE.write(2);
    out(b"; this is a bug in Phobos or in MLIR/LLVM: please report it with the input (known upstream crashes: docs/debugging.md)\n");
    // SAFETY: `_exit` is async-signal-safe and does not return.
    unsafe { libc::_exit(CRASH_EXIT) };
}

/// Runs `f` on a thread with a 256 MB stack (reserved, not committed), so that legal but deep
/// input (MLIR's parser and verifier recurse per nesting level) rarely reaches the guard page;
/// returns what `f` returns. The handler's alternate stack is installed on that thread too.
/// `one_arena`: the command runs on that one thread (a compile), so every allocation may come
/// from glibc's main arena ([`tune_malloc`]); commands that run the simulator's threads keep
/// glibc's arena per thread.
pub fn with_big_stack(tool: &'static str, one_arena: bool, f: impl FnOnce() -> i32 + Send + 'static) -> i32 {
    tune_malloc(one_arena);
    let t = std::thread::Builder::new().stack_size(256 << 20).spawn(move || {
        install(tool);
        let code = f();
        // A write that failed turns a success into exit 1, with its message.
        crate::out::finish(tool, code)
    });
    match t.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => {
            crate::out::stderr(&format!("{tool}: internal error: the compiler thread did not finish\n"));
            CRASH_EXIT
        }
    }
}

/// With `one_arena`, has the compiler thread allocate from glibc's main arena, grown 64 MB
/// ahead: a thread's own arena grows by one `mprotect` per allocation that reaches its top
/// (about 390 system calls a compile). Without, threads keep their own arenas (the simulator's
/// threads allocate concurrently: one arena cost `lanes_matvec` 10.1 -> 10.8 ms). Either way,
/// blocks up to 32 MB come from a heap instead of a fresh `mmap` each.
fn tune_malloc(one_arena: bool) {
    // SAFETY: mallopt only sets allocator parameters; it runs before any thread is spawned.
    unsafe {
        if one_arena {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
}

/// Ends the process with `code` once the output is flushed, without running the C++ static
/// destructors (LLVM's and MLIR's option and registry tables: about 0.4 ms of freeing memory
/// the exit releases anyway). MLIR prints to stderr unbuffered; C's and Rust's buffers are
/// flushed here.
pub fn exit(code: i32) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: fflush(NULL) flushes every C stream; `_exit` ends the process and never returns.
    unsafe {
        libc::fflush(std::ptr::null_mut());
        libc::_exit(code)
    }
}
