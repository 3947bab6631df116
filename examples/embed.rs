//! Embedding Phobos in another frontend: build a kernel in code with the typed builders (no
//! `.phobos` source, no MLIR text, no op-name string), compile it, and run it on the simulator
//! (or a GPU with `--gpu`).
//!
//! The kernel: 128 threads read x through a layout (thread t reads element (t mod 8)·16 + t/8,
//! the transpose of an 8×16 tile), sum each 8-lane piece with `lane.reduce`, and write the sums.
//!
//! Run: `cargo run --example embed [-- --gpu]`.

use phobos::build::{self, Dim};
use phobos::dialects::{lane, layout};
use phobos::ir::Builder;
use phobos::{Arg, Compiler, Device, Error, KernelBuilder, Options, ParamType};

/// Builds, compiles and runs the kernel on `device`; returns the output and the reference.
pub fn run(device: &Device) -> Result<(Vec<f32>, Vec<f32>), Error> {
    let compiler = Compiler::new()?;
    let k = KernelBuilder::new(
        &compiler,
        "transpose_sum8",
        128,
        &[("x", ParamType::Buffer("f32".into())), ("y", ParamType::Buffer("f32".into()))],
    )?;
    let (x, y) = (k.args()[0], k.args()[1]);
    let b: Builder = k.builder();
    let t = build::thread_id(b, Dim::X);
    // (8,16):(16,1) maps t = i + 8j to 16i + j: a bijection of [0, 128) into the logical tile.
    let at = layout::build::apply(b, "(8,16):(16,1)", &[t], None, Some(phobos::layout::Space::Logical));
    let v = build::load(b, x, &[at])?;
    let s = lane::build::reduce(b, lane::Kind::Sum, v, 8);
    build::store(b, s, y, &[t])?;
    let module = k.finish(&compiler)?;

    let kernels = compiler.compile_module(&module, &Options::default())?;
    let kernel = &kernels[0];
    let xs: Vec<f32> = (0..128).map(|i| (i % 13) as f32 - 6.0).collect();
    let mut xb: Vec<u8> = xs.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut yb = vec![0u8; 128 * 4];
    kernel.launch(device, [1, 1, 1], &mut [Arg::Buffer(&mut xb), Arg::Buffer(&mut yb)])?;
    let got: Vec<f32> = yb.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
    // The reference: lane t's piece is lanes 8⌊t/8⌋ .. +7, each reading x[(l mod 8)·16 + l/8].
    let want: Vec<f32> = (0..128).map(|t| (t / 8 * 8..t / 8 * 8 + 8).map(|l| xs[(l % 8) * 16 + l / 8]).sum()).collect();
    Ok((got, want))
}

#[allow(dead_code)] // the test suite calls `run`, not `main`
fn main() {
    let device = if std::env::args().any(|a| a == "--gpu") { Device::cuda() } else { Ok(Device::Simulator) };
    let result = device.and_then(|d| {
        println!("device: {}", d.name());
        run(&d)
    });
    match result {
        Ok((got, want)) => {
            let bad = got.iter().zip(&want).filter(|(g, w)| (*g - *w).abs() > 1e-4).count();
            println!("y[0..8] = {:?}", &got[..8]);
            println!("{} of 128 outputs match the CPU reference", 128 - bad);
            std::process::exit(if bad == 0 { 0 } else { 1 });
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
