//! The one integration-test binary of the workspace (each binary that links MLIR costs a long
//! link). It drives the lit suite through the binaries cargo built.

use std::process::Command;

#[path = "suite/snapshots.rs"]
mod snapshots;

#[path = "suite/e2e.rs"]
#[allow(clippy::needless_range_loop)] // references index several arrays at once
mod e2e;

#[path = "suite/layouts.rs"]
mod layouts;

#[path = "suite/memory.rs"]
mod memory;

#[path = "suite/rotate.rs"]
mod rotate;

#[path = "suite/exchange.rs"]
#[allow(clippy::needless_range_loop)]
mod exchange;

#[path = "suite/fuzz.rs"]
mod fuzz;

#[path = "suite/math_accuracy.rs"]
mod math_accuracy;

#[path = "suite/npy_headers.rs"]
mod npy_headers;

#[path = "suite/embedding.rs"]
mod embedding;

// The Rust examples of docs/embedding.md, compiled and run.
#[path = "suite/doc_examples.rs"]
mod doc_examples;

#[path = "suite/trace.rs"]
mod trace;

#[path = "suite/workspace.rs"]
mod workspace;

#[path = "suite/patterns.rs"]
mod patterns;

// The op enums against the IRDL files.
#[path = "suite/vocabulary.rs"]
mod vocabulary;

#[path = "suite/embedder.rs"]
mod embedder;

#[path = "suite/explain.rs"]
mod explain;

#[path = "suite/program.rs"]
mod program;

// explain draws the accesses of the PTX.
#[path = "suite/explain_ptx.rs"]
mod explain_ptx;

fn workspace_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// Runs `lit tests/lit` with the binaries cargo built; fails on any failing lit test.
#[test]
fn lit_suite() {
    let root = workspace_root();
    let lit = std::env::var("PHOBOS_LIT").unwrap_or_else(|_| "/usr/lib/llvm-22/bin/lit".into());
    let out = Command::new(&lit)
        .arg(root.join("tests/lit"))
        .args(["-sv", "--param"])
        .arg(format!("phobos_opt={}", env!("CARGO_BIN_EXE_phobos-opt")))
        .arg("--param")
        .arg(format!("phobos={}", env!("CARGO_BIN_EXE_phobos")))
        .arg("--param")
        .arg(format!("build_dir={}", root.join("target/lit").display()))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {lit}: {e} (run third_party/install.sh)"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    print!("{stdout}");
    eprint!("{stderr}");
    assert!(out.status.success(), "lit failed");
}

fn lit_files() -> Vec<std::path::PathBuf> {
    fn walk(d: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(d).expect("tests/lit is readable").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out)
            } else if p.extension().is_some_and(|x| x == "mlir" || x == "phobos") {
                out.push(p)
            }
        }
    }
    let mut out = Vec::new();
    walk(&workspace_root().join("tests/lit"), &mut out);
    out
}

/// Cargo has no enforced glob over test files (IREE's check): every pass in the registry must
/// have a lit file named after its flag, and appear in some RUN line.
#[test]
fn every_pass_has_a_lit_file_named_after_its_flag() {
    let files = lit_files();
    let runs: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .flat_map(|t| t.lines().filter(|l| l.contains("RUN:")).map(String::from).collect::<Vec<_>>())
        .collect::<Vec<_>>()
        .join("\n");
    for p in phobos_passes::registry::passes() {
        let named = files.iter().any(|f| f.file_stem().and_then(|s| s.to_str()) == Some(p.flag));
        assert!(named, "pass '{}' has no lit file named {}.mlir", p.flag, p.flag);
        assert!(runs.contains(p.flag), "pass '{}' appears in no RUN line", p.flag);
    }
    for (name, _) in phobos_passes::pipelines::PIPELINES {
        assert!(runs.contains(name), "pipeline '{name}' appears in no RUN line");
    }
}

#[path = "../../examples/embed.rs"]
mod embed_example;

/// The embedding example builds a kernel with the typed builders and runs it on the simulator.
#[test]
fn embedding_example_runs_on_the_simulator() {
    let (got, want) = embed_example::run(&phobos::Device::Simulator).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(got, want);
}

/// On a machine with a GPU, the embedding example's kernel gives the simulator's answer there
/// too; elsewhere the test says why it is skipped.
#[test]
fn embedding_example_runs_on_the_gpu_when_present() {
    let device = match phobos::Device::cuda() {
        Ok(d) => d,
        Err(e) => {
            skipped(&format!("no usable GPU ({e})"));
            return;
        }
    };
    let (got, want) = embed_example::run(&device).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(got, want);
}

