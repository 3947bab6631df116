//! The fuzzing harness: mutation-based, seeded from the examples and the lit inputs, one target
//! per input language. Each test is a bounded run (what `cargo test` and CI do); a campaign is
//! the same test with more runs:
//!
//! ```text
//! PHOBOS_FUZZ_RUNS=20000 cargo test --release -p phobos-cli --test suite fuzz -- --nocapture
//! ```
//!
//! Coverage-guided fuzzing (`cargo fuzz`, libFuzzer) needs a nightly compiler for its
//! sanitizer flags, and this project builds with the one stable toolchain its machines have;
//! so the mutator here is blind but structured: byte flips, truncations, token swaps, numeric
//! extremes, splices of other seeds and deep nesting, over seeds that already reach far into
//! each language. `tests/fuzz/regressions/` keeps every input that once crashed or hung Phobos;
//! they run first, every time.
//!
//! Targets, and what each asserts:
//! - `frontend`: parse + type check + L1 generation never panics, every error is located and one
//!   line, and no input takes more than 10 s;
//! - `layout`: the layout notation never panics and answers within 10 s;
//! - `npy`: the `.npy` reader never panics on mutated files;
//! - `mlir`: `phobos-opt` (a process: crashes inside MLIR kill it) exits 0, 1 or 3 (a crash
//!   inside MLIR, reported), never by a signal, within 20 s;
//! - `pipeline`: `phobos compile` to PTX of generated kernels (exchanges, atomics and ordered
//!   accesses, nested `while`s around shared buffers) and their mutants exits 0 or 1, never 3,
//!   within 20 s; the generated kernels themselves compile.

use phobos_cli::selftest::Rng;
use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

fn root() -> PathBuf {
    super::workspace_root()
}

/// Runs per target: `PHOBOS_FUZZ_RUNS`, else `default`.
fn runs(default: usize) -> usize {
    std::env::var("PHOBOS_FUZZ_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// The seeds of a target: files with `ext` under `dirs`, split on `// -----`.
fn seeds(dirs: &[&str], ext: &str) -> Vec<Vec<u8>> {
    let mut paths = Vec::new();
    for d in dirs {
        files(&root().join(d), ext, &mut paths);
    }
    paths.sort();
    let mut out = Vec::new();
    for p in paths {
        let text = std::fs::read_to_string(&p).unwrap_or_default();
        out.extend(text.split("// -----").map(|c| c.as_bytes().to_vec()));
    }
    out
}

/// The committed inputs that once broke a target.
fn regressions(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = root().join("tests/fuzz/regressions").join(target);
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap_or_default()))
        .collect();
    out.sort();
    out
}

/// Punctuation, spellings and hostile literals; the language's own words come from its lists
/// ([`words`]), so a new keyword or builtin is fuzzed without an edit here.
const TOKENS: &[&str] = &[
    "exchange<blocked, striped>(",
    "scatter<",
    "\"(32,4):(4,1)\"",
    "\"",
    "shared<f32>[",
    "atomic_add(",
    "atomic_cas(",
    "load_acquire(",
    "fence()",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    ",",
    ":",
    ":+",
    "=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "&&",
    "||",
    "!",
    "~",
    "<<",
    ">>",
    "@",
    "%",
    "\"",
    "0",
    "1",
    "-1",
    "32",
    "1024",
    "2147483647",
    "2147483648",
    "-2147483649",
    "9223372036854775807",
    "18446744073709551616",
    "0.0",
    "1e309",
    "nan",
    "ctx.lane",
    "ctx.thread",
    "ctx.warp",
    "over",
    "width",
    "xor",
    "i0",
    "index",
    "memref<?xf32>",
    "gpu.func",
    "gpu.module",
    "\n",
    " ",
    "\t",
    "//",
    "compose",
    "S[",
    "@laneid",
    "swizzle",
];

/// Every reserved word, builtin, collective and type of the language, from the frontend's lists,
/// and every math function the language names, from the one table of them.
fn words() -> impl Iterator<Item = &'static str> {
    use phobos_frontend::parser::{COLLECTIVES, EXCHANGES, MEMORY_BUILTINS, RESERVED, TYPES};
    let math = phobos_math::FUNCTIONS.iter().filter_map(|f| f.1);
    [RESERVED, MEMORY_BUILTINS, EXCHANGES, COLLECTIVES, TYPES].into_iter().flatten().copied().chain(math)
}

