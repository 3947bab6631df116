//! `Compiler::compile_program` and `Program::run`: a `.phobos` source compiled whole, arrays
//! bound by name and shape as `phobos run` binds them (what the Python package launches with),
//! and GPU memory of another library refused off a GPU.

use super::workspace_root;
use phobos::{Array, Compiler, Device, Dtype, Error, ForeignBuffer, LaunchOptions, Options};
use std::collections::BTreeMap;

fn f32_array(shape: &[u64], v: &[f32]) -> Array {
    Array { dtype: Dtype::F32, shape: shape.to_vec(), data: v.iter().flat_map(|x| x.to_le_bytes()).collect() }
}

fn floats(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn source(rel: &str) -> String {
    std::fs::read_to_string(workspace_root().join(rel)).unwrap()
}

#[test]
fn a_program_runs_its_kernels_by_name_with_shapes_binding_dimensions() {
    let c = Compiler::new().unwrap();
    let p = c.compile_program(&source("examples/tutorials/matmul.phobos"), "matmul.phobos", &Options::default()).unwrap();
    assert_eq!(p.kernel_names(), ["matmul", "matmul_f16", "matmul_4x4"]);
    assert_eq!(p.entries.len(), 3);
    assert!(p.ir.stages.iter().any(|(s, _)| s.name() == "simt") && !p.ir.passes.is_empty());
    let (m, n, k) = (5usize, 7usize, 3usize);
    let a: Vec<f32> = (0..m * k).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..k * n).map(|i| 1.0 - i as f32 * 0.25).collect();
    let arrays = vec![
        ("A".to_string(), f32_array(&[m as u64, k as u64], &a)),
        ("B".to_string(), f32_array(&[k as u64, n as u64], &b)),
        ("C".to_string(), f32_array(&[m as u64, n as u64], &vec![f32::NAN; m * n])),
    ];
    let ran = p.run("matmul", arrays, &BTreeMap::new(), [1, 1, 1], &Device::Simulator, &LaunchOptions::default()).unwrap();
    assert_eq!(ran.entry, "matmul");
    assert_eq!(ran.dims, BTreeMap::from([("M".into(), 5), ("N".into(), 7), ("K".into(), 3)]));
    let c_out = floats(&ran.outputs[2].1.data);
    for i in 0..m {
        for j in 0..n {
            let want: f32 = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
            assert!((c_out[i * n + j] - want).abs() < 1e-5, "C[{i},{j}] = {} want {want}", c_out[i * n + j]);
        }
    }
}

