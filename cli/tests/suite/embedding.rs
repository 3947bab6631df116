//! The embedding API from a frontend's side: staged IR in memory, device buffers and
//! streams, typed builders for every Phobos op, several kernels and 2-D blocks in one module, and
//! Phobos in an embedder's own MLIR context.

use super::workspace_root;
use phobos::build::{self, Dim};
use phobos::{Arg, Compiler, Device, Error, KernelBuilder, Options, ParamType, Stage};
use phobos_dialects::{cta, lane, layout, tile};

#[path = "../../../examples/row_max.rs"]
mod row_max;

#[path = "../../../examples/softmax_api.rs"]
mod softmax_api;

fn floats(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn ints(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// The softmax example, built through `api::build` alone (math, CTA folds, a conversion), on
/// the simulator against the CPU reference.
#[test]
fn softmax_api_example_runs_on_the_simulator() {
    let err = softmax_api::run(&Device::Simulator).unwrap_or_else(|e| panic!("{e}"));
    assert!(err < 1e-6, "max error {err}");
}

/// The math and conversion builders refuse misuse instead of building bad IR.
#[test]
fn math_and_convert_builders_refuse_misuse() {
    use phobos::build::{constant, convert, math, Math, Scalar};
    let c = Compiler::new().unwrap();
    let k = KernelBuilder::new(&c, "k", 32, &[("x", ParamType::Buffer("f32".into()))]).unwrap();
    let b = k.builder_at("m.rs", 1, 1);
    let (f, i, d) = (constant(b, Scalar::F32, 1.0), constant(b, Scalar::I32, 1.0), constant(b, Scalar::F64, 1.0));
    assert!(math(b, Math::Exp, &[i]).is_err(), "exp of an integer");
    assert!(math(b, Math::Pow, &[f, d]).is_err(), "mixed types");
    assert!(math(b, Math::Fma, &[f, f]).is_err(), "two values for fma");
    assert!(math(b, Math::Abs, &[i]).is_ok(), "abs of an integer");
    assert_eq!(convert(b, i, Scalar::F64).unwrap().ty().to_string(), "f64");
    assert_eq!(convert(b, d, Scalar::Index).unwrap().ty().to_string(), "index");
    assert_eq!(convert(b, f, Scalar::Bool).unwrap().ty().to_string(), "i1");
}

/// The row-max example: typed builders only, every stage's IR in memory, two launches reusing
/// device buffers (the second on a stream), each checked against the CPU reference.
#[test]
fn row_max_example_runs_on_the_simulator() {
    let r = row_max::run(&Device::Simulator).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.launches.len(), 2);
    for (got, want) in &r.launches {
        assert_eq!(got, want);
    }
    assert_ne!(r.launches[0].1, r.launches[1].1, "the second launch has new data");
    let names: Vec<&str> = r.stages.iter().map(|(s, _)| *s).collect();
    assert_eq!(names, ["l1", "simt", "llvm", "ptx"]);
    assert!(r.passes > 10, "{} passes", r.passes);
    // A width-16 fold is 4 butterfly steps.
    assert_eq!(r.ptx.matches("shfl.sync.bfly").count(), 4, "{}", r.ptx);
}

/// With a GPU, the example runs there too; elsewhere the test says why it is skipped.
#[test]
fn row_max_example_runs_on_the_gpu_when_present() {
    let device = match Device::cuda() {
        Ok(d) => d,
        Err(e) => return super::skipped(&format!("no usable GPU ({e})")),
    };
    let r = row_max::run(&device).unwrap_or_else(|e| panic!("{e}"));
    for (got, want) in &r.launches {
        assert_eq!(got, want);
    }
}

/// Each stage's text, the IR after every pass and the PTX come back as values; the module
/// handed in is left as it was; a dump directory holds exactly the passes returned.
#[test]
fn staged_compilation_returns_every_stage_in_memory() {
    let c = Compiler::new().unwrap();
    let src = std::fs::read_to_string(workspace_root().join("examples/lane_sum.mlir")).unwrap();
    let module = c.session().parse(&src, "lane_sum.mlir").unwrap();
    let l1 = c.lower(&module, Stage::L1, false, &Options::default()).unwrap();
    assert_eq!(l1.stages.len(), 1);
    assert!(l1.text(Stage::L1).unwrap().contains("lane.reduce"));
    let simt = c.lower(&module, Stage::Simt, true, &Options::default()).unwrap();
    let simt_text = simt.text(Stage::Simt).unwrap();
    assert!(!simt_text.contains("lane.reduce") && simt_text.contains("gpu.shuffle"), "{simt_text}");
    assert!(simt.passes.iter().any(|p| p.pass == "convert-lane-to-gpu" && p.stage == Stage::Simt));
    assert!(simt.passes.iter().all(|p| p.stage == Stage::Simt));
    let dir = workspace_root().join("target/api-staged-dump");
    let _ = std::fs::remove_dir_all(&dir);
    let opts = Options::default().with_dump_dir(dir.clone());
    let ptx = c.lower(&module, Stage::Ptx, true, &opts).unwrap();
    let stages: Vec<Stage> = ptx.stages.iter().map(|(s, _)| *s).collect();
    assert_eq!(stages, [Stage::L1, Stage::Simt, Stage::Llvm, Stage::Ptx]);
    assert!(ptx.text(Stage::Llvm).unwrap().contains("llvm.func"));
    assert!(ptx.text(Stage::Ptx).unwrap().contains(".visible .entry sum32("));
    assert_eq!(ptx.passes.last().map(|p| (p.pass.as_str(), p.stage)), Some(("gpu-module-to-binary", Stage::Ptx)));
    // The dump directory is written from the same list: the input, then one file per pass.
    let mut files: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    files.sort();
    assert_eq!(files.len(), ptx.passes.len() + 1, "{files:?}");
    let last = std::fs::read_to_string(dir.join(files.last().unwrap())).unwrap();
    assert_eq!(last, ptx.passes.last().unwrap().ir);
    // The input module was lowered as a copy.
    assert!(module.op().to_string().contains("lane.reduce"));
    match c.lower(&module, Stage::Cubin, false, &Options::default()) {
        Ok(s) => assert!(s.cubins[0].1.starts_with(b"\x7fELF"), "a cubin is an ELF file"),
        Err(e) => assert!(e.to_string().contains("no ptxas found"), "{e}"),
    }
    // compile_staged gives the kernels with the IR of the compile that made their PTX.
    let compiled = c.compile_staged(&module, &Options::default()).unwrap();
    assert_eq!(compiled.kernels[0].ptx, compiled.ir.text(Stage::Ptx).unwrap());
    // A failing lowering is an error with its diagnostics, never an abort.
    let bad = c.session().parse(&src.replace("kind = \"sum\"", "kind = \"sum\", width = 3 : i32"), "bad.mlir").unwrap();
    assert!(matches!(c.lower(&bad, Stage::Ptx, true, &Options::default()), Err(Error::Compile(_))));
}

/// Device buffers live across launches and are read back on demand; launches on a stream
/// finish by an event; wrong lengths are errors.
#[test]
fn device_buffers_and_streams_on_the_simulator() {
    let c = Compiler::new().unwrap();
    let src = std::fs::read_to_string(workspace_root().join("examples/lane_sum.mlir")).unwrap();
    let k = &c.compile_mlir(&src, "lane_sum.mlir", &Options::default()).unwrap()[0];
    let device = Device::Simulator;
    let xs: Vec<f32> = (0..1024).map(|i| (i % 5) as f32).collect();
    let x = device.upload(&xs.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    // lane_sum (one CTA of 128 threads) writes each warp's sum over its 32 values: twice is
    // 32 * the sum; the rest of the buffer stays.
    k.launch(&device, [1, 1, 1], &mut [Arg::Device(&x)]).unwrap();
    let stream = device.stream().unwrap();
    let start = stream.record().unwrap();
    k.launch_async(&stream, [1, 1, 1], &mut [Arg::Device(&x)]).unwrap();
    let end = stream.record().unwrap();
    end.synchronize().unwrap();
    assert!(start.elapsed_ms(&end).unwrap() >= 0.0);
    let got = floats(&x.read().unwrap());
    for (w, chunk) in got.chunks(32).enumerate().take(4) {
        let s: f32 = xs[w * 32..w * 32 + 32].iter().sum();
        assert!(chunk.iter().all(|v| *v == 32.0 * s), "warp {w}: {chunk:?}");
    }
    assert_eq!(got[128..], xs[128..]);
    assert!(matches!(x.write(&[0u8; 3]), Err(Error::Launch(_))));
    assert!(matches!(x.read_into(&mut [0u8; 5]), Err(Error::Launch(_))));
}

/// A cooperative launch (CTAs that wait for each other) is refused before it runs when its
/// grid cannot be resident at once, on the simulator as on a GPU, synchronous or on a stream.
#[test]
fn a_cooperative_launch_larger_than_the_device_holds_is_refused() {
    let c = Compiler::new().unwrap();
    let src = std::fs::read_to_string(workspace_root().join("examples/lane_sum.mlir")).unwrap();
    let k = &c.compile_mlir(&src, "lane_sum.mlir", &Options::default()).unwrap()[0];
    let device = Device::Simulator;
    let resident = k.resident_ctas(&device, None).unwrap();
    let x = device.upload(&vec![0u8; 4096]).unwrap();
    let co = phobos::LaunchOptions::default().with_cooperative(true);
    k.launch_with(&device, [resident as u32, 1, 1], &mut [Arg::Device(&x)], &co).unwrap();
    let too_many = [resident as u32 + 1, 1, 1];
    let err = k.launch_with(&device, too_many, &mut [Arg::Device(&x)], &co).unwrap_err().to_string();
    assert!(err.contains(&format!("a cooperative launch of {} CTAs, but simulator holds {resident}", resident + 1)), "{err}");
    let stream = device.stream().unwrap();
    let err = k.launch_async_with(&stream, too_many, &mut [Arg::Device(&x)], &co).unwrap_err().to_string();
    assert!(err.contains("cooperative launch"), "{err}");
    // Not cooperative: the same grid runs (its CTAs take turns).
    k.launch(&device, too_many, &mut [Arg::Device(&x)]).unwrap();
}

/// Every Phobos op has a typed builder, as do scf.if with results and scf.while: one kernel uses
/// them all and runs on the simulator against a CPU reference. Misused builders return errors.
#[test]
fn typed_builders_cover_every_phobos_op() {
    let c = Compiler::new().unwrap();
    let params = [("x", ParamType::Buffer("f32".into())), ("y", ParamType::Buffer("f32".into())), ("z", ParamType::Buffer("i32".into()))];
    let k = KernelBuilder::new(&c, "every_op", 64, &params).unwrap();
    let [x, y, z] = k.args()[..] else { panic!("three parameters") };
    let b = k.builder();
    let (f32t, i32t) = (b.ctx.known_type("f32"), b.ctx.i(32));
    let t = build::thread_id(b, Dim::X);
    let at = |k: i64| b.bin("arith.addi", b.index(64 * k), t);
    let v = build::load(b, x, &[t]).unwrap();
    let put_f = |k: i64, v| build::store(b, v, y, &[at(k)]).unwrap();
    let put_i = |k: i64, v| build::store(b, v, z, &[at(k)]).unwrap();
    put_i(0, lane::build::argmax(b, v, 8));
    put_f(0, lane::build::reduce_with(b, v, 4, |ib, p, q| ib.bin("arith.addf", p, q)));
    put_i(1, cta::build::argmax(b, v));
    put_f(1, cta::build::reduce_with(b, v, |ib, p, q| ib.bin("arith.maximumf", p, q)));
    // The whole of x in shared memory, read back reversed.
    let tile = tile::build::copy(b, x, &[b.index(0)], &[b.index(64)], &[64]);
    put_f(2, build::load(b, tile, &[b.bin("arith.subi", b.index(63), t)]).unwrap());
    let (hi, lo) = (b.bin("arith.divui", t, b.index(16)), b.bin("arith.remui", t, b.index(16)));
    put_i(2, b.cast("arith.index_cast", layout::build::restrict(b, "(4,16):(1,4)", &[hi, lo], &[0]), i32t));
    let low_half = b.cmpi("ult", t, b.index(32));
    let two = b.const_float(f32t, 2.0);
    let one = b.const_float(f32t, 1.0);
    let picked =
        build::if_else(b, low_half, |ib| Ok(vec![ib.bin("arith.mulf", v, two)]), |ib| Ok(vec![ib.bin("arith.subf", v, one)])).unwrap();
    put_f(3, picked[0]);
    // The smallest n with n * n >= t.
    let n = build::while_loop(
        b,
        &[b.index(0)],
        |ib, vals| Ok((ib.cmpi("ult", ib.bin("arith.muli", vals[0], vals[0]), t), vec![vals[0]])),
        |ib, vals| Ok(vec![ib.bin("arith.addi", vals[0], ib.index(1))]),
    )
    .unwrap();
    put_i(3, b.cast("arith.index_cast", n[0], i32t));
    // Misuse: branches of different types, a loop whose body changes what it carries.
    assert!(build::if_else(b, low_half, |_| Ok(vec![v]), |_| Ok(vec![])).is_err());
    assert!(build::while_loop(b, &[t], |ib, vals| Ok((ib.cmpi("ult", vals[0], t), vec![vals[0]])), |_, _| Ok(vec![])).is_err());
    let module = k.finish(&c).unwrap_or_else(|e| panic!("{e}"));
    let kernels = c.compile_module(&module, &Options::default()).unwrap_or_else(|e| panic!("{e}"));

    let xs: Vec<f32> = (0..64).map(|t| ((t * 37) % 64) as f32).collect();
    let mut xb: Vec<u8> = xs.iter().flat_map(|v| v.to_le_bytes()).collect();
    let (mut yb, mut zb) = (vec![0u8; 4 * 64 * 4], vec![0u8; 4 * 64 * 4]);
    kernels[0].launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Buffer(&mut xb), Arg::Buffer(&mut yb), Arg::Buffer(&mut zb)]).unwrap();
    let (ys, zs) = (floats(&yb), ints(&zb));
    let argmax = |r: std::ops::Range<usize>| r.clone().max_by(|a, b| xs[*a].total_cmp(&xs[*b])).unwrap();
    let cta_max = xs.iter().copied().fold(f32::MIN, f32::max);
    for t in 0..64usize {
        assert_eq!(zs[t], (argmax(t / 8 * 8..t / 8 * 8 + 8) % 32) as i32, "lane argmax, thread {t}");
        assert_eq!(ys[t], xs[t / 4 * 4..t / 4 * 4 + 4].iter().sum::<f32>(), "lane reduce_with, thread {t}");
        assert_eq!(zs[64 + t], argmax(0..64) as i32, "cta argmax, thread {t}");
        assert_eq!(ys[64 + t], cta_max, "cta reduce_with, thread {t}");
        assert_eq!(ys[128 + t], xs[63 - t], "tile copy, thread {t}");
        assert_eq!(zs[128 + t], (t / 16 + 4 * (t % 16)) as i32, "layout restrict, thread {t}");
        assert_eq!(ys[192 + t], if t < 32 { xs[t] * 2.0 } else { xs[t] - 1.0 }, "if_else, thread {t}");
        assert_eq!(zs[192 + t], (0..).find(|n: &i32| n * n >= t as i32).unwrap(), "while_loop, thread {t}");
    }
}