const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "31",
    "33",
    "1024",
    "1025",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999",
];

/// One mutation of `input`, drawing splices from `seeds`.
fn mutate(input: &[u8], seeds: &[Vec<u8>], rng: &mut Rng) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(9) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 => v.truncate(at),
            2 => {
                let end = (at + rng.below(32)).min(v.len());
                v.drain(at..end);
            }
            3 => {
                let all: Vec<&str> = TOKENS.iter().copied().chain(words()).collect();
                let t = all[rng.below(all.len())].as_bytes();
                v.splice(at..at, t.iter().copied());
            }
            4 => {
                // Replace a number with an extreme one.
                if let Some(start) = (at..v.len()).find(|&i| v[i].is_ascii_digit()) {
                    let end = (start..v.len()).find(|&i| !v[i].is_ascii_digit()).unwrap_or(v.len());
                    let n = NUMBERS[rng.below(NUMBERS.len())].as_bytes();
                    v.splice(start..end, n.iter().copied());
                }
            }
            5 if !seeds.is_empty() => {
                let other = &seeds[rng.below(seeds.len())];
                let from = rng.below(other.len() + 1);
                let end = (from + rng.below(200)).min(other.len());
                v.splice(at..at, other[from..end].iter().copied());
            }
            6 => {
                // Deep nesting around a point.
                let depth = 50 + rng.below(3000);
                let (open, close) = [("(", ")"), ("[", "]"), ("{", "}"), ("-", ""), ("f32(", ")"), ("if true { ", "}")][rng.below(6)];
                let mut mid = open.repeat(depth).into_bytes();
                mid.extend(close.repeat(depth).bytes());
                v.splice(at..at, mid);
            }
            7 if !v.is_empty() => {
                // Duplicate a slice.
                let end = (at + rng.below(64)).min(v.len());
                let piece: Vec<u8> = v[at.min(end)..end].to_vec();
                v.splice(at..at, piece);
            }
            _ => {
                let b = rng.next_u64() as u8;
                v.insert(at.min(v.len()), b);
            }
        }
    }
    v
}

/// Runs `check` on the regressions, then on `n` mutants of the seeds; every failure is
/// collected with its input, and the first few reported.
fn campaign(target: &str, seeds: &[Vec<u8>], n: usize, check: impl Fn(&[u8]) -> Result<(), String>) {
    let mut failures = Vec::new();
    let regs = regressions(target);
    for (name, input) in &regs {
        if let Err(e) = check(input) {
            failures.push(format!("regression {name}: {e}"));
        }
    }
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15 ^ target.len() as u64);
    let t0 = Instant::now();
    for i in 0..n {
        let base = &seeds[rng.below(seeds.len())];
        let input = mutate(base, seeds, &mut rng);
        if let Err(e) = check(&input) {
            let saved = root().join("target/fuzz-failures").join(target).join(format!("{i}"));
            let _ = std::fs::create_dir_all(saved.parent().expect("a parent"));
            let _ = std::fs::write(&saved, &input);
            failures.push(format!("{}: {e}", saved.display()));
        }
    }
    eprintln!(
        "fuzz {target}: {} regressions + {n} mutants of {} seeds in {:.1} s, {} failures",
        regs.len(),
        seeds.len(),
        t0.elapsed().as_secs_f64(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "fuzz {target}: {} failures:\n{}",
        failures.len(),
        failures.iter().take(10).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Runs `f` on a thread with the stack the binaries give the compiler (256 MB), catching a
/// panic as an error, under a 10 s watchdog: a hung input fails the campaign (its thread is
/// left behind) instead of stalling the suite.
fn guarded(f: impl FnOnce() -> Result<(), String> + Send + 'static) -> Result<(), String> {
    guarded_within(Duration::from_secs(10), f)
}

fn guarded_within(limit: Duration, f: impl FnOnce() -> Result<(), String> + Send + 'static) -> Result<(), String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
                format!(
                    "panic: {}",
                    p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default()
                )
            });
            let _ = tx.send(r);
        })
        .map_err(|e| e.to_string())?;
    match rx.recv_timeout(limit) {
        Ok(r) => r?,
        Err(_) => Err(format!("ran over {} s", limit.as_secs_f64())),
    }
}