/// The embedding API rejects arguments that do not match the kernel's parameters, and bad IR,
/// with messages (no panic).
#[test]
fn embedding_api_reports_bad_arguments_and_bad_ir() {
    use phobos::{Arg, Compiler, Device, Error, Options};
    let compiler = Compiler::new().unwrap();
    let src = std::fs::read_to_string(workspace_root().join("examples/lane_sum.mlir")).unwrap();
    let kernels = compiler.compile_mlir(&src, "lane_sum.mlir", &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let k = &kernels[0];
    let mut x = vec![0u8; 4096];
    match k.launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Buffer(&mut x), Arg::I32(3)]) {
        Err(Error::Launch(m)) => assert_eq!(m, "sum32 takes 1 arguments, got 2"),
        other => panic!("{:?}", other.map(|r| r.ms)),
    }
    match k.launch(&Device::Simulator, [1, 1, 1], &mut [Arg::I32(3)]) {
        Err(Error::Launch(m)) => assert!(m.starts_with("argument 0 (arg0) of sum32 is a buffer of f32, got Arg::I32"), "{m}"),
        other => panic!("{:?}", other.map(|r| r.ms)),
    }
    let bad = src.replace("kind = \"sum\"", "kind = \"sum\", width = 3 : i32");
    match compiler.compile_mlir(&bad, "bad.mlir", &Options::default()) {
        Err(Error::Compile(d)) => {
            let text = d.to_string();
            assert!(text.contains("bad.mlir:") && text.contains("width"), "{text}");
            // The error is matchable: its location is the lane.reduce line of the input.
            let e = d.first_error().expect("an error");
            let loc = e.loc.as_ref().expect("a location");
            assert_eq!((loc.file.as_str(), loc.line), ("bad.mlir", 5), "{text}");
            assert!(e.message.contains("width"), "{}", e.message);
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("width 3 compiled"),
    }
}

/// A simulator fault comes back with its kind, CTA, thread and source location, not a string.
#[test]
fn embedding_api_faults_are_structured() {
    use phobos::{Arg, Compiler, Device, Error, FaultKind, Options};
    let src = r#"gpu.module @m {
  gpu.func @oob(%x: memref<1099511627776xf32> {llvm.align = 16 : i64, phobos.tensor = "X", phobos.dims = ["N"]}, %n: i64 {phobos.dim = "N"}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %one = arith.constant 1.0 : f32
    %c0 = arith.constant 0 : index
    memref.store %one, %x[%t] : memref<1099511627776xf32>
    gpu.return
  }
}
"#;
    // The first store is in bounds, the second faults: the host bytes must come back unchanged.
    let src = &src.replace(
        "    memref.store %one, %x[%t]",
        "    memref.store %one, %x[%c0] : memref<1099511627776xf32>\n    memref.store %one, %x[%t]",
    );
    let kernels = Compiler::new().unwrap().compile_mlir(src, "oob.mlir", &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    // 16 floats for 32 threads: thread 16 stores past the end.
    let mut x = vec![0u8; 16 * 4];
    match kernels[0].launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Buffer(&mut x), Arg::I64(16)]) {
        Err(Error::Fault(f)) => {
            assert_eq!(f.kind, FaultKind::OutOfBounds, "{f}");
            assert_eq!((f.kernel.as_str(), f.cta, f.thread), ("oob", [0, 0, 0], Some([16, 0, 0])), "{f}");
            let loc = f.loc.as_ref().expect("a location");
            assert_eq!((loc.file.as_str(), loc.line), ("oob.mlir", 7), "{f}");
            assert!(x.iter().all(|b| *b == 0), "a launch that faulted changed the host bytes");
        }
        other => panic!("expected an out-of-bounds fault, got {:?}", other.map(|r| r.ms)),
    }
}

