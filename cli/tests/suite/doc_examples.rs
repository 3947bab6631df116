//! The Rust examples of `docs/embedding.md`, compiled and run: the page's blocks in order, as
//! one program (each block uses what the ones before it made). A block changed on the page and
//! not here fails `embedding_md_blocks_are_the_tested_ones`; one that no longer compiles or runs
//! fails the build or `embedding_md_runs`.

use super::workspace_root;

/// The page's `rust` blocks, each with its lines' indentation removed.
fn blocks(page: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(start) = rest.find("```rust\n") {
        let body = &rest[start + 8..];
        let end = body.find("```").expect("a closed block");
        out.push(body[..end].lines().map(str::trim).collect::<Vec<_>>().join("\n").trim().to_string());
        rest = &body[end + 3..];
    }
    out
}

#[test]
fn embedding_md_blocks_are_the_tested_ones() {
    let page = std::fs::read_to_string(workspace_root().join("docs/embedding.md")).unwrap();
    let here = include_str!("doc_examples.rs");
    let start = here.find("// docs/embedding.md, block 1").expect("the blocks are below");
    let tested: String = here[start..].lines().map(str::trim).collect::<Vec<_>>().join("\n");
    let found = blocks(&page);
    assert!(found.len() >= 3, "the page has {} rust blocks", found.len());
    for (i, b) in found.iter().enumerate() {
        let marker = format!("// docs/embedding.md, block {}\n", i + 1);
        assert!(tested.contains(&format!("{marker}{b}")), "block {} of docs/embedding.md differs from the one tested here:\n{b}", i + 1);
    }
}

/// Every complete kernel a page of the docs shows (a fenced block with `@launch` and `kernel`,
/// and no `...` left for the reader) compiles as written.
#[test]
fn the_docs_kernel_examples_compile() {
    let c = phobos::Compiler::new().unwrap();
    let mut compiled = 0;
    let docs = workspace_root().join("docs");
    let mut pages: Vec<_> = std::fs::read_dir(&docs).unwrap().flatten().map(|e| e.path()).collect();
    pages.retain(|p| p.extension().is_some_and(|e| e == "md"));
    pages.push(workspace_root().join("README.md"));
    pages.push(workspace_root().join("python/README.md"));
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        for (i, block) in text.split("```").enumerate().filter(|(i, _)| i % 2 == 1) {
            let body = block.split_once('\n').map_or("", |(_, b)| b);
            if !body.contains("@launch") || !body.contains("kernel ") || body.contains("...") || body.contains("import ") {
                continue;
            }
            let name = format!("{}.block{i}.phobos", page.file_stem().unwrap().to_string_lossy());
            if let Err(e) = c.compile_program(body, &name, &phobos::Options::default()) {
                panic!("the kernel in {} (block {i}) does not compile:\n{body}\n{e}", page.display());
            }
            compiled += 1;
        }
    }
    assert!(compiled >= 1, "{compiled} kernels found in the docs; the extraction is broken");
}

#[test]
fn embedding_md_runs() {
    page().unwrap_or_else(|e| panic!("{e}"));
}