/// The watchdog fails a hung case and a panicking one; it passes a quick one.
#[test]
fn guarded_fails_hangs_and_panics() {
    let hang = guarded_within(Duration::from_millis(100), || loop {
        std::thread::sleep(Duration::from_secs(1));
    });
    assert_eq!(hang, Err("ran over 0.1 s".into()));
    assert!(guarded_within(Duration::from_secs(5), || panic!("boom")).is_err_and(|e| e.contains("boom")));
    assert_eq!(guarded_within(Duration::from_secs(5), || Ok(())), Ok(()));
}

#[test]
fn fuzz_frontend() {
    let seeds = seeds(&["examples", "tests/lit/frontend", "tests/lit/run"], "phobos");
    campaign("frontend", &seeds, runs(400), |input| {
        let text = String::from_utf8_lossy(input).into_owned();
        guarded(move || {
            let src = phobos_frontend::Source::new("fuzz.phobos", text);
            match phobos_frontend::compile(&src, &phobos_frontend::Options::default()) {
                Ok(_) => Ok(()),
                Err(ds) => match ds.iter().find(|d| d.message.is_empty() || d.message.contains('\n')) {
                    Some(d) => Err(format!("an error that is not one line: {:?}", d.message)),
                    None => Ok(()),
                },
            }
        })
    });
}

#[test]
fn fuzz_layout() {
    let mut exprs: Vec<Vec<u8>> = Vec::new();
    let mut tests = Vec::new();
    files(&root().join("tests/lit/layout"), "test", &mut tests);
    for t in tests {
        for line in std::fs::read_to_string(t).unwrap_or_default().lines() {
            if let Some(rest) = line.split("phobos layout '").nth(1) {
                if let Some(e) = rest.split('\'').next() {
                    exprs.push(e.as_bytes().to_vec());
                }
            }
        }
    }
    campaign("layout", &exprs, runs(1500), |input| {
        let text = String::from_utf8_lossy(input).into_owned();
        guarded(move || {
            let _ = phobos_layout::expr::eval(&text);
            Ok(())
        })
    });
}

#[test]
fn fuzz_npy() {
    let dir = root().join("target/fuzz-npy");
    let _ = std::fs::create_dir_all(&dir);
    let mut seeds = Vec::new();
    for (dtype, shape, n) in [("<f4", "(2, 3)", 24), ("|b1", "(5,)", 5), ("<i8", "(1, 1, 2)", 16), ("<f2", "()", 2)] {
        let header = format!("{{'descr': '{dtype}', 'fortran_order': False, 'shape': {shape}, }}");
        let pad = 63 - (10 + header.len()) % 64;
        let header = format!("{header}{}\n", " ".repeat(pad));
        let mut f = b"\x93NUMPY\x01\x00".to_vec();
        f.extend((header.len() as u16).to_le_bytes());
        f.extend(header.bytes());
        f.extend(std::iter::repeat_n(0x3fu8, n));
        seeds.push(f);
    }
    let counter = std::sync::atomic::AtomicUsize::new(0);
    campaign("npy", &seeds, runs(1500), |input| {
        let path = dir.join(format!("{}.npy", counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
        std::fs::write(&path, input).map_err(|e| e.to_string())?;
        guarded(move || {
            let _ = phobos_runtime::npy::read(&path);
            let _ = std::fs::remove_file(&path);
            Ok(())
        })
    });
}

#[test]
fn fuzz_mlir() {
    let seeds = seeds(
        &["tests/lit/conversion", "tests/lit/transform", "tests/lit/dialect", "tests/lit/pipeline", "tests/lit/run", "tests/lit/analysis"],
        "mlir",
    );
    let dir = root().join("target/fuzz-mlir");
    let _ = std::fs::create_dir_all(&dir);
    let counter = std::sync::atomic::AtomicUsize::new(0);
    let pipelines = ["builtin.module(phobos-to-simt)", "builtin.module(phobos-to-ptx)", "builtin.module(gpu.module(convert-lane-to-gpu))"];
    let known = known_crashes();
    campaign("mlir", &seeds, runs(60), |input| {
        let k = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = dir.join(format!("{k}.mlir"));
        std::fs::write(&path, input).map_err(|e| e.to_string())?;
        let log = path.with_extension("log");
        let pipeline = format!("--pass-pipeline={}", pipelines[k % pipelines.len()]);
        let args: [&std::ffi::OsStr; 4] = [path.as_os_str(), pipeline.as_ref(), "-o".as_ref(), "/dev/null".as_ref()];
        let code = watched(env!("CARGO_BIN_EXE_phobos-opt"), &args, &log, Duration::from_secs(20))?;
        let err = std::fs::read_to_string(&log).unwrap_or_default();
        if err.contains("unknown environment variable") {
            return Err(format!("phobos-opt did not run: {err}"));
        }
        let text = String::from_utf8_lossy(input);
        match code {
            3 if !known.iter().any(|(pattern, _)| text.contains(pattern.as_str())) => Err(format!("phobos-opt crashed (exit 3): {err}")),
            1 => {
                located(&path, &err)?;
                let _ = std::fs::remove_file(&path);
                let _ = std::fs::remove_file(&log);
                Ok(())
            }
            0 | 3 => {
                let _ = std::fs::remove_file(&path);
                let _ = std::fs::remove_file(&log);
                Ok(())
            }
            c => Err(format!("phobos-opt exited with {c}")),
        }
    });
}

/// An error about an input names its place: the first error line reads `INPUT:LINE:COL: error:`.
fn located(input: &Path, stderr: &str) -> Result<(), String> {
    let Some(first) = stderr.lines().find(|l| l.contains("error:")) else {
        return Err(format!("exit 1 with no error line: {stderr}"));
    };
    let rest = first.strip_prefix(&*input.display().to_string()).and_then(|r| r.strip_prefix(':'));
    let numbered = rest.and_then(|r| r.split_once(':')).and_then(|(line, r)| r.split_once(':').map(|(col, _)| (line, col)));
    match numbered {
        Some((line, col)) if line.parse::<u32>().is_ok() && col.parse::<u32>().is_ok() => Ok(()),
        _ => Err(format!("an unlocated error: {first}")),
    }
}

/// The crashes inside MLIR/LLVM that Phobos cannot prevent, from `tests/fuzz/known-crashes.txt`:
/// (a text the input holds, why). An exit 3 on an input without one fails the fuzzer.
fn known_crashes() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(root().join("tests/fuzz/known-crashes.txt")).expect("tests/fuzz/known-crashes.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (p, why) = l.split_once('\t').expect("PATTERN<TAB>REASON");
            (p.to_string(), why.to_string())
        })
        .collect()
}