/// The CUDA path's PTX (a SIMT module lowered on, as `--backend cuda` does) is the same kernel
/// `phobos compile` gives: checked here, where no GPU runs it.
#[test]
fn cuda_path_lowers_the_simt_module_to_ptx() {
    let session = phobos_compiler::session::Session::new(true).unwrap();
    let src = std::fs::read_to_string(workspace_root().join("examples/lanes_matvec.phobos")).unwrap();
    let (module, _) = phobos_compiler::front_door::load_text(&session, "lanes_matvec.phobos", &src, None, "sm_90", &Default::default())
        .map(|l| (l.module, l.sig))
        .unwrap_or_else(|e| panic!("{e:?}"));
    let ptx = phobos_compiler::front_door::simt_to_ptx(&session, &module, "lanes_matvec", "sm_90").unwrap_or_else(|e| panic!("{e:?}"));
    assert!(ptx.contains(".visible .entry lanes_matvec("), "{ptx}");
    assert_eq!(ptx.matches("shfl.sync.bfly").count(), 5);
    assert_eq!(ptx.matches("ld.global.nc.v4").count(), 2);
    // The SIMT module is kept for the simulator.
    assert!(!module.op().find_all("gpu.func").is_empty());
    // From the SIMT level only MLIR's pipeline runs: a lane fold under control that differs
    // only between warps (`ctx.warp < 2`, thread arithmetic once lowered) still compiles.
    let src = "@launch(128)\nkernel wsum(X: tensor<f32>[128], Y: tensor<f32>[4]) {\n  let v = X[ctx.thread]\n  if ctx.warp < 2 {\n    let s = sum<over ctx.lane>(v)\n    if ctx.lane == 0 {\n      Y[ctx.warp] = s\n    }\n  }\n}\n";
    let (module, _) = phobos_compiler::front_door::load_text(&session, "wsum.phobos", src, None, "sm_90", &Default::default())
        .map(|l| (l.module, l.sig))
        .unwrap_or_else(|e| panic!("{e:?}"));
    let ptx = phobos_compiler::front_door::simt_to_ptx(&session, &module, "wsum", "sm_90").unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(ptx.matches("shfl.sync.bfly").count(), 5, "{ptx}");
}

/// Every `PHOBOS_*` variable the sources read is in the registry (`compiler/src/env.rs`, which
/// makes the binaries reject unknown ones) and documented in `docs/debugging.md`.
#[test]
fn every_environment_variable_is_registered_and_documented() {
    fn walk(d: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
            let p = e.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if p.is_dir() && !["target", ".tools", ".git"].contains(&name) {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs" || x == "sh" || x == "py") {
                out.push(p);
            }
        }
    }
    let root = workspace_root();
    let mut files = Vec::new();
    walk(&root, &mut files);
    let docs = std::fs::read_to_string(root.join("docs/debugging.md")).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        for (i, _) in text.match_indices("PHOBOS_") {
            let name: String = text[i..].chars().take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_').collect();
            if name.len() > "PHOBOS_".len() && !name.ends_with('_') {
                seen.insert(name);
            }
        }
    }
    // Compile-time variables a build script sets (`cargo:rustc-env=`) are not read at run time.
    let build = std::fs::read_to_string(root.join("compiler/build.rs")).unwrap_or_default();
    seen.retain(|n| !build.contains(&format!("cargo:rustc-env={n}=")));
    for name in &seen {
        assert!(phobos_compiler::env::VARS.iter().any(|(n, _)| n == name), "{name} is read but not in compiler/src/env.rs");
        assert!(docs.contains(&format!("`{name}`")), "{name} is not documented in docs/debugging.md");
    }
}

/// The list of functions cli/build.rs has the linker lay out together (`symbol-order.txt`)
/// names functions this binary has, and the linker honoured it: they sit in one stretch of
/// text far shorter than the binary's code. A list left stale by another LLVM fails here
/// (regenerate it with `scripts/symbol-order.py`).
#[test]
fn the_functions_a_compile_runs_are_linked_together() {
    let list = std::fs::read_to_string(workspace_root().join("cli/symbol-order.txt")).expect("cli/symbol-order.txt");
    let listed: std::collections::HashSet<&str> = list.lines().collect();
    let out = std::process::Command::new("nm").args(["--defined-only", env!("CARGO_BIN_EXE_phobos")]).output().expect("nm runs");
    assert!(out.status.success(), "nm: {}", String::from_utf8_lossy(&out.stderr));
    let (mut at, mut names, mut text_lo, mut text_hi) = (Vec::new(), std::collections::HashSet::new(), u64::MAX, 0u64);
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let mut f = line.split_whitespace();
        let (Some(addr), Some(kind), Some(name)) = (f.next(), f.next(), f.next()) else { continue };
        let Ok(addr) = u64::from_str_radix(addr, 16) else { continue };
        if !"tTwW".contains(kind) {
            continue;
        }
        (text_lo, text_hi) = (text_lo.min(addr), text_hi.max(addr));
        if listed.contains(name) {
            at.push(addr);
            names.insert(name.to_string());
        }
    }
    let found = names.len();
    assert!(
        found * 100 >= listed.len() * 95,
        "only {found} of the {} listed functions are in the binary: regenerate cli/symbol-order.txt",
        listed.len()
    );
    // Some listed names cannot move (the C runtime's `_start`) or are local to many objects (a
    // static initialiser's `__cxx_global_var_init`, of which one copy ran): the middle 90%.
    at.sort_unstable();
    let (span, text) = (at[at.len() * 95 / 100] - at[at.len() * 5 / 100], text_hi - text_lo);
    assert!(span * 4 < text, "90% of the listed functions span {span} bytes of {text}: the linker did not order them");
}