#[test]
fn a_program_picks_the_autotune_entry_and_reports_binding_errors() {
    let c = Compiler::new().unwrap();
    let p = c.compile_program(&source("examples/staged_matvec.phobos"), "staged_matvec.phobos", &Options::default()).unwrap();
    let arrays = |k: u64| {
        vec![
            ("W".to_string(), f32_array(&[4, k], &vec![1.0; 4 * k as usize])),
            ("x".to_string(), f32_array(&[1, k], &vec![2.0; k as usize])),
            ("y".to_string(), f32_array(&[1, 4], &[0.0; 4])),
        ]
    };
    let run = |a| p.run("staged_matvec", a, &BTreeMap::new(), [1, 1, 1], &Device::Simulator, &LaunchOptions::default());
    let ran = run(arrays(256)).unwrap();
    assert_eq!(ran.entry, "staged_matvec__K256");
    assert_eq!(floats(&ran.outputs[2].1.data), [512.0; 4]);
    match run(arrays(128)) {
        Err(Error::Launch(m)) => assert!(m.contains("@autotune") && m.contains("K = 128"), "{m}"),
        other => panic!("{other:?}"),
    }
    let mut bad = arrays(256);
    bad[1].1.dtype = Dtype::I32;
    let mut twice = arrays(256);
    twice[1].0 = "W".into();
    match run(twice) {
        Err(Error::Launch(m)) => assert!(m.contains("argument 'W' is given twice"), "{m}"),
        other => panic!("{other:?}"),
    }
    match run(bad) {
        Err(Error::Launch(m)) => assert!(m.contains("x is tensor<f32>") && m.contains("argument 'x' holds int32"), "{m}"),
        other => panic!("{other:?}"),
    }
    match p.run("nope", arrays(256), &BTreeMap::new(), [1, 1, 1], &Device::Simulator, &LaunchOptions::default()) {
        Err(Error::Launch(m)) => assert!(m.contains("no kernel named 'nope'") && m.contains("staged_matvec"), "{m}"),
        other => panic!("{other:?}"),
    }
    // Compile-time defines fix a dimension, as `phobos compile -D`.
    let opts = Options::default().with_define("N", 4);
    let fixed = c.compile_program(&source("examples/staged_matvec.phobos"), "staged_matvec.phobos", &opts).unwrap();
    assert_eq!(fixed.entries[0].fixed.get("N"), Some(&4));
    // A compile error is located in the source.
    match c.compile_program("@launch(32)\nkernel k(X: tensor<f32>[N]) {\n  X[0] = y\n}\n", "k.phobos", &Options::default()) {
        Err(Error::Compile(d)) => {
            assert_eq!(d.first_error().and_then(|e| e.loc.as_ref()).map(|l| (l.line, l.file.as_str())), Some((3, "k.phobos")))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn foreign_gpu_memory_is_refused_off_a_gpu_before_anything_runs() {
    let c = Compiler::new().unwrap();
    let p = c.compile_program(&source("examples/tutorials/vector_add.phobos"), "vector_add.phobos", &Options::default()).unwrap();
    // SAFETY: never dereferenced: the simulator refuses GPU memory before any launch.
    let buf = unsafe { ForeignBuffer::new(0x1000, 64 * 4) };
    let tensors = ["X", "Y", "Z"].iter().map(|n| (n.to_string(), Dtype::F32, vec![64u64], buf)).collect();
    match p.run_foreign("vector_add", tensors, Vec::new(), &BTreeMap::new(), [1, 1, 1], Some(&Device::Simulator), &LaunchOptions::default())
    {
        Err(Error::Launch(m)) => assert!(m.contains("runs on a GPU only"), "{m}"),
        other => panic!("{other:?}"),
    }
    // A Phobos tensor is 16-byte aligned: checked before the device is.
    // SAFETY: never dereferenced: refused before any launch.
    let odd = unsafe { ForeignBuffer::new(0x1004, 64 * 4) };
    let tensors = vec![
        ("X".to_string(), Dtype::F32, vec![64u64], odd),
        ("Y".into(), Dtype::F32, vec![64], buf),
        ("Z".into(), Dtype::F32, vec![64], buf),
    ];
    match p.run_foreign("vector_add", tensors, Vec::new(), &BTreeMap::new(), [1, 1, 1], Some(&Device::Simulator), &LaunchOptions::default())
    {
        Err(Error::Launch(m)) => assert!(m.contains("argument 0 (X) of vector_add: address 0x1004 is not 16-byte aligned"), "{m}"),
        other => panic!("{other:?}"),
    }
    let twice = vec![("X".to_string(), Dtype::F32, vec![64u64], buf), ("X".into(), Dtype::F32, vec![64], buf)];
    match p.run_foreign("vector_add", twice, Vec::new(), &BTreeMap::new(), [1, 1, 1], Some(&Device::Simulator), &LaunchOptions::default()) {
        Err(Error::Launch(m)) => assert!(m.contains("argument 'X' is given twice"), "{m}"),
        other => panic!("{other:?}"),
    }
    // The length must be the shape's bytes.
    let short = vec![("X".to_string(), Dtype::F32, vec![65u64], buf)];
    match p.run_foreign("vector_add", short, Vec::new(), &BTreeMap::new(), [1, 1, 1], Some(&Device::Simulator), &LaunchOptions::default()) {
        Err(Error::Launch(m)) => assert!(m.contains("256 bytes for a shape of [65]"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn contiguity_is_the_runtime_rule_for_every_array() {
    use phobos::program::check_contiguous;
    assert!(check_contiguous("a", Dtype::F32, &[2, 3], &[12, 4]).is_ok());
    // Extents of 1 may have any stride (NumPy and DLPack allow it).
    assert!(check_contiguous("a", Dtype::F32, &[1, 3], &[999, 4]).is_ok());
    let e = check_contiguous("a", Dtype::F32, &[2, 3], &[4, 8]).unwrap_err();
    assert!(e.contains("argument 'a' is not row-major and contiguous (shape (2, 3), byte strides (4, 8))"), "{e}");
    assert!(check_contiguous("a", Dtype::F64, &[4], &[16]).is_err());
    assert!(check_contiguous("a", Dtype::F64, &[4], &[8, 8]).is_err());
}

/// GPU memory that is never dereferenced: the launches refuse it (on the simulator, or by a
/// check before any launch).
fn fake(ptr: u64, len: usize) -> ForeignBuffer {
    // SAFETY: never dereferenced (above).
    unsafe { ForeignBuffer::new(ptr, len) }
}

#[test]
fn strided_views_run_the_twin_and_are_checked_before_the_gpu() {
    use phobos::program::view_span;
    let c = Compiler::new().unwrap();
    let src = "@launch(32)\nkernel k(X: tensor<f32>[M, N], Y: tensor<f32>[M, N]) {\n  Y[ctx.block.x, ctx.thread] = X[ctx.block.x, ctx.thread] * 2.0\n}\n";
    let p = c.compile_program(src, "k.phobos", &Options::default().with_strided(true)).unwrap();
    assert!(p.entries.iter().any(|e| e.name == "k__strided" && e.strided));
    // The twin is no entry the dimensions pick.
    assert_eq!(p.signature("k").unwrap().entries.len(), 1);
    let run = |p: &phobos::Program, x: (Vec<i64>, ForeignBuffer), y: (Vec<i64>, ForeignBuffer)| {
        let tensors = vec![
            ("X".to_string(), Dtype::F32, vec![4u64, 8], Some(x.0), x.1),
            ("Y".to_string(), Dtype::F32, vec![4u64, 8], Some(y.0), y.1),
        ];
        match p.run_foreign_views(
            "k",
            tensors,
            Vec::new(),
            &BTreeMap::new(),
            [4, 1, 1],
            Some(&Device::Simulator),
            &LaunchOptions::default(),
        ) {
            Err(Error::Launch(m)) => m,
            other => panic!("{other:?}"),
        }
    };
    // X is the transpose of an 8x4 array (byte strides 4, 16); Y is row-major at another address.
    let (lo, len) = view_span(&[4, 8], &[4, 16], 4);
    assert_eq!((lo, len), (0, 128));
    let xt = fake(0x10000, len as usize);
    let y = fake(0x20000, 128);
    // Every check passed: the twin is what would run, and only the device is wrong.
    let m = run(&p, (vec![4, 16], xt), (vec![32, 4], y));
    assert!(m.contains("(X) of k__strided: GPU memory of another library runs on a GPU only"), "{m}");
    // A twin's tensors are aligned to their elements only.
    let odd = fake(0x10002, len as usize);
    let m = run(&p, (vec![4, 16], odd), (vec![32, 4], y));
    assert!(m.contains("address 0x10002 is not 4-byte aligned"), "{m}");
    // A negative stride: the first element lies inside the memory.
    let (lo, len) = view_span(&[4, 8], &[-32, 4], 4);
    assert_eq!((lo, len), (-96, 128));
    let rev = fake(0x10000, len as usize).with_first(96);
    let m = run(&p, (vec![-32, 4], rev), (vec![32, 4], y));
    assert!(m.contains("runs on a GPU only"), "{m}");
    // Memory too short for what the strides reach.
    let short = fake(0x10000, 64);
    let m = run(&p, (vec![4, 16], short), (vec![32, 4], y));
    assert!(m.contains("the view's element strides (1, 4) reach elements 0 to 31, but the buffer holds 16"), "{m}");
    // A written view with a zero stride, or sharing memory with another view.
    let m = run(&p, (vec![4, 16], xt), (vec![0, 4], fake(0x20000, 32)));
    assert!(m.contains("argument 'Y': the kernel writes it, but its view repeats elements (a zero stride)"), "{m}");
    let m = run(&p, (vec![4, 16], xt), (vec![4, 16], fake(0x10000, 128)));
    assert!(m.contains("argument 'Y': the kernel writes it, but its memory overlaps argument 'X'"), "{m}");
    let m = run(&p, (vec![4, 18], xt), (vec![32, 4], y));
    assert!(m.contains("byte stride 18 is not a multiple of its 4-byte elements"), "{m}");
    // Compiled without twins: the message says how to get one.
    let plain = c.compile_program(src, "k.phobos", &Options::default()).unwrap();
    let m = run(&plain, (vec![4, 16], xt), (vec![32, 4], y));
    assert!(m.contains("argument 'X' is a strided view, and k has no strided entry (a kernel that copies tiles"), "{m}");
    // Row-major views run the entry itself.
    let m = run(&p, (vec![32, 4], fake(0x10000, 128)), (vec![32, 4], y));
    assert!(m.contains("(X) of k: GPU memory"), "{m}");
}

#[test]
fn the_autotuner_searches_meta_parameters_with_a_grid_per_candidate() {
    let c = Compiler::new().unwrap();
    let src = "@autotune(BLOCK in [32, 64], VEC in [1, 2])\n@launch(BLOCK)\nkernel scale(X: tensor<f32>[N], Y: tensor<f32>[N]) {\n  let base = (ctx.block.x * BLOCK + ctx.thread) * VEC\n  for k in range(0, VEC) {\n    if base + k < N { Y[base + k] = X[base + k] * 2.0 }\n  }\n}\n";
    let p = c.compile_program(src, "scale.phobos", &Options::default()).unwrap();
    assert_eq!(p.signature("scale").unwrap().meta.get("BLOCK"), Some(&vec![32, 64]));
    let x: Vec<f32> = (0..300).map(|i| i as f32).collect();
    let arrays = || vec![("X".to_string(), f32_array(&[300], &x)), ("Y".to_string(), f32_array(&[300], &[0.0; 300]))];
    let seen = std::cell::RefCell::new(Vec::new());
    let grid = |m: &BTreeMap<String, i64>| {
        seen.borrow_mut().push((m["BLOCK"], m["VEC"], m["N"]));
        let per = (m["BLOCK"] * m["VEC"]) as u32;
        Ok([300u32.div_ceil(per), 1, 1])
    };
    let ran = p.run_tuned("scale", arrays(), &BTreeMap::new(), &grid, &Device::Simulator, &LaunchOptions::default()).unwrap();
    assert_eq!(floats(&ran.outputs[1].1.data), x.iter().map(|v| v * 2.0).collect::<Vec<_>>());
    // Every candidate got its own grid, then the chosen one ran.
    let mut candidates: Vec<_> = seen.borrow()[..4].to_vec();
    candidates.sort();
    assert_eq!(candidates, vec![(32, 1, 300), (32, 2, 300), (64, 1, 300), (64, 2, 300)]);
    assert_eq!(ran.entry, format!("scale__BLOCK{}_VEC{}", ran.meta["BLOCK"], ran.meta["VEC"]));
    // The choice is kept for these dimensions: no second search.
    seen.borrow_mut().clear();
    let again = p.run_tuned("scale", arrays(), &BTreeMap::new(), &grid, &Device::Simulator, &LaunchOptions::default()).unwrap();
    assert_eq!((again.entry, seen.borrow().len()), (ran.entry, 1));
}