/// Kernels generated around the features whose passes once crashed or hung:
/// exchanges between random layouts, atomics and ordered accesses on tensors the kernel does or
/// does not write, and `while` loops nested deep around shared-buffer accesses.
fn generated_kernels(rng: &mut Rng, n: usize) -> Vec<Vec<u8>> {
    const LAYOUTS: &[&str] = &["blocked", "striped", "warp_striped"];
    const ELEMS: &[&str] = &["i32", "i64"];
    let mut out = Vec::new();
    for k in 0..n {
        let threads = [32, 64, 128, 256][rng.below(4)];
        let text = match k % 3 {
            0 => {
                let items = [1, 2, 4, 8][rng.below(4)];
                let (a, b) = (LAYOUTS[rng.below(3)], LAYOUTS[rng.below(3)]);
                let total = threads * items;
                format!(
                    "@launch({threads})\nkernel k(X: tensor<f32>[1, {total}], Y: tensor<f32>[1, {total}]) {{\n  var v: f32[{items}]\n  for i in range(0, {items}) {{\n    v[i] = X[0, ctx.thread * {items} + i]\n  }}\n  let s = exchange<{a}, {b}>(v)\n  for i in range(0, {items}) {{\n    Y[0, ctx.thread * {items} + i] = s[i]\n  }}\n}}\n"
                )
            }
            1 => {
                let e = ELEMS[rng.below(2)];
                let writes = if rng.below(2) == 0 { format!("  store_release(C[0, 1], {e}(1))\n") } else { String::new() };
                let spin = if rng.below(2) == 0 { "  while load_acquire(C[0, 2]) != 0 {}\n" } else { "" };
                let rank = if rng.below(2) == 0 { "[1, 8]" } else { "[8]" };
                let at = |i: usize| if rank == "[8]" { format!("{i}") } else { format!("0, {i}") };
                let writes = writes.replace("C[0, 1]", &format!("C[{}]", at(1)));
                let spin = spin.replace("C[0, 2]", &format!("C[{}]", at(2)));
                let add = if rng.below(2) == 0 { format!("  atomic_add(C[{}], {e}(1))\n", at(3)) } else { String::new() };
                format!(
                    "@launch({threads})\nkernel k(C: tensor<{e}>{rank}, O: tensor<{e}>[{threads}]) {{\n{spin}{writes}{add}  O[ctx.thread] = load_acquire(C[{}])\n}}\n",
                    at(0)
                )
            }
            _ => {
                let depth = 1 + rng.below(40);
                let mut body = String::from("  var buf: shared<f32>[") + &threads.to_string() + "]\n";
                for d in 0..depth {
                    body += &format!("{}var c{d} = 0\n{}while c{d} < 2 {{\n", "  ".repeat(d + 1), "  ".repeat(d + 1));
                }
                let ind = "  ".repeat(depth + 1);
                body += &format!("{ind}buf[ctx.thread] = X[ctx.thread]\n{ind}Y[ctx.thread] = buf[(ctx.thread + 1) % {threads}]\n");
                for d in (0..depth).rev() {
                    body += &format!("{}c{d} += 1\n{}}}\n", "  ".repeat(d + 2), "  ".repeat(d + 1));
                }
                format!("@launch({threads})\nkernel k(X: tensor<f32>[{threads}], Y: tensor<f32>[{threads}]) {{\n{body}}}\n")
            }
        };
        out.push(text.into_bytes());
    }
    out
}