/// Launch arguments follow one set of rules on every device (no conversion anywhere), so a
/// kernel that runs on the simulator means the same on a GPU; the GPU half runs where there is
/// one.
#[test]
fn embedding_api_checks_arguments_the_same_on_every_device() {
    use phobos::{Arg, Compiler, Device, Error, Options};
    let compiler = Compiler::new().unwrap();
    let src = std::fs::read_to_string(workspace_root().join("examples/lanes_matvec.phobos")).unwrap();
    let kernels = compiler.compile_phobos(&src, "lanes_matvec.phobos", &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let k = &kernels[0];
    let mut devices = vec![Device::Simulator];
    match Device::cuda() {
        Ok(d) => devices.push(d),
        Err(e) => skipped(&format!("the GPU half: {e}")),
    }
    let wants = [
        "argument 3 (N) of lanes_matvec is i64: pass Arg::I64, got Arg::I32",
        "argument 0 (W) of lanes_matvec: a buffer of f32 holds whole 4-byte elements, got 7 bytes",
        "argument 0 (W) of lanes_matvec is a buffer of f32, got Arg::F64",
        "argument 0 (W) of lanes_matvec: W is f32[N=8, K=128], 1024 elements, but the buffer holds 1016",
        "argument 0 (W) of lanes_matvec: dimension K is -128",
        "argument 0 (W) of lanes_matvec: W is f32[N=8, K=128], 1024 elements, but the buffer holds 1016",
        "argument 2 (y) of lanes_matvec: the same device buffer is argument 1 too; pass distinct buffers",
        "argument 0 (W) of lanes_matvec: an asynchronous launch takes device buffers (Arg::Device), not host bytes",
    ];
    for device in &devices {
        for (case, want) in wants.iter().enumerate() {
            let (mut w, mut x, mut y, mut odd) = (vec![0u8; 8 * 128 * 4], vec![0u8; 128 * 4], vec![0u8; 8 * 4], vec![0u8; 7]);
            let mut short = vec![0u8; (8 * 128 - 8) * 4];
            let mut args = match case {
                0 => vec![Arg::Buffer(&mut w), Arg::Buffer(&mut x), Arg::Buffer(&mut y), Arg::I32(8), Arg::I64(128)],
                1 => vec![Arg::Buffer(&mut odd), Arg::Buffer(&mut x), Arg::Buffer(&mut y), Arg::I64(8), Arg::I64(128)],
                2 => vec![Arg::F64(1.0), Arg::Buffer(&mut x), Arg::Buffer(&mut y), Arg::I64(8), Arg::I64(128)],
                3 => vec![Arg::Buffer(&mut short), Arg::Buffer(&mut x), Arg::Buffer(&mut y), Arg::I64(8), Arg::I64(128)],
                4 => vec![Arg::Buffer(&mut w), Arg::Buffer(&mut x), Arg::Buffer(&mut y), Arg::I64(8), Arg::I64(-128)],
                _ => vec![],
            };
            // The same rules for buffers that live on the device, and for asynchronous launches.
            let short_d = device.alloc((8 * 128 - 8) * 4).unwrap();
            let xy = device.alloc(128 * 4).unwrap();
            let y_d = device.alloc(8 * 4).unwrap();
            let mut w2 = vec![0u8; 8 * 128 * 4];
            let result = match case {
                5 => k.launch(
                    device,
                    [2, 1, 1],
                    &mut [Arg::Device(&short_d), Arg::Device(&xy), Arg::Device(&y_d), Arg::I64(8), Arg::I64(128)],
                ),
                6 => {
                    k.launch(device, [2, 1, 1], &mut [Arg::Buffer(&mut w2), Arg::Device(&xy), Arg::Device(&xy), Arg::I64(8), Arg::I64(128)])
                }
                7 => k
                    .launch_async(
                        &device.stream().unwrap(),
                        [2, 1, 1],
                        &mut [Arg::Buffer(&mut w2), Arg::Device(&xy), Arg::Device(&y_d), Arg::I64(8), Arg::I64(128)],
                    )
                    .map(|_| Default::default()),
                _ => k.launch(device, [2, 1, 1], &mut args),
            };
            match result {
                Err(Error::Launch(m)) => assert_eq!(&m, want, "on {device:?}"),
                other => panic!("{device:?}: {:?}", other.map(|r| r.ms)),
            }
        }
    }
}

/// IR dumps through the API (a multi-threaded compiler) write one file per pass instead of
/// aborting the process.
#[test]
fn embedding_api_dumps_the_ir_of_every_pass() {
    use phobos::{Compiler, Options};
    let dir = workspace_root().join("target/api-dump-test");
    let _ = std::fs::remove_dir_all(&dir);
    let compiler = Compiler::new().unwrap();
    let src = std::fs::read_to_string(workspace_root().join("examples/lane_sum.mlir")).unwrap();
    let opts = Options::default().with_dump_dir(dir.clone());
    compiler.compile_mlir(&src, "lane_sum.mlir", &opts).unwrap_or_else(|e| panic!("{e}"));
    let files: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(files.iter().any(|f| f == "00-l1-input.mlir"), "{files:?}");
    assert!(files.iter().any(|f| f.ends_with("-simt-convert-lane-to-gpu.mlir")), "{files:?}");
    assert!(files.iter().any(|f| f.ends_with("-ptx-gpu-module-to-binary.mlir")), "{files:?}");
    // The compiler keeps working afterwards, threads and all.
    compiler.compile_mlir(&src, "lane_sum.mlir", &Options::default()).unwrap_or_else(|e| panic!("{e}"));
}

/// Two gpu.modules compile to one PTX module per kernel's gpu.module (never a concatenation),
/// each of which ptxas accepts; the simulator runs a kernel of either module.
#[test]
fn embedding_api_gives_each_gpu_module_its_own_ptx() {
    use phobos::{Arg, Compiler, Device, Options};
    let src = std::fs::read_to_string(workspace_root().join("tests/lit/driver/two-gpu-modules.mlir")).unwrap();
    let kernels = Compiler::new().unwrap().compile_mlir(&src, "two.mlir", &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["add1", "dbl"]);
    for (k, other) in [(&kernels[0], "dbl"), (&kernels[1], "add1")] {
        assert_eq!(k.ptx.matches(".version").count(), 1, "{} has one PTX header", k.name);
        assert!(k.ptx.contains(&format!(".entry {}(", k.name)), "{}'s PTX has its entry", k.name);
        assert!(!k.ptx.contains(&format!(".entry {other}(")), "{}'s PTX lacks the other module's entry", k.name);
        match phobos_compiler::stats::find_ptxas() {
            Some(ptxas) => {
                let f = workspace_root().join(format!("target/two-modules-{}.ptx", k.name));
                std::fs::write(&f, &k.ptx).unwrap();
                let out = Command::new(ptxas).args([&format!("-arch={}", k.chip), "-o", "/dev/null"]).arg(&f).output().unwrap();
                assert!(out.status.success(), "ptxas rejects {}'s PTX: {}", k.name, String::from_utf8_lossy(&out.stderr));
            }
            None => tool_missing("ptxas", "the ptxas half; third_party/install.sh installs it"),
        }
    }
    let x: Vec<u8> = (0..32).flat_map(|i| (i as f32).to_le_bytes()).collect();
    for (k, want) in [(&kernels[0], 4.0f32), (&kernels[1], 6.0)] {
        let mut buf = x.clone();
        k.launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Buffer(&mut buf), Arg::I64(32)]).unwrap_or_else(|e| panic!("{e}"));
        let got = f32::from_le_bytes(buf[12..16].try_into().unwrap());
        assert_eq!(got, want, "{} on element 3", k.name);
    }
}