/// `tile::build::dot` from the embedding API: a 32 x 16 x 32 f16 product on two warps
/// (`MmaTiling::choose`), its items stored raw and placed on the host by
/// `MmaTiling::coords`, against a CPU reference (exact: small integers).
#[test]
fn typed_builder_dot_runs_on_tensor_cores() {
    dot_on_tensor_cores(false);
}

/// `tile::build::dot_transposed_b`: the same product with B given N x K.
#[test]
fn typed_builder_dot_transposed_b_runs_on_tensor_cores() {
    dot_on_tensor_cores(true);
}

fn dot_on_tensor_cores(transposed: bool) {
    use phobos::layout::mma::MmaTiling;
    let c = Compiler::new().unwrap();
    let (m, n, kk, threads) = (32i64, 16i64, 32i64, 64i64);
    let params = [("a", ParamType::Buffer("f16".into())), ("b", ParamType::Buffer("f16".into())), ("d", ParamType::Buffer("f32".into()))];
    let k = KernelBuilder::new(&c, "dot", threads as u32, &params).unwrap();
    let [a, bm, d] = k.args()[..] else { panic!("three parameters") };
    let b = k.builder();
    let t = MmaTiling::choose(m, n, threads).unwrap();
    let at = tile::build::copy(b, a, &[b.index(0), b.index(0)], &[b.index(m), b.index(kk)], &[m, kk]);
    let (brows, bcols) = if transposed { (n, kk) } else { (kk, n) };
    let bt = tile::build::copy(b, bm, &[b.index(0), b.index(0)], &[b.index(brows), b.index(bcols)], &[brows, bcols]);
    let vty = b.ctx.known_type(&format!("vector<{}xf32>", t.items()));
    let zero = b.op_value("arith.constant", &[], vty, &[("value", b.ctx.known_attr(&format!("dense<0.0> : vector<{}xf32>", t.items())))]);
    let dot = if transposed { tile::build::dot_transposed_b } else { tile::build::dot };
    let acc = dot(b, at, bt, zero, [t.warps_m, t.warps_n]);
    let tid = build::thread_id(b, Dim::X);
    for e in 0..t.items() {
        let item = b.op_value(
            "vector.extract",
            &[acc],
            b.ctx.known_type("f32"),
            &[("static_position", b.ctx.known_attr(&format!("array<i64: {e}>")))],
        );
        let at = b.bin("arith.addi", b.bin("arith.muli", tid, b.index(t.items())), b.index(e));
        build::store(b, item, d, &[at]).unwrap();
    }
    let module = k.finish(&c).unwrap_or_else(|e| panic!("{e}"));
    let kernels = c.compile_module(&module, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let av: Vec<f32> = (0..m * kk).map(|i| ((i * 7) % 5) as f32 - 2.0).collect();
    let bv: Vec<f32> = (0..kk * n).map(|i| ((i * 3) % 7) as f32 - 3.0).collect();
    let half = |v: &[f32]| -> Vec<u8> { v.iter().flat_map(|x| phobos::half::f16::from_f32(*x).to_le_bytes()).collect() };
    let (mut ab, mut bb, mut db) = (half(&av), half(&bv), vec![0u8; (m * n * 4) as usize]);
    kernels[0].launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Buffer(&mut ab), Arg::Buffer(&mut bb), Arg::Buffer(&mut db)]).unwrap();
    let out = floats(&db);
    for th in 0..threads {
        for e in 0..t.items() {
            let (r, col) = t.coords(th, e);
            let b_at = |i: i64| if transposed { bv[(col * kk + i) as usize] } else { bv[(i * n + col) as usize] };
            let want: f32 = (0..kk).map(|i| av[(r * kk + i) as usize] * b_at(i)).sum();
            assert_eq!(out[(th * t.items() + e) as usize], want, "thread {th} item {e} = C[{r}, {col}]");
        }
    }
}