/// Runs `bin` (`phobos`, `phobos-opt`) on `args` under a watchdog, its stderr into `log`: its exit code, or an error
/// for a signal or a process that ran over `limit`.
fn watched(bin: &str, args: &[&std::ffi::OsStr], log: &Path, limit: Duration) -> Result<i32, String> {
    let mut child = std::process::Command::new(bin)
        .args(args)
        // Cargo hands the build script's PHOBOS_BUILD_ID to tests too; the binary rejects it.
        .env_remove("PHOBOS_BUILD_ID")
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(log).map_err(|e| e.to_string())?)
        .spawn()
        .map_err(|e| e.to_string())?;
    let t0 = Instant::now();
    loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            return s.code().ok_or_else(|| format!("killed by a signal ({s})"));
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            return Err(format!("ran over {} s", limit.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The whole pipeline on generated kernels and their mutants: `phobos compile` to PTX exits 0
/// or 1 (never 3, a crash inside MLIR/LLVM) within 20 s. The unmutated kernels compile.
#[test]
fn fuzz_pipeline() {
    let mut rng = Rng::new(0x5eed_2626);
    let generated = generated_kernels(&mut rng, 60);
    let dir = root().join("target/fuzz-pipeline");
    let _ = std::fs::create_dir_all(&dir);
    for (i, k) in generated.iter().enumerate() {
        let path = dir.join(format!("gen{i}.phobos"));
        std::fs::write(&path, k).expect("write a kernel");
        let log = path.with_extension("log");
        let code = watched(
            env!("CARGO_BIN_EXE_phobos"),
            &["compile".as_ref(), path.as_os_str(), "--no-cache".as_ref(), "-o".as_ref(), "/dev/null".as_ref()],
            &log,
            Duration::from_secs(20),
        );
        let err = std::fs::read_to_string(&log).unwrap_or_default();
        assert_eq!(code, Ok(0), "generated kernel {} does not compile:\n{}\n{err}", path.display(), String::from_utf8_lossy(k));
    }
    let counter = std::sync::atomic::AtomicUsize::new(0);
    campaign("pipeline", &generated, runs(150), |input| {
        let k = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = dir.join(format!("{k}.phobos"));
        std::fs::write(&path, input).map_err(|e| e.to_string())?;
        let log = path.with_extension("log");
        match watched(
            env!("CARGO_BIN_EXE_phobos"),
            &["compile".as_ref(), path.as_os_str(), "--no-cache".as_ref(), "-o".as_ref(), "/dev/null".as_ref()],
            &log,
            Duration::from_secs(20),
        )? {
            c @ (0 | 1) => {
                if c == 1 {
                    located(&path, &std::fs::read_to_string(&log).unwrap_or_default())?;
                }
                let _ = std::fs::remove_file(&path);
                let _ = std::fs::remove_file(&log);
                Ok(())
            }
            c => Err(format!("phobos compile exited with {c}: {}", std::fs::read_to_string(&log).unwrap_or_default())),
        }
    });
}