/// A module is compiled by the Compiler whose context built it; another one says so, and leaves
/// nothing behind that shows up in its next error.
#[test]
fn embedding_api_refuses_a_module_of_another_compiler() {
    use phobos::{Compiler, Error, KernelBuilder, Options, ParamType};
    let (a, b) = (Compiler::new().unwrap(), Compiler::new().unwrap());
    let k = KernelBuilder::new(&a, "empty", 32, &[("x", ParamType::Buffer("f32".into()))]).unwrap();
    let module = k.finish(&a).unwrap();
    match b.compile_module(&module, &Options::default()) {
        Err(Error::Compile(d)) => {
            assert!(d.to_string().contains("belongs to another Compiler's context"), "{d}");
            assert!(d.first_error().is_some_and(|e| e.loc.is_none()), "an API misuse has no source location");
        }
        other => panic!("expected a compile error, got {:?}", other.map(|ks| ks.len())),
    }
    assert!(a.compile_module(&module, &Options::default()).is_ok());
    match b.compile_mlir("gpu.module @m {", "bad.mlir", &Options::default()) {
        Err(Error::Compile(d)) => {
            assert!(d.all().iter().all(|e| e.loc.as_ref().is_some_and(|l| l.file == "bad.mlir")), "only this input's errors: {d}")
        }
        other => panic!("expected a compile error, got {:?}", other.map(|ks| ks.len())),
    }
}