/// `tile::build::dot_a_in_registers`: A from registers, as an earlier product leaves it. The
/// first product, A times the identity, puts A in the accumulator layout of 2 x 1 warps;
/// truncated to f16 it is the second product's A: C = A B (exact: small integers).
#[test]
fn typed_builder_dot_a_in_registers_runs_on_tensor_cores() {
    use phobos::layout::mma::MmaTiling;
    let c = Compiler::new().unwrap();
    let (m, n, kk, threads) = (32i64, 16i64, 16i64, 64i64);
    let params = [
        ("a", ParamType::Buffer("f16".into())),
        ("eye", ParamType::Buffer("f16".into())),
        ("b", ParamType::Buffer("f16".into())),
        ("d", ParamType::Buffer("f32".into())),
    ];
    let k = KernelBuilder::new(&c, "dot_regs", threads as u32, &params).unwrap();
    let [a, eye, bm, d] = k.args()[..] else { panic!("four parameters") };
    let b = k.builder();
    let t = MmaTiling::with_warps(m, n, threads, 2, 1).unwrap();
    let zeros = |items: i64| {
        let vty = b.ctx.known_type(&format!("vector<{items}xf32>"));
        b.op_value("arith.constant", &[], vty, &[("value", b.ctx.known_attr(&format!("dense<0.0> : vector<{items}xf32>")))])
    };
    let tile =
        |src, rows: i64, cols: i64| tile::build::copy(b, src, &[b.index(0), b.index(0)], &[b.index(rows), b.index(cols)], &[rows, cols]);
    let (at, it, bt) = (tile(a, m, kk), tile(eye, kk, kk), tile(bm, kk, n));
    let a_acc = tile::build::dot(b, at, it, zeros(m * kk / threads), [2, 1]);
    let a16 = b.cast("arith.truncf", a_acc, b.ctx.known_type(&format!("vector<{}xf16>", m * kk / threads)));
    let acc = tile::build::dot_a_in_registers(b, a16, bt, zeros(t.items()), [2, 1], [m, kk], false);
    let tid = build::thread_id(b, Dim::X);
    for e in 0..t.items() {
        let f32t = b.ctx.known_type("f32");
        let item = b.op_value("vector.extract", &[acc], f32t, &[("static_position", b.ctx.known_attr(&format!("array<i64: {e}>")))]);
        let at = b.bin("arith.addi", b.bin("arith.muli", tid, b.index(t.items())), b.index(e));
        build::store(b, item, d, &[at]).unwrap();
    }
    let module = k.finish(&c).unwrap_or_else(|e| panic!("{e}"));
    let kernels = c.compile_module(&module, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let av: Vec<f32> = (0..m * kk).map(|i| ((i * 7) % 5) as f32 - 2.0).collect();
    let ev: Vec<f32> = (0..kk * kk).map(|i| if i / kk == i % kk { 1.0 } else { 0.0 }).collect();
    let bv: Vec<f32> = (0..kk * n).map(|i| ((i * 3) % 7) as f32 - 3.0).collect();
    let half = |v: &[f32]| -> Vec<u8> { v.iter().flat_map(|x| phobos::half::f16::from_f32(*x).to_le_bytes()).collect() };
    let (mut ab, mut eb, mut bb, mut db) = (half(&av), half(&ev), half(&bv), vec![0u8; (m * n * 4) as usize]);
    let args = &mut [Arg::Buffer(&mut ab), Arg::Buffer(&mut eb), Arg::Buffer(&mut bb), Arg::Buffer(&mut db)];
    kernels[0].launch(&Device::Simulator, [1, 1, 1], args).unwrap();
    let out = floats(&db);
    for th in 0..threads {
        for e in 0..t.items() {
            let (r, col) = t.coords(th, e);
            let want: f32 = (0..kk).map(|i| av[(r * kk + i) as usize] * bv[(i * n + col) as usize]).sum();
            assert_eq!(out[(th * t.items() + e) as usize], want, "thread {th} item {e} = C[{r}, {col}]");
        }
    }
}

/// Three kernels and a device function in one module (one PTX module holding them) and a 2-D
/// block: each kernel runs on the simulator; the 2-D thread ids and the call come out right.
#[test]
fn kernel_builder_makes_several_kernels_and_2d_blocks() {
    let c = Compiler::new().unwrap();
    let out = [("y", ParamType::Buffer("i32".into()))];
    let mut k = KernelBuilder::with_block(&c, "ids2d", [8, 4, 1], &out).unwrap();
    {
        let b = k.builder();
        let y = k.args()[0];
        let (tx, ty) = (build::thread_id(b, Dim::X), build::thread_id(b, Dim::Y));
        let flat = b.bin("arith.addi", b.bin("arith.muli", ty, b.index(8)), tx);
        let code = b.bin("arith.addi", b.bin("arith.muli", tx, b.index(100)), ty);
        build::store(b, b.cast("arith.index_cast", code, b.ctx.i(32)), y, &[flat]).unwrap();
    }
    k.add_kernel(&c, "fill7", [32, 1, 1], &out).unwrap();
    {
        let b = k.builder();
        let y = k.args()[0];
        build::store(b, b.i32(7), y, &[build::thread_id(b, Dim::X)]).unwrap();
    }
    assert!(k.add_kernel(&c, "fill7", [32, 1, 1], &out).is_err(), "a second kernel of one name");
    // A device function, called by a third kernel: a * b + 1.
    k.add_function(&c, "fma1", &["i32", "i32"], &["i32"], |fb, a| vec![fb.bin("arith.addi", fb.bin("arith.muli", a[0], a[1]), fb.i32(1))])
        .unwrap();
    assert!(k.add_function(&c, "bad", &["i32"], &["f32"], |_, a| vec![a[0]]).is_err(), "returns i32, declared f32");
    assert!(k.add_function(&c, "fma1", &[], &[], |_, _| vec![]).is_err(), "a second function of one name");
    k.add_kernel(&c, "calls", [32, 1, 1], &out).unwrap();
    {
        let b = k.builder();
        let y = k.args()[0];
        let t = build::thread_id(b, Dim::X);
        let ti = b.cast("arith.index_cast", t, b.ctx.i(32));
        let r = build::call(b, "fma1", &[ti, ti], &[b.ctx.i(32)]).unwrap();
        build::store(b, r[0], y, &[t]).unwrap();
        assert!(build::call(b, "no such", &[], &[]).is_err());
    }
    assert!(KernelBuilder::with_block(&c, "k", [8, 8, 128], &out).is_err(), "z above 64");
    let module = k.finish(&c).unwrap_or_else(|e| panic!("{e}"));
    let kernels = c.compile_module(&module, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["ids2d", "fill7", "calls"]);
    assert_eq!(kernels[0].block, [8, 4, 1]);
    assert_eq!(kernels[0].ptx, kernels[1].ptx, "one gpu.module, one PTX module");
    assert!(kernels[0].ptx.contains(".entry ids2d(") && kernels[0].ptx.contains(".entry fill7("));
    let mut yb = vec![0u8; 32 * 4];
    kernels[0].launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Buffer(&mut yb)]).unwrap();
    let want: Vec<i32> = (0..32).map(|i| (i % 8) * 100 + i / 8).collect();
    assert_eq!(ints(&yb), want);
    kernels[1].launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Buffer(&mut yb)]).unwrap();
    assert_eq!(ints(&yb), vec![7; 32]);
    kernels[2].launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Buffer(&mut yb)]).unwrap();
    assert_eq!(ints(&yb), (0..32).map(|t| t * t + 1).collect::<Vec<i32>>());
    assert!(kernels[2].ptx.contains(".func") && kernels[2].ptx.contains("call"), "{}", kernels[2].ptx);
}