// Verbatim as on the page: rustfmt would reorder its imports and rewrap its lines.
#[rustfmt::skip]
#[allow(unused_variables)]
fn page() -> Result<(), Box<dyn std::error::Error>> {
    // docs/embedding.md, block 1
    use phobos::build::{self, arith, compare, constant, Arith, Cmp, Dim, Scalar};
    use phobos::{Arg, Compiler, Device, KernelBuilder, Options, ParamType, Stage};
    use phobos::dialects::lane;

    let compiler = Compiler::new()?;
    let params = [("x", ParamType::Buffer("f32".into())), ("y", ParamType::Buffer("f32".into())),
                  ("rows", ParamType::Scalar("index".into())), ("cols", ParamType::Scalar("index".into()))];
    let k = KernelBuilder::with_block(&compiler, "row_max", [16, 8, 1], &params)?;
    let [x, y, rows, cols] = k.args()[..] else { unreachable!() };
    let b = k.builder_at(file!(), line!(), column!());   // ops located here: errors and faults point at it
    let lane_id = build::thread_id(b, Dim::X);
    let first_row = arith(b, Arith::Mul, build::block_id(b, Dim::X), constant(b, Scalar::Index, 8.0))?;
    let row = arith(b, Arith::Add, first_row, build::thread_id(b, Dim::Y))?;
    let inside = compare(b, Cmp::Lt, row, rows)?;
    let ub = build::select(b, inside, cols, constant(b, Scalar::Index, 0.0))?;
    let lowest = constant(b, Scalar::F32, f64::NEG_INFINITY);
    let start = arith(b, Arith::Mul, row, cols)?;
    let partial = build::for_loop(b, lane_id, ub, constant(b, Scalar::Index, 16.0), &[lowest], |lb, j, acc| {
        let v = build::load(lb, x, &[arith(lb, Arith::Add, start, j)?])?;   // bodies return Result: `?` works
        Ok(vec![arith(lb, Arith::Max, acc[0], v)?])   // arith.maximumf: the operands are f32
    })?;
    let m = lane::build::reduce(b, lane::Kind::Max, partial[0], 16);
    let writes = arith(b, Arith::And, compare(b, Cmp::Eq, lane_id, constant(b, Scalar::Index, 0.0))?, inside)?;
    build::if_then(b, writes, |ib| build::store(ib, m, y, &[row]))?;
    let module = k.finish(&compiler)?;       // verified: IRDL and the Rust verifiers

    // docs/embedding.md, block 2
    let compiled = compiler.compile_staged(&module, &Options::default())?;   // kernels + IR
    for (stage, text) in &compiled.ir.stages { /* L1, SIMT, LLVM, PTX module text */ }
    for p in &compiled.ir.passes { /* p.pass (flag), p.stage, p.ir: the module after each pass */ }
    let ptx = compiled.ir.text(Stage::Ptx);
    for (part, time) in &compiled.timings { /* each Phobos pass, then its stage (simt, llvm, ptx) */ }
    // Or stop at any stage, the module left as it was (Stage::Cubin also runs ptxas when found):
    let staged = compiler.lower(&module, Stage::Llvm, /* every_pass */ true, &Options::default())?;

    // docs/embedding.md, block 3
    let (rows, cols) = (203i64, 45i64);                 // row_max: 8 rows of 16 lanes per CTA
    let matrix: Vec<f32> = (0..rows * cols).map(|i| ((i * 37) % 101) as f32).collect();
    let matrix_bytes: Vec<u8> = matrix.iter().flat_map(|v| v.to_le_bytes()).collect();
    let grid = [(rows as u32).div_ceil(8), 1, 1];
    let device = Device::Simulator;                     // or Device::cuda()?, or Device::best()
    let x = device.upload(&matrix_bytes)?;              // a DeviceBuffer: lives across launches
    let y = device.alloc(rows as usize * 4)?;
    let kernel = &compiled.kernels[0];
    kernel.launch(&device, grid, &mut [Arg::Device(&x), Arg::Device(&y), Arg::I64(rows), Arg::I64(cols)])?;
    let maxima = y.read()?;                             // read back on demand: 4 bytes a row
    assert_eq!(&maxima[..4], &matrix[..45].iter().cloned().fold(f32::MIN, f32::max).to_le_bytes());
    let new_matrix_bytes = vec![0u8; matrix_bytes.len()];
    x.write(&new_matrix_bytes)?;                        // same buffer, new contents
    let stream = device.stream()?;
    kernel.launch_async(&stream, grid, &mut [Arg::Device(&x), Arg::Device(&y), Arg::I64(rows), Arg::I64(cols)])?;
    let done = stream.record()?;                        // Event: synchronize(), elapsed_ms(&later)
    done.synchronize()?;
    Ok(())
}