/// Kernels, devices and errors cross threads, so a frontend can launch from worker threads
/// (a compile-time check: this fails to build if one stops being `Send + Sync`).
#[test]
fn embedding_api_kernels_and_devices_are_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<phobos::Kernel>();
    send_sync::<phobos::Device>();
    send_sync::<phobos::Error>();
    send_sync::<phobos::Options>();
    send_sync::<phobos::DeviceBuffer>();
    send_sync::<phobos::Stream>();
    send_sync::<phobos::Event>();
    send_sync::<phobos::Staged>();
    send_sync::<phobos::Compiled>();
}

/// KernelBuilder refuses a bad kernel or parameter name, type or block size with an error that
/// names it (no panic, no parse error in generated text).
#[test]
fn embedding_api_builder_misuse_is_an_error() {
    use phobos::{Compiler, Error, KernelBuilder, ParamType};
    let c = Compiler::new().unwrap();
    let f32s = || ParamType::Buffer("f32".into());
    let cases: [(&str, u32, Vec<(&str, ParamType)>, &str); 6] = [
        ("k", 32, vec![("my x", f32s())], "parameter 0 of k: 'my x' is not an identifier"),
        ("my k", 32, vec![("x", f32s())], "kernel name 'my k' is not an identifier"),
        ("k", 32, vec![("x", f32s()), ("x", f32s())], "parameter 1 of k: 'x' names an earlier parameter too"),
        ("k", 32, vec![("x", ParamType::Buffer("float".into()))], "parameter 0 (x) of k has type 'float'"),
        ("k", 32, vec![("n", ParamType::Scalar("memref<4xf32>".into()))], "parameter 0 (n) of k has type 'memref<4xf32>'"),
        ("k", 2048, vec![("x", f32s())], "kernel k has a block of 2048x1x1 threads; CUDA allows 1 to 1024 threads"),
    ];
    for (name, threads, params, want) in cases {
        match KernelBuilder::new(&c, name, threads, &params) {
            Err(Error::Compile(d)) => assert!(d.to_string().contains(want), "{d}"),
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("{name} {params:?} was accepted"),
        }
    }
    assert!(KernelBuilder::new(&c, "k", 32, &[("x", f32s()), ("n", ParamType::Scalar("index".into()))]).is_ok());
}

/// Ops built at a caller's location report errors there, not in the builder's generated text.
#[test]
fn embedding_api_builder_ops_take_the_callers_location() {
    use phobos::{Compiler, Error, KernelBuilder, ParamType};
    use phobos_dialects::lane;
    let c = Compiler::new().unwrap();
    for (at, want) in [(Some(("front.src", 12, 3)), ("front.src", 12, 3)), (None, ("k.builder", 3, 5))] {
        let k = KernelBuilder::new(&c, "k", 32, &[("x", ParamType::Buffer("f32".into()))]).unwrap();
        let b = match at {
            Some((f, l, col)) => k.builder_at(f, l, col),
            None => k.builder(),
        };
        let v = b.const_float(b.ctx.known_type("f32"), 1.0);
        lane::build::reduce(b, lane::Kind::Sum, v, 3);
        match k.finish(&c) {
            Err(Error::Compile(d)) => {
                let loc = d.first_error().and_then(|e| e.loc.clone()).expect("a located error");
                assert_eq!((loc.file.as_str(), loc.line, loc.col), want, "{d}");
            }
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("width 3 was accepted"),
        }
    }
}

/// A pass pipeline in phobos-opt's syntax runs on a module from the API; a wrong one is an error.
#[test]
fn embedding_api_runs_a_pass_pipeline() {
    use phobos::{Compiler, Error};
    let c = Compiler::new().unwrap();
    let src = std::fs::read_to_string(workspace_root().join("examples/lane_sum.mlir")).unwrap();
    let module = c.session().parse(&src, "lane_sum.mlir").expect("parses");
    c.run_pipeline(&module, "builtin.module(gpu.module(convert-lane-to-gpu))").unwrap_or_else(|e| panic!("{e}"));
    let text = module.op().to_string();
    // A width-32 sum and a width-8 max: 5 + 3 butterfly steps.
    assert!(!text.contains("lane.reduce") && text.matches("gpu.shuffle ").count() == 8, "{text}");
    match c.run_pipeline(&module, "builtin.module(no-such-pass)") {
        Err(Error::Compile(d)) => {
            let in_pipeline = d.first_error().and_then(|e| e.loc.as_ref()).is_some_and(|l| l.file == "<pass-pipeline>");
            assert!(d.to_string().contains("no-such-pass") && in_pipeline, "{d}")
        }
        other => panic!("expected a pipeline error, got {other:?}"),
    }
}