/// Phobos in an embedder's own MLIR context and pass manager, through the C API: the
/// dialects load, the pipeline lowers a lane op, a bad pipeline is an error.
#[test]
fn phobos_loads_into_an_embedders_own_context() {
    use melior::{dialect::DialectRegistry, ir::Module, pass::PassManager, Context};
    let ctx = Context::new_with_registry(&DialectRegistry::new(), false);
    // SAFETY: `ctx` is a live melior context of the MLIR this process links, alive until the test
    // ends.
    unsafe { phobos::embed::load_into(ctx.to_raw()) }.unwrap();
    let src = std::fs::read_to_string(workspace_root().join("examples/lane_sum.mlir")).unwrap();
    let module = Module::parse(&ctx, &src).expect("the embedder parses Phobos IR");
    let pm = PassManager::new(&ctx);
    // SAFETY: `pm` is a live pass manager of `ctx`, which `load_into` prepared above; both outlive the
    // call.
    let diags = unsafe { phobos::embed::add_passes(pm.to_raw(), "builtin.module(gpu.module(convert-lane-to-gpu))") }.unwrap();
    let mut module = module;
    pm.run(&mut module).unwrap();
    let text = module.as_operation().to_string();
    assert!(!text.contains("lane.reduce") && text.contains("gpu.shuffle"), "{text}");
    assert!(diags.take().is_empty());
    // SAFETY: as above: `pm` and `ctx` are alive, and `ctx` was prepared by `load_into`.
    assert!(unsafe { phobos::embed::add_passes(pm.to_raw(), "builtin.module(no-such-pass)") }.is_err());
}

/// A second `load_into` on one context is a no-op returning Ok: the whole pipeline to SIMT in one
/// pass manager and on to PTX in a second then runs (it used to load the dialects twice and
/// crash in the canonicalizer's set-up).
#[test]
fn load_into_twice_then_two_pass_managers() {
    use melior::{dialect::DialectRegistry, ir::Module, pass::PassManager, Context};
    let ctx = Context::new_with_registry(&DialectRegistry::new(), false);
    // SAFETY: `ctx` is a live melior context of the MLIR this process links, alive until the test
    // ends; loading twice is what is tested.
    unsafe {
        phobos::embed::load_into(ctx.to_raw()).unwrap();
        phobos::embed::load_into(ctx.to_raw()).unwrap();
    }
    let src = std::fs::read_to_string(workspace_root().join("examples/lane_sum.mlir")).unwrap();
    let mut module = Module::parse(&ctx, &src).expect("the embedder parses Phobos IR");
    for pipeline in ["builtin.module(phobos-to-simt)", "builtin.module(phobos-simt-to-llvm, gpu-module-to-binary{format=isa})"] {
        let pm = PassManager::new(&ctx);
        // SAFETY: `pm` is a live pass manager of `ctx`, prepared by `load_into`; both outlive the call.
        let diags = unsafe { phobos::embed::add_passes(pm.to_raw(), pipeline) }.unwrap();
        pm.run(&mut module).unwrap_or_else(|e| panic!("{pipeline}: {e:?} {:?}", diags.take()));
    }
    let text = module.as_operation().to_string();
    assert!(text.contains("gpu.binary") && text.contains(".entry"), "{text:.300}");
}

/// The arithmetic builders pick the integer or float op by the operands' type (no op-name
/// string), and refuse mixed types, bit operations on floats and a non-i1 select condition.
#[test]
fn arithmetic_builders_pick_ops_by_type_and_refuse_misuse() {
    use build::{arith, compare, constant, select, Arith, Cmp, Scalar};
    let c = Compiler::new().unwrap();
    let k = KernelBuilder::new(&c, "k", 32, &[("x", ParamType::Buffer("f32".into())), ("n", ParamType::Scalar("index".into()))]).unwrap();
    let [x, n] = k.args()[..] else { unreachable!() };
    let b = k.builder();
    let t = build::thread_id(b, Dim::X);
    let i = arith(b, Arith::Rem, t, n).unwrap();
    let v = build::load(b, x, &[i]).unwrap();
    let w = arith(b, Arith::Max, arith(b, Arith::Mul, v, constant(b, Scalar::F32, 2.0)).unwrap(), v).unwrap();
    let low = compare(b, Cmp::Lt, t, n).unwrap();
    let neg = compare(b, Cmp::Lt, w, constant(b, Scalar::F32, 0.0)).unwrap();
    let both = arith(b, Arith::And, low, neg).unwrap();
    let out = select(b, both, w, v).unwrap();
    build::store(b, out, x, &[t]).unwrap();
    for (what, e) in [
        ("Add(index, f32)", arith(b, Arith::Add, t, v).err()),
        ("Xor(f32, f32)", arith(b, Arith::Xor, v, v).err()),
        ("Lt(f32, index)", compare(b, Cmp::Lt, v, t).err()),
        ("select(f32, ..)", select(b, v, v, v).err()),
        ("select(i1, f32, index)", select(b, both, v, t).err()),
    ] {
        assert!(matches!(e, Some(Error::Compile(_))), "{what} was accepted");
    }
    let text = k.finish(&c).unwrap().op().to_string();
    for op in ["arith.remsi", "arith.mulf", "arith.maximumf", "arith.cmpi slt", "arith.cmpf olt", "arith.andi", "arith.select"] {
        assert!(text.contains(op), "{op} missing:\n{text}");
    }
}

/// Every math function built with `build::math`, lowered to PTX through the API: libdevice is
/// linked by default, so no `.extern .func` is left.
#[test]
fn every_math_builder_lowers_to_ptx_with_no_extern() {
    use phobos::build::{self, math, Dim, Math};
    use phobos::Stage;
    let c = Compiler::new().unwrap();
    let k = KernelBuilder::new(&c, "k", 32, &[("x", ParamType::Buffer("f32".into()))]).unwrap();
    let [x] = k.args()[..] else { unreachable!() };
    let b = k.builder_at("math.rs", 1, 1);
    let t = build::thread_id(b, Dim::X);
    let mut v = build::load(b, x, &[t]).unwrap();
    use Math::*;
    for f in [
        Exp, Exp2, Log, Log2, Log10, Log1p, Expm1, Sqrt, Rsqrt, Cbrt, Sin, Cos, Tan, Tanh, Sinh, Cosh, Asin, Acos, Atan, Erf, Erfc, Floor,
        Ceil, Round, Trunc, Abs, Neg,
    ] {
        v = math(b, f, &[v]).unwrap();
    }
    for f in [Atan2, Pow, CopySign] {
        v = math(b, f, &[v, v]).unwrap();
    }
    v = math(b, Fma, &[v, v, v]).unwrap();
    build::store(b, v, x, &[t]).unwrap();
    let module = k.finish(&c).unwrap();
    let staged = c.lower(&module, Stage::Ptx, false, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let ptx = &staged.ptx[0].1;
    assert!(!ptx.contains(".extern .func"), "an unresolved function:\n{ptx}");
    assert!(ptx.contains("fma.rn.f32"));
}

/// Launches from several threads with the same two device buffers in opposite argument orders
/// cannot deadlock (one buffer given twice is refused): a watchdog fails a hang instead of
/// stalling the suite.
#[test]
fn opposite_argument_orders_do_not_deadlock() {
    let src = "@launch(32)\nkernel k(X: tensor<f32>[32], Y: tensor<f32>[32]) {\n  Y[ctx.thread] = X[ctx.thread] + Y[ctx.thread]\n}\n";
    let c = Compiler::new().unwrap();
    let kernel = std::sync::Arc::new(c.compile_phobos(src, "k.phobos", &Options::default()).unwrap().remove(0));
    let dev = Device::Simulator;
    let p = std::sync::Arc::new(dev.upload(&[0u8; 128]).unwrap());
    let q = std::sync::Arc::new(dev.upload(&[0u8; 128]).unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    for t in 0..4 {
        let (kernel, p, q, tx) = (kernel.clone(), p.clone(), q.clone(), tx.clone());
        std::thread::spawn(move || {
            for i in 0..3000 {
                let (a, b) = if (t + i) % 2 == 0 { (&*p, &*q) } else { (&*q, &*p) };
                // The same buffer twice is refused (the tensors are noalias), never a self-deadlock.
                if i % 7 == 0 {
                    assert!(kernel.launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Device(a), Arg::Device(a)]).is_err());
                }
                kernel.launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Device(a), Arg::Device(b)]).unwrap();
            }
            let _ = tx.send(t);
        });
    }
    drop(tx);
    for _ in 0..4 {
        rx.recv_timeout(std::time::Duration::from_secs(120)).expect("a thread finished its launches (no deadlock)");
    }
}

/// `Debug` of a kernel and of a staged compile is a few lines, not the PTX and the IR.
#[test]
fn debug_of_kernels_is_short() {
    let c = Compiler::new().unwrap();
    let src = "@launch(64)\nkernel k(X: tensor<f32>[N]) {\n  X[ctx.thread] = exp(X[ctx.thread])\n}\n";
    let k = c.compile_phobos(src, "k.phobos", &Options::default()).unwrap().remove(0);
    let text = format!("{k:?}");
    assert!(text.len() < 600, "{} bytes: {text}", text.len());
    assert!(text.contains("name: \"k\"") && text.contains("block: [64, 1, 1]") && text.contains("ptx_bytes"), "{text}");
}

/// A dump directory that cannot be created is an I/O error naming it, not a compile error
/// holding an earlier compile's remarks.
#[test]
fn an_unwritable_dump_dir_is_an_io_error_naming_it() {
    let c = Compiler::new().unwrap();
    let src = "@launch(64)\nkernel k(X: tensor<f32>[N]) {\n  X[ctx.thread] = X[ctx.thread] + 1.0\n}\n";
    let bad = std::path::PathBuf::from("/proc/phobos-no-such-dir/dumps");
    let opts = Options::default().with_dump_dir(bad);
    match c.compile_phobos(src, "k.phobos", &opts) {
        Err(Error::Io(m)) => assert!(m.contains("/proc/phobos-no-such-dir/dumps"), "{m}"),
        other => panic!("expected Error::Io, got {other:?}"),
    }
}

/// One diagnostic scope per call: a remark left in the context by earlier work is not part of
/// a later call's error.
#[test]
fn diagnostics_do_not_leak_between_calls() {
    use phobos::build;
    let c = Compiler::new().unwrap();
    c.session().diags.emit(phobos::Diagnostic::new(phobos::Severity::Remark, None, "left over from an earlier call"));
    let k = KernelBuilder::new(&c, "k", 32, &[("x", ParamType::Buffer("f32".into()))]).unwrap();
    let b = k.builder_at("leak.rs", 1, 1);
    // A kernel whose body does not verify: a store of an index into an f32 buffer.
    let [x] = k.args()[..] else { unreachable!() };
    let t = build::thread_id(b, build::Dim::X);
    b.op("memref.store", &[t, x, t], &[], &[]);
    match k.finish(&c) {
        Err(Error::Compile(d)) => {
            assert!(d.first_error().is_some(), "{d}");
            assert!(!d.to_string().contains("left over"), "{d}");
        }
        other => panic!("expected a compile error, got {:?}", other.map(|_| ())),
    };
}