/// `verify_once` (a release `phobos compile`) still verifies the pipeline's output: once, at
/// the end. A module made invalid after parsing is reported even by an empty pipeline; with
/// it off, MLIR verifies only after passes, so the same empty pipeline says nothing.
#[test]
fn a_pipeline_verified_once_still_reports_invalid_ir() {
    use phobos_compiler::pass_manager::{run_pipeline, IrPrinting, PipelineRunError};
    let session = phobos_compiler::session::Session::new(true).unwrap();
    let src = std::fs::read_to_string(workspace_root().join("examples/lane_sum.mlir")).unwrap();
    let run = |verify_once: bool, pipeline: &str| {
        let module = session.parse(&src, "lane_sum.mlir").expect("parses");
        let cfg = phobos_passes::pipeline::BuildConfig { diags: session.diags.clone(), verify_once, ..Default::default() };
        run_pipeline(&session, &module, pipeline, &cfg, &IrPrinting::default()).map(|()| module.op().to_string())
    };
    let lowered = run(true, "builtin.module(gpu.module(convert-lane-to-gpu))").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(lowered, run(false, "builtin.module(gpu.module(convert-lane-to-gpu))").unwrap(), "verify_once changed the output");
    let broken = session.parse(&src, "lane_sum.mlir").expect("parses");
    let func = broken.op().find_all("gpu.func")[0];
    func.set_attr("function_type", func.ctx().str_attr("not a function type"));
    for (verify_once, reported) in [(true, true), (false, false)] {
        let cfg = phobos_passes::pipeline::BuildConfig { diags: session.diags.clone(), verify_once, ..Default::default() };
        let r = run_pipeline(&session, &broken, "builtin.module()", &cfg, &IrPrinting::default());
        match r {
            Err(PipelineRunError::Run(m)) if reported => assert!(m.contains("does not verify"), "{m}"),
            Ok(()) if !reported => {}
            other => panic!("verify_once={verify_once}: {other:?}"),
        }
    }
    session.diags.take();
}

/// The typed builder of `cta.exchange` (and `tile.alloc` through it): a frontend builds a
/// blocked-to-striped exchange in code and runs it on the simulator.
#[test]
fn embedding_api_builds_an_exchange() {
    use phobos::{Arg, Compiler, Device, KernelBuilder, Options, ParamType};
    use phobos_dialects::cta;
    let c = Compiler::new().unwrap();
    let k = KernelBuilder::new(&c, "ex", 64, &[("x", ParamType::Buffer("f32".into())), ("y", ParamType::Buffer("f32".into()))]).unwrap();
    let (x, y) = (k.args()[0], k.args()[1]);
    let b = k.builder();
    let ctx = b.ctx;
    let t = b.op_value("gpu.thread_id", &[], ctx.index(), &[("dimension", ctx.known_attr("#gpu<dim x>"))]);
    let two = b.index(2);
    let base = b.bin("arith.muli", t, two);
    let items: Vec<_> = (0..2)
        .map(|i| {
            let at = b.bin("arith.addi", base, b.index(i));
            b.op_value("memref.load", &[x, at], ctx.known_type("f32"), &[])
        })
        .collect();
    let v = b.op_value("vector.from_elements", &items, ctx.known_type("vector<2xf32>"), &[]);
    let s = cta::build::exchange(b, "blocked(64,2)", "striped(64,2)", v);
    for i in 0..2 {
        let e =
            b.op_value("vector.extract", &[s], ctx.known_type("f32"), &[("static_position", ctx.known_attr(&format!("array<i64: {i}>")))]);
        let at = b.bin("arith.addi", base, b.index(i));
        b.op("memref.store", &[e, y, at], &[], &[]);
    }
    let module = k.finish(&c).unwrap();
    let kernels = c.compile_module(&module, &Options::default()).unwrap();
    let xs: Vec<f32> = (0..128).map(|p| p as f32).collect();
    let mut xb: Vec<u8> = xs.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut yb = vec![0u8; 128 * 4];
    kernels[0].launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Buffer(&mut xb), Arg::Buffer(&mut yb)]).unwrap();
    let got: Vec<f32> = yb.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    // Blocked input: thread t item i holds position 2t + i (value = position); striped output:
    // thread t item i holds position 64i + t.
    let want: Vec<f32> = (0..128).map(|k| (64 * (k % 2) + k / 2) as f32).collect();
    assert_eq!(got, want);
}