/// A staged compile returns its remarks: the shared-memory plan of a built kernel's buffer,
/// once (the module is lowered twice).
#[test]
fn compiled_carries_its_remarks() {
    use phobos::build::{self, Dim};
    let c = Compiler::new().unwrap();
    let k = KernelBuilder::new(&c, "k", 32, &[("x", ParamType::Buffer("f32".into()))]).unwrap();
    let [x] = k.args()[..] else { unreachable!() };
    let b = k.builder_at("plan.rs", 1, 1);
    let f32t = build::Scalar::F32.ty(b);
    let buf = phobos_dialects::tile::build::alloc(b, "stage", f32t, &[32]);
    let t = build::thread_id(b, Dim::X);
    let v = build::load(b, x, &[t]).unwrap();
    build::store(b, v, buf, &[t]).unwrap();
    let w = build::load(b, buf, &[t]).unwrap();
    build::store(b, w, x, &[t]).unwrap();
    let module = k.finish(&c).unwrap();
    let compiled = c.compile_staged(&module, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let plans: Vec<&phobos::Diagnostic> = compiled.diagnostics.iter().filter(|d| d.message.starts_with("shared 'stage'")).collect();
    assert_eq!(plans.len(), 1, "{:?}", compiled.diagnostics);
    assert_eq!(plans[0].severity, phobos::Severity::Remark);
    // Where the time went: every Phobos pass, then the three stages, in the order they ended.
    let names: Vec<&str> = compiled.timings.iter().map(|(n, _)| n.as_str()).collect();
    let stages: Vec<&str> = names.iter().copied().filter(|n| ["simt", "llvm", "ptx"].contains(n)).collect();
    assert_eq!(stages, ["simt", "llvm", "ptx"], "{names:?}");
    assert!(names.iter().position(|n| *n == "tile-plan-shared-memory") < names.iter().position(|n| *n == "simt"), "{names:?}");
}

/// A built kernel's tensor with dimensions: each launch checks its buffer's length against
/// them (a buffer of 10 floats where N x K = 320 are read is refused), as for `.phobos` tensors;
/// a dimension that is neither a constant nor a scalar parameter is refused when building.
#[test]
fn built_tensors_check_their_lengths() {
    use phobos::build::{self, Dim, Scalar};
    let c = Compiler::new().unwrap();
    let params = [
        ("x", ParamType::Tensor { elem: Scalar::F32, dims: vec!["N".into(), "K".into()] }),
        ("N", ParamType::Scalar("i32".into())),
        ("K", ParamType::Scalar("i32".into())),
    ];
    let k = KernelBuilder::new(&c, "k", 32, &params).unwrap();
    let [x, ..] = k.args()[..] else { unreachable!() };
    let b = k.builder_at("dims.rs", 1, 1);
    let t = build::thread_id(b, Dim::X);
    let v = build::load(b, x, &[t]).unwrap();
    build::store(b, v, x, &[t]).unwrap();
    let module = k.finish(&c).unwrap();
    let kernel = c.compile_module(&module, &Options::default()).unwrap().remove(0);
    let mut short = vec![0u8; 10 * 4];
    let err = kernel.launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Buffer(&mut short), Arg::I32(10), Arg::I32(32)]).unwrap_err();
    assert!(matches!(&err, Error::Launch(m) if m.contains("N=10") && m.contains("K=32")), "{err}");
    let mut enough = vec![0u8; 320 * 4];
    kernel.launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Buffer(&mut enough), Arg::I32(10), Arg::I32(32)]).unwrap();
    let bad = [("x", ParamType::Tensor { elem: Scalar::F32, dims: vec!["M".into()] })];
    assert!(KernelBuilder::new(&c, "k2", 32, &bad).is_err());
}

/// Compiling for a GPU never needs the simulator: a kernel with an op the simulator lacks
/// compiles to PTX, and only a launch on the simulator reports the op, located.
#[test]
fn a_gpu_compile_does_not_need_the_simulator() {
    let src = r#"gpu.module @m {
  gpu.func @clk(%y: memref<32xi32> {phobos.tensor = "y"}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %c = nvvm.read.ptx.sreg.clock : i32
    memref.store %c, %y[%t] : memref<32xi32>
    gpu.return
  }
}
"#;
    let kernels = Compiler::new().unwrap().compile_mlir(src, "clock.mlir", &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(kernels[0].ptx.contains("%clock"), "{}", kernels[0].ptx);
    let mut y = vec![0u8; 32 * 4];
    match kernels[0].launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Buffer(&mut y)]) {
        Err(Error::Compile(d)) => {
            let e = d.first_error().expect("an error");
            assert!(e.message.contains("nvvm.read.ptx.sreg.clock"), "{d}");
            assert_eq!(e.loc.as_ref().map(|l| (l.file.as_str(), l.line)), Some(("clock.mlir", 4)), "{d}");
        }
        other => panic!("expected the simulator to refuse the kernel, got {:?}", other.map(|r| r.ms)),
    }
}

/// A failed compile keeps what ran: the input, the IR after every pass before the failing one,
/// and what the failing one left, in memory (the error's `ir()`) and in the dump directory.
#[test]
fn a_failed_compile_returns_the_ir_that_ran() {
    let src = r#"gpu.module @m {
  gpu.func @big(%x: memref<1000000xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %n = arith.constant 1000000 : index
    %a = "tile.copy"(%x, %c0, %n) {name = "a", shape = array<i64: 60000>} : (memref<1000000xf32>, index, index) -> memref<60000xf32, #gpu.address_space<workgroup>>
    %va = memref.load %a[%c0] : memref<60000xf32, #gpu.address_space<workgroup>>
    memref.store %va, %x[%c0] : memref<1000000xf32>
    gpu.return
  }
}
"#;
    let c = Compiler::new().unwrap();
    let dir = workspace_root().join("target/failed-compile-dumps");
    let _ = std::fs::remove_dir_all(&dir);
    let module = c.session().parse(src, "big.mlir").expect("it parses");
    let opts = Options::default().with_chip("sm_80").with_dump_dir(dir.clone());
    let d = match c.compile_staged(&module, &opts) {
        Err(Error::Compile(d)) => d,
        other => panic!("expected the shared-memory plan to fail, got {:?}", other.map(|c| c.kernels.len())),
    };
    assert!(d.first_error().is_some_and(|e| e.message.contains("bytes of shared memory")), "{d}");
    let names: Vec<&str> = d.ir().iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names.first(), Some(&"l1"), "{names:?}");
    // The passes before the plan ran and are there, then the IR the failing plan left, and
    // nothing after it.
    assert!(names.contains(&"simt/verify-uniformity"), "{names:?}");
    assert_eq!(names.last(), Some(&"simt/tile-plan-shared-memory"), "{names:?}");
    let files: Vec<String> =
        std::fs::read_dir(&dir).expect("the dump directory").flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(files.len(), names.len(), "{files:?} vs {names:?}");
    assert!(files.iter().any(|f| f == "00-l1-input.mlir"), "{files:?}");
    // What `.unwrap()` prints is a summary, not every pass's IR.
    let debug = format!("{d:?}");
    assert!(debug.len() < 2000 && debug.contains("bytes (Diagnostics::ir)"), "{} bytes: {debug:.300}", debug.len());
    // `lower` with every pass keeps the IR on failure too.
    match c.lower(&module, Stage::Ptx, true, &Options::default().with_chip("sm_80")) {
        Err(Error::Compile(d)) => {
            let names: Vec<&str> = d.ir().iter().map(|(n, _)| n.as_str()).collect();
            assert_eq!((names.first(), names.last()), (Some(&"l1"), Some(&"simt/tile-plan-shared-memory")), "{names:?}");
        }
        other => panic!("expected the shared-memory plan to fail, got {other:?}"),
    }
    // A dump directory that cannot be written does not hide the compile's own located error.
    let blocked = workspace_root().join("target/failed-compile-dumps/00-l1-input.mlir/sub");
    match c.compile_staged(&module, &Options::default().with_chip("sm_80").with_dump_dir(blocked)) {
        Err(Error::Compile(d)) => assert!(d.first_error().is_some_and(|e| e.message.contains("bytes of shared memory")), "{d}"),
        other => panic!("expected the compile's error, got {other:?}"),
    }
}

/// `Debug` of what a staged lowering returns is a summary of its texts, not the IR.
#[test]
fn debug_of_staged_ir_is_a_summary() {
    let c = Compiler::new().unwrap();
    let module = c.session().parse(include_str!("../../../examples/lane_sum.mlir"), "lane_sum.mlir").expect("it parses");
    let staged = c.lower(&module, Stage::Ptx, true, &Options::default()).unwrap();
    assert!(staged.passes.len() > 20 && staged.text(Stage::Ptx).is_some_and(|p| p.contains(".entry")));
    let debug = format!("{staged:?}");
    assert!(debug.len() < 1500 && debug.contains("passes: ") && !debug.contains(".entry"), "{} bytes: {debug}", debug.len());
}

/// A pipeline that does not parse is one error, located in the pipeline text, with no doubled
/// prefix.
#[test]
fn a_bad_pipeline_reads_once_located() {
    let c = Compiler::new().unwrap();
    let module = c.session().parse(include_str!("../../../examples/lane_sum.mlir"), "lane_sum.mlir").expect("it parses");
    match c.run_pipeline(&module, "builtin.module(gpu.module(no-such-pass))") {
        Err(Error::Compile(d)) => {
            let text = d.to_string();
            assert!(text.starts_with("<pass-pipeline>:1:"), "{text}");
            assert_eq!(text.matches("error:").count(), 1, "{text}");
            assert_eq!(d.first_error().and_then(|e| e.loc.as_ref()).map(|l| l.file.as_str()), Some("<pass-pipeline>"), "{text}");
        }
        other => panic!("expected a pipeline error, got {other:?}"),
    }
}

/// PTX an embedder compiled itself, with its signature, is a launchable Kernel: the argument
/// rules apply as to any kernel; the simulator has no program for it and says so.
#[test]
fn a_kernel_from_ptx_and_a_signature() {
    let c = Compiler::new().unwrap();
    let compiled = c.compile_mlir(include_str!("../../../examples/lane_sum.mlir"), "lane_sum.mlir", &Options::default()).unwrap();
    let params = vec![phobos::Param::Buffer { name: "x".into(), elem: "f32".into() }];
    let k = phobos::Kernel::from_ptx("sum32", compiled[0].ptx.clone(), "sm_90", [128, 1, 1], 0, params).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(k.check_args(&[Arg::I32(1)]), Err(Error::Launch(m)) if m.contains("is a buffer of f32")));
    let mut x = vec![0u8; 1024 * 4];
    match k.launch(&Device::Simulator, [1, 1, 1], &mut [Arg::Buffer(&mut x)]) {
        Err(Error::Compile(d)) => assert!(d.to_string().contains("made from PTX"), "{d}"),
        other => panic!("expected the simulator to refuse, got {:?}", other.map(|r| r.ms)),
    }
    let bad = vec![phobos::Param::Scalar { name: "n".into(), ty: "u7".into() }];
    assert!(
        matches!(phobos::Kernel::from_ptx("k", String::new(), "sm_90", [32, 1, 1], 0, bad), Err(Error::Launch(m)) if m.contains("'u7'"))
    );
}

/// The simulator runs the CTAs of a kernel whose CTAs do not talk on several threads with the
/// same outputs, counts and fault as on one: the fault reported is the lowest CTA's that faults
/// (CTA 20, which faults late, after a loop; CTA 40, fetched later, faults at once).
#[test]
fn the_simulator_gives_the_same_answers_on_any_number_of_threads() {
    let src = |faulty: bool| {
        format!(
            r#"gpu.module @m {{
  gpu.func @k(%y: memref<2048xf32> {{phobos.tensor = "y"}}) kernel attributes {{known_block_size = array<i32: 32, 1, 1>}} {{
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %c32 = arith.constant 32 : index
    %base = arith.muli %b, %c32 : index
    %i = arith.addi %base, %t : index
    %ii = arith.index_cast %i : index to i32
    %v = arith.sitofp %ii : i32 to f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c20 = arith.constant 20 : index
    %is20 = arith.cmpi eq, %b, %c20 : index
    %n = arith.select %is20, %c32, %c1 : index
    %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %v) -> (f32) {{
      %one = arith.constant 1.0 : f32
      %a = arith.addf %acc, %one : f32
      scf.yield %a : f32
    }}
    memref.store %s, %y[%i] : memref<2048xf32>
    %c40 = arith.constant 40 : index
    %is40 = arith.cmpi eq, %b, %c40 : index
    %bad = arith.ori %is20, %is40 : i1
    %faulty = arith.constant {faulty}
    %go = arith.andi %bad, %faulty : i1
    scf.if %go {{
      %c5000 = arith.constant 5000 : index
      %j = arith.addi %i, %c5000 : index
      memref.store %s, %y[%j] : memref<2048xf32>
    }}
    gpu.return
  }}
}}
"#
        )
    };
    let c = Compiler::new().unwrap();
    let run = |faulty: bool, threads: usize| {
        let k = c.compile_mlir(&src(faulty), "k.mlir", &Options::default()).unwrap_or_else(|e| panic!("{e}"));
        let mut y = vec![0u8; 2048 * 4];
        let sim = phobos::SimOptions { host_threads: threads, sms: 1, ..Default::default() };
        let opts = phobos::LaunchOptions::default().with_sim(sim);
        let r = k[0].launch_with(&Device::Simulator, [64, 1, 1], &mut [Arg::Buffer(&mut y)], &opts);
        (r.map(|r| r.stats.expect("simulator counts")), y)
    };
    let (one, y_one) = run(false, 1);
    let one = one.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(one.ctas, 64);
    for threads in [2, 3, 4] {
        let (many, y_many) = run(false, threads);
        assert_eq!(many.unwrap_or_else(|e| panic!("{e}")), one, "counts on {threads} threads");
        assert!(y_many == y_one, "outputs on {threads} threads");
    }
    let fault = |threads| match run(true, threads).0 {
        Err(Error::Fault(f)) => *f,
        other => panic!("expected a fault on {threads} threads, got {other:?}"),
    };
    let first = fault(1);
    assert_eq!((first.kind, first.cta), (phobos::FaultKind::OutOfBounds, [20, 0, 0]), "{first}");
    for threads in [2, 4] {
        let f = fault(threads);
        assert_eq!(
            (f.kind, f.cta, f.thread, &f.message, &f.loc),
            (first.kind, first.cta, first.thread, &first.message, &first.loc),
            "{threads} threads: {f}"
        );
    }
}

/// A `Compiler` made and dropped frees what it allocated, the IRDL modules of its dialects
/// included (they used to be kept for the process: 13-34 KiB a compiler). Measured with glibc's
/// count of allocated bytes in a process of its own (the suite's other tests allocate on other
/// threads).
#[test]
fn a_dropped_compiler_frees_its_memory() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", "embedding::compilers_made_and_dropped", "--nocapture", "--test-threads", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    let per: i64 = text
        .lines()
        .find_map(|l| l.split_once("bytes kept per compiler: ").map(|(_, v)| v))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no measurement: {text}"));
    assert!(per < 2048, "each Compiler keeps {per} bytes after it is dropped");
}

/// The measurement [`a_dropped_compiler_frees_its_memory`] runs alone.
#[test]
#[ignore = "run by a_dropped_compiler_frees_its_memory in a process of its own"]
fn compilers_made_and_dropped() {
    // SAFETY: mallinfo2 only reads the allocator's counters.
    let used = || unsafe { libc::mallinfo2().uordblks } as i64;
    // Warm-up: caches MLIR fills once per process.
    for _ in 0..20 {
        drop(Compiler::new().unwrap());
    }
    let before = used();
    for _ in 0..200 {
        drop(Compiler::new().unwrap());
    }
    println!("bytes kept per compiler: {}", (used() - before) / 200);
}