/// A kernel built with typed builders only (no op-name string): each thread sums one row of a
/// matrix with a carried `scf.for`, guards its store with `if_then`; run on the simulator against
/// a CPU reference. Misused builders are errors, not panics.
#[test]
fn embedding_api_typed_builders_build_a_whole_kernel() {
    use phobos::build::{self, Dim};
    use phobos::{Arg, Compiler, Device, Error, KernelBuilder, Options, ParamType};
    let c = Compiler::new().unwrap();
    let params = [
        ("x", ParamType::Buffer("f32".into())),
        ("y", ParamType::Buffer("f32".into())),
        ("rows", ParamType::Scalar("index".into())),
        ("cols", ParamType::Scalar("index".into())),
    ];
    let k = KernelBuilder::new(&c, "row_sum", 64, &params).unwrap();
    let [x, y, rows, cols] = k.args()[..] else { panic!("four parameters") };
    let b = k.builder();
    let ctx = b.ctx;
    let t = build::thread_id(b, Dim::X);
    let blk = build::block_id(b, Dim::X);
    let row = b.bin("arith.addi", b.bin("arith.muli", blk, b.index(64)), t);
    let inside = b.cmpi("ult", row, rows);
    // Rows past the end sum nothing (the loop's bound is 0) and store nothing.
    let ub = b.select(inside, cols, b.index(0));
    let zero = b.const_float(ctx.known_type("f32"), 0.0);
    let sum = build::for_loop(b, b.index(0), ub, b.index(1), &[zero], |lb, j, acc| {
        let at = lb.bin("arith.addi", lb.bin("arith.muli", row, cols), j);
        let v = build::load(lb, x, &[at])?;
        Ok(vec![lb.bin("arith.addf", acc[0], v)])
    })
    .unwrap();
    build::if_then(b, inside, |ib| build::store(ib, sum[0], y, &[row])).unwrap();
    // Misuse: a store with no index, a load of a non-memref, a condition that is not i1.
    assert!(matches!(build::store(b, zero, x, &[]), Err(Error::Compile(_))));
    assert!(matches!(build::load(b, rows, &[row]), Err(Error::Compile(_))));
    assert!(build::if_then(b, zero, |_| Ok(())).is_err());
    assert!(build::for_loop(b, b.index(0), b.i32(3), b.index(1), &[], |_, _, _| Ok(vec![])).is_err());
    assert!(build::for_loop(b, b.index(0), b.index(3), b.index(1), &[zero], |_, _, _| Ok(vec![])).is_err());
    // An error inside a body comes back through the builder, with `?`.
    let inner = build::for_loop(b, b.index(0), b.index(3), b.index(1), &[], |lb, _, _| {
        build::load(lb, rows, &[row])?;
        Ok(vec![])
    });
    assert!(matches!(inner, Err(Error::Compile(_))));
    let module = k.finish(&c).unwrap();
    let kernels = c.compile_module(&module, &Options::default()).unwrap();
    let (nrows, ncols) = (100usize, 7usize);
    let xs: Vec<f32> = (0..nrows * ncols).map(|i| (i % 11) as f32 - 5.0).collect();
    let mut xb: Vec<u8> = xs.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut yb = vec![0u8; nrows * 4];
    kernels[0]
        .launch(
            &Device::Simulator,
            [2, 1, 1],
            &mut [Arg::Buffer(&mut xb), Arg::Buffer(&mut yb), Arg::I64(nrows as i64), Arg::I64(ncols as i64)],
        )
        .unwrap();
    let got: Vec<f32> = yb.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    let want: Vec<f32> = (0..nrows).map(|r| xs[r * ncols..(r + 1) * ncols].iter().sum()).collect();
    assert_eq!(got, want);
}

/// Says that (part of) a test is skipped, on the terminal itself (cargo's capture would hide
/// it): `skipped: ...`. A GPU is never required (CI has none).
pub fn skipped(what: &str) {
    use std::io::Write;
    if let Ok(mut tty) = std::fs::OpenOptions::new().write(true).open("/dev/stderr") {
        let _ = writeln!(tty, "skipped: {what}");
    }
}

/// A tool a test needs (ptxas, nvdisasm, Chromium) is missing: skipped visibly, or, with
/// `CI=true`, a failure (`third_party/install.sh` installs each; a CI machine must have them).
pub fn tool_missing(tool: &str, why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("CI=true and no {tool}: {why}");
    }
    skipped(&format!("no {tool} ({why})"));
}