/// A launch locks a device buffer its kernel only reads shared: a second launch reading the same
/// input runs while the first does (it waited for the first to end when every lock was
/// exclusive); one that writes it still waits.
#[test]
fn launches_sharing_a_read_only_input_overlap() {
    let src = "@launch(32)\nkernel slow(X: tensor<f32>[N], Y: tensor<f32>[N]) {\n  var acc: f32 = 0.0\n  var i = 0\n  while i < 100000 {\n    acc = acc + X[0]\n    i = i + 1\n  }\n  Y[ctx.lane] = acc\n}\n@launch(32)\nkernel fast(X: tensor<f32>[N], Z: tensor<f32>[N]) {\n  Z[ctx.lane] = X[ctx.lane] * 2.0\n}\n";
    let c = Compiler::new().unwrap();
    let kernels = c.compile_phobos(src, "overlap.phobos", &Options::default()).unwrap();
    let (slow, fast) = (&kernels[0], &kernels[1]);
    assert_eq!((slow.writes(0), slow.writes(1)), (Some(false), Some(true)));
    let device = Device::Simulator;
    let x = device.upload(&[1.0f32; 32].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let (y, z) = (device.alloc(128).unwrap(), device.alloc(128).unwrap());
    let started = std::sync::Barrier::new(2);
    let (slow_end, fast_end) = std::thread::scope(|s| {
        let a = s.spawn(|| {
            started.wait();
            slow.launch(&device, [1, 1, 1], &mut [Arg::Device(&x), Arg::Device(&y), Arg::I64(32)]).unwrap();
            std::time::Instant::now()
        });
        let b = s.spawn(|| {
            started.wait();
            // The slow launch has the input by now (it takes about a second).
            std::thread::sleep(std::time::Duration::from_millis(100));
            fast.launch(&device, [1, 1, 1], &mut [Arg::Device(&x), Arg::Device(&z), Arg::I64(32)]).unwrap();
            std::time::Instant::now()
        });
        (a.join().unwrap(), b.join().unwrap())
    });
    assert!(fast_end < slow_end, "the launch reading the same input waited for the slow one");
    assert_eq!(floats(&z.read().unwrap()), vec![2.0; 32]);
    assert_eq!(floats(&y.read().unwrap()), vec![100000.0; 32]);
}

/// A scalar parameter of every type takes the typed argument of exactly its type (`Arg::F16`,
/// `Arg::Bool`, ...), whose value reaches the kernel bit for bit; any other is refused, naming
/// the one to pass.
#[test]
fn scalar_parameters_take_typed_arguments() {
    use phobos::half::{bf16, f16};
    let src = "@launch(32)\nkernel k(O: tensor<f64>[9], a: i8, b: i16, c: i32, d: i64, e: f16, f: bf16, g: f32, h: f64, z: bool) {\n  \
               if ctx.thread == 0 {\n    O[0] = f64(a)\n    O[1] = f64(b)\n    O[2] = f64(c)\n    O[3] = f64(d)\n    O[4] = f64(f32(e))\n    \
               O[5] = f64(f32(f))\n    O[6] = f64(g)\n    O[7] = h\n    if z { O[8] = 1.0 }\n  }\n}\n";
    let c = Compiler::new().unwrap();
    let kernel = c.compile_phobos(src, "scalars.phobos", &Options::default()).unwrap().remove(0);
    let mut out = vec![0u8; 9 * 8];
    let mut args = vec![
        Arg::Buffer(&mut out),
        Arg::I8(-5),
        Arg::I16(-300),
        Arg::I32(70_000),
        Arg::I64(-(1 << 40)),
        Arg::F16(f16::from_f32(0.5)),
        Arg::BF16(bf16::from_f32(-3.0)),
        Arg::F32(0.1),
        Arg::F64(1e300),
        Arg::Bool(true),
    ];
    kernel.launch(&Device::Simulator, [1, 1, 1], &mut args).unwrap();
    drop(args);
    let got: Vec<f64> = out.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(got, [-5.0, -300.0, 70_000.0, -((1u64 << 40) as f64), 0.5, -3.0, 0.1f32 as f64, 1e300, 1.0]);
    let mut out = vec![0u8; 9 * 8];
    let mut wrong = vec![
        Arg::Buffer(&mut out),
        Arg::I32(-5),
        Arg::I16(0),
        Arg::I32(0),
        Arg::I64(0),
        Arg::F16(f16::ZERO),
        Arg::BF16(bf16::ZERO),
        Arg::F32(0.0),
        Arg::F64(0.0),
        Arg::Bool(false),
    ];
    let err = kernel.launch(&Device::Simulator, [1, 1, 1], &mut wrong).unwrap_err();
    assert!(matches!(&err, Error::Launch(m) if m == "argument 1 (a) of k is i8: pass Arg::I8, got Arg::I32"), "{err}");
}

/// Moving an op before an op inside it (a cycle of ownership, undefined in MLIR) is a checked
/// error, not corrupted IR.
#[test]
#[should_panic(expected = "which is inside it")]
fn moving_an_op_into_its_own_region_is_refused() {
    let c = Compiler::new().unwrap();
    let src = "func.func @f(%n: index) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  scf.for %i = %c0 to %n step %c1 {\n    %x = arith.addi %i, %i : index\n  }\n  return\n}\n";
    let module = c.session().parse(src, "cycle.mlir").unwrap();
    let ops = module.op().walk();
    let for_op = *ops.iter().find(|o| o.is("scf.for")).unwrap();
    let inner = *ops.iter().find(|o| o.is("arith.addi")).unwrap();
    for_op.move_before(inner);
}

/// A value of an op erased through a rewriter, used again afterwards, is an error when the
/// rewriter finishes, and the op is kept: no use of freed IR.
#[test]
fn a_value_used_after_its_op_was_erased_is_an_error_not_a_dangling_use() {
    let c = Compiler::new().unwrap();
    let src = "func.func @f() -> index {\n  %a = arith.constant 1 : index\n  %b = arith.constant 2 : index\n  return %a : index\n}\n";
    let module = c.session().parse(src, "erased.mlir").unwrap();
    let ops = module.op().walk();
    let b = ops.iter().copied().find(|o| o.is("arith.constant") && o.to_string().contains("2 : index")).unwrap();
    let ret = ops.iter().copied().find(|o| o.is("func.return")).unwrap();
    // SAFETY: the rewriter is finished below, before the module (which outlives every handle).
    let rw = unsafe { phobos::ir::Rewriter::new() };
    rw.erase(b);
    let stale = b.result(0);
    phobos::ir::Builder::before(ret).bin("arith.addi", stale, stale);
    let err = rw.finish().unwrap_err();
    assert!(err.contains("a value of 'arith.constant' was used after the op was erased"), "{err}");
    // The module can still be printed: the used op was kept.
    assert!(module.op().to_string().contains("arith.addi"));
    // Erased and unused: destroyed without an error.
    let fresh = c.session().parse(src, "erased2.mlir").unwrap();
    let b = fresh.op().walk().into_iter().find(|o| o.is("arith.constant") && o.to_string().contains("2 : index")).unwrap();
    // SAFETY: as above.
    let rw = unsafe { phobos::ir::Rewriter::new() };
    rw.erase(b);
    assert_eq!(rw.finish(), Ok(()));
}

/// An op cloned (an `OwnedOp`) is not in a block: erasing it through a handle it lent, then
/// inserting it, would hand MLIR a destroyed op. The erase is refused.
#[test]
#[should_panic(expected = "which is in no block")]
fn erasing_an_op_never_inserted_is_refused() {
    let c = Compiler::new().unwrap();
    let module = c.session().parse("func.func @f() {\n  %a = arith.constant 1 : index\n  return\n}\n", "owned.mlir").unwrap();
    let constant = module.op().walk().into_iter().find(|o| o.is("arith.constant")).unwrap();
    let copy = constant.clone_op();
    // SAFETY: the rewriter is dropped before the module.
    let rw = unsafe { phobos::ir::Rewriter::new() };
    rw.erase(copy.op());
}

/// Handles carry one lifetime brand, so values of two modules, or of two contexts, type-check
/// together: building an op of one with a value of the other is a checked error.
#[test]
fn values_of_another_module_or_context_are_refused() {
    let src = "func.func @f() -> index {\n  %a = arith.constant 1 : index\n  return %a : index\n}\n";
    let c = Compiler::new().unwrap();
    let one = c.session().parse(src, "one.mlir").unwrap();
    let two = c.session().parse(src, "two.mlir").unwrap();
    fn find<'m>(m: &'m phobos::OwnedModule<'_>, name: &str) -> phobos::ir::Op<'m> {
        m.op().walk().into_iter().find(|o| o.is(name)).unwrap()
    }
    let value_of = |m| find(m, "arith.constant").result(0);
    let ret_of = |m| find(m, "func.return");
    // The two handles' lifetimes shrink to one: the compiler cannot tell the modules apart.
    fn build<'a>(at: phobos::ir::Op<'a>, v: phobos::Val<'a>) -> std::thread::Result<phobos::Val<'a>> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| phobos::ir::Builder::before(at).bin("arith.addi", v, v)))
    }
    let err = build(ret_of(&two), value_of(&one)).unwrap_err();
    assert!(err.downcast_ref::<String>().unwrap().contains("a value of another module"));
    // The same module: fine.
    assert!(build(ret_of(&one), value_of(&one)).is_ok());
    let other = Compiler::new().unwrap();
    let three = other.session().parse(src, "three.mlir").unwrap();
    let err = build(ret_of(&three), value_of(&one)).unwrap_err();
    assert!(err.downcast_ref::<String>().unwrap().contains("of another MLIR context"));
}
